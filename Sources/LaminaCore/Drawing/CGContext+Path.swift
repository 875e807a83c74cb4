import Foundation

/// Building the current path. Every point is given in user space and stored
/// in device space (transformed by the CTM when it is added).
extension CGContext {

    /// Empties the current path.
    public func beginPath() { path.removeAll() }

    /// Starts a new subpath at `point`.
    public func move(to point: CGPoint) { path.move(to: point.applying(state.ctm)) }

    /// Adds a line from the current point to `point`; nothing without a
    /// current point, as in Core Graphics.
    public func addLine(to point: CGPoint) { path.addLine(to: point.applying(state.ctm)) }

    /// Starts a subpath at the first point and adds lines through the others.
    public func addLines(between points: [CGPoint]) {
        path.addLines(between: points, transform: state.ctm)
    }

    /// Adds a cubic Bézier curve from the current point to `end`.
    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint) {
        let t = state.ctm
        path.addCurve(to: end.applying(t), control1: control1.applying(t), control2: control2.applying(t))
    }

    /// Adds a quadratic Bézier curve from the current point to `end`.
    public func addQuadCurve(to end: CGPoint, control: CGPoint) {
        path.addQuadCurve(to: end.applying(state.ctm), control: control.applying(state.ctm))
    }

    /// Adds an arc of a circle, in Core Graphics' direction: `clockwise`
    /// true sweeps with decreasing angle (see `CGMutablePath.addArc`). A line
    /// joins the current point to the arc's start.
    public func addArc(
        center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool
    ) {
        path.addArc(
            center: center, radius: radius, startAngle: startAngle, endAngle: endAngle,
            clockwise: clockwise, transform: state.ctm)
    }

    /// Adds the tangent arc of PostScript's `arct` (`CGContextAddArcToPoint`).
    public func addArc(tangent1End: CGPoint, tangent2End: CGPoint, radius: CGFloat) {
        path.addArc(tangent1End: tangent1End, tangent2End: tangent2End, radius: radius, transform: state.ctm)
    }

    /// Adds `rect` as a closed subpath.
    public func addRect(_ rect: CGRect) { path.addRect(rect, transform: state.ctm) }

    /// Adds each rectangle as a closed subpath.
    public func addRects(_ rects: [CGRect]) {
        for rect in rects { path.addRect(rect, transform: state.ctm) }
    }

    /// Adds the ellipse that fits `rect` as a closed subpath.
    public func addEllipse(in rect: CGRect) { path.addEllipse(in: rect, transform: state.ctm) }

    /// Appends `path`'s elements, transformed by the CTM.
    public func addPath(_ path: CGPath) { self.path.append(path.pathData.applying(state.ctm)) }

    /// Closes the current subpath.
    public func closePath() { path.closeSubpath() }

    /// Whether the current path has no elements.
    public var isPathEmpty: Bool { path.isEmpty }

    /// The current point in user space; `CGPoint.zero` with no path.
    public var currentPointOfPath: CGPoint {
        guard let point = path.currentPoint else { return .zero }
        return point.applying(state.ctm.inverted())
    }

    /// The bounding box of the current path in user space; `CGRect.null`
    /// when it is empty.
    public var boundingBoxOfPath: CGRect {
        let box = path.boundingBoxOfPath
        return box.isNull ? box : box.applying(state.ctm.inverted())
    }

    /// The current path in user space, as a `CGPath` (`path` of Core
    /// Graphics); nil when it is empty.
    public var currentPath: CGPath? {
        path.isEmpty ? nil : CGPath(path.applying(state.ctm.inverted()))
    }
}
