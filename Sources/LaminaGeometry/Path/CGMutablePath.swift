import Foundation

/// A path that can be built up, with Core Graphics' methods. Every method
/// takes an optional `transform` applied to what it adds (not to what the
/// path holds already). Adding a segment with no current point does
/// nothing, as in Core Graphics (which logs "no current point").
public final class CGMutablePath: CGPath, @unchecked Sendable {
    /// Starts a new subpath at `point`.
    public func move(to point: CGPoint, transform: CGAffineTransform = .identity) {
        withMutableData { $0.move(to: point.applying(transform)) }
    }

    /// Adds a line from the current point to `point`.
    public func addLine(to point: CGPoint, transform: CGAffineTransform = .identity) {
        withMutableData { $0.addLine(to: point.applying(transform)) }
    }

    /// Starts a subpath at the first point and adds lines through the rest.
    public func addLines(between points: [CGPoint], transform: CGAffineTransform = .identity) {
        withMutableData { $0.addLines(between: points, transform: transform) }
    }

    /// Adds a quadratic Bézier from the current point to `end`.
    public func addQuadCurve(to end: CGPoint, control: CGPoint, transform: CGAffineTransform = .identity) {
        withMutableData { $0.addQuadCurve(to: end.applying(transform), control: control.applying(transform)) }
    }

    /// Adds a cubic Bézier from the current point to `end`.
    public func addCurve(
        to end: CGPoint, control1: CGPoint, control2: CGPoint, transform: CGAffineTransform = .identity
    ) {
        withMutableData {
            $0.addCurve(
                to: end.applying(transform), control1: control1.applying(transform),
                control2: control2.applying(transform))
        }
    }

    /// Adds an arc of a circle. Core Graphics' direction: `clockwise == true`
    /// sweeps with *decreasing* angle, which looks counterclockwise on an iOS
    /// screen (y down). See `PathData.addArc(center:radius:startAngle:
    /// endAngle:clockwise:transform:)` for the full rules.
    public func addArc(
        center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat,
        clockwise: Bool, transform: CGAffineTransform = .identity
    ) {
        withMutableData {
            $0.addArc(
                center: center, radius: radius, startAngle: startAngle, endAngle: endAngle,
                clockwise: clockwise, transform: transform)
        }
    }

    /// Adds the tangent arc of PostScript's `arct` and Canvas' `arcTo`; see
    /// `PathData.addArc(tangent1End:tangent2End:radius:transform:)`.
    public func addArc(
        tangent1End: CGPoint, tangent2End: CGPoint, radius: CGFloat, transform: CGAffineTransform = .identity
    ) {
        withMutableData {
            $0.addArc(tangent1End: tangent1End, tangent2End: tangent2End, radius: radius, transform: transform)
        }
    }

    /// Adds an arc turning through `delta` radians from `startAngle`,
    /// positive with increasing angle.
    public func addRelativeArc(
        center: CGPoint, radius: CGFloat, startAngle: CGFloat, delta: CGFloat,
        transform: CGAffineTransform = .identity
    ) {
        withMutableData {
            $0.addRelativeArc(center: center, radius: radius, startAngle: startAngle, delta: delta, transform: transform)
        }
    }

    /// Adds `rect` as a closed subpath.
    public func addRect(_ rect: CGRect, transform: CGAffineTransform = .identity) {
        withMutableData { $0.addRect(rect, transform: transform) }
    }

    /// Adds each rectangle as a closed subpath.
    public func addRects(_ rects: [CGRect], transform: CGAffineTransform = .identity) {
        withMutableData { data in
            for rect in rects { data.addRect(rect, transform: transform) }
        }
    }

    /// Adds the ellipse that fits `rect` as a closed subpath.
    public func addEllipse(in rect: CGRect, transform: CGAffineTransform = .identity) {
        withMutableData { $0.addEllipse(in: rect, transform: transform) }
    }

    /// Adds a rectangle with all four corners rounded as a closed subpath.
    /// Radii beyond half the rectangle's size are clamped (Core Graphics
    /// traps on them).
    public func addRoundedRect(
        in rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat, transform: CGAffineTransform = .identity
    ) {
        withMutableData {
            $0.addRoundedRect(in: rect, cornerWidth: cornerWidth, cornerHeight: cornerHeight, transform: transform)
        }
    }

    /// Appends the elements of `path`, transformed.
    public func addPath(_ path: CGPath, transform: CGAffineTransform = .identity) {
        // Read first, then write: `path` may be `self`.
        let other = path.pathData.applying(transform)
        withMutableData { $0.append(other) }
    }

    /// Closes the current subpath with a line to its first point.
    public func closeSubpath() {
        withMutableData { $0.closeSubpath() }
    }
}
