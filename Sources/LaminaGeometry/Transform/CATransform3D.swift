import Foundation

/// A 4x4 homogeneous transform with Core Animation's names, layout and
/// semantics.
///
/// Points are row vectors multiplied on the left, exactly as in Core Animation:
///
///     [x' y' z' w'] = [x y z 1] * | m11 m12 m13 m14 |
///                                 | m21 m22 m23 m24 |
///                                 | m31 m32 m33 m34 |
///                                 | m41 m42 m43 m44 |
///
/// Translation lives in `m41...m43`, and perspective in `m34` (`-1/d` puts the
/// eye `d` points in front of the plane). `CATransform3DConcat(a, b)` applies
/// `a` first, then `b`, and `CATransform3DRotate(t, ...)` rotates *before* `t`:
/// it equals `CATransform3DConcat(CATransform3DMakeRotation(...), t)`.
public struct CATransform3D: Hashable, Sendable {
    /// The first row: x's contribution to x, y, z and w.
    public var m11: CGFloat, m12: CGFloat, m13: CGFloat, m14: CGFloat
    /// The second row: y's contribution.
    public var m21: CGFloat, m22: CGFloat, m23: CGFloat, m24: CGFloat
    /// The third row: z's contribution.
    public var m31: CGFloat, m32: CGFloat, m33: CGFloat, m34: CGFloat
    /// The fourth row: the translation, and w's constant.
    public var m41: CGFloat, m42: CGFloat, m43: CGFloat, m44: CGFloat

    /// The transform with every field given, row by row.
    public init(
        m11: CGFloat, m12: CGFloat, m13: CGFloat, m14: CGFloat,
        m21: CGFloat, m22: CGFloat, m23: CGFloat, m24: CGFloat,
        m31: CGFloat, m32: CGFloat, m33: CGFloat, m34: CGFloat,
        m41: CGFloat, m42: CGFloat, m43: CGFloat, m44: CGFloat
    ) {
        self.m11 = m11; self.m12 = m12; self.m13 = m13; self.m14 = m14
        self.m21 = m21; self.m22 = m22; self.m23 = m23; self.m24 = m24
        self.m31 = m31; self.m32 = m32; self.m33 = m33; self.m34 = m34
        self.m41 = m41; self.m42 = m42; self.m43 = m43; self.m44 = m44
    }

    /// The identity transform.
    public init() {
        self.init(
            m11: 1, m12: 0, m13: 0, m14: 0,
            m21: 0, m22: 1, m23: 0, m24: 0,
            m31: 0, m32: 0, m33: 1, m34: 0,
            m41: 0, m42: 0, m43: 0, m44: 1)
    }

    /// The transform from 16 values in field order (`m11, m12, ..., m44`).
    /// Returns nil unless exactly 16 values are given.
    public init?(fields: [CGFloat]) {
        guard fields.count == 16 else { return nil }
        self.init(
            m11: fields[0], m12: fields[1], m13: fields[2], m14: fields[3],
            m21: fields[4], m22: fields[5], m23: fields[6], m24: fields[7],
            m31: fields[8], m32: fields[9], m33: fields[10], m34: fields[11],
            m41: fields[12], m42: fields[13], m43: fields[14], m44: fields[15])
    }

    /// The 16 fields in order `m11, m12, ..., m44` (row-major).
    public var fields: [CGFloat] {
        [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44]
    }

    /// Whether every field is finite (no array is made: decoding asks this
    /// of every layer's transform).
    public var isFinite: Bool {
        // x − x is 0 for a finite x and NaN for an infinite or NaN one, and
        // a NaN makes the sum NaN: one test without a branch an entry (every
        // layer's matrix of every frame is asked).
        let r1 = SIMD4<Double>(m11, m12, m13, m14), r2 = SIMD4<Double>(m21, m22, m23, m24)
        let r3 = SIMD4<Double>(m31, m32, m33, m34), r4 = SIMD4<Double>(m41, m42, m43, m44)
        let zeros: SIMD4<Double> = (r1 - r1) + (r2 - r2) + (r3 - r3) + (r4 - r4)
        return zeros.sum() == 0
    }

    /// The field names in order, as Core Animation spells them.
    public static let fieldNames = [
        "m11", "m12", "m13", "m14", "m21", "m22", "m23", "m24",
        "m31", "m32", "m33", "m34", "m41", "m42", "m43", "m44",
    ]

    /// Reads or writes a field by its index in `fields` order (0...15).
    public subscript(index: Int) -> CGFloat {
        get {
            switch index {
            case 0: m11
            case 1: m12
            case 2: m13
            case 3: m14
            case 4: m21
            case 5: m22
            case 6: m23
            case 7: m24
            case 8: m31
            case 9: m32
            case 10: m33
            case 11: m34
            case 12: m41
            case 13: m42
            case 14: m43
            case 15: m44
            default: preconditionFailure("CATransform3D has 16 fields; index \(index) is out of range")
            }
        }
        set {
            switch index {
            case 0: m11 = newValue
            case 1: m12 = newValue
            case 2: m13 = newValue
            case 3: m14 = newValue
            case 4: m21 = newValue
            case 5: m22 = newValue
            case 6: m23 = newValue
            case 7: m24 = newValue
            case 8: m31 = newValue
            case 9: m32 = newValue
            case 10: m33 = newValue
            case 11: m34 = newValue
            case 12: m41 = newValue
            case 13: m42 = newValue
            case 14: m43 = newValue
            case 15: m44 = newValue
            default: preconditionFailure("CATransform3D has 16 fields; index \(index) is out of range")
            }
        }
    }

    /// The identity transform.
    public static let identity = CATransform3D()
}

// MARK: - Constructors

extension CATransform3D {
    /// A translation by `(tx, ty, tz)`.
    public init(translationX tx: CGFloat, y ty: CGFloat, z tz: CGFloat) {
        self.init()
        m41 = tx; m42 = ty; m43 = tz
    }

    /// A scale by `(sx, sy, sz)`.
    public init(scaleX sx: CGFloat, y sy: CGFloat, z sz: CGFloat) {
        self.init()
        m11 = sx; m22 = sy; m33 = sz
    }

    /// A rotation by `angle` radians about the axis `(x, y, z)`, which need
    /// not be normalised. A rotation about the z axis turns +x towards +y, as
    /// `CGAffineTransform(rotationAngle:)` does. A zero-length axis gives the
    /// identity (Core Animation leaves that case undefined).
    public init(rotationAngle angle: CGFloat, x: CGFloat, y: CGFloat, z: CGFloat) {
        self.init()
        let length = (x * x + y * y + z * z).squareRoot()
        guard length > 0, length.isFinite else { return }
        let (x, y, z) = (x / length, y / length, z / length)
        let (s, c) = (sin(angle), cos(angle))
        let t = 1 - c
        m11 = t * x * x + c;     m12 = t * x * y + s * z; m13 = t * x * z - s * y
        m21 = t * x * y - s * z; m22 = t * y * y + c;     m23 = t * y * z + s * x
        m31 = t * x * z + s * y; m32 = t * y * z - s * x; m33 = t * z * z + c
    }

    /// The 3D transform equivalent to a 2D affine transform.
    public init(_ affine: CGAffineTransform) {
        self.init()
        m11 = affine.a; m12 = affine.b
        m21 = affine.c; m22 = affine.d
        m41 = affine.tx; m42 = affine.ty
    }

    /// The identity with `m34 = -1/distance`: the perspective of an eye
    /// `distance` points in front of the plane, as the book's listing 5.5 sets.
    public init(perspectiveDistance distance: CGFloat) {
        self.init()
        m34 = -1 / distance
    }
}

// MARK: - Algebra

extension CATransform3D {
    /// Whether this is exactly the identity.
    public var isIdentity: Bool {
        // Entry by entry against the identity's, as `== .identity` compares
        // them, without reading the shared identity first: asked of every
        // layer's transforms each frame.
        m11 == 1 && m12 == 0 && m13 == 0 && m14 == 0 && m21 == 0 && m22 == 1 && m23 == 0 && m24 == 0
            && m31 == 0 && m32 == 0 && m33 == 1 && m34 == 0 && m41 == 0 && m42 == 0 && m43 == 0 && m44 == 1
    }

    /// `self` followed by `other`: a point is transformed by `self` first.
    public func concatenating(_ other: CATransform3D) -> CATransform3D {
        let a = self, b = other
        return CATransform3D(
            m11: a.m11 * b.m11 + a.m12 * b.m21 + a.m13 * b.m31 + a.m14 * b.m41,
            m12: a.m11 * b.m12 + a.m12 * b.m22 + a.m13 * b.m32 + a.m14 * b.m42,
            m13: a.m11 * b.m13 + a.m12 * b.m23 + a.m13 * b.m33 + a.m14 * b.m43,
            m14: a.m11 * b.m14 + a.m12 * b.m24 + a.m13 * b.m34 + a.m14 * b.m44,
            m21: a.m21 * b.m11 + a.m22 * b.m21 + a.m23 * b.m31 + a.m24 * b.m41,
            m22: a.m21 * b.m12 + a.m22 * b.m22 + a.m23 * b.m32 + a.m24 * b.m42,
            m23: a.m21 * b.m13 + a.m22 * b.m23 + a.m23 * b.m33 + a.m24 * b.m43,
            m24: a.m21 * b.m14 + a.m22 * b.m24 + a.m23 * b.m34 + a.m24 * b.m44,
            m31: a.m31 * b.m11 + a.m32 * b.m21 + a.m33 * b.m31 + a.m34 * b.m41,
            m32: a.m31 * b.m12 + a.m32 * b.m22 + a.m33 * b.m32 + a.m34 * b.m42,
            m33: a.m31 * b.m13 + a.m32 * b.m23 + a.m33 * b.m33 + a.m34 * b.m43,
            m34: a.m31 * b.m14 + a.m32 * b.m24 + a.m33 * b.m34 + a.m34 * b.m44,
            m41: a.m41 * b.m11 + a.m42 * b.m21 + a.m43 * b.m31 + a.m44 * b.m41,
            m42: a.m41 * b.m12 + a.m42 * b.m22 + a.m43 * b.m32 + a.m44 * b.m42,
            m43: a.m41 * b.m13 + a.m42 * b.m23 + a.m43 * b.m33 + a.m44 * b.m43,
            m44: a.m41 * b.m14 + a.m42 * b.m24 + a.m43 * b.m34 + a.m44 * b.m44)
    }

    /// A translation applied before `self` (`CATransform3DTranslate`).
    public func translatedBy(x: CGFloat, y: CGFloat, z: CGFloat) -> CATransform3D {
        CATransform3D(translationX: x, y: y, z: z).concatenating(self)
    }

    /// A scale applied before `self` (`CATransform3DScale`).
    public func scaledBy(x: CGFloat, y: CGFloat, z: CGFloat) -> CATransform3D {
        CATransform3D(scaleX: x, y: y, z: z).concatenating(self)
    }

    /// A rotation applied before `self` (`CATransform3DRotate`).
    public func rotated(by angle: CGFloat, x: CGFloat, y: CGFloat, z: CGFloat) -> CATransform3D {
        CATransform3D(rotationAngle: angle, x: x, y: y, z: z).concatenating(self)
    }

    /// The determinant of the full 4x4 matrix.
    public var determinant: CGFloat {
        // Laplace expansion along 2x2 minors of the top and bottom row pairs.
        let s0 = m11 * m22 - m21 * m12, s1 = m11 * m23 - m21 * m13
        let s2 = m11 * m24 - m21 * m14, s3 = m12 * m23 - m22 * m13
        let s4 = m12 * m24 - m22 * m14, s5 = m13 * m24 - m23 * m14
        let c5 = m33 * m44 - m43 * m34, c4 = m32 * m44 - m42 * m34
        let c3 = m32 * m43 - m42 * m33, c2 = m31 * m44 - m41 * m34
        let c1 = m31 * m43 - m41 * m33, c0 = m31 * m42 - m41 * m32
        return s0 * c5 - s1 * c4 + s2 * c3 + s3 * c2 - s4 * c1 + s5 * c0
    }

    /// The inverse, or `self` unchanged when the matrix is singular, as
    /// `CATransform3DInvert` does.
    public func inverted() -> CATransform3D {
        let s0 = m11 * m22 - m21 * m12, s1 = m11 * m23 - m21 * m13
        let s2 = m11 * m24 - m21 * m14, s3 = m12 * m23 - m22 * m13
        let s4 = m12 * m24 - m22 * m14, s5 = m13 * m24 - m23 * m14
        let c5 = m33 * m44 - m43 * m34, c4 = m32 * m44 - m42 * m34
        let c3 = m32 * m43 - m42 * m33, c2 = m31 * m44 - m41 * m34
        let c1 = m31 * m43 - m41 * m33, c0 = m31 * m42 - m41 * m32
        let det = s0 * c5 - s1 * c4 + s2 * c3 + s3 * c2 - s4 * c1 + s5 * c0
        guard det != 0, det.isFinite else { return self }
        let k = 1 / det
        return CATransform3D(
            m11: (m22 * c5 - m23 * c4 + m24 * c3) * k,
            m12: (-m12 * c5 + m13 * c4 - m14 * c3) * k,
            m13: (m42 * s5 - m43 * s4 + m44 * s3) * k,
            m14: (-m32 * s5 + m33 * s4 - m34 * s3) * k,
            m21: (-m21 * c5 + m23 * c2 - m24 * c1) * k,
            m22: (m11 * c5 - m13 * c2 + m14 * c1) * k,
            m23: (-m41 * s5 + m43 * s2 - m44 * s1) * k,
            m24: (m31 * s5 - m33 * s2 + m34 * s1) * k,
            m31: (m21 * c4 - m22 * c2 + m24 * c0) * k,
            m32: (-m11 * c4 + m12 * c2 - m14 * c0) * k,
            m33: (m41 * s4 - m42 * s2 + m44 * s0) * k,
            m34: (-m31 * s4 + m32 * s2 - m34 * s0) * k,
            m41: (-m21 * c3 + m22 * c1 - m23 * c0) * k,
            m42: (m11 * c3 - m12 * c1 + m13 * c0) * k,
            m43: (-m41 * s3 + m42 * s1 - m43 * s0) * k,
            m44: (m31 * s3 - m32 * s1 + m33 * s0) * k)
    }

    /// Whether the transform is exactly representable as a 2D affine
    /// transform (`CATransform3DIsAffine`).
    public var isAffine: Bool {
        m13 == 0 && m14 == 0 && m23 == 0 && m24 == 0
            && m31 == 0 && m32 == 0 && m33 == 1 && m34 == 0
            && m43 == 0 && m44 == 1
    }

    /// The affine part (`CATransform3DGetAffineTransform`): `m11, m12, m21,
    /// m22, m41, m42`, whatever the other fields hold.
    public var affineTransform: CGAffineTransform {
        CGAffineTransform(a: m11, b: m12, c: m21, d: m22, tx: m41, ty: m42)
    }
}

// MARK: - Applying to points

/// A point in homogeneous coordinates, the result of transforming `[x y z 1]`.
package struct HomogeneousPoint: Hashable, Sendable {
    /// The homogeneous coordinates.
    public var x: CGFloat, y: CGFloat, z: CGFloat, w: CGFloat

    /// The point (x, y, z, w).
    public init(x: CGFloat, y: CGFloat, z: CGFloat, w: CGFloat) {
        self.x = x; self.y = y; self.z = z; self.w = w
    }

    /// The projected 2D point (`x/w, y/w`).
    public var projected: CGPoint { CGPoint(x: x / w, y: y / w) }
}

extension CATransform3D {
    /// Transforms the point `(x, y, z, 1)`.
    package func apply(x: CGFloat, y: CGFloat, z: CGFloat = 0) -> HomogeneousPoint {
        HomogeneousPoint(
            x: x * m11 + y * m21 + z * m31 + m41,
            y: x * m12 + y * m22 + z * m32 + m42,
            z: x * m13 + y * m23 + z * m33 + m43,
            w: x * m14 + y * m24 + z * m34 + m44)
    }

    /// Transforms a 2D point in the plane z = 0 and projects the result.
    public func apply(to point: CGPoint) -> CGPoint {
        apply(x: point.x, y: point.y).projected
    }

    /// `apply(to:)` as a function for the many points of one draw, the
    /// matrix's kind looked at once: where it maps the plane z = 0 without
    /// perspective (W is 1 at every finite point), the two sums that give
    /// the same coordinates, without the other two rows and the division.
    package var planePointMap: (CGPoint) -> CGPoint {
        guard m14 == 0, m24 == 0, m44 == 1, m31.isFinite, m32.isFinite, m34.isFinite else { return { self.apply(to: $0) } }
        let (a, b, c, d, tx, ty) = (m11, m12, m21, m22, m41, m42)
        return { p in CGPoint(x: p.x * a + p.y * c + tx, y: p.x * b + p.y * d + ty) }
    }
}

extension CATransform3D: CustomStringConvertible {
    /// The four rows, for messages and debugging.
    public var description: String {
        let rows = [[m11, m12, m13, m14], [m21, m22, m23, m24], [m31, m32, m33, m34], [m41, m42, m43, m44]]
        return "CATransform3D(" + rows.map { $0.map { "\($0)" }.joined(separator: " ") }.joined(separator: "; ") + ")"
    }
}

// MARK: - The C-style functions the book's listings call

/// The identity transform (`CATransform3DIdentity`).
public let CATransform3DIdentity = CATransform3D.identity

/// Whether `t` is the identity.
public func CATransform3DIsIdentity(_ t: CATransform3D) -> Bool { t.isIdentity }

/// Whether `a` and `b` are equal, entry for entry.
public func CATransform3DEqualToTransform(_ a: CATransform3D, _ b: CATransform3D) -> Bool { a == b }

/// A translation by (`tx`, `ty`, `tz`).
public func CATransform3DMakeTranslation(_ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat) -> CATransform3D {
    CATransform3D(translationX: tx, y: ty, z: tz)
}

/// A scale by (`sx`, `sy`, `sz`).
public func CATransform3DMakeScale(_ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat) -> CATransform3D {
    CATransform3D(scaleX: sx, y: sy, z: sz)
}

/// A rotation by `angle` radians about the axis (`x`, `y`, `z`); the
/// identity for a zero axis, as Core Animation has it.
public func CATransform3DMakeRotation(
    _ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat
) -> CATransform3D {
    CATransform3D(rotationAngle: angle, x: x, y: y, z: z)
}

/// `t` then a translation by (`tx`, `ty`, `tz`), as Core Animation orders it:
/// the translation is applied first.
public func CATransform3DTranslate(
    _ t: CATransform3D, _ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat
) -> CATransform3D {
    t.translatedBy(x: tx, y: ty, z: tz)
}

/// `t` with a scale by (`sx`, `sy`, `sz`) applied first.
public func CATransform3DScale(
    _ t: CATransform3D, _ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat
) -> CATransform3D {
    t.scaledBy(x: sx, y: sy, z: sz)
}

/// `t` with a rotation by `angle` about (`x`, `y`, `z`) applied first.
public func CATransform3DRotate(
    _ t: CATransform3D, _ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat
) -> CATransform3D {
    t.rotated(by: angle, x: x, y: y, z: z)
}

/// `a` then `b`: a point goes through `a` first.
public func CATransform3DConcat(_ a: CATransform3D, _ b: CATransform3D) -> CATransform3D {
    a.concatenating(b)
}

/// The inverse of `t`, or `t` itself when it has none (as Core Animation does).
public func CATransform3DInvert(_ t: CATransform3D) -> CATransform3D { t.inverted() }

/// The 2D affine map `m` as a 3D transform.
public func CATransform3DMakeAffineTransform(_ m: CGAffineTransform) -> CATransform3D {
    CATransform3D(m)
}

/// Whether `t` is a 2D affine map (nothing in z, no perspective).
public func CATransform3DIsAffine(_ t: CATransform3D) -> Bool { t.isAffine }

/// The affine part of `t` (its 2D entries).
public func CATransform3DGetAffineTransform(_ t: CATransform3D) -> CGAffineTransform {
    t.affineTransform
}
