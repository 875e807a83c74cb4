import Foundation

/// The part of a `CGContext` that `saveGState()` saves and
/// `restoreGState()` brings back. The current path is not part of it, as in
/// Core Graphics.
struct GraphicsState {
    /// User space to device space.
    var ctm: CGAffineTransform = .identity
    var fillColor: CGColor = CGColor.black
    var strokeColor: CGColor = CGColor.black
    var stroke = StrokeStyle()
    /// Multiplies every colour and image drawn.
    var alpha: CGFloat = 1
    var clip: DrawingClip = .none
    var interpolationQuality: CGInterpolationQuality = .default
    var shouldAntialias = true
}
