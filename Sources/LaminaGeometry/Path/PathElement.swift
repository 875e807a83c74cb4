import Foundation

/// One element of a path, as a value: the Swift-friendly twin of
/// `CGPathElement` that `PathData` stores and renderers read.
///
/// Curves carry their control points before their end point, in the order
/// Core Graphics lists them in `CGPathElement.points`.
package enum PathElement: Hashable, Sendable {
    /// Starts a new subpath at `to`.
    case moveTo(CGPoint)
    /// A straight segment from the current point to `to`.
    case lineTo(CGPoint)
    /// A quadratic Bézier segment from the current point through `control`.
    case quadCurveTo(control: CGPoint, to: CGPoint)
    /// A cubic Bézier segment from the current point through two controls.
    case curveTo(control1: CGPoint, control2: CGPoint, to: CGPoint)
    /// A straight segment back to the subpath's first point, ending it.
    case closeSubpath

    /// The points of the element in `CGPathElement` order (controls first,
    /// end point last); empty for `closeSubpath`.
    public var points: [CGPoint] {
        switch self {
        case .moveTo(let p), .lineTo(let p): return [p]
        case .quadCurveTo(let c, let p): return [c, p]
        case .curveTo(let c1, let c2, let p): return [c1, c2, p]
        case .closeSubpath: return []
        }
    }

    /// Calls `body` with each of `points` in turn, without making the list
    /// (bounds and `applyWithBlock` visit every element of a path).
    @inline(__always)
    public func forEachPoint(_ body: (CGPoint) -> Void) {
        switch self {
        case .moveTo(let p), .lineTo(let p): body(p)
        case .quadCurveTo(let c, let p): body(c); body(p)
        case .curveTo(let c1, let c2, let p): body(c1); body(c2); body(p)
        case .closeSubpath: break
        }
    }

    /// The point the element ends at; `nil` for `closeSubpath`, whose end is
    /// the subpath's start.
    public var endPoint: CGPoint? {
        switch self {
        case .moveTo(let p), .lineTo(let p), .quadCurveTo(_, let p), .curveTo(_, _, let p): return p
        case .closeSubpath: return nil
        }
    }

    /// The Core Graphics element type of this element.
    public var type: CGPathElementType {
        switch self {
        case .moveTo: return .moveToPoint
        case .lineTo: return .addLineToPoint
        case .quadCurveTo: return .addQuadCurveToPoint
        case .curveTo: return .addCurveToPoint
        case .closeSubpath: return .closeSubpath
        }
    }

    /// This element with every point transformed by `t`.
    public func applying(_ t: CGAffineTransform) -> PathElement {
        switch self {
        case .moveTo(let p): return .moveTo(p.applying(t))
        case .lineTo(let p): return .lineTo(p.applying(t))
        case .quadCurveTo(let c, let p): return .quadCurveTo(control: c.applying(t), to: p.applying(t))
        case .curveTo(let c1, let c2, let p):
            return .curveTo(control1: c1.applying(t), control2: c2.applying(t), to: p.applying(t))
        case .closeSubpath: return .closeSubpath
        }
    }
}
