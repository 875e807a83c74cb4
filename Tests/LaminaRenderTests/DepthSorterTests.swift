import Foundation
import Testing
@testable import LaminaRender
import LaminaCore
import LaminaGeometry

@Suite("Depth sorter")
struct DepthSorterTests {
    func square(z: Double, item: Int) -> ScenePolygon {
        ScenePolygon(points: [SIMD3(0, 0, z), SIMD3(10, 0, z), SIMD3(10, 10, z), SIMD3(0, 10, z)], item: item)
    }

    @Test func parallelPlanesComeBackToFront() throws {
        let sorted = try DepthSorter.backToFront([square(z: 5, item: 0), square(z: -5, item: 1), square(z: 0, item: 2)])
        #expect(sorted.map(\.item) == [1, 2, 0])
    }

    @Test func coplanarPolygonsKeepTheirOrder() throws {
        let sorted = try DepthSorter.backToFront((0..<5).map { square(z: 0, item: $0) })
        #expect(sorted.map(\.item) == [0, 1, 2, 3, 4])
    }

    @Test func aPolygonWithNoRealAreaNeitherSplitsNorMultiplies() throws {
        // A long sliver whose area is rounding error (a layer under a
        // singular transform): its "normal" points anywhere; it must not cut
        // the others, nor be cut by itself again and again.
        let sliver = ScenePolygon(
            points: [SIMD3(0, 0, 0), SIMD3(5000, 1e-13, 300), SIMD3(5000, 2e-13, 300.0000000001), SIMD3(0, 1e-13, 1e-10)],
            item: 0)
        #expect(sliver.plane == nil)
        let sorted = try DepthSorter.backToFront([sliver, square(z: 3, item: 1), square(z: -2, item: 2)])
        // The squares stay whole and in depth order; the sliver may be cut by
        // the square it crosses (z = 3), once.
        #expect(sorted.filter { $0.item != 0 }.map(\.item) == [2, 1])
        #expect(sorted.filter { $0.item == 0 }.count <= 2)
    }

    /// A flat scene (every sublayer in its layer's plane, in front of the
    /// eye) is not sorted: the planner takes its items in sublayer order.
    /// That must be what sorting their outlines gives, with no cuts, for
    /// any flat placement: turned, flipped (single-sided ones then left
    /// out), scaled, overlapping, through transform layers. One layer
    /// turned out of the plane sends the scene to the sorter.
    @Test func aFlatSceneIsInTheOrderTheSorterGives() throws {
        var random = SeededRandom(seed: 0xF1A7)
        let builder = PlanBuilder(options: RenderPlannerOptions())
        for trial in 0..<200 {
            var root = RenderLayer()
            root.bounds = CGRect(x: 0, y: 0, width: 400, height: 300)
            func placed() -> RenderLayer {
                var layer = RenderLayer()
                layer.bounds = CGRect(x: 0, y: 0, width: Double(random.int(0...120)), height: Double(random.int(1...90)))
                let angle = Double(random.int(0...628)) / 100
                var m = CATransform3D(rotationAngle: angle, x: 0, y: 0, z: 1)
                if random.int(0...3) == 0 { m = m.concatenating(CATransform3D(scaleX: -1, y: 1, z: 1)) }
                m = m.concatenating(CATransform3D(translationX: Double(random.int(0...300)), y: Double(random.int(0...200)), z: 0))
                layer.transformToSuperlayer = m
                layer.isDoubleSided = random.int(0...2) != 0
                layer.backgroundColor = .white
                return layer
            }
            for _ in 0..<random.int(1...12) {
                if random.int(0...4) == 0 {
                    var group = placed()
                    group.kind = .transform
                    group.sublayers = (0..<random.int(1...4)).map { _ in placed() }
                    root.sublayers.append(group)
                } else {
                    root.sublayers.append(placed())
                }
            }
            let items = builder.sceneItems(of: root)
            let flat = try #require(builder.flatSceneOrder(items), "trial \(trial)")
            let sorted = try DepthSorter.backToFront(builder.sceneOutlines(items))
            #expect(flat.map(\.item) == sorted.map(\.item), "trial \(trial)")
            #expect(sorted.allSatisfy { $0.cuts.isEmpty } && flat.allSatisfy { $0.cuts.isEmpty }, "trial \(trial)")

            root.sublayers[0].transformToSuperlayer = CATransform3D(rotationAngle: 0.2, x: 0, y: 1, z: 0)
            #expect(builder.flatSceneOrder(builder.sceneItems(of: root)) == nil, "trial \(trial): a turned layer is sorted")
        }
    }
}
