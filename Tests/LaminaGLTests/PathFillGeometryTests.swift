import Foundation
import Testing
@testable import LaminaGL

/// The CPU side of path fills: no GL needed, so these run everywhere.
@Suite("Path fill geometry")
struct PathFillGeometryTests {
    @Test("contours become fans from their first point, then the cover quad")
    func layout() throws {
        let square = CGRect(x: 0, y: 0, width: 4, height: 2).polygon
        let triangle = [CGPoint(x: 1, y: 1), CGPoint(x: 3, y: 1), CGPoint(x: 2, y: -2)]
        let geometry = try #require(try PathFillGeometry(contours: [square, [], triangle]))
        #expect(geometry.fanIndices == [0, 1, 2, 0, 2, 3, 4, 5, 6])
        #expect(geometry.coverFirstVertex == 7)
        #expect(Array(geometry.positions.prefix(14)) == [0, 0, 4, 0, 4, 2, 0, 2, 1, 1, 3, 1, 2, -2])
        // The bounding box -2...2 by 0...4, widened by 4/1024 on every side.
        let m = Float(4.0 / 1024)
        let cover = Array(geometry.positions.suffix(8))
        let expected: [Float] = [-m, -2 - m, 4 + m, -2 - m, 4 + m, 2 + m, -m, 2 + m]
        #expect(zip(cover, expected).allSatisfy { abs($0 - $1) < 1e-6 }, "\(cover)")
        #expect(geometry.positions.count == 22)
    }

    @Test("contours of fewer than 3 points are left out; with nothing left there is nothing to draw")
    func degenerate() throws {
        #expect(try PathFillGeometry(contours: []) == nil)
        #expect(try PathFillGeometry(contours: [[], [CGPoint(x: 1, y: 2)], [.zero, CGPoint(x: 1, y: 1)]]) == nil)
        let kept = try #require(
            try PathFillGeometry(contours: [[.zero, CGPoint(x: 5, y: 5)], CGRect.square(0, 0, 1).polygon]))
        #expect(kept.fanIndices == [0, 1, 2, 0, 2, 3])
        // The left-out contour does not widen the cover quad either.
        #expect(kept.positions.suffix(8).allSatisfy { abs($0) < 1.01 })
    }

    @Test("a point that is not finite is an error naming its contour and index")
    func notFinite() {
        let bad = [CGRect.square(0, 0, 1).polygon, [.zero, CGPoint(x: 1, y: Double.infinity)]]
        #expect {
            _ = try PathFillGeometry(contours: bad)
        } throws: { error in
            "\(error)".contains("contour 1") && "\(error)".contains("index 1")
        }
        // Even in a contour too short to draw: the caller's data is wrong.
        #expect(throws: GLError.self) { _ = try PathFillGeometry(contours: [[CGPoint(x: Double.nan, y: 0)]]) }
    }
}
