// Converting points and rectangles between layers: 2D, 3D, perspective,
// flattening and transform layers.
import Foundation
import Testing
@testable import LaminaCore

@Suite struct LayerConversionTests {
    @Test func betweenParentAndChildWithBoundsOrigins() {
        let parent = makeLayer(CGRect(x: 0, y: 0, width: 200, height: 200))
        parent.bounds.origin = CGPoint(x: 10, y: 20)
        let child = makeLayer(CGRect(x: 50, y: 60, width: 40, height: 40))
        child.bounds.origin = CGPoint(x: -5, y: 5)
        parent.addSublayer(child)
        // Child point (-5, 5) is its frame origin (50, 60) in the parent.
        #expect(child.convert(CGPoint(x: -5, y: 5), to: parent) == CGPoint(x: 50, y: 60))
        #expect(parent.convert(CGPoint(x: 50, y: 60), to: child) == CGPoint(x: -5, y: 5))
        #expect(parent.convert(CGPoint(x: 0, y: 10), from: child) == CGPoint(x: 55, y: 65))
        #expect(child.convert(CGPoint(x: 55, y: 65), from: parent) == CGPoint(x: 0, y: 10))
    }

    @Test func betweenCousinsThroughTheCommonAncestor() {
        let root = makeLayer(CGRect(x: 0, y: 0, width: 300, height: 300))
        let a = makeLayer(CGRect(x: 10, y: 10, width: 100, height: 100))
        let b = makeLayer(CGRect(x: 150, y: 20, width: 100, height: 100))
        let a1 = makeLayer(CGRect(x: 5, y: 5, width: 10, height: 10))
        root.addSublayer(a); root.addSublayer(b); a.addSublayer(a1)
        // a1's origin is root (15, 15), which is b's (-135, -5).
        #expect(a1.convert(CGPoint.zero, to: b) == CGPoint(x: -135, y: -5))
        #expect(b.convert(CGPoint(x: -135, y: -5), to: a1) == .zero)
    }

    @Test func nilStandsForTheRootPositionSpace() {
        let root = makeLayer(CGRect(x: 100, y: 100, width: 50, height: 50))
        let child = makeLayer(CGRect(x: 10, y: 10, width: 10, height: 10))
        root.addSublayer(child)
        #expect(child.convert(CGPoint.zero, to: nil) == CGPoint(x: 110, y: 110))
        #expect(child.convert(CGPoint(x: 110, y: 110), from: nil) == .zero)
        #expect(root.convert(CGPoint(x: 1, y: 2), to: nil) == CGPoint(x: 101, y: 102))
    }

    @Test func throughARotation() {
        let parent = makeLayer(CGRect(x: 0, y: 0, width: 200, height: 200))
        let child = makeLayer(CGRect(x: 50, y: 50, width: 100, height: 100))
        child.setAffineTransform(CGAffineTransform(rotationAngle: .pi / 2))
        parent.addSublayer(child)
        // A quarter turn about the centre (100, 100): +x becomes +y.
        #expect(isNear(child.convert(CGPoint(x: 100, y: 50), to: parent), CGPoint(x: 100, y: 150)))
        #expect(isNear(parent.convert(CGPoint(x: 100, y: 150), to: child), CGPoint(x: 100, y: 50)))
    }

    @Test func throughASublayerTransformAboutTheAnchorPoint() {
        let parent = makeLayer(CGRect(x: 0, y: 0, width: 200, height: 200))
        parent.sublayerTransform = CATransform3DMakeScale(2, 2, 1)
        let child = makeLayer(CGRect(x: 100, y: 100, width: 10, height: 10))
        parent.addSublayer(child)
        // (100, 100) is 0 from the anchor (100, 100) scaled about it: stays; (110, 110) -> (120, 120).
        #expect(child.convert(CGPoint.zero, to: parent) == CGPoint(x: 100, y: 100))
        #expect(child.convert(CGPoint(x: 10, y: 10), to: parent) == CGPoint(x: 120, y: 120))
    }

    @Test func throughGeometryFlipped() {
        let parent = makeLayer(CGRect(x: 0, y: 0, width: 100, height: 100))
        parent.isGeometryFlipped = true
        let child = makeLayer(CGRect(x: 0, y: 0, width: 10, height: 10))
        parent.addSublayer(child)
        // Positioned from the bottom: child (0, 0) is parent (0, 100).
        #expect(child.convert(CGPoint.zero, to: parent) == CGPoint(x: 0, y: 100))
        #expect(child.convert(CGRect(x: 0, y: 0, width: 10, height: 10), to: parent)
                == CGRect(x: 0, y: 90, width: 10, height: 10))
    }

    /// The book's cube face: a container with perspective in its
    /// sublayerTransform and a face turned about y.
    private func perspectiveFace(angle: CGFloat) -> (container: CALayer, face: CALayer) {
        let container = makeLayer(CGRect(x: 0, y: 0, width: 200, height: 200))
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        container.sublayerTransform = perspective
        let face = makeLayer(CGRect(x: 50, y: 50, width: 100, height: 100))
        face.transform = CATransform3DMakeRotation(angle, 0, 1, 0)
        container.addSublayer(face)
        return (container, face)
    }

    @Test func aPointOnAFaceMapsWhereThePerspectiveMathSays() {
        let (container, face) = perspectiveFace(angle: .pi / 4)
        let c = cos(CGFloat.pi / 4), s = sin(CGFloat.pi / 4)
        // Face point (90, 10) is (40, -40) from its centre. Turned about y: x' = 40c,
        // z' = -40s; the perspective divides by w = 1 - z'/500 about (100, 100).
        let w = 1 + 40 * s / 500
        let expected = CGPoint(x: 100 + 40 * c / w, y: 100 - 40 / w)
        let onScreen = face.convert(CGPoint(x: 90, y: 10), to: container)
        #expect(isNear(onScreen, expected, 1e-9))
        #expect(isNear(container.convert(expected, to: face), CGPoint(x: 90, y: 10), 1e-9))
    }

    @Test func aFaceSeenEdgeOnHasNoInverse() {
        let (container, face) = perspectiveFace(angle: .pi / 2)
        let p = container.convert(CGPoint(x: 100, y: 100), to: face)
        #expect(p.x.isNaN && p.y.isNaN)
        #expect(face.convert(CGRect(x: 0, y: 0, width: 1, height: 1), from: container).isNull)
    }

    @Test func theCubeFacesMeetAtTheirSharedEdge() {
        // Two faces of a cube of side 100 in a CATransformLayer: front at z = 50,
        // right turned a quarter about y and moved to x = 50. Their shared edge
        // shows at one place on screen.
        let container = makeLayer(CGRect(x: 0, y: 0, width: 300, height: 300))
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        container.sublayerTransform = perspective
        let cube = CATransformLayer()
        cube.frame = CGRect(x: 100, y: 100, width: 100, height: 100)
        cube.transform = CATransform3DMakeRotation(-.pi / 6, 0, 1, 0)
        container.addSublayer(cube)
        let front = makeLayer(CGRect(x: 0, y: 0, width: 100, height: 100))
        front.transform = CATransform3DMakeTranslation(0, 0, 50)
        let right = makeLayer(CGRect(x: 0, y: 0, width: 100, height: 100))
        right.transform = CATransform3DRotate(CATransform3DMakeTranslation(50, 0, 0), .pi / 2, 0, 1, 0)
        cube.addSublayer(front)
        cube.addSublayer(right)
        for y in stride(from: CGFloat(0), through: 100, by: 25) {
            let fromFront = front.convert(CGPoint(x: 100, y: y), to: container)
            let fromRight = right.convert(CGPoint(x: 0, y: y), to: container)
            #expect(isNear(fromFront, fromRight, 1e-9))
            // And converting between the faces directly lands on the edge.
            #expect(isNear(front.convert(CGPoint(x: 100, y: y), to: right), CGPoint(x: 0, y: y), 1e-9))
        }
    }

    @Test func innerAndOuterRotationsDoNotCancelUnderFlattening() {
        // Listing 5.x of the book: an outer layer turned +45° about y and an
        // inner layer turned -45° inside it. Each layer flattens into its
        // parent's plane, so the x offsets shrink by cos 45° twice.
        let root = makeLayer(CGRect(x: 0, y: 0, width: 200, height: 200))
        let outer = makeLayer(CGRect(x: 50, y: 50, width: 100, height: 100))
        outer.transform = CATransform3DMakeRotation(.pi / 4, 0, 1, 0)
        let inner = makeLayer(CGRect(x: 25, y: 25, width: 50, height: 50))
        inner.transform = CATransform3DMakeRotation(-.pi / 4, 0, 1, 0)
        root.addSublayer(outer)
        outer.addSublayer(inner)
        // Inner point 20 right of its centre: 20 * cos²(45°) = 10 right of the root centre.
        #expect(isNear(inner.convert(CGPoint(x: 45, y: 25), to: root), CGPoint(x: 110, y: 100), 1e-9))
        #expect(isNear(root.convert(CGPoint(x: 110, y: 100), to: inner), CGPoint(x: 45, y: 25), 1e-9))
    }

    @Test func inATransformLayerTheRotationsCancel() {
        let root = makeLayer(CGRect(x: 0, y: 0, width: 200, height: 200))
        let outer = CATransformLayer()
        outer.frame = CGRect(x: 50, y: 50, width: 100, height: 100)
        outer.transform = CATransform3DMakeRotation(.pi / 4, 0, 1, 0)
        let inner = makeLayer(CGRect(x: 25, y: 25, width: 50, height: 50))
        inner.transform = CATransform3DMakeRotation(-.pi / 4, 0, 1, 0)
        root.addSublayer(outer)
        outer.addSublayer(inner)
        #expect(isNear(inner.convert(CGPoint(x: 45, y: 25), to: root), CGPoint(x: 120, y: 100), 1e-9))
        // To the transform layer itself: the point on its z = 0 plane seen there.
        #expect(isNear(inner.convert(CGPoint(x: 25, y: 25), to: outer), CGPoint(x: 50, y: 50), 1e-9))
    }

    @Test func rectConversionIsTheBoundingBoxOfTheCorners() {
        let parent = makeLayer(CGRect(x: 0, y: 0, width: 200, height: 200))
        let child = makeLayer(CGRect(x: 50, y: 50, width: 100, height: 100))
        child.setAffineTransform(CGAffineTransform(rotationAngle: .pi / 4))
        parent.addSublayer(child)
        let side = 100 * 2.0.squareRoot()
        let expected = CGRect(x: 100 - side / 2, y: 100 - side / 2, width: side, height: side)
        #expect(isNear(child.convert(child.bounds, to: parent), expected, 1e-9))
        #expect(isNear(parent.convert(child.bounds, from: child), expected, 1e-9))
        #expect(child.convert(CGRect.null, to: parent).isNull)
    }

    @Test func layersOfDifferentTreesMeetInTheirRootPositionSpaces() {
        let a = makeLayer(CGRect(x: 10, y: 0, width: 10, height: 10))
        let b = makeLayer(CGRect(x: 0, y: 30, width: 10, height: 10))
        #expect(a.convert(CGPoint.zero, to: b) == CGPoint(x: 10, y: -30))
    }

    @Test func aMaskIsPlacedInItsOwnersSpace() {
        let layer = makeLayer(CGRect(x: 0, y: 0, width: 100, height: 100))
        layer.sublayerTransform = CATransform3DMakeScale(3, 3, 1)
        let mask = makeLayer(CGRect(x: 20, y: 30, width: 10, height: 10))
        layer.mask = mask
        #expect(mask.convert(CGPoint.zero, to: layer) == CGPoint(x: 20, y: 30))
    }
}
