// hitTest(_:) and contains(_:) with Core Animation's rules.
import Foundation
import Testing
@testable import LaminaCore

@Suite struct LayerHitTestTests {
    private func tree() -> (root: CALayer, a: CALayer, b: CALayer) {
        let root = makeLayer(CGRect(x: 0, y: 0, width: 200, height: 200), name: "root")
        let a = makeLayer(CGRect(x: 20, y: 20, width: 100, height: 100), name: "a")
        let b = makeLayer(CGRect(x: 60, y: 60, width: 100, height: 100), name: "b")
        root.addSublayer(a)
        root.addSublayer(b)
        return (root, a, b)
    }

    @Test func theFarthestDescendantIsHitAndTheLastSublayerWins() {
        let (root, a, b) = tree()
        #expect(root.hitTest(CGPoint(x: 30, y: 30)) === a)
        #expect(root.hitTest(CGPoint(x: 80, y: 80)) === b)
        #expect(root.hitTest(CGPoint(x: 190, y: 10)) === root)
        #expect(root.hitTest(CGPoint(x: 250, y: 10)) == nil)
    }

    @Test func thePointIsInTheSuperlayersSpace() {
        let (root, a, _) = tree()
        let child = makeLayer(CGRect(x: 0, y: 0, width: 10, height: 10), name: "child")
        a.addSublayer(child)
        // a's space starts at root (20, 20).
        #expect(a.hitTest(CGPoint(x: 25, y: 25)) === child)
        #expect(root.hitTest(CGPoint(x: 25, y: 25)) === child)
        #expect(a.hitTest(CGPoint(x: 5, y: 5)) == nil)
    }

    @Test func zPositionDoesNotChangeTheOrder() {
        let (root, a, b) = tree()
        a.zPosition = 100
        #expect(root.hitTest(CGPoint(x: 80, y: 80)) === b)
    }

    @Test func hiddenLayersAndTheirSublayersAreSkipped() {
        let (root, a, b) = tree()
        b.isHidden = true
        #expect(root.hitTest(CGPoint(x: 80, y: 80)) === a)
        root.isHidden = true
        #expect(root.hitTest(CGPoint(x: 80, y: 80)) == nil)
    }

    @Test func sublayersOutsideTheirSuperlayersBoundsAreNotHit() {
        let (root, a, _) = tree()
        let outside = makeLayer(CGRect(x: 150, y: 0, width: 20, height: 20), name: "outside")
        a.addSublayer(outside)
        // Root (175, 25) is inside `outside` but not inside a.
        #expect(root.hitTest(CGPoint(x: 175, y: 25)) === root)
    }

    @Test func opacityAndMasksToBoundsPlayNoPart() {
        let (root, a, _) = tree()
        a.opacity = 0
        a.masksToBounds = true
        #expect(root.hitTest(CGPoint(x: 30, y: 30)) === a)
    }

    @Test func containsUsesTheBoundsWithTheMaximumEdgesExcluded() {
        let layer = CALayer()
        layer.bounds = CGRect(x: 10, y: 10, width: 10, height: 10)
        #expect(layer.contains(CGPoint(x: 10, y: 10)))
        #expect(!layer.contains(CGPoint(x: 20, y: 15)))
        #expect(!layer.contains(CGPoint(x: 5, y: 15)))
        let shape = CAShapeLayer()
        shape.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        shape.path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 10, height: 10))
        // Core Animation's shape layer is hit in its bounds, not its path.
        #expect(shape.contains(CGPoint(x: 90, y: 90)))
    }

    @Test func aSubclassCanShapeItsHitArea() {
        final class RoundLayer: CALayer {
            override func contains(_ point: CGPoint) -> Bool {
                let dx = point.x - bounds.midX, dy = point.y - bounds.midY
                return dx * dx + dy * dy <= (bounds.width / 2) * (bounds.width / 2)
            }
        }
        let root = makeLayer(CGRect(x: 0, y: 0, width: 200, height: 200))
        let round = RoundLayer()
        round.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        root.addSublayer(round)
        #expect(root.hitTest(CGPoint(x: 50, y: 50)) === round)
        #expect(root.hitTest(CGPoint(x: 5, y: 5)) === root)
    }

    @Test func throughARotation() {
        let root = makeLayer(CGRect(x: 0, y: 0, width: 200, height: 200))
        let bar = makeLayer(CGRect(x: 50, y: 95, width: 100, height: 10), name: "bar")
        bar.setAffineTransform(CGAffineTransform(rotationAngle: .pi / 2))
        root.addSublayer(bar)
        // The bar now stands upright through the centre.
        #expect(root.hitTest(CGPoint(x: 100, y: 60)) === bar)
        #expect(root.hitTest(CGPoint(x: 60, y: 100)) === root)
    }

    @Test func throughPerspective() {
        let container = makeLayer(CGRect(x: 0, y: 0, width: 200, height: 200), name: "container")
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        container.sublayerTransform = perspective
        let face = makeLayer(CGRect(x: 50, y: 50, width: 100, height: 100), name: "face")
        face.transform = CATransform3DMakeRotation(.pi / 3, 0, 1, 0)
        container.addSublayer(face)
        let inside = face.convert(CGPoint(x: 95, y: 50), to: container)
        let outside = face.convert(CGPoint(x: 105, y: 50), to: container)
        #expect(container.hitTest(inside) === face)
        #expect(container.hitTest(outside) === container)
    }

    @Test func aFaceTurnedAwayIsStillHitEvenIfNotDoubleSided() {
        let root = makeLayer(CGRect(x: 0, y: 0, width: 200, height: 200))
        let back = makeLayer(CGRect(x: 50, y: 50, width: 100, height: 100), name: "back")
        back.transform = CATransform3DMakeRotation(.pi, 0, 1, 0)
        back.isDoubleSided = false
        root.addSublayer(back)
        #expect(root.hitTest(CGPoint(x: 60, y: 60)) === back)
    }

    @Test func pointsWhoseLineOfSightMissesThePlaneInFrontAreMissed() {
        let container = makeLayer(CGRect(x: 0, y: 0, width: 1000, height: 1000), name: "container")
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 100
        container.sublayerTransform = perspective
        // A wide layer tilted so far that part of it is behind the eye: its
        // image covers only part of the screen.
        let floor = makeLayer(CGRect(x: -4500, y: 0, width: 10000, height: 1000), name: "floor")
        floor.transform = CATransform3DMakeRotation(.pi / 2.5, 0, 1, 0)
        container.addSublayer(floor)
        // The line of sight through a point far to the right meets the plane
        // behind the eye: not a hit, although the inverse map has a value.
        let local = floor.convert(CGPoint(x: 990, y: 500), from: container)
        #expect(floor.contains(local))
        #expect(container.hitTest(CGPoint(x: 990, y: 500)) === container)
        // Its centre, in front of the eye, is hit.
        #expect(container.hitTest(floor.convert(CGPoint(x: 5000, y: 500), to: container)) === floor)
    }

    @Test func transformLayersHaveNoAreaAndPassThrough() {
        let root = makeLayer(CGRect(x: 0, y: 0, width: 200, height: 200), name: "root")
        let group = CATransformLayer()
        group.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        let child = makeLayer(CGRect(x: 100, y: 100, width: 50, height: 50), name: "child")
        group.addSublayer(child)
        root.addSublayer(group)
        // Outside the transform layer's own bounds, still reaches the child.
        #expect(root.hitTest(CGPoint(x: 120, y: 120)) === child)
        #expect(root.hitTest(CGPoint(x: 5, y: 5)) === root)
        // Called on the transform layer, the point is in root's space.
        #expect(group.hitTest(CGPoint(x: 120, y: 120)) === child)
        #expect(group.hitTest(CGPoint(x: 5, y: 5)) == nil)
        // Called on the child, the point is in root's space too (the nearest
        // ancestor that is not a transform layer).
        #expect(child.hitTest(CGPoint(x: 120, y: 120)) === child)
    }

    @Test func transformLayerGeometryIsAppliedToItsSublayers() {
        let root = makeLayer(CGRect(x: 0, y: 0, width: 200, height: 200), name: "root")
        let group = CATransformLayer()
        group.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
        group.transform = CATransform3DMakeTranslation(50, 0, 0)
        let child = makeLayer(CGRect(x: 0, y: 0, width: 20, height: 20), name: "child")
        group.addSublayer(child)
        root.addSublayer(group)
        #expect(root.hitTest(CGPoint(x: 55, y: 5)) === child)
        #expect(root.hitTest(CGPoint(x: 5, y: 5)) === root)
    }

    @Test func aMaskIsNotHit() {
        let root = makeLayer(CGRect(x: 0, y: 0, width: 200, height: 200), name: "root")
        root.mask = makeLayer(CGRect(x: 0, y: 0, width: 200, height: 200), name: "mask")
        #expect(root.hitTest(CGPoint(x: 10, y: 10)) === root)
    }
}
