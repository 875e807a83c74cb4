import Foundation


/// A projective map of the plane in Core Animation's row-vector convention,
/// `[X Y W] = [x y 1] · H`: the part of a `CATransform3D` that takes a
/// layer's plane (z = 0) to a target's homogeneous pixels (z dropped).
///
/// The one 3x3 plane map of the renderer: the planner pulls half-planes back
/// through it, and a backend that maps pixels back to local points (the CPU
/// does, for perspective-correct texturing) uses its `inverted()`.
///
/// ```swift
/// let h = PlaneHomography(matrix)          // local → pixels
/// if let back = h.inverted() {             // pixels → local
///     let (x, y, w) = back.apply(x: 10.5, y: 20.5)   // local point (x/w, y/w)
/// }
/// ```
public struct PlaneHomography: Sendable, Equatable {
    /// Row-major: rows are the x, y and constant terms; columns X, Y, W.
    public var h: (Double, Double, Double, Double, Double, Double, Double, Double, Double)

    public init(_ h: (Double, Double, Double, Double, Double, Double, Double, Double, Double)) { self.h = h }

    /// Rows and columns 1, 2 and 4 of `m`.
    public init(_ m: CATransform3D) {
        h = (Double(m.m11), Double(m.m12), Double(m.m14),
             Double(m.m21), Double(m.m22), Double(m.m24),
             Double(m.m41), Double(m.m42), Double(m.m44))
    }

    public static func == (l: PlaneHomography, r: PlaneHomography) -> Bool {
        l.h.0 == r.h.0 && l.h.1 == r.h.1 && l.h.2 == r.h.2 && l.h.3 == r.h.3 && l.h.4 == r.h.4
            && l.h.5 == r.h.5 && l.h.6 == r.h.6 && l.h.7 == r.h.7 && l.h.8 == r.h.8
    }

    public var determinant: Double {
        let (a, b, c, d, e, f, g, k, l) = h
        return a * (e * l - f * k) - b * (d * l - f * g) + c * (d * k - e * g)
    }

    /// `[x y 1] · H`.
    @inline(__always)
    public func apply(x: Double, y: Double) -> (x: Double, y: Double, w: Double) {
        (x * h.0 + y * h.3 + h.6, x * h.1 + y * h.4 + h.7, x * h.2 + y * h.5 + h.8)
    }

    /// The inverse map, or nil when the plane is seen exactly edge-on (or an
    /// entry is not finite): then nothing of it is visible. For points the
    /// map sends to `W > 0`, the inverse gives them back with `w > 0`.
    public func inverted() -> PlaneHomography? {
        let (a, b, c, d, e, f, g, k, l) = h
        let c00 = e * l - f * k, c01 = c * k - b * l, c02 = b * f - c * e
        let c10 = f * g - d * l, c11 = a * l - c * g, c12 = c * d - a * f
        let c20 = d * k - e * g, c21 = b * g - a * k, c22 = a * e - b * d
        let det = a * c00 + b * c10 + c * c20
        guard det != 0, det.isFinite else { return nil }
        let s = 1 / det
        let inverse = (c00 * s, c01 * s, c02 * s, c10 * s, c11 * s, c12 * s, c20 * s, c21 * s, c22 * s)
        for v in [inverse.0, inverse.1, inverse.2, inverse.3, inverse.4, inverse.5, inverse.6, inverse.7, inverse.8]
        where !v.isFinite { return nil }
        return PlaneHomography(inverse)
    }

    /// Pulls a half-plane of the destination (homogeneous: `a X + b Y + c W
    /// >= 0`) back to the source: `H · (a, b, c)ᵀ`. Exact wherever W > 0.
    /// A half-plane and its negation pull back to exact negations (IEEE
    /// rounding is symmetric), so the two sides of a cut stay two sides.
    public func pullBack(_ plane: HalfPlane) -> HalfPlane {
        HalfPlane(
            a: h.0 * plane.a + h.1 * plane.b + h.2 * plane.c,
            b: h.3 * plane.a + h.4 * plane.b + h.5 * plane.c,
            c: h.6 * plane.a + h.7 * plane.b + h.8 * plane.c)
    }
}

extension CATransform3D {
    /// The map of the plane z = 0 to homogeneous target points, ignoring z.
    public var planeHomography: PlaneHomography { PlaneHomography(self) }
}
