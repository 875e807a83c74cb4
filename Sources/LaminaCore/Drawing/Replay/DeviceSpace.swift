import Foundation
import LaminaRaster
import LaminaGeometry

/// The map from a recording's device space to pixmap pixels, and the shapes
/// of drawing commands as contours in pixels.
///
/// A `DrawingRecording` uses Core Graphics' bitmap device space: origin at
/// the bottom-left corner, y up. A `Pixmap` has row 0 at the top, so device
/// point (x, y) is pixel point (x, height − y). Reflecting reverses the
/// direction of every contour, which neither fill rule minds (both look at
/// the magnitude of the winding number).
struct DeviceSpace {
    /// The bitmap's height in pixels.
    let height: Int
    /// The largest distance, in device pixels, between a curve and the
    /// chords that stand for it.
    let tolerance: CGFloat

    /// Device space to pixmap pixels.
    var toPixels: CGAffineTransform {
        CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: CGFloat(height))
    }

    /// The contours that fill a device-space path, in pixels. Open subpaths
    /// are closed, as filling closes them.
    func fillContours(of path: PathData) -> [[CGPoint]] {
        let flip = toPixels
        return path.flattened(tolerance: tolerance).map { polyline in
            polyline.points.map { $0.applying(flip) }
        }
    }

    /// The outline of a stroke, in pixels, to fill with the nonzero rule.
    ///
    /// The stroke is built in the user space of the command, as Core
    /// Graphics strokes (a CTM that stretches x widens vertical lines only),
    /// at the tolerance that keeps it within `tolerance` device pixels after
    /// the CTM: the CTM stretches no distance by more than its largest
    /// singular value. A line width of 0 is a hairline: one device pixel
    /// wide whatever the CTM (see `hairlineContours`).
    func strokeContours(of command: StrokeCommand) -> [[CGPoint]] {
        let ctm = command.transform
        let stretch = ctm.largestStretch
        guard stretch > 0, stretch.isFinite else { return [] }
        if command.style.lineWidth == 0 { return hairlineContours(of: command) }
        let style = command.style
        let toPixels = ctm.concatenating(self.toPixels)
        return command.path.strokeOutline(style: style, tolerance: tolerance / stretch).map { contour in
            contour.map { $0.applying(toPixels) }
        }
    }

    /// The outline of a hairline: the path taken to device space and stroked
    /// one pixel wide there, the dash lengths scaled by the CTM's mean
    /// stretch (the square root of its area scale), which is exact for the
    /// rotations and uniform scales that contexts mostly carry.
    private func hairlineContours(of command: StrokeCommand) -> [[CGPoint]] {
        let ctm = command.transform
        let meanStretch = abs(ctm.determinant).squareRoot()
        var style = command.style
        style.lineWidth = 1
        style.dashPattern = style.dashPattern.map { $0 * meanStretch }
        style.dashPhase *= meanStretch
        let flip = toPixels
        return command.path.applying(ctm).strokeOutline(style: style, tolerance: tolerance).map { contour in
            contour.map { $0.applying(flip) }
        }
    }
}

extension CGAffineTransform {
    /// The most this transform lengthens any distance: the largest singular
    /// value of its linear part.
    var largestStretch: CGFloat {
        // σ² are the eigenvalues of MᵀM: (s ± √(s² − 4·det²)) / 2, s = a² + b² + c² + d².
        let s = a * a + b * b + c * c + d * d
        let det = determinant
        let root = max(s * s - 4 * det * det, 0).squareRoot()
        return ((s + root) / 2).squareRoot()
    }
}
