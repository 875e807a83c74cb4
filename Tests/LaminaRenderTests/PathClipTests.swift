// A path fill cut by its clip planes: the plan's validation clips contour by
// contour, each only by the planes its box crosses, and must leave what the
// clipper leaves when every contour is clipped by every plane.
import Foundation
import Testing
import LaminaGeometry
import LaminaRaster
@testable import LaminaRender

@Suite struct PathClipTests {
    /// Every contour clipped by every plane in order, empty pieces dropped:
    /// what the validation's shortcuts must agree with.
    private func clippedOneByOne(_ contours: [[CGPoint]], _ planes: [HalfPlane]) -> [[CGPoint]] {
        contours.compactMap { contour in
            let piece = PolygonClipper.clip(contour, to: planes)
            return piece.isEmpty ? nil : piece
        }
    }

    private func circle(x: Double, y: Double, radius: Double, points: Int) -> [CGPoint] {
        (0..<points).map { i in
            let t = Double(i) / Double(points) * 2 * .pi
            return CGPoint(x: x + radius * cos(t), y: y + radius * sin(t))
        }
    }

    @Test func contoursInsideOutsideAndAcrossThePlanesAreClippedAsOneByOne() {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let contours = (0..<Int.random(in: 1...5, using: &random)).map { _ in
                circle(x: .random(in: -100...100, using: &random), y: .random(in: -100...100, using: &random),
                       radius: .random(in: 1...40, using: &random), points: .random(in: 2...40, using: &random))
            }
            let planes = (0..<Int.random(in: 1...4, using: &random)).map { _ in
                HalfPlane(a: .random(in: -1...1, using: &random), b: .random(in: -1...1, using: &random),
                          c: .random(in: -60...60, using: &random))
            }
            let draw = PathFillDraw(matrix: .identity, contours: contours, evenOdd: false,
                                    color: RGBA(red: 1, green: 0, blue: 0, alpha: 1), clipPlanes: planes)
            #expect(draw.clippedContours == clippedOneByOne(contours, planes))
        }
    }

    @Test func contoursWithinEveryPlaneAreTheDrawsOwnList() {
        // A circle whose box pokes across the slanted plane while each of
        // its points stays inside, and one wholly inside: nothing is cut,
        // and no list is made.
        let contours = [circle(x: 0, y: 0, radius: 10, points: 64), circle(x: 30, y: 30, radius: 2, points: 8)]
        let planes = [HalfPlane(a: 1, b: 1, c: 14.5), HalfPlane(a: 0, b: 1, c: 50)]  // x + y >= -14.5, y >= -50
        #expect(!planes[0].holds(CGRect(x: -10, y: -10, width: 20, height: 20)))
        let draw = PathFillDraw(matrix: .identity, contours: contours, evenOdd: false,
                                color: RGBA(red: 1, green: 0, blue: 0, alpha: 1), clipPlanes: planes)
        let clipped = draw.clippedContours
        #expect(clipped == contours)
        contours.withUnsafeBufferPointer { original in
            clipped.withUnsafeBufferPointer { result in #expect(original.baseAddress == result.baseAddress) }
        }
    }

    @Test func aContourWhollyOutsideOnePlaneIsDroppedAndTheRestKept() {
        let inside = circle(x: 0, y: 0, radius: 5, points: 16)
        let outside = circle(x: 100, y: 0, radius: 5, points: 16)
        let across = circle(x: 50, y: 0, radius: 5, points: 16)
        let right = HalfPlane(a: -1, b: 0, c: 50)  // x <= 50
        let draw = PathFillDraw(matrix: .identity, contours: [inside, outside, across], evenOdd: true,
                                color: RGBA(red: 0, green: 0, blue: 1, alpha: 1), clipPlanes: [right])
        let clipped = draw.clippedContours
        #expect(clipped.count == 2)
        #expect(clipped.first == inside)
        #expect(clipped.last.map { $0.allSatisfy { $0.x <= 50 + 1e-9 } } == true)
        #expect(clipped == clippedOneByOne([inside, outside, across], [right]))
    }
}
