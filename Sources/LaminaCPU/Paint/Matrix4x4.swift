/// A 4x4 matrix in Core Animation's layout (`CATransform3D`): points are row
/// vectors on the left, `[x y z 1] * M`, and `m11 ... m44` are the entries row
/// by row, so the translation is `m41, m42, m43` and perspective lives in
/// `m14, m24, m34` (`m34 = -1 / eyeDistance`).
///
/// For drawing, the matrix maps a layer's *local* point `(x, y, 0)` to
/// homogeneous *pixel* coordinates `(X, Y, Z, W)`: the pixel is `(X/W, Y/W)`,
/// origin top-left, y down.
public struct Matrix4x4: Hashable, Sendable {
    public var m11, m12, m13, m14: Double
    public var m21, m22, m23, m24: Double
    public var m31, m32, m33, m34: Double
    public var m41, m42, m43, m44: Double

    public init(
        m11: Double, m12: Double, m13: Double, m14: Double,
        m21: Double, m22: Double, m23: Double, m24: Double,
        m31: Double, m32: Double, m33: Double, m34: Double,
        m41: Double, m42: Double, m43: Double, m44: Double
    ) {
        (self.m11, self.m12, self.m13, self.m14) = (m11, m12, m13, m14)
        (self.m21, self.m22, self.m23, self.m24) = (m21, m22, m23, m24)
        (self.m31, self.m32, self.m33, self.m34) = (m31, m32, m33, m34)
        (self.m41, self.m42, self.m43, self.m44) = (m41, m42, m43, m44)
    }

    /// The matrix from its 16 entries row by row (`m11, m12, ..., m44`).
    public init(rowMajor entries: [Double]) throws {
        guard entries.count == 16 else {
            throw CPURenderError.invalidArgument(
                what: "4x4 matrix", reason: "needs 16 entries, got \(entries.count)")
        }
        let e = entries
        self.init(
            m11: e[0], m12: e[1], m13: e[2], m14: e[3], m21: e[4], m22: e[5], m23: e[6], m24: e[7],
            m31: e[8], m32: e[9], m33: e[10], m34: e[11], m41: e[12], m42: e[13], m43: e[14], m44: e[15])
    }

    public static let identity = Matrix4x4(
        m11: 1, m12: 0, m13: 0, m14: 0, m21: 0, m22: 1, m23: 0, m24: 0,
        m31: 0, m32: 0, m33: 1, m34: 0, m41: 0, m42: 0, m43: 0, m44: 1)

    /// The entries row by row.
    public var rowMajor: [Double] {
        [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44]
    }

    /// `[x y 0 1] * M`: the homogeneous image of the local point `(x, y)`.
    public func project(x: Double, y: Double) -> (x: Double, y: Double, z: Double, w: Double) {
        (x * m11 + y * m21 + m41, x * m12 + y * m22 + m42, x * m13 + y * m23 + m43, x * m14 + y * m24 + m44)
    }
}
