import Foundation

/// Evaluation and analysis of the quadratic and cubic Bézier segments that
/// paths are made of. The path types expose the results; the points are
/// package-wide (a keyframe animation moves along a path's segments).
package enum Bezier {
    /// The point at `t` on the quadratic p0, p1, p2.
    package static func point(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, at t: CGFloat) -> CGPoint {
        let u = 1 - t
        return p0 * (u * u) + p1 * (2 * u * t) + p2 * (t * t)
    }

    /// The point at `t` on the cubic p0...p3.
    package static func point(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ p3: CGPoint, at t: CGFloat) -> CGPoint {
        let u = 1 - t
        return p0 * (u * u * u) + p1 * (3 * u * u * t) + p2 * (3 * u * t * t) + p3 * (t * t * t)
    }

    /// The parameters in (0, 1) where one coordinate of a quadratic has a
    /// zero derivative, given that coordinate's three values.
    static func quadExtrema(_ a: CGFloat, _ b: CGFloat, _ c: CGFloat) -> [CGFloat] {
        // d/dt = 2[(b - a) + t(a - 2b + c)]
        let denom = a - 2 * b + c
        guard denom != 0 else { return [] }
        let t = (a - b) / denom
        return t > 0 && t < 1 ? [t] : []
    }

    /// The parameters in (0, 1) where one coordinate of a cubic has a zero
    /// derivative, given that coordinate's four values, in increasing order.
    static func cubicExtrema(_ a: CGFloat, _ b: CGFloat, _ c: CGFloat, _ d: CGFloat) -> [CGFloat] {
        // d/dt / 3 = A t^2 + B t + C
        let qa = -a + 3 * b - 3 * c + d
        let qb = 2 * (a - 2 * b + c)
        let qc = b - a
        return solveQuadratic(qa, qb, qc).filter { $0 > 0 && $0 < 1 }.sorted()
    }

    /// The real roots of a t^2 + b t + c = 0 (a linear equation when a is 0,
    /// or nearly so next to the other coefficients).
    static func solveQuadratic(_ a: CGFloat, _ b: CGFloat, _ c: CGFloat) -> [CGFloat] {
        let scale = max(abs(a), abs(b), abs(c))
        guard scale > 0, scale.isFinite else { return [] }
        if abs(a) <= scale * 1e-12 {
            return b != 0 ? [-c / b] : []
        }
        let disc = b * b - 4 * a * c
        if disc < 0 { return [] }
        if disc == 0 { return [-b / (2 * a)] }
        // The numerically stable pair of formulas (no cancellation).
        let q = -0.5 * (b + (b < 0 ? -1 : 1) * disc.squareRoot())
        return [q / a, c / q]
    }
}

/// A segment's two to four control points, start first, held inline: the
/// flattener looks at every segment's, and a list of them would be
/// allocated per segment.
struct SegmentControls {
    private let points: (CGPoint, CGPoint, CGPoint, CGPoint)
    let count: Int

    /// A line.
    init(_ p0: CGPoint, _ p1: CGPoint) { points = (p0, p1, p1, p1); count = 2 }
    /// A quadratic Bézier.
    init(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint) { points = (p0, p1, p2, p2); count = 3 }
    /// A cubic Bézier.
    init(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ p3: CGPoint) { points = (p0, p1, p2, p3); count = 4 }

    subscript(index: Int) -> CGPoint {
        switch index {
        case 0: points.0
        case 1: points.1
        case 2: points.2
        default: points.3
        }
    }

    /// The direction the segment leaves its start point in: the first
    /// control vector that is not zero, or `nil` when the segment is a
    /// single point.
    var startTangent: CGPoint? {
        for i in 1..<count {
            if let d = (self[i] - self[0]).normalized { return d }
        }
        return nil
    }

    /// The direction the segment arrives at its end point in.
    var endTangent: CGPoint? {
        for i in stride(from: count - 2, through: 0, by: -1) {
            if let d = (self[count - 1] - self[i]).normalized { return d }
        }
        return nil
    }
}
