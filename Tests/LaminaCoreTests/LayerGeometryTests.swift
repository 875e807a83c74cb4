// frame, its setter, affineTransform and the LayerGeometry matrices.
import Foundation
import Testing
@testable import LaminaCore

@Suite struct LayerGeometryTests {
    @Test func frameWithTheIdentityTransform() {
        let layer = CALayer()
        layer.bounds = CGRect(x: 10, y: 20, width: 100, height: 50)
        layer.position = CGPoint(x: 100, y: 100)
        #expect(layer.frame == CGRect(x: 50, y: 75, width: 100, height: 50))
        layer.anchorPoint = CGPoint(x: 0, y: 1)
        #expect(layer.frame == CGRect(x: 100, y: 50, width: 100, height: 50))
    }

    @Test func frameSetterSetsPositionAndSizeButNotTheBoundsOrigin() {
        let layer = CALayer()
        layer.bounds.origin = CGPoint(x: 5, y: 5)
        layer.anchorPoint = CGPoint(x: 0.25, y: 0)
        layer.frame = CGRect(x: 10, y: 20, width: 40, height: 30)
        #expect(layer.bounds == CGRect(x: 5, y: 5, width: 40, height: 30))
        #expect(layer.position == CGPoint(x: 20, y: 20))
        #expect(layer.frame == CGRect(x: 10, y: 20, width: 40, height: 30))
    }

    @Test func frameSetterStandardizesNegativeSizes() {
        let layer = CALayer()
        layer.frame = CGRect(x: 10, y: 10, width: -10, height: -20)
        #expect(layer.frame == CGRect(x: 0, y: -10, width: 10, height: 20))
    }

    @Test func frameOfALayerRotated45DegreesIsTheBoundingBox() {
        let layer = makeLayer(CGRect(x: 0, y: 0, width: 100, height: 100))
        layer.setAffineTransform(CGAffineTransform(rotationAngle: .pi / 4))
        let side = 100 * 2.0.squareRoot()
        let expected = CGRect(x: 50 - side / 2, y: 50 - side / 2, width: side, height: side)
        #expect(isNear(layer.frame, expected, 1e-9))
        // The same rotation as a 3D transform about z gives the same frame.
        layer.transform = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
        #expect(isNear(layer.frame, expected, 1e-9))
    }

    @Test func frameSetterUnderAScaleRoundTrips() {
        let layer = CALayer()
        layer.transform = CATransform3DMakeScale(2, 4, 1)
        layer.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        #expect(layer.bounds.size == CGSize(width: 50, height: 25))
        #expect(isNear(layer.position, CGPoint(x: 50, y: 50)))
        #expect(isNear(layer.frame, CGRect(x: 0, y: 0, width: 100, height: 100)))
    }

    @Test func frameSetterUnderATranslationAndOffCentreAnchorRoundTrips() {
        let layer = CALayer()
        layer.anchorPoint = .zero
        layer.setAffineTransform(CGAffineTransform(translationX: 5, y: 7).scaledBy(x: 2, y: 2))
        layer.frame = CGRect(x: 10, y: 20, width: 40, height: 60)
        #expect(layer.bounds.size == CGSize(width: 20, height: 30))
        #expect(isNear(layer.frame, CGRect(x: 10, y: 20, width: 40, height: 60)))
    }

    @Test func frameSetterUnderARotationKeepsTheCentre() {
        let layer = CALayer()
        layer.setAffineTransform(CGAffineTransform(rotationAngle: .pi / 2))
        layer.frame = CGRect(x: 0, y: 0, width: 100, height: 50)
        // Mapped back through the inverse rotation, 100x50 becomes 50x100.
        #expect(isNear(CGRect(origin: .zero, size: layer.bounds.size), CGRect(x: 0, y: 0, width: 50, height: 100)))
        #expect(isNear(layer.position, CGPoint(x: 50, y: 25)))
        #expect(isNear(layer.frame, CGRect(x: 0, y: 0, width: 100, height: 50)))
    }

    @Test func frameSetterUnderASingularTransformActsAsIdentity() {
        let layer = CALayer()
        layer.transform = CATransform3DMakeScale(0, 1, 1)
        layer.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        #expect(layer.bounds.size == CGSize(width: 10, height: 10))
        #expect(layer.position == CGPoint(x: 5, y: 5))
    }

    @Test func frameIsProjectedThroughPerspective() {
        let layer = makeLayer(CGRect(x: -50, y: -50, width: 100, height: 100))
        // Moved 250 towards an eye 500 away: twice as large.
        layer.transform = CATransform3DMakeTranslation(0, 0, 250).concatenating(CATransform3D(perspectiveDistance: 500))
        #expect(isNear(layer.frame, CGRect(x: -100, y: -100, width: 200, height: 200), 1e-9))
    }

    @Test func anchorPointZTakesPartInTheProjection() {
        let layer = makeLayer(CGRect(x: -50, y: -50, width: 100, height: 100))
        layer.anchorPointZ = 250
        layer.transform = CATransform3D(perspectiveDistance: 500)
        // The plane sits 250 behind the anchor: w = 1.5, two thirds the size.
        let side = 100 / 1.5
        #expect(isNear(layer.frame, CGRect(x: -side / 2, y: -side / 2, width: side, height: side), 1e-9))
    }

    @Test func frameIsInfiniteWhenACornerIsBehindTheEye() {
        let layer = makeLayer(CGRect(x: 0, y: 0, width: 100, height: 100))
        layer.transform = CATransform3DMakeRotation(.pi / 2.2, 0, 1, 0).concatenating(CATransform3D(perspectiveDistance: 20))
        #expect(layer.frame == .infinite)
    }

    @Test func affineTransformRoundTrips() {
        let layer = CALayer()
        let t = CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        layer.setAffineTransform(t)
        #expect(layer.affineTransform() == t)
        #expect(layer.transform == CATransform3DMakeAffineTransform(t))
    }

    @Test func placementTransformMatchesTheDocumentedFormula() {
        var g = LayerGeometry(bounds: CGRect(x: 10, y: 20, width: 100, height: 40),
                              position: CGPoint(x: 7, y: 9), zPosition: 3,
                              anchorPoint: CGPoint(x: 0.25, y: 0.5), anchorPointZ: 2)
        g.transform = CATransform3DMakeRotation(0.3, 1, 2, 3)
        let anchor = CGPoint(x: 35, y: 40)
        let expected = CATransform3DMakeTranslation(-anchor.x, -anchor.y, -2)
            .concatenating(g.transform)
            .concatenating(CATransform3DMakeTranslation(7, 9, 3))
        #expect(g.anchorInBounds == anchor)
        #expect(g.placementTransform == expected)
        // With an identity transform: one translation, the anchor to the position.
        g.transform = .identity
        #expect(g.placementTransform == CATransform3DMakeTranslation(7 - 35, 9 - 40, 3 - 2))
    }

    @Test func sublayerSpaceTransformFlipsThenAppliesTheSublayerTransformAboutTheAnchor() {
        var g = LayerGeometry(bounds: CGRect(x: 0, y: 10, width: 100, height: 80))
        #expect(g.sublayerSpaceTransform == .identity)
        g.isGeometryFlipped = true
        // y -> minY + maxY - y = 100 - y.
        #expect(g.sublayerSpaceTransform.apply(to: CGPoint(x: 3, y: 10)) == CGPoint(x: 3, y: 90))
        g.isGeometryFlipped = false
        g.sublayerTransform = CATransform3DMakeScale(2, 2, 1)
        // About the anchor (50, 50): (60, 50) -> (70, 50).
        #expect(g.sublayerSpaceTransform.apply(to: CGPoint(x: 60, y: 50)) == CGPoint(x: 70, y: 50))
        g.isGeometryFlipped = true
        // Flip first: (60, 40) -> (60, 60), then scale about (50, 50) -> (70, 70).
        #expect(g.sublayerSpaceTransform.apply(to: CGPoint(x: 60, y: 40)) == CGPoint(x: 70, y: 70))
    }

    @Test func transformToSuperlayerSkipsTheSublayerTransformForAMask() {
        let parent = makeLayer(CGRect(x: 0, y: 0, width: 100, height: 100))
        parent.sublayerTransform = CATransform3DMakeScale(2, 2, 1)
        let child = makeLayer(CGRect(x: 10, y: 10, width: 10, height: 10))
        let mask = makeLayer(CGRect(x: 10, y: 10, width: 10, height: 10))
        parent.addSublayer(child)
        parent.mask = mask
        #expect(child.transformToSuperlayer.apply(to: .zero) == CGPoint(x: -30, y: -30))
        #expect(mask.transformToSuperlayer.apply(to: .zero) == CGPoint(x: 10, y: 10))
        #expect(mask.transformToSuperlayer == mask.geometry.placementTransform)
    }

    @Test func projectiveTransformDropsZAtEveryFlatteningLayer() throws {
        let t = CATransform3D(
            m11: 1, m12: 2, m13: 3, m14: 4, m21: 5, m22: 6, m23: 7, m24: 8,
            m31: 9, m32: 10, m33: 11, m34: 12, m41: 13, m42: 14, m43: 15, m44: 16)
        let p = PlaneHomography(t)
        #expect(p == PlaneHomography(m11: 1, m12: 2, m13: 4, m21: 5, m22: 6, m23: 8, m31: 13, m32: 14, m33: 16))
        let h = PlaneHomography(m11: 2, m12: 1, m13: 0.001, m21: -1, m22: 3, m23: 0.002, m31: 5, m32: 6, m33: 1)
        let inverse = try #require(h.inverted())
        #expect(isNear(h.concatenating(inverse).apply(to: CGPoint(x: 3, y: 4)), CGPoint(x: 3, y: 4), 1e-12))
        let singular = PlaneHomography(m11: 1, m12: 0, m13: 0, m21: 2, m22: 0, m23: 0, m31: 0, m32: 0, m33: 1)
        #expect(singular.inverted() == nil)
    }

    @Test func projectiveTransformToAnUnrelatedLayerIsNil() {
        let a = CALayer(), b = CALayer()
        #expect(a.projectiveTransform(to: b) == nil)
        #expect(a.projectiveTransform(to: a) == .identity)
    }

    @Test func flattensSublayersIsFalseOnlyForTransformLayers() {
        #expect(CALayer().flattensSublayers)
        #expect(CAShapeLayer().flattensSublayers)
        #expect(CAReplicatorLayer().flattensSublayers)
        #expect(!CATransformLayer().flattensSublayers)
    }

    @Test func contentsAreFlippedCountsGeometryFlippedLayersUpToTheRoot() {
        let root = CALayer(), child = CALayer()
        root.addSublayer(child)
        #expect(child.contentsAreFlipped())
        child.isGeometryFlipped = true
        #expect(!child.contentsAreFlipped())
        root.isGeometryFlipped = true
        #expect(child.contentsAreFlipped())
        #expect(!root.contentsAreFlipped())
    }
}
