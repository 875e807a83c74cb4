import Foundation

/// How the ends of an open stroked subpath are drawn.
public enum CGLineCap: Int32, Hashable, Sendable, CaseIterable {
    /// The stroke stops square at the end point.
    case butt = 0
    /// A half disc of diameter `lineWidth` is drawn past the end point.
    case round = 1
    /// The stroke goes on past the end point by half of `lineWidth`.
    case square = 2
}

/// How the corners between the segments of a stroked path are drawn.
public enum CGLineJoin: Int32, Hashable, Sendable, CaseIterable {
    /// The outer edges are extended until they meet, unless that point is
    /// farther than `miterLimit` allows, in which case the join is beveled.
    case miter = 0
    /// A disc of diameter `lineWidth` rounds the corner.
    case round = 1
    /// The outer corners of the two segments are joined by a straight line.
    case bevel = 2
}

/// Which points count as inside a path when it is filled.
public enum CGPathFillRule: Int, Hashable, Sendable, CaseIterable {
    /// Inside where the winding number is not zero (Core Graphics' default).
    case winding = 0
    /// Inside where the winding number is odd.
    case evenOdd = 1
}

/// The kind of a `CGPathElement`.
public enum CGPathElementType: Int32, Hashable, Sendable, CaseIterable {
    /// Starts a subpath; one point.
    case moveToPoint = 0
    /// A line; one point, the end.
    case addLineToPoint = 1
    /// A quadratic Bézier; two points, the control then the end.
    case addQuadCurveToPoint = 2
    /// A cubic Bézier; three points, two controls then the end.
    case addCurveToPoint = 3
    /// Closes the subpath; no points.
    case closeSubpath = 4
}

/// One element of a path as `CGPath.applyWithBlock` hands it out, laid out
/// like Core Graphics' struct: `points` is valid only during the call and
/// holds as many points as `type` says.
public struct CGPathElement {
    /// The kind of element.
    public var type: CGPathElementType
    /// The element's points (controls first, end point last).
    public var points: UnsafeMutablePointer<CGPoint>

    /// An element of `type` whose points are at `points`.
    public init(type: CGPathElementType, points: UnsafeMutablePointer<CGPoint>) {
        self.type = type
        self.points = points
    }
}
