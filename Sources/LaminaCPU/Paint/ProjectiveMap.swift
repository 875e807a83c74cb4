/// The plane-to-plane part of a `Matrix4x4` (z = 0 in, Z dropped out): a 3x3
/// projective map with `[x y 1] * H = [X Y W]`, and its inverse, which takes a
/// pixel back to the local point seen there.
///
/// Mapping every pixel centre back through the inverse (a division per pixel)
/// is what makes texturing perspective-correct.
struct ProjectiveMap {
    /// Row-major 3x3: rows are the x, y and constant terms; columns X, Y, W.
    var h: (Double, Double, Double, Double, Double, Double, Double, Double, Double)

    init(_ m: Matrix4x4) {
        h = (m.m11, m.m12, m.m14, m.m21, m.m22, m.m24, m.m41, m.m42, m.m44)
    }

    private init(entries: (Double, Double, Double, Double, Double, Double, Double, Double, Double)) {
        h = entries
    }

    /// The inverse map, or nil when the plane is seen exactly edge-on (or the
    /// matrix holds non-finite values): then nothing of it is visible.
    func inverted() -> ProjectiveMap? {
        let (a, b, c, d, e, f, g, k, l) = h
        let c00 = e * l - f * k, c01 = c * k - b * l, c02 = b * f - c * e
        let c10 = f * g - d * l, c11 = a * l - c * g, c12 = c * d - a * f
        let c20 = d * k - e * g, c21 = b * g - a * k, c22 = a * e - b * d
        let det = a * c00 + b * c10 + c * c20
        guard det != 0, det.isFinite else { return nil }
        let s = 1 / det
        let inverse = ProjectiveMap(entries: (
            c00 * s, c01 * s, c02 * s, c10 * s, c11 * s, c12 * s, c20 * s, c21 * s, c22 * s))
        let (i0, i1, i2, i3, i4, i5, i6, i7, i8) = inverse.h
        for v in [i0, i1, i2, i3, i4, i5, i6, i7, i8] where !v.isFinite { return nil }
        return inverse
    }
}
