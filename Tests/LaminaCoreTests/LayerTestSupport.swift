// Helpers shared by the Layer*, Context* and View* test files.
import Foundation
@testable import LaminaCore

/// Whether two points agree to `tolerance` in both coordinates.
func isNear(_ a: CGPoint, _ b: CGPoint, _ tolerance: CGFloat = 1e-9) -> Bool {
    abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
}

/// Whether two rectangles agree to `tolerance` in origin and size.
func isNear(_ a: CGRect, _ b: CGRect, _ tolerance: CGFloat = 1e-9) -> Bool {
    isNear(a.origin, b.origin, tolerance)
        && abs(a.width - b.width) <= tolerance && abs(a.height - b.height) <= tolerance
}

/// A layer with the given frame (identity transform) and optional name.
func makeLayer(_ frame: CGRect, name: String? = nil) -> CALayer {
    let layer = CALayer()
    layer.frame = frame
    layer.name = name
    return layer
}

/// A 1x1 opaque image for `contents`.
func makeTestImage(_ pixel: CGImage.Pixel = .init(red: 255, green: 0, blue: 0, alpha: 255)) -> CGImage? {
    try? CGImage(width: 1, height: 1, filledWith: pixel)
}
