import Foundation


/// A projective map of the plane in Core Animation's row-vector convention,
/// `[X Y W] = [x y 1] · H`: the part of a `CATransform3D` that takes a
/// layer's plane (z = 0) to a target's homogeneous pixels (z dropped).
///
/// The one 3x3 plane map: the planner pulls half-planes back through it, a
/// backend that maps pixels back to local points (the CPU does, for
/// perspective-correct texturing) uses its `inverted()`, and the layer model
/// converts points between flattening layers with it
/// (`CALayer.projectiveTransform(to:)`, `convert`, `hitTest`): a chain of
/// layers that each flatten their sublayers is one plane map, because
/// dropping z between two transforms is multiplying their plane maps.
///
/// ```swift
/// let h = PlaneHomography(matrix)          // local → pixels
/// if let back = h.inverted() {             // pixels → local
///     let (x, y, w) = back.apply(x: 10.5, y: 20.5)   // local point (x/w, y/w)
/// }
/// ```
package struct PlaneHomography: Sendable, Equatable {
    /// Row-major: rows are the x, y and constant terms; columns X, Y, W.
    public var h: (Double, Double, Double, Double, Double, Double, Double, Double, Double)

    /// The map of these nine entries, row-major.
    public init(_ h: (Double, Double, Double, Double, Double, Double, Double, Double, Double)) { self.h = h }

    /// The map of these entries (row `i`, column `j` is `mij`).
    public init(m11: Double, m12: Double, m13: Double, m21: Double, m22: Double, m23: Double,
                m31: Double, m32: Double, m33: Double) {
        h = (m11, m12, m13, m21, m22, m23, m31, m32, m33)
    }

    /// The identity map.
    public static let identity = PlaneHomography((1, 0, 0, 0, 1, 0, 0, 0, 1))

    /// The map of the plane z = 0 through `m`, flattened onto z = 0 of the
    /// destination: rows and columns 1, 2 and 4 of `m` (row 3 is unused
    /// because the source points have z = 0, column 3 because the
    /// destination's z is dropped).
    public init(_ m: CATransform3D) {
        h = (Double(m.m11), Double(m.m12), Double(m.m14),
             Double(m.m21), Double(m.m22), Double(m.m24),
             Double(m.m41), Double(m.m42), Double(m.m44))
    }

    /// Entry for entry.
    public static func == (l: PlaneHomography, r: PlaneHomography) -> Bool {
        l.h.0 == r.h.0 && l.h.1 == r.h.1 && l.h.2 == r.h.2 && l.h.3 == r.h.3 && l.h.4 == r.h.4
            && l.h.5 == r.h.5 && l.h.6 == r.h.6 && l.h.7 == r.h.7 && l.h.8 == r.h.8
    }

    /// Negative when the map mirrors the plane (a layer seen from behind).
    /// The 2D affine transform as a plane map.
    public init(_ t: CGAffineTransform) {
        h = (Double(t.a), Double(t.b), 0, Double(t.c), Double(t.d), 0, Double(t.tx), Double(t.ty), 1)
    }

    /// `self` followed by `other`: a point is mapped by `self` first.
    public func concatenating(_ other: PlaneHomography) -> PlaneHomography {
        let a = h, b = other.h
        return PlaneHomography((
            a.0 * b.0 + a.1 * b.3 + a.2 * b.6, a.0 * b.1 + a.1 * b.4 + a.2 * b.7, a.0 * b.2 + a.1 * b.5 + a.2 * b.8,
            a.3 * b.0 + a.4 * b.3 + a.5 * b.6, a.3 * b.1 + a.4 * b.4 + a.5 * b.7, a.3 * b.2 + a.4 * b.5 + a.5 * b.8,
            a.6 * b.0 + a.7 * b.3 + a.8 * b.6, a.6 * b.1 + a.7 * b.4 + a.8 * b.7, a.6 * b.2 + a.7 * b.5 + a.8 * b.8))
    }

    /// Maps `p` and returns the homogeneous result `(x', y', w')`. A point
    /// with `w' > 0` lies in front of the eye; `w' <= 0` is at or behind it.
    public func applyHomogeneous(to p: CGPoint) -> (x: Double, y: Double, w: Double) {
        apply(x: Double(p.x), y: Double(p.y))
    }

    /// Maps `p` and divides by w. The result is not finite when w is 0.
    public func apply(to p: CGPoint) -> CGPoint {
        let m = applyHomogeneous(to: p)
        return CGPoint(x: m.x / m.w, y: m.y / m.w)
    }

    /// Negative when the map mirrors the plane (a layer seen from behind).
    public var determinant: Double {
        let (a, b, c, d, e, f, g, k, l) = h
        return a * (e * l - f * k) - b * (d * l - f * g) + c * (d * k - e * g)
    }

    /// `[x y 1] · H`.
    @inline(__always)
    public func apply(x: Double, y: Double) -> (x: Double, y: Double, w: Double) {
        (x * h.0 + y * h.3 + h.6, x * h.1 + y * h.4 + h.7, x * h.2 + y * h.5 + h.8)
    }

    /// The inverse map, or nil when the plane is seen edge-on: singular, or
    /// so nearly singular that its inverse means nothing (rounding leaves a
    /// cosine of 1e-17 instead of 0), or not finite. Then nothing of it is
    /// visible. For points the map sends to `W > 0`, the inverse gives them
    /// back with `w > 0`.
    ///
    /// "Nearly" is measured without units: the determinant against the
    /// product of the row lengths, which bounds it (Hadamard's inequality).
    /// The ratio is 1 for orthogonal rows and does not change when a row is
    /// scaled, so small or large layers are not mistaken for singular ones.
    public func inverted() -> PlaneHomography? {
        let (a, b, c, d, e, f, g, k, l) = h
        let c00 = e * l - f * k, c01 = c * k - b * l, c02 = b * f - c * e
        let c10 = f * g - d * l, c11 = a * l - c * g, c12 = c * d - a * f
        let c20 = d * k - e * g, c21 = b * g - a * k, c22 = a * e - b * d
        let det = a * c00 + b * c10 + c * c20
        func length(_ x: Double, _ y: Double, _ z: Double) -> Double { (x * x + y * y + z * z).squareRoot() }
        let bound = length(a, b, c) * length(d, e, f) * length(g, k, l)
        guard det.isFinite, abs(det) > 1e-12 * bound else { return nil }
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
    package var planeHomography: PlaneHomography { PlaneHomography(self) }
}
