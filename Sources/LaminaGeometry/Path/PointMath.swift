import Foundation

// Vector arithmetic on CGPoint for the path code. Internal on purpose: other
// modules may want their own operators, and these must not clash with them.

extension CGPoint {
    @inline(__always) static func + (a: CGPoint, b: CGPoint) -> CGPoint { CGPoint(x: a.x + b.x, y: a.y + b.y) }
    @inline(__always) static func - (a: CGPoint, b: CGPoint) -> CGPoint { CGPoint(x: a.x - b.x, y: a.y - b.y) }
    @inline(__always) static func * (a: CGPoint, s: CGFloat) -> CGPoint { CGPoint(x: a.x * s, y: a.y * s) }
    @inline(__always) static func * (s: CGFloat, a: CGPoint) -> CGPoint { CGPoint(x: a.x * s, y: a.y * s) }
    @inline(__always) static prefix func - (a: CGPoint) -> CGPoint { CGPoint(x: -a.x, y: -a.y) }

    /// The dot product.
    @inline(__always) func dot(_ b: CGPoint) -> CGFloat { x * b.x + y * b.y }
    /// The z component of the cross product: positive when `b` turns
    /// counterclockwise from `self` in y-up axes.
    @inline(__always) func cross(_ b: CGPoint) -> CGFloat { x * b.y - y * b.x }
    /// The Euclidean length.
    @inline(__always) var length: CGFloat { (x * x + y * y).squareRoot() }
    /// This vector turned a quarter turn from +x towards +y.
    @inline(__always) var perpendicular: CGPoint { CGPoint(x: -y, y: x) }

    /// This vector scaled to length 1, or `nil` when it has no direction.
    var normalized: CGPoint? {
        let l = length
        guard l > 0, l.isFinite else { return nil }
        return CGPoint(x: x / l, y: y / l)
    }

    /// The point a fraction `t` of the way from `self` to `b`.
    @inline(__always) func lerp(to b: CGPoint, _ t: CGFloat) -> CGPoint {
        CGPoint(x: x + (b.x - x) * t, y: y + (b.y - y) * t)
    }

    /// The distance to `b`.
    @inline(__always) func distance(to b: CGPoint) -> CGFloat { (b - self).length }
}
