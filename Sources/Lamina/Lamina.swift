// Lamina: the public API in one import. Foundation comes with it (CGRect,
// CGPoint, CGFloat...), as it comes with QuartzCore on Apple's systems, so a
// ported listing needs `import Lamina` and nothing else.
@_exported import Foundation
@_exported import LaminaGeometry
@_exported import LaminaCore
@_exported import LaminaPNG
@_exported import LaminaWebP
@_exported import LaminaJSON
@_exported import LaminaScene
@_exported import LaminaCAML
@_exported import LaminaLottie
@_exported import LaminaRender
@_exported import LaminaGL
@_exported import LaminaCPU
@_exported import LaminaText

/// Lamina's version: `lamina --version`, the render server's banner, and part
/// of every picture's ETag (a new version may draw differently).
public let laminaVersion = "0.1.0"
