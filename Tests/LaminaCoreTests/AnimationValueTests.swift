// Interpolation of each value type a layer property can have.
import Foundation
import Testing
@testable import LaminaCore

@Suite struct AnimationValueTests {
    /// The value `fraction` of the way from `from` to `to` through a basic animation.
    static func between(_ from: Any, _ to: Any, _ fraction: Double, model: Any? = nil) -> Any? {
        let a = CABasicAnimation(keyPath: "any")
        a.fromValue = from
        a.toValue = to
        a.duration = 1
        return a.presentationValue(atTime: fraction, modelValue: model)
    }

    static func rotationZ(_ degrees: Double) -> CATransform3D {
        CATransform3D(rotationAngle: CGFloat(degrees * .pi / 180), x: 0, y: 0, z: 1)
    }

    @Test func rotationMidpointIsARotationNotAShrunkenMatrix() throws {
        let mid = try #require(Self.between(CATransform3D.identity, Self.rotationZ(90), 0.5) as? CATransform3D)
        #expect(isClose(mid, Self.rotationZ(45), 1e-12))
        // The average of the two matrices would have m11 = 0.5; a rotation keeps unit length.
        #expect(isClose(Double(mid.m11 * mid.m11 + mid.m12 * mid.m12), 1, 1e-12))
        #expect(isClose(Double(mid.value(for: .rotationZ)), .pi / 4, 1e-12))
    }

    @Test func rotationsAboutOtherAxesAndAQuarterWay() throws {
        let y60 = CATransform3D(rotationAngle: .pi / 3, x: 0, y: 1, z: 0)
        let mid = try #require(Self.between(CATransform3D.identity, y60, 0.5) as? CATransform3D)
        #expect(isClose(mid, CATransform3D(rotationAngle: .pi / 6, x: 0, y: 1, z: 0), 1e-12))
        let quarter = try #require(Self.between(Self.rotationZ(10), Self.rotationZ(90), 0.25) as? CATransform3D)
        #expect(isClose(quarter, Self.rotationZ(30), 1e-12))
    }

    @Test func transformRotationTakesTheShortWay() throws {
        // As in Core Animation: 0 to 270° as matrices turns -90°.
        let mid = try #require(Self.between(CATransform3D.identity, Self.rotationZ(270), 0.5) as? CATransform3D)
        #expect(isClose(mid, Self.rotationZ(-45), 1e-12))
    }

    @Test func scaleTranslationAndPerspectiveInterpolateSeparately() throws {
        let to = CATransform3D(scaleX: 3, y: 5, z: 1).concatenating(CATransform3D(translationX: 100, y: -40, z: 8))
        let mid = try #require(Self.between(CATransform3D.identity, to, 0.5) as? CATransform3D)
        let expected = CATransform3D(scaleX: 2, y: 3, z: 1).concatenating(CATransform3D(translationX: 50, y: -20, z: 4))
        #expect(isClose(mid, expected, 1e-12))

        let perspective = CATransform3D(perspectiveDistance: 500)
        let p = try #require(Self.between(CATransform3D.identity, perspective, 0.5) as? CATransform3D)
        #expect(isClose(Double(p.m34), -1.0 / 1000, 1e-15))
        #expect(isClose(p, CATransform3D(perspectiveDistance: 1000), 1e-15))
    }

    @Test func listingFiveFiveHalfway() throws {
        // Perspective then a 45° turn about y (the book's listing 5.5), from flat.
        let turned = CATransform3D(rotationAngle: .pi / 4, x: 0, y: 1, z: 0)
            .concatenating(CATransform3D(perspectiveDistance: 500))
        let mid = try #require(Self.between(CATransform3D(perspectiveDistance: 500), turned, 0.5) as? CATransform3D)
        let expected = CATransform3D(rotationAngle: .pi / 8, x: 0, y: 1, z: 0)
            .concatenating(CATransform3D(perspectiveDistance: 500))
        #expect(isClose(mid, expected, 1e-12))
    }

    @Test func decompositionRoundTrips() throws {
        var generator = SeededRandom(seed: 7)
        var cases: [CATransform3D] = [
            .identity,
            CATransform3D(scaleX: -1, y: 1, z: 1),
            CATransform3D(scaleX: 0, y: 2, z: 1).rotated(by: 0.3, x: 0, y: 0, z: 1),
            CATransform3D(scaleX: 0, y: 0, z: 0),
            CATransform3D(CGAffineTransform(a: 1, b: 0, c: 0.7, d: 1, tx: 3, ty: 4)),  // shear
            Self.rotationZ(180),
            CATransform3D(rotationAngle: .pi, x: 1, y: 1, z: 0),
        ]
        for _ in 0..<200 {
            var fields = (0..<16).map { _ in CGFloat(generator.uniform(-2, 2)) }
            fields[15] = CGFloat(generator.uniform(0.5, 2))
            cases.append(try #require(CATransform3D(fields: fields)))
        }
        for m in cases {
            // None of these has a perspective column over a singular 3x3.
            let d = try #require(DecomposedTransform(m), "\(m)")
            #expect(isClose(d.transform, m, 1e-9), "\(m)")
            let u = d.rotation.rows
            let det = u[0].x * (u[1].y * u[2].z - u[1].z * u[2].y) - u[0].y * (u[1].x * u[2].z - u[1].z * u[2].x)
                + u[0].z * (u[1].x * u[2].y - u[1].y * u[2].x)
            #expect(isClose(det, 1, 1e-9))
        }
    }

    @Test func transformsThatCannotBeSplitInterpolateFieldByField() throws {
        var a = CATransform3D(scaleX: 0, y: 0, z: 0)
        a.m34 = -0.01
        let b = CATransform3D.identity
        let mid = try #require(Self.between(a, b, 0.5) as? CATransform3D)
        #expect(isClose(Double(mid.m11), 0.5) && isClose(Double(mid.m34), -0.005))
    }

    @Test func affineTransformsInterpolateLikeTheir3DForms() throws {
        let mid = try #require(
            Self.between(CGAffineTransform.identity, CGAffineTransform(rotationAngle: .pi / 2), 0.5) as? CGAffineTransform)
        let expected = CGAffineTransform(rotationAngle: .pi / 4)
        for (x, y) in zip([mid.a, mid.b, mid.c, mid.d, mid.tx, mid.ty], [expected.a, expected.b, expected.c, expected.d, 0, 0]) {
            #expect(isClose(Double(x), Double(y), 1e-12))
        }
    }

    @Test func coloursInterpolateComponentWiseInSRGB() throws {
        let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 0)
        let mid = try #require(Self.between(red, blue, 0.5) as? CGColor)
        #expect(mid == CGColor(red: 0.5, green: 0, blue: 0.5, alpha: 0.5))
        let quarter = try #require(Self.between(red, blue, 0.25) as? CGColor)
        #expect(quarter == CGColor(red: 0.75, green: 0, blue: 0.25, alpha: 0.75))
    }

    @Test func additiveColoursClamp() throws {
        let a = CABasicAnimation(keyPath: "backgroundColor")
        a.fromValue = CGColor(red: 0.5, green: 0.5, blue: 0, alpha: 0)
        a.toValue = CGColor(red: 0.5, green: 0.5, blue: 0, alpha: 0)
        a.isAdditive = true
        let sum = try #require(a.presentationValue(atTime: 0.1, modelValue: CGColor(red: 0.8, green: 0.2, blue: 0.3, alpha: 1)) as? CGColor)
        #expect(sum == CGColor(red: 1, green: 0.7, blue: 0.3, alpha: 1))
    }

    @Test func pointsSizesAndRects() {
        #expect(Self.between(CGPoint(x: 0, y: 10), CGPoint(x: 20, y: 30), 0.5) as? CGPoint == CGPoint(x: 10, y: 20))
        #expect(Self.between(CGSize(width: 0, height: 10), CGSize(width: 20, height: 30), 0.5) as? CGSize
            == CGSize(width: 10, height: 20))
        #expect(Self.between(CGRect(x: 0, y: 0, width: 10, height: 10), CGRect(x: 10, y: 20, width: 30, height: 50), 0.5) as? CGRect
            == CGRect(x: 5, y: 10, width: 20, height: 30))
    }

    @Test func arraysInterpolateElementWiseAndKeepTheirType() throws {
        let numbers = try #require(Self.between([CGFloat(0), 10], [CGFloat(10), 20], 0.5) as? [CGFloat])
        #expect(numbers == [5, 15])
        let locations = try #require(Self.between([0.0, 1.0] as [NSNumber], [0.5, 1.0] as [NSNumber], 0.5) as? [NSNumber])
        #expect(locations.map(\.doubleValue) == [0.25, 1])
        let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1), blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        let colors = try #require(Self.between([red, blue], [blue, red], 0.5) as? [CGColor])
        #expect(colors == [CGColor(red: 0.5, green: 0, blue: 0.5, alpha: 1), CGColor(red: 0.5, green: 0, blue: 0.5, alpha: 1)])
        #expect(Self.between([0.0, 1.0], [1.0], 0.5) == nil)
        #expect(Self.between([0.0, 1.0], [1.0, CGPoint.zero], 0.5) == nil)
    }

    @Test func endpointsAreExact() throws {
        let from = Self.rotationZ(33), to = CATransform3D(scaleX: 2, y: 1, z: 1).rotated(by: 1, x: 1, y: 2, z: 3)
        let a = CABasicAnimation(keyPath: "transform")
        a.fromValue = from
        a.toValue = to
        a.fillMode = .both
        a.beginTime = 1
        #expect(a.presentationValue(atTime: 0, modelValue: nil) as? CATransform3D == from)
        #expect(a.presentationValue(atTime: 9, modelValue: nil) as? CATransform3D == to)
    }
}

