// Lamina: the public API in one import.
@_exported import LaminaGeometry
@_exported import LaminaCore
@_exported import LaminaPNG
@_exported import LaminaScene
@_exported import LaminaRender
@_exported import LaminaGL
@_exported import LaminaCPU
@_exported import LaminaText
