import Foundation

/// How Core Animation moves between two `CATransform3D` values: each is split
/// into translation, scale and shear, rotation and perspective; those parts
/// are interpolated (the rotation as a quaternion, along the shorter arc) and
/// the result is put back together.
///
/// So a rotation from 0 to 90° about z is a 45° rotation half-way, not the
/// shrunken average of two matrices; and, as in Core Animation, a transform
/// animation from 0 to 270° turns the short way (-90°): use a
/// `transform.rotation.z` key path to turn further.
///
/// The split, in Core Animation's row-vector order (a point is transformed
/// by the left factor first):
///
///     M = | K·U  0 | · | I  p |
///         |  t   1 |   | 0  w |
///
/// `K` is lower triangular (scales on the diagonal, shears below), `U` a
/// rotation, `t` the translation, and `(p, w)` the perspective part. A
/// transform with a perspective column and a singular upper 3x3 cannot be
/// split that way; between such transforms Lamina interpolates the 16 fields
/// one by one.
enum TransformInterpolation {
    static func interpolate(from a: CATransform3D, to b: CATransform3D, fraction f: Double) -> CATransform3D {
        if f == 0 { return a }
        if f == 1 { return b }
        guard let da = DecomposedTransform(a), let db = DecomposedTransform(b) else {
            let fields = zip(a.fields, b.fields).map { x, y in x + (y - x) * CGFloat(f) }
            return CATransform3D(fields: fields) ?? a
        }
        return da.interpolated(to: db, fraction: f).transform
    }
}

/// A transform split as `TransformInterpolation` describes.
struct DecomposedTransform {
    typealias Vector3 = SIMD3<Double>

    /// The lower-triangular factor, row by row: `k[i][j]` for `j <= i`.
    var k: [[Double]]
    var rotation: Quaternion
    var translation: Vector3
    var perspective: Vector3
    var w: Double

    init?(_ m: CATransform3D) {
        let f = m.fields.map(Double.init)
        guard f.allSatisfy(\.isFinite) else { return nil }
        let rows = [Vector3(f[0], f[1], f[2]), Vector3(f[4], f[5], f[6]), Vector3(f[8], f[9], f[10])]
        translation = Vector3(f[12], f[13], f[14])
        let column = Vector3(f[3], f[7], f[11])
        if column == .zero {
            perspective = .zero
        } else {
            // Solve A·p = column (A has the rows above) by Cramer's rule.
            let det = Self.determinant(rows[0], rows[1], rows[2])
            guard det != 0, det.isFinite else { return nil }
            func replaced(_ i: Int) -> Double {
                var cols = [Vector3(rows[0].x, rows[1].x, rows[2].x),
                            Vector3(rows[0].y, rows[1].y, rows[2].y),
                            Vector3(rows[0].z, rows[1].z, rows[2].z)]
                cols[i] = column
                return Self.determinant(cols[0], cols[1], cols[2]) / det  // det(Aᵀ) = det(A)
            }
            perspective = Vector3(replaced(0), replaced(1), replaced(2))
        }
        w = f[15] - (translation * perspective).sum()

        // Gram-Schmidt on the rows, in order. A row that adds no new direction
        // (a zero scale) gets a unit vector completing the basis instead, so
        // that U is always a rotation and K stays lower triangular.
        let size = max(rows.map { Self.length($0) }.max() ?? 0, .leastNormalMagnitude)
        var basis: [Vector3] = []
        var degenerate: Int?
        for row in rows {
            var v = row
            for u in basis { v -= (v * u).sum() * u }
            if Self.length(v) > 1e-12 * size {
                basis.append(v / Self.length(v))
            } else {
                degenerate = degenerate ?? basis.count
                basis.append(Self.completion(of: basis))
            }
        }
        // A mirror shows as a left-handed basis: flip one axis, a degenerate
        // one if there is one (it has no extent to flip), else x, which a
        // plain scale(-1, 1, 1) reads back as exactly that.
        if Self.determinant(basis[0], basis[1], basis[2]) < 0 {
            basis[degenerate ?? 0] = -basis[degenerate ?? 0]
        }
        k = (0..<3).map { i in (0...i).map { j in (rows[i] * basis[j]).sum() } }
        rotation = Quaternion(rows: basis[0], basis[1], basis[2])
    }

    func interpolated(to other: DecomposedTransform, fraction f: Double) -> DecomposedTransform {
        func lerp(_ a: Double, _ b: Double) -> Double { a + (b - a) * f }
        var r = self
        r.k = (0..<3).map { i in (0...i).map { j in lerp(k[i][j], other.k[i][j]) } }
        r.rotation = rotation.slerp(to: other.rotation, fraction: f)
        r.translation = translation + (other.translation - translation) * f
        r.perspective = perspective + (other.perspective - perspective) * f
        r.w = lerp(w, other.w)
        return r
    }

    /// The transform put back together.
    var transform: CATransform3D {
        let u = rotation.rows
        let a = (0..<3).map { i in (0...i).reduce(Vector3.zero) { $0 + k[i][$1] * u[$1] } }
        let ap = a.map { ($0 * perspective).sum() }
        let fields = [
            a[0].x, a[0].y, a[0].z, ap[0],
            a[1].x, a[1].y, a[1].z, ap[1],
            a[2].x, a[2].y, a[2].z, ap[2],
            translation.x, translation.y, translation.z, (translation * perspective).sum() + w,
        ]
        return CATransform3D(fields: fields.map { CGFloat($0) }) ?? .identity
    }

    private static func length(_ v: Vector3) -> Double { (v * v).sum().squareRoot() }

    private static func determinant(_ a: Vector3, _ b: Vector3, _ c: Vector3) -> Double {
        a.x * (b.y * c.z - b.z * c.y) - a.y * (b.x * c.z - b.z * c.x) + a.z * (b.x * c.y - b.y * c.x)
    }

    /// A unit vector orthogonal to the (orthonormal) `basis`.
    private static func completion(of basis: [Vector3]) -> Vector3 {
        for axis in [Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)] {
            var v = axis
            for u in basis { v -= (v * u).sum() * u }
            // With at most two unit vectors removed, one axis keeps at least
            // 1/sqrt(3) of its length.
            if length(v) > 0.5 { return v / length(v) }
        }
        return Vector3(0, 0, 1)
    }
}

/// A unit quaternion: a rotation.
struct Quaternion: Hashable {
    var x, y, z, w: Double

    init(x: Double, y: Double, z: Double, w: Double) {
        self.x = x; self.y = y; self.z = z; self.w = w
    }

    /// The rotation whose matrix, in row-vector order, has these rows (an
    /// orthonormal, right-handed basis).
    init(rows u0: SIMD3<Double>, _ u1: SIMD3<Double>, _ u2: SIMD3<Double>) {
        // In column-vector terms the matrix is R = Uᵀ, so R[i][j] = U[j][i].
        let r00 = u0.x, r01 = u1.x, r02 = u2.x
        let r10 = u0.y, r11 = u1.y, r12 = u2.y
        let r20 = u0.z, r21 = u1.z, r22 = u2.z
        let trace = r00 + r11 + r22
        // Divide by the largest of the four candidates for accuracy.
        if trace > 0 {
            let s = (trace + 1).squareRoot() * 2
            self.init(x: (r21 - r12) / s, y: (r02 - r20) / s, z: (r10 - r01) / s, w: s / 4)
        } else if r00 > r11 && r00 > r22 {
            let s = (1 + r00 - r11 - r22).squareRoot() * 2
            self.init(x: s / 4, y: (r01 + r10) / s, z: (r02 + r20) / s, w: (r21 - r12) / s)
        } else if r11 > r22 {
            let s = (1 + r11 - r00 - r22).squareRoot() * 2
            self.init(x: (r01 + r10) / s, y: s / 4, z: (r12 + r21) / s, w: (r02 - r20) / s)
        } else {
            let s = (1 + r22 - r00 - r11).squareRoot() * 2
            self.init(x: (r02 + r20) / s, y: (r12 + r21) / s, z: s / 4, w: (r10 - r01) / s)
        }
    }

    /// The rows of the rotation matrix in row-vector order.
    var rows: [SIMD3<Double>] {
        let n = (x * x + y * y + z * z + w * w).squareRoot()
        let (x, y, z, w) = n > 0 ? (x / n, y / n, z / n, w / n) : (0, 0, 0, 1)
        // Columns of the column-vector matrix R are the rows of U = Rᵀ.
        return [
            SIMD3(1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w)),
            SIMD3(2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w)),
            SIMD3(2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)),
        ]
    }

    /// Spherical interpolation along the shorter arc; fractions outside 0...1
    /// continue along the same great circle.
    func slerp(to other: Quaternion, fraction f: Double) -> Quaternion {
        var b = other
        var cosine = x * b.x + y * b.y + z * b.z + w * b.w
        if cosine < 0 {
            b = Quaternion(x: -b.x, y: -b.y, z: -b.z, w: -b.w)
            cosine = -cosine
        }
        let wa: Double, wb: Double
        if cosine > 0.9999995 {
            // Nearly the same rotation: the linear blend is exact enough and
            // avoids dividing by sin(θ) ≈ 0.
            wa = 1 - f
            wb = f
        } else {
            let theta = acos(min(cosine, 1))
            let s = sin(theta)
            wa = sin((1 - f) * theta) / s
            wb = sin(f * theta) / s
        }
        return Quaternion(x: wa * x + wb * b.x, y: wa * y + wb * b.y, z: wa * z + wb * b.z, w: wa * w + wb * b.w)
    }
}
