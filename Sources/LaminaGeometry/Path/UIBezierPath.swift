import Foundation

/// UIKit's path builder, with its names and its arc direction, for code
/// ported from iOS. It wraps a `PathData` plus the drawing attributes UIKit
/// keeps on the path (line width, caps, joins, dashes, fill rule), which are
/// plain stored properties here: nothing draws with them but what reads them.
///
/// UIKit draws with y pointing down, so its `clockwise` arcs sweep with
/// *increasing* angle, the opposite of `CGMutablePath.addArc`'s flag; "top"
/// means `minY`.
public final class UIBezierPath {
    /// The elements.
    package var pathData: PathData

    /// Stroke width; 1 by default.
    public var lineWidth: CGFloat = 1
    /// Cap of open subpath ends; `.butt` by default.
    public var lineCapStyle: CGLineCap = .butt
    /// Join between segments; `.miter` by default.
    public var lineJoinStyle: CGLineJoin = .miter
    /// Longest miter allowed, as a multiple of the line width; 10 by default.
    public var miterLimit: CGFloat = 10
    /// Largest error allowed when curves are drawn as lines; 0.6 by default.
    public var flatness: CGFloat = 0.6
    /// Whether filling and `contains(_:)` use the even-odd rule instead of
    /// the nonzero one; `false` by default.
    public var usesEvenOddFillRule = false
    /// Lengths of the dashes and gaps, alternately; empty for a solid line.
    public private(set) var lineDashPattern: [CGFloat] = []
    /// How far into the dash pattern the stroke starts.
    public private(set) var lineDashPhase: CGFloat = 0

    /// An empty path.
    public init() {
        pathData = PathData()
    }

    /// A path holding `data`.
    package init(pathData data: PathData) {
        pathData = data
    }

    /// A path with the elements of `cgPath`.
    public convenience init(cgPath: CGPath) {
        self.init(pathData: cgPath.pathData)
    }

    /// A closed rectangle starting at its (minX, minY) corner, going
    /// clockwise on screen.
    public convenience init(rect: CGRect) {
        self.init()
        pathData.addRect(rect)
    }

    /// The ellipse that fits `rect`, starting at (maxX, midY) and going
    /// clockwise on screen.
    public convenience init(ovalIn rect: CGRect) {
        self.init()
        pathData.addEllipse(in: rect)
    }

    /// A rectangle with four round corners of `cornerRadius`; the radius is
    /// clamped to half the width horizontally and half the height vertically.
    public convenience init(roundedRect rect: CGRect, cornerRadius: CGFloat) {
        self.init()
        pathData.addRoundedRect(in: rect, cornerWidth: cornerRadius, cornerHeight: cornerRadius)
    }

    /// A rectangle whose `corners` are quarter ellipses of radii
    /// `cornerRadii` (width across, height down), each clamped to half the
    /// rectangle's size on its axis; the other corners stay square. It
    /// starts on the top edge and goes clockwise on screen.
    ///
    /// UIKit itself is known to use `cornerRadii.width` for both radii; this
    /// honours the height as the scene format and its oracle do.
    public convenience init(roundedRect rect: CGRect, byRoundingCorners corners: UIRectCorner, cornerRadii: CGSize) {
        self.init()
        pathData.addRoundedRect(
            in: rect, cornerWidth: cornerRadii.width, cornerHeight: cornerRadii.height, corners: corners)
    }

    /// An arc, in UIKit's direction (see
    /// `addArc(withCenter:radius:startAngle:endAngle:clockwise:)`).
    public convenience init(
        arcCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool
    ) {
        self.init()
        addArc(withCenter: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise)
    }

    /// The path as an immutable `CGPath` (a snapshot); setting it replaces
    /// the elements.
    public var cgPath: CGPath {
        get { CGPath(pathData) }
        set { pathData = newValue.pathData }
    }

    /// The smallest rectangle holding every point, control points included;
    /// `CGRect.null` when empty.
    public var bounds: CGRect { pathData.boundingBox }

    /// Where the next segment starts; `CGPoint.zero` when empty.
    public var currentPoint: CGPoint { pathData.currentPoint ?? .zero }

    /// Whether the path has no elements.
    public var isEmpty: Bool { pathData.isEmpty }

    /// Whether filling the path (with the rule `usesEvenOddFillRule` picks)
    /// would paint `point`.
    public func contains(_ point: CGPoint) -> Bool {
        pathData.contains(point, using: usesEvenOddFillRule ? .evenOdd : .winding)
    }

    /// Starts a new subpath at `point`.
    public func move(to point: CGPoint) {
        pathData.move(to: point)
    }

    /// Adds a line to `point`; ignored with no current point.
    public func addLine(to point: CGPoint) {
        pathData.addLine(to: point)
    }

    /// Adds a quadratic Bézier to `endPoint`; ignored with no current point.
    public func addQuadCurve(to endPoint: CGPoint, controlPoint: CGPoint) {
        pathData.addQuadCurve(to: endPoint, control: controlPoint)
    }

    /// Adds a cubic Bézier to `endPoint`; ignored with no current point.
    public func addCurve(to endPoint: CGPoint, controlPoint1: CGPoint, controlPoint2: CGPoint) {
        pathData.addCurve(to: endPoint, control1: controlPoint1, control2: controlPoint2)
    }

    /// Adds an arc of a circle in UIKit's direction: `clockwise == true`
    /// sweeps with *increasing* angle, which is clockwise on a y-down screen
    /// (0 points along +x, π/2 along +y, i.e. down). A line joins the
    /// current point to the arc's start, or the arc starts a new subpath.
    /// Angles at least 2π apart give a full circle; otherwise the arc is less
    /// than a turn.
    public func addArc(
        withCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool
    ) {
        pathData.addArc(
            center: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: !clockwise)
    }

    /// Closes the current subpath with a line to its first point.
    public func close() {
        pathData.closeSubpath()
    }

    /// Removes every element.
    public func removeAllPoints() {
        pathData.removeAll()
    }

    /// Appends the elements of `bezierPath`.
    public func append(_ bezierPath: UIBezierPath) {
        pathData.append(bezierPath.pathData)
    }

    /// Transforms every point of the path.
    public func apply(_ transform: CGAffineTransform) {
        pathData = pathData.applying(transform)
    }

    /// A new path with the same attributes and every subpath reversed.
    public func reversing() -> UIBezierPath {
        let copy = self.copy()
        copy.pathData = pathData.reversingSubpaths()
        return copy
    }

    /// An independent copy, attributes included.
    public func copy() -> UIBezierPath {
        let copy = UIBezierPath(pathData: pathData)
        copy.lineWidth = lineWidth
        copy.lineCapStyle = lineCapStyle
        copy.lineJoinStyle = lineJoinStyle
        copy.miterLimit = miterLimit
        copy.flatness = flatness
        copy.usesEvenOddFillRule = usesEvenOddFillRule
        copy.lineDashPattern = lineDashPattern
        copy.lineDashPhase = lineDashPhase
        return copy
    }

    /// Sets the dash pattern from the first `count` lengths at `pattern`
    /// (`nil` or a count of 0 for a solid line) and where in it the stroke
    /// starts.
    public func setLineDash(_ pattern: UnsafePointer<CGFloat>?, count: Int, phase: CGFloat) {
        if let pattern, count > 0 {
            lineDashPattern = Array(UnsafeBufferPointer(start: pattern, count: count))
        } else {
            lineDashPattern = []
        }
        lineDashPhase = phase
    }

    /// Copies the dash pattern into `pattern` (which must hold as many
    /// lengths as the pattern has, when not `nil`), its length into `count`
    /// and the phase into `phase`.
    public func getLineDash(
        _ pattern: UnsafeMutablePointer<CGFloat>?, count: UnsafeMutablePointer<Int>?,
        phase: UnsafeMutablePointer<CGFloat>?
    ) {
        if let pattern {
            for (i, length) in lineDashPattern.enumerated() { pattern[i] = length }
        }
        count?.pointee = lineDashPattern.count
        phase?.pointee = lineDashPhase
    }
}
