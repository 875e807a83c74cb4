import Foundation

/// A half-plane `a·x + b·y + c >= 0`: a clip of the plan, or a cut between
/// the pieces of one draw.
///
/// The one half-plane type of the renderer; the planner makes them, the
/// backends clip by them (`PolygonClipper`) or test pixels against them
/// (`owns(x:y:)`).
package struct HalfPlane: Hashable, Sendable {
    /// The coefficients of `a·x + b·y + c >= 0`.
    public var a: Double, b: Double, c: Double
    /// The half-plane `a·x + b·y + c >= 0`.
    public init(a: Double, b: Double, c: Double) { self.a = a; self.b = b; self.c = c }

    /// `a·x + b·y + c` at `p`: positive inside, negative outside.
    public func value(at p: CGPoint) -> Double { a * Double(p.x) + b * Double(p.y) + c }

    /// Whether all of `rect` is inside: the value is at least 0 at its four
    /// corners (a half-plane then holds everything between them). A null
    /// rect, or one whose corners give no number, is not held.
    public func holds(_ rect: CGRect) -> Bool {
        guard !rect.isNull else { return false }
        // (NaN fails every comparison.)
        return value(at: CGPoint(x: rect.minX, y: rect.minY)) >= 0 && value(at: CGPoint(x: rect.maxX, y: rect.minY)) >= 0
            && value(at: CGPoint(x: rect.maxX, y: rect.maxY)) >= 0 && value(at: CGPoint(x: rect.minX, y: rect.maxY)) >= 0
    }

    /// Whether none of `rect` is strictly inside: the value is at most 0 at
    /// its four corners (everything between them then is too), so what lies
    /// in `rect` and is clipped by the half-plane has no area. A rect whose
    /// corners give no number is not excluded.
    public func excludes(_ rect: CGRect) -> Bool {
        guard !rect.isNull else { return true }
        return value(at: CGPoint(x: rect.minX, y: rect.minY)) <= 0 && value(at: CGPoint(x: rect.maxX, y: rect.minY)) <= 0
            && value(at: CGPoint(x: rect.maxX, y: rect.maxY)) <= 0 && value(at: CGPoint(x: rect.minX, y: rect.maxY)) <= 0
    }

    /// Whether every point of `rect` is strictly outside: the value is
    /// below 0 at its four corners. Whatever lies in `rect`, clipped by the
    /// half-plane, leaves nothing, not even points on the line.
    public func strictlyExcludes(_ rect: CGRect) -> Bool {
        guard !rect.isNull else { return false }
        return value(at: CGPoint(x: rect.minX, y: rect.minY)) < 0 && value(at: CGPoint(x: rect.maxX, y: rect.minY)) < 0
            && value(at: CGPoint(x: rect.maxX, y: rect.maxY)) < 0 && value(at: CGPoint(x: rect.minX, y: rect.maxY)) < 0
    }

    /// The same line with the other side kept.
    public var flipped: HalfPlane { HalfPlane(a: -a, b: -b, c: -c) }

    /// Whether every point is inside: no line, and `c >= 0` (an affine
    /// layer's near plane, for one). Clipping by it changes nothing.
    public var keepsEverything: Bool { a == 0 && b == 0 && c >= 0 }

    /// Whether the point belongs to the half-plane as a *cut* decides it: the
    /// strict inside, and a point exactly on the line when the first non-zero
    /// coefficient is positive. A half-plane and its exact negation (the two
    /// sides of one cut) so own every point exactly once: pieces of a draw
    /// cut apart tile it with no pixel left out or painted twice.
    @inline(__always)
    public func owns(x: Double, y: Double) -> Bool {
        let v = a * x + b * y + c
        if v != 0 { return v > 0 }
        return a != 0 ? a > 0 : b != 0 ? b > 0 : c > 0
    }

    /// This half-plane of a draw's local space as a half-plane of its
    /// target's pixels, through the inverse of the draw's plane map: a local
    /// point `[x y 1] ~ [px py 1] · H⁻¹` is inside when `(a, b, c) ·` that
    /// is `>= 0`, which is linear in the pixel. Exact where the plane is in
    /// front of the eye (w > 0). `inverse` is the draw's inverted plane map
    /// (a singular map has none, and nothing of the plane shows).
    public func inPixels(through inverse: PlaneHomography) -> HalfPlane {
        let (i00, i01, i02, i10, i11, i12, i20, i21, i22) = inverse.h
        return HalfPlane(
            a: i00 * a + i01 * b + i02 * c,
            b: i10 * a + i11 * b + i12 * c,
            c: i20 * a + i21 * b + i22 * c)
    }
}

/// Clips polygons by half-planes (Sutherland–Hodgman): the one clipper of
/// the renderer, for the planner's near plane, guard band and cuts, and for
/// a backend that cuts geometry instead of testing pixels.
package enum PolygonClipper {
    /// The part of a polygon where `plane >= 0`. Exact for a convex polygon;
    /// a concave contour may come out with edges running both ways along the
    /// cut, which cancel in a winding sum (and enclose no area under
    /// even-odd), so a path fill of the result stays exact. Empty when fewer
    /// than three vertices remain.
    public static func clip(_ polygon: [CGPoint], to plane: HalfPlane) -> [CGPoint] {
        guard polygon.count >= 3 else { return [] }
        // Wholly inside (the usual case: a path within the viewport's guard
        // band, a quad in front of the camera): the polygon itself, not a copy.
        if polygon.allSatisfy({ plane.value(at: $0) >= 0 }) { return polygon }
        var out: [CGPoint] = []
        out.reserveCapacity(polygon.count + 1)
        var previous = polygon[polygon.count - 1]
        var previousValue = plane.value(at: previous)
        for current in polygon {
            let value = plane.value(at: current)
            if value >= 0 {
                if previousValue < 0 { out.append(intersection(previous, previousValue, current, value)) }
                out.append(current)
            } else if previousValue >= 0 {
                out.append(intersection(previous, previousValue, current, value))
            }
            previous = current
            previousValue = value
        }
        return out.count >= 3 ? out : []
    }

    /// The part of a polygon inside every plane.
    public static func clip(_ polygon: [CGPoint], to planes: [HalfPlane]) -> [CGPoint] {
        var p = polygon
        for plane in planes where !p.isEmpty { p = clip(p, to: plane) }
        return p
    }

    /// The part of a polygon inside every plane of `planes`, then inside the
    /// four of `more` (a viewport's edges), without a list of all of them.
    public static func clip(_ polygon: [CGPoint], to planes: [HalfPlane],
                            and more: (HalfPlane, HalfPlane, HalfPlane, HalfPlane)) -> [CGPoint] {
        var p = clip(polygon, to: planes)
        // One by one: a literal list of the four would be allocated per call.
        if !p.isEmpty { p = clip(p, to: more.0) }
        if !p.isEmpty { p = clip(p, to: more.1) }
        if !p.isEmpty { p = clip(p, to: more.2) }
        if !p.isEmpty { p = clip(p, to: more.3) }
        return p
    }

    private static func intersection(_ a: CGPoint, _ va: Double, _ b: CGPoint, _ vb: Double) -> CGPoint {
        let t = va / (va - vb)
        return CGPoint(x: Double(a.x) + (Double(b.x) - Double(a.x)) * t, y: Double(a.y) + (Double(b.y) - Double(a.y)) * t)
    }
}
