import Foundation
import Testing
@testable import LaminaGeometry

/// Whether two numbers agree to within `tolerance`.
func close(_ a: CGFloat, _ b: CGFloat, _ tolerance: CGFloat = 1e-9) -> Bool { abs(a - b) <= tolerance }

func close(_ a: CGPoint, _ b: CGPoint, _ tolerance: CGFloat = 1e-9) -> Bool {
    close(a.x, b.x, tolerance) && close(a.y, b.y, tolerance)
}

func close(_ a: CATransform3D, _ b: CATransform3D, _ tolerance: CGFloat = 1e-9) -> Bool {
    zip(a.fields, b.fields).allSatisfy { close($0, $1, tolerance) }
}

func close(_ a: CGAffineTransform, _ b: CGAffineTransform, _ tolerance: CGFloat = 1e-9) -> Bool {
    close(a.a, b.a, tolerance) && close(a.b, b.b, tolerance) && close(a.c, b.c, tolerance)
        && close(a.d, b.d, tolerance) && close(a.tx, b.tx, tolerance) && close(a.ty, b.ty, tolerance)
}

@Suite("CGAffineTransform")
struct AffineTransformTests {
    @Test func rotationTurnsXTowardsY() {
        let t = CGAffineTransform(rotationAngle: .pi / 2)
        #expect(close(CGPoint(x: 1, y: 0).applying(t), CGPoint(x: 0, y: 1)))
        #expect(close(t.a, 0) && close(t.b, 1) && close(t.c, -1) && close(t.d, 0))
    }

    @Test func listing5_2OrderTranslateAfterScaleAndRotate() {
        // Listing 5.2: scale 0.5, rotate 30°, translate 200 — the translation is
        // scaled and rotated, so the layer moves 100 points along 30°.
        var t = CGAffineTransform.identity
        t = t.scaledBy(x: 0.5, y: 0.5)
        t = t.rotated(by: .pi / 180 * 30)
        t = t.translatedBy(x: 200, y: 0)
        #expect(close(t.tx, 100 * cos(.pi / 6)))
        #expect(close(t.ty, 100 * sin(.pi / 6)))
        #expect(close(t.a, 0.5 * cos(.pi / 6)) && close(t.b, 0.5 * sin(.pi / 6)))
        // The C functions give the same.
        var c = CGAffineTransformIdentity
        c = CGAffineTransformScale(c, 0.5, 0.5)
        c = CGAffineTransformRotate(c, .pi / 180 * 30)
        c = CGAffineTransformTranslate(c, 200, 0)
        #expect(c == t)
    }

    @Test func concatenationAppliesLeftFirst() {
        let s = CGAffineTransform(scaleX: 2, y: 3)
        let m = CGAffineTransform(translationX: 10, y: 20)
        let p = CGPoint(x: 1, y: 1)
        #expect(p.applying(s.concatenating(m)) == CGPoint(x: 12, y: 23))
        #expect(p.applying(m.concatenating(s)) == CGPoint(x: 22, y: 63))
        #expect(CGAffineTransformConcat(s, m) == s.concatenating(m))
    }

    @Test func listing5_3ShearBySettingFields() {
        var t = CGAffineTransform.identity
        t.c = -1
        t.b = 0
        #expect(CGPoint(x: 0, y: 10).applying(t) == CGPoint(x: -10, y: 10))
        #expect(CGAffineTransformMake(1, 0, -1, 1, 0, 0) == t)
    }

    @Test func inversionRoundTrips() {
        let t = CGAffineTransform(a: 2, b: 0.5, c: -1, d: 3, tx: 7, ty: -4)
        #expect(close(t.concatenating(t.inverted()), .identity))
        #expect(close(t.inverted().concatenating(t), .identity))
        #expect(close(CGAffineTransformInvert(t), t.inverted()))
    }

    @Test func singularInversionReturnsInput() {
        let t = CGAffineTransform(a: 1, b: 2, c: 2, d: 4, tx: 5, ty: 6)
        #expect(t.inverted() == t)
    }

    @Test func identityChecks() {
        #expect(CGAffineTransform.identity.isIdentity)
        #expect(CGAffineTransformIsIdentity(CGAffineTransform()))
        #expect(!CGAffineTransform(translationX: 1, y: 0).isIdentity)
        #expect(CGAffineTransformEqualToTransform(CGAffineTransformMakeScale(2, 2), CGAffineTransform(scaleX: 2, y: 2)))
        #expect(CGAffineTransformMakeTranslation(3, 4) == CGAffineTransform(translationX: 3, y: 4))
        #expect(CGAffineTransformMakeRotation(1) == CGAffineTransform(rotationAngle: 1))
    }

    @Test func sizeIgnoresTranslation() {
        let t = CGAffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 100, ty: 100)
        #expect(close(CGSize(width: 2, height: 3).applying(t).width, -3))
        #expect(close(CGSizeApplyAffineTransform(CGSize(width: 2, height: 3), t).height, 2))
    }

    @Test func rectBoundingBox() {
        let r = CGRect(x: 0, y: 0, width: 100, height: 100)
        let box = r.applying(CGAffineTransform(rotationAngle: .pi / 4))
        let h = 100 * 2.0.squareRoot()
        #expect(close(box.width, h, 1e-9) && close(box.height, h, 1e-9))
        #expect(close(box.minX, -h / 2, 1e-9) && close(box.minY, 0, 1e-9))
        // A mirror gives a standardised rect.
        let m = CGRectApplyAffineTransform(r, CGAffineTransform(scaleX: -1, y: 2))
        #expect(m == CGRect(x: -100, y: 0, width: 100, height: 200))
        #expect(CGRect.null.applying(CGAffineTransform(scaleX: 2, y: 2)).isNull)
        #expect(CGPointApplyAffineTransform(CGPoint(x: 1, y: 2), CGAffineTransform(translationX: 1, y: 1)) == CGPoint(x: 2, y: 3))
    }
}

@Suite("CATransform3D")
struct Transform3DTests {
    let angle: CGFloat = 0.7

    @Test func rotationAboutZMatchesAffineRotation() {
        let t = CATransform3DMakeRotation(angle, 0, 0, 1)
        let expected = CATransform3D(
            m11: cos(angle), m12: sin(angle), m13: 0, m14: 0,
            m21: -sin(angle), m22: cos(angle), m23: 0, m24: 0,
            m31: 0, m32: 0, m33: 1, m34: 0,
            m41: 0, m42: 0, m43: 0, m44: 1)
        #expect(close(t, expected))
        #expect(close(t, CATransform3DMakeAffineTransform(CGAffineTransform(rotationAngle: angle))))
    }

    @Test func rotationAboutX() {
        let t = CATransform3DMakeRotation(angle, 1, 0, 0)
        let expected = CATransform3D(
            m11: 1, m12: 0, m13: 0, m14: 0,
            m21: 0, m22: cos(angle), m23: sin(angle), m24: 0,
            m31: 0, m32: -sin(angle), m33: cos(angle), m34: 0,
            m41: 0, m42: 0, m43: 0, m44: 1)
        #expect(close(t, expected))
        // +y turns towards +z.
        let p = t.apply(x: 0, y: 1)
        #expect(close(p.y, cos(angle)) && close(p.z, sin(angle)))
    }

    @Test func rotationAboutY() {
        let t = CATransform3DMakeRotation(angle, 0, 1, 0)
        let expected = CATransform3D(
            m11: cos(angle), m12: 0, m13: -sin(angle), m14: 0,
            m21: 0, m22: 1, m23: 0, m24: 0,
            m31: sin(angle), m32: 0, m33: cos(angle), m34: 0,
            m41: 0, m42: 0, m43: 0, m44: 1)
        #expect(close(t, expected))
        // +z turns towards +x.
        let p = t.apply(x: 0, y: 0, z: 1)
        #expect(close(p.x, sin(angle)) && close(p.z, cos(angle)))
    }

    @Test func rotationAboutArbitraryAxis() {
        // 120° about (1, 1, 1) cycles the axes: x -> y -> z -> x.
        let t = CATransform3DMakeRotation(2 * .pi / 3, 1, 1, 1)
        let x = t.apply(x: 1, y: 0, z: 0)
        #expect(close(x.x, 0, 1e-12) && close(x.y, 1, 1e-12) && close(x.z, 0, 1e-12))
        let y = t.apply(x: 0, y: 1, z: 0)
        #expect(close(y.x, 0, 1e-12) && close(y.y, 0, 1e-12) && close(y.z, 1, 1e-12))
        // The axis need not be normalised, and the axis itself stays put.
        let u = CATransform3DMakeRotation(angle, 0, 3, 4)
        let onAxis = u.apply(x: 0, y: 3, z: 4)
        #expect(close(onAxis.x, 0, 1e-12) && close(onAxis.y, 3, 1e-12) && close(onAxis.z, 4, 1e-12))
        #expect(close(u.determinant, 1, 1e-12))
        #expect(CATransform3DMakeRotation(1, 0, 0, 0) == .identity)
    }

    @Test func translateScaleRotateComposeBeforeTheTransform() {
        let base = CATransform3DMakeTranslation(10, 20, 30)
        #expect(CATransform3DRotate(base, angle, 0, 1, 0) == CATransform3DConcat(CATransform3DMakeRotation(angle, 0, 1, 0), base))
        #expect(CATransform3DScale(base, 2, 3, 4) == CATransform3DConcat(CATransform3DMakeScale(2, 3, 4), base))
        #expect(CATransform3DTranslate(base, 1, 2, 3) == CATransform3DConcat(CATransform3DMakeTranslation(1, 2, 3), base))
        // Scale then translate: the translation is not scaled.
        let st = CATransform3DConcat(CATransform3DMakeScale(2, 2, 2), CATransform3DMakeTranslation(5, 0, 0))
        #expect(st.apply(x: 1, y: 0).x == 7)
    }

    @Test func listing5_5Perspective() {
        // transform.m34 = -1/500; transform = CATransform3DRotate(transform, M_PI_4, 0, 1, 0)
        var t = CATransform3DIdentity
        t.m34 = -1.0 / 500
        t = CATransform3DRotate(t, .pi / 4, 0, 1, 0)
        let c = cos(CGFloat.pi / 4), s = sin(CGFloat.pi / 4)
        let expected = CATransform3D(
            m11: c, m12: 0, m13: -s, m14: s / 500,
            m21: 0, m22: 1, m23: 0, m24: 0,
            m31: s, m32: 0, m33: c, m34: -c / 500,
            m41: 0, m42: 0, m43: 0, m44: 1)
        #expect(close(t, expected))
        // The edge at +x recedes (w > 1 shrinks it); the edge at -x comes nearer.
        let right = t.apply(x: 100, y: 50)
        let left = t.apply(x: -100, y: 50)
        #expect(right.w > 1 && left.w < 1)
        #expect(abs(right.projected.y) < 50 && abs(left.projected.y) > 50)
        // The scene format's operation list builds the same matrix.
        let ops = CATransform3D(perspectiveDistance: 500).rotated(by: .pi / 4, x: 0, y: 1, z: 0)
        #expect(close(ops, CATransform3DConcat(CATransform3DMakeRotation(.pi / 4, 0, 1, 0), CATransform3D(perspectiveDistance: 500))))
    }

    @Test func inversionRoundTrips() {
        var t = CATransform3DMakeRotation(0.3, 1, 2, 3)
        t = CATransform3DScale(t, 2, 0.5, 3)
        t = CATransform3DTranslate(t, 10, -20, 5)
        t.m34 = -1.0 / 400
        #expect(close(CATransform3DConcat(t, CATransform3DInvert(t)), .identity, 1e-9))
        #expect(close(CATransform3DConcat(CATransform3DInvert(t), t), .identity, 1e-9))
        #expect(close(t.determinant * t.inverted().determinant, 1, 1e-9))
    }

    @Test func singularInversionReturnsInput() {
        let flat = CATransform3DMakeScale(1, 1, 0)
        #expect(CATransform3DInvert(flat) == flat)
    }

    @Test func affineRoundTrips() {
        let a = CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        let t = CATransform3DMakeAffineTransform(a)
        #expect(CATransform3DIsAffine(t))
        #expect(CATransform3DGetAffineTransform(t) == a)
        var notAffine = t
        notAffine.m34 = -0.002
        #expect(!CATransform3DIsAffine(notAffine))
        #expect(!CATransform3DIsAffine(CATransform3DMakeRotation(0.5, 0, 1, 0)))
        #expect(CATransform3DIsAffine(CATransform3DMakeRotation(0.5, 0, 0, 1)))
        // Concatenation agrees in both worlds.
        let b = CGAffineTransform(rotationAngle: 0.4).translatedBy(x: 3, y: 1)
        #expect(close(CATransform3DGetAffineTransform(CATransform3DConcat(t, CATransform3D(b))), a.concatenating(b)))
    }

    @Test func identityAndEquality() {
        #expect(CATransform3DIsIdentity(CATransform3DIdentity))
        #expect(!CATransform3DIsIdentity(CATransform3DMakeTranslation(0, 0, 1)))
        #expect(CATransform3DEqualToTransform(CATransform3DMakeScale(1, 1, 1), CATransform3DIdentity))
        var t = CATransform3D.identity
        t[11] = -0.002
        #expect(t.m34 == -0.002)
        #expect(CATransform3D(fields: t.fields) == t)
        #expect(CATransform3D(fields: [1, 2]) == nil)
    }
}

@Suite("Transform key paths")
struct TransformKeyPathTests {
    @Test func parsesEveryKeyPath() {
        for key in TransformKeyPath.allCases {
            #expect(TransformKeyPath(keyPath: key.keyPath) == key)
            #expect(TransformKeyPath(keyPath: key.rawValue) == key)
        }
        #expect(TransformKeyPath(keyPath: "transform.rotation.w") == nil)
    }

    @Test func readsRotationsAboutEachAxis() {
        #expect(close(CATransform3DMakeRotation(0.5, 0, 0, 1).value(for: .rotationZ), 0.5))
        #expect(close(CATransform3DMakeRotation(0.5, 0, 0, 1).value(for: .rotation), 0.5))
        #expect(close(CATransform3DMakeRotation(0.5, 1, 0, 0).value(for: .rotationX), 0.5))
        #expect(close(CATransform3DMakeRotation(0.5, 0, 1, 0).value(for: .rotationY), 0.5))
        #expect(close(CATransform3DMakeRotation(-2.5, 0, 0, 1).value(for: .rotationZ), -2.5))
    }

    @Test func readsScaleAndTranslation() {
        let t = CATransform3DTranslate(CATransform3DMakeScale(2, 3, 4), 5, 6, 7)
        #expect(close(t.value(for: .scaleX), 2) && close(t.value(for: .scaleY), 3) && close(t.value(for: .scaleZ), 4))
        #expect(close(t.value(for: .scale), 3))
        #expect(t.translationSize == CGSize(width: 10, height: 18))
        #expect(close(t.value(for: .translationZ), 28))
        #expect(close(CATransform3DMakeScale(-1, 1, 1).value(for: .scaleX), -1))
    }

    @Test func writingOneComponentKeepsTheOthers() {
        let rotated = CATransform3DConcat(CATransform3DMakeScale(2, 2, 1), CATransform3DMakeRotation(0.3, 0, 0, 1))
        let moved = rotated.setting(.translationX, to: 40)
        #expect(moved.m41 == 40 && close(moved.value(for: .rotationZ), 0.3) && close(moved.value(for: .scaleX), 2))
        let turned = moved.setting(.rotationZ, to: 1.2)
        #expect(close(turned.value(for: .rotationZ), 1.2) && close(turned.value(for: .scaleY), 2) && close(turned.m41, 40))
        let scaled = turned.setting(.scale, to: 0.5)
        #expect(close(scaled.value(for: .scaleX), 0.5) && close(scaled.value(for: .scaleZ), 0.5) && close(scaled.value(for: .rotationZ), 1.2))
        // Setting rotation.y on the identity is exactly a rotation about y.
        #expect(close(CATransform3DIdentity.setting(.rotationY, to: 0.8), CATransform3DMakeRotation(0.8, 0, 1, 0)))
        #expect(CATransform3DIdentity.setting(translation: CGSize(width: 3, height: 4)) == CATransform3DMakeTranslation(3, 4, 0))
    }

    @Test func decompositionRoundTripsWithPerspective() {
        var t = CATransform3DMakeRotation(0.4, 1, 0, 0)
        t = CATransform3DRotate(t, 0.2, 0, 1, 0)
        t = CATransform3DScale(t, 1.5, 0.5, 2)
        t = CATransform3DTranslate(t, 3, 4, 5)
        t.m34 = -1.0 / 500
        #expect(close(TransformDecomposition(t).transform, t, 1e-9))
    }
}

/// `planePointMap`: `apply(to:)` with the matrix's kind looked at once.
@Suite struct PlanePointMapTests {
    static let points = [CGPoint(x: 0, y: 0), CGPoint(x: 1.25, y: -3.5), CGPoint(x: -0.1, y: 0.3), CGPoint(x: 1e6, y: 7e5 + 0.125)]

    /// Turned, scaled, moved, with z terms a point of the plane z = 0 does
    /// not see: the same coordinates as `apply(to:)`, to the bit; under
    /// perspective, `apply(to:)` itself.
    @Test func theSameCoordinatesAsApply() {
        var affine = CATransform3DConcat(CATransform3DMakeScale(1.7, 0.6, 3), CATransform3DMakeRotation(0.4, 0, 0, 1))
        affine = CATransform3DConcat(affine, CATransform3DMakeTranslation(12.5, -3.25, 8))
        affine.m31 = 0.3
        affine.m32 = -2
        var perspective = affine
        perspective.m14 = 0.001
        perspective.m24 = -0.002
        for matrix in [affine, perspective, CATransform3DIdentity] {
            let map = matrix.planePointMap
            for p in Self.points {
                let (a, b) = (map(p), matrix.apply(to: p))
                #expect(a.x.bitPattern == b.x.bitPattern && a.y.bitPattern == b.y.bitPattern, "\(p) through \(matrix)")
            }
        }
    }
}

@Suite("CATransform3D.isIdentity")
struct TransformIdentityTests {
    /// Exactly the identity, entry by entry as `==` compares them: a
    /// negative zero is zero, any other change of any entry is not the
    /// identity, nor is a NaN.
    @Test func onlyTheIdentityIsTheIdentity() {
        #expect(CATransform3D.identity.isIdentity)
        var negativeZero = CATransform3D.identity
        negativeZero.m12 = -0.0
        #expect(negativeZero.isIdentity)
        let paths: [WritableKeyPath<CATransform3D, CGFloat>] = [\.m11, \.m12, \.m13, \.m14, \.m21, \.m22, \.m23, \.m24,
                                                              \.m31, \.m32, \.m33, \.m34, \.m41, \.m42, \.m43, \.m44]
        for path in paths {
            var changed = CATransform3D.identity
            changed[keyPath: path] += 1e-12
            #expect(!changed.isIdentity)
            #expect(changed.isIdentity == (changed == .identity))
            changed[keyPath: path] = .nan
            #expect(!changed.isIdentity)
        }
    }
}

@Suite("CATransform3D.isFinite")
struct TransformFiniteTests {
    /// Finite exactly when every entry is: an infinity or a NaN in any one
    /// of the sixteen makes it not, the largest finite numbers do not.
    @Test func anyEntryNotFiniteMakesTheTransformNotFinite() {
        var huge = CATransform3D.identity
        huge.m11 = .greatestFiniteMagnitude
        huge.m42 = -.greatestFiniteMagnitude
        #expect(huge.isFinite && CATransform3D.identity.isFinite)
        let paths: [WritableKeyPath<CATransform3D, CGFloat>] = [\.m11, \.m12, \.m13, \.m14, \.m21, \.m22, \.m23, \.m24,
                                                              \.m31, \.m32, \.m33, \.m34, \.m41, \.m42, \.m43, \.m44]
        for path in paths {
            for value in [CGFloat.infinity, -.infinity, .nan] {
                var changed = huge
                changed[keyPath: path] = value
                #expect(!changed.isFinite, "\(path) = \(value)")
            }
        }
    }
}
