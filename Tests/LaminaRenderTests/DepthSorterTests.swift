import Foundation
import Testing
@testable import LaminaRender

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
}
