// LaminaRender: the render plan. Everything that decides what appears (matrices,
// flattening, depth order, culling, offscreen passes) lives here once, for
// every backend; backends execute its draw commands without knowing layers.
@_exported import LaminaCore
