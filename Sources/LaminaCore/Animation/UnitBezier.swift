import Foundation

/// A cubic Bézier from (0, 0) to (1, 1) with control points (x1, y1) and
/// (x2, y2), read as a function y(x): the curve of a timing function.
///
/// The curve is parametric, x(s) and y(s) for s in 0...1, so y at a given x
/// needs s with x(s) = x first. x1 and x2 lie in 0...1, which makes x(s)
/// non-decreasing, so that s is unique (up to flat stretches) and found by
/// Newton's method, with bisection when Newton's step leaves the bracket or
/// the slope vanishes.
struct UnitBezier: Hashable, Sendable {
    // Polynomial coefficients: x(s) = ((ax * s + bx) * s + cx) * s, same for y.
    private let ax, bx, cx: Double
    private let ay, by, cy: Double

    /// x1 and x2 are clamped to 0...1 (outside it the curve would not be a
    /// function of x); y1 and y2 may be anything, for curves that overshoot.
    init(x1: Double, y1: Double, x2: Double, y2: Double) {
        let x1 = min(max(x1, 0), 1), x2 = min(max(x2, 0), 1)
        cx = 3 * x1
        bx = 3 * (x2 - x1) - cx
        ax = 1 - cx - bx
        cy = 3 * y1
        by = 3 * (y2 - y1) - cy
        ay = 1 - cy - by
    }

    func x(_ s: Double) -> Double { ((ax * s + bx) * s + cx) * s }
    func y(_ s: Double) -> Double { ((ay * s + by) * s + cy) * s }
    func dx(_ s: Double) -> Double { (3 * ax * s + 2 * bx) * s + cx }

    /// y at `x`, with `x` clamped to 0...1; exact at both ends.
    func solve(_ x: Double) -> Double {
        guard x.isFinite else { return x > 0 ? 1 : 0 }
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        return y(parameter(forX: x))
    }

    /// The parameter s with x(s) = x, to about 1e-14.
    func parameter(forX x: Double) -> Double {
        let tolerance = 1e-14
        var lo = 0.0, hi = 1.0
        var s = x  // x(s) is close to s for gentle curves: a good first guess
        for _ in 0..<8 {
            let error = self.x(s) - x
            if abs(error) < tolerance { return s }
            if error < 0 { lo = s } else { hi = s }
            let slope = dx(s)
            guard abs(slope) > 1e-12 else { break }
            let next = s - error / slope
            guard next > lo && next < hi else { break }
            s = next
        }
        // Bisection on the bracket Newton narrowed; x(s) is monotonic.
        while hi - lo > tolerance {
            s = 0.5 * (lo + hi)
            let error = self.x(s) - x
            if abs(error) < tolerance { return s }
            if error < 0 { lo = s } else { hi = s }
        }
        return 0.5 * (lo + hi)
    }
}
