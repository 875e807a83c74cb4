// Half-planes and the polygon clipper: what the planner leaves out and the
// one-pass clip against a viewport's four edges.
import Foundation
import Testing
@testable import LaminaGeometry

@Suite struct HalfPlaneTests {
    @Test func onlyAPlaneWithoutALineAndNotBelowZeroKeepsEverything() {
        #expect(HalfPlane(a: 0, b: 0, c: 0).keepsEverything)
        #expect(HalfPlane(a: 0, b: 0, c: 1 - 1e-4).keepsEverything)
        #expect(!HalfPlane(a: 0, b: 0, c: -1e-12).keepsEverything)
        #expect(!HalfPlane(a: 1e-300, b: 0, c: 5).keepsEverything)
        #expect(!HalfPlane(a: 0, b: -2, c: 5).keepsEverything)
        // And a plane that keeps everything gives back the very polygon.
        let square = [CGPoint(x: -1e6, y: 3), CGPoint(x: 5, y: 3), CGPoint(x: 5, y: 1e6)]
        #expect(PolygonClipper.clip(square, to: HalfPlane(a: 0, b: 0, c: 0.5)) == square)
    }

    @Test func aRectIsExcludedWhenNoneOfItIsStrictlyInside() {
        let right = HalfPlane(a: 1, b: 0, c: -10)  // x >= 10
        #expect(right.excludes(CGRect(x: 0, y: 0, width: 9, height: 5)))
        #expect(right.excludes(CGRect(x: 0, y: 0, width: 10, height: 5)))  // touching the line: no area
        #expect(!right.excludes(CGRect(x: 0, y: 0, width: 10.5, height: 5)))
        #expect(!right.holds(CGRect(x: 0, y: 0, width: 10.5, height: 5)))
        let slanted = HalfPlane(a: 1, b: 1, c: 0)  // x + y >= 0
        #expect(slanted.excludes(CGRect(x: -5, y: -5, width: 5, height: 5)))
        #expect(!slanted.excludes(CGRect(x: -5, y: -5, width: 6, height: 5)))
        #expect(right.excludes(.null))
        #expect(!right.excludes(CGRect(x: CGFloat.nan, y: 0, width: 1, height: 1)))
    }

    @Test func aRectIsStrictlyExcludedWhenEveryCornerIsOutside() {
        let right = HalfPlane(a: 1, b: 0, c: -10)  // x >= 10
        #expect(right.strictlyExcludes(CGRect(x: 0, y: 0, width: 9, height: 5)))
        // Touching the line: its points there are kept by the clipper.
        #expect(!right.strictlyExcludes(CGRect(x: 0, y: 0, width: 10, height: 5)))
        #expect(!right.strictlyExcludes(.null))
        #expect(!right.strictlyExcludes(CGRect(x: CGFloat.nan, y: 0, width: 1, height: 1)))
        // And a polygon in a strictly excluded box is clipped to nothing.
        let triangle = [CGPoint(x: 0, y: 0), CGPoint(x: 9, y: 0), CGPoint(x: 4, y: 5)]
        #expect(PolygonClipper.clip(triangle, to: right).isEmpty)
    }

    @Test func clippingByPlanesAndFourMoreIsClippingByAllInOrder() {
        var random = SystemRandomNumberGenerator()
        func plane() -> HalfPlane {
            HalfPlane(a: .random(in: -1...1, using: &random), b: .random(in: -1...1, using: &random),
                      c: .random(in: -50...50, using: &random))
        }
        for _ in 0..<500 {
            let polygon = (0..<Int.random(in: 3...7, using: &random)).map { _ in
                CGPoint(x: .random(in: -100...100, using: &random), y: .random(in: -100...100, using: &random))
            }
            let planes = (0..<Int.random(in: 0...3, using: &random)).map { _ in plane() }
            let more = (plane(), plane(), plane(), plane())
            let all = planes + [more.0, more.1, more.2, more.3]
            #expect(PolygonClipper.clip(polygon, to: planes, and: more) == PolygonClipper.clip(polygon, to: all))
        }
    }

    /// A half-plane holds a rect exactly when clipping the rect's corners by
    /// it leaves them as they are; a null rect and a rect of NaN are not held.
    @Test func aRectIsHeldWhenItsCornersAre() {
        var random = SystemRandomNumberGenerator()
        var held = 0
        for _ in 0..<2_000 {
            let plane = HalfPlane(a: .random(in: -1...1, using: &random), b: .random(in: -1...1, using: &random),
                                  c: .random(in: -50...150, using: &random))
            let rect = CGRect(x: .random(in: -100...100, using: &random), y: .random(in: -100...100, using: &random),
                              width: .random(in: 0...60, using: &random), height: .random(in: 0...60, using: &random))
            let corners = [CGPoint(x: rect.minX, y: rect.minY), CGPoint(x: rect.maxX, y: rect.minY),
                           CGPoint(x: rect.maxX, y: rect.maxY), CGPoint(x: rect.minX, y: rect.maxY)]
            #expect(plane.holds(rect) == corners.allSatisfy { plane.value(at: $0) >= 0 })
            if plane.holds(rect) { held += 1 }
        }
        #expect(held > 100 && held < 1_900)
        #expect(!HalfPlane(a: 0, b: 0, c: 1).holds(.null))
        #expect(!HalfPlane(a: 1, b: 0, c: 1).holds(CGRect(x: Double.nan, y: 0, width: 1, height: 1)))
    }
}
