import Foundation

/// A projective map of the plane (a homography), in the same row-vector
/// convention as `CATransform3D`:
///
///     [x' y' w'] = [x y 1] * | m11 m12 m13 |
///                            | m21 m22 m23 |
///                            | m31 m32 m33 |
///
/// and the mapped point is `(x'/w', y'/w')`.
///
/// It is what remains of a `CATransform3D` when points start in the plane
/// z = 0 and are flattened (z dropped, orthographically) at the end: rows and
/// columns 1, 2 and 4 of the 4x4 (see `init(flattening:)`). Because dropping
/// z between two 4x4 transforms is the same as multiplying their reductions,
/// a chain of layers that each flatten their sublayers is one
/// `ProjectiveTransform`, and its inverse maps back from the final plane.
public struct ProjectiveTransform: Hashable, Sendable {
    public var m11: CGFloat, m12: CGFloat, m13: CGFloat
    public var m21: CGFloat, m22: CGFloat, m23: CGFloat
    public var m31: CGFloat, m32: CGFloat, m33: CGFloat

    public init(
        m11: CGFloat, m12: CGFloat, m13: CGFloat,
        m21: CGFloat, m22: CGFloat, m23: CGFloat,
        m31: CGFloat, m32: CGFloat, m33: CGFloat
    ) {
        self.m11 = m11; self.m12 = m12; self.m13 = m13
        self.m21 = m21; self.m22 = m22; self.m23 = m23
        self.m31 = m31; self.m32 = m32; self.m33 = m33
    }

    /// The identity map.
    public static let identity = ProjectiveTransform(
        m11: 1, m12: 0, m13: 0,
        m21: 0, m22: 1, m23: 0,
        m31: 0, m32: 0, m33: 1)

    /// The map of the plane z = 0 through `t`, flattened onto z = 0 of the
    /// destination: `m11 m12 m14 / m21 m22 m24 / m41 m42 m44` of `t`. Row 3
    /// of `t` is unused because the source points have z = 0, and column 3
    /// because the destination z is dropped.
    public init(flattening t: CATransform3D) {
        self.init(
            m11: t.m11, m12: t.m12, m13: t.m14,
            m21: t.m21, m22: t.m22, m23: t.m24,
            m31: t.m41, m32: t.m42, m33: t.m44)
    }

    /// The 2D affine transform as a projective map.
    public init(_ t: CGAffineTransform) {
        self.init(m11: t.a, m12: t.b, m13: 0, m21: t.c, m22: t.d, m23: 0, m31: t.tx, m32: t.ty, m33: 1)
    }

    /// `self` followed by `other`: a point is mapped by `self` first.
    public func concatenating(_ other: ProjectiveTransform) -> ProjectiveTransform {
        let a = self, b = other
        return ProjectiveTransform(
            m11: a.m11 * b.m11 + a.m12 * b.m21 + a.m13 * b.m31,
            m12: a.m11 * b.m12 + a.m12 * b.m22 + a.m13 * b.m32,
            m13: a.m11 * b.m13 + a.m12 * b.m23 + a.m13 * b.m33,
            m21: a.m21 * b.m11 + a.m22 * b.m21 + a.m23 * b.m31,
            m22: a.m21 * b.m12 + a.m22 * b.m22 + a.m23 * b.m32,
            m23: a.m21 * b.m13 + a.m22 * b.m23 + a.m23 * b.m33,
            m31: a.m31 * b.m11 + a.m32 * b.m21 + a.m33 * b.m31,
            m32: a.m31 * b.m12 + a.m32 * b.m22 + a.m33 * b.m32,
            m33: a.m31 * b.m13 + a.m32 * b.m23 + a.m33 * b.m33)
    }

    /// The determinant.
    public var determinant: CGFloat {
        m11 * (m22 * m33 - m23 * m32) - m12 * (m21 * m33 - m23 * m31) + m13 * (m21 * m32 - m22 * m31)
    }

    /// The inverse, or nil when the map is singular or so nearly singular
    /// that its inverse means nothing (a layer seen edge-on, where rounding
    /// leaves a cosine of 1e-17 instead of 0), or not finite.
    ///
    /// "Nearly" is measured without units: the determinant against the
    /// product of the row lengths, which bounds it (Hadamard's inequality).
    /// The ratio is 1 for orthogonal rows and does not change when a row is
    /// scaled, so small or large layers are not mistaken for singular ones.
    public func inverted() -> ProjectiveTransform? {
        let det = determinant
        func length(_ a: CGFloat, _ b: CGFloat, _ c: CGFloat) -> CGFloat { (a * a + b * b + c * c).squareRoot() }
        let bound = length(m11, m12, m13) * length(m21, m22, m23) * length(m31, m32, m33)
        guard det.isFinite, abs(det) > 1e-12 * bound else { return nil }
        let k = 1 / det
        return ProjectiveTransform(
            m11: (m22 * m33 - m23 * m32) * k,
            m12: (m13 * m32 - m12 * m33) * k,
            m13: (m12 * m23 - m13 * m22) * k,
            m21: (m23 * m31 - m21 * m33) * k,
            m22: (m11 * m33 - m13 * m31) * k,
            m23: (m13 * m21 - m11 * m23) * k,
            m31: (m21 * m32 - m22 * m31) * k,
            m32: (m12 * m31 - m11 * m32) * k,
            m33: (m11 * m22 - m12 * m21) * k)
    }

    /// Maps `p` and returns the homogeneous result `(x', y', w')`. A point
    /// with `w' > 0` lies in front of the eye; `w' <= 0` is at or behind it.
    public func applyHomogeneous(to p: CGPoint) -> (x: CGFloat, y: CGFloat, w: CGFloat) {
        (p.x * m11 + p.y * m21 + m31,
         p.x * m12 + p.y * m22 + m32,
         p.x * m13 + p.y * m23 + m33)
    }

    /// Maps `p` and divides by w. The result is not finite when w is 0.
    public func apply(to p: CGPoint) -> CGPoint {
        let h = applyHomogeneous(to: p)
        return CGPoint(x: h.x / h.w, y: h.y / h.w)
    }
}
