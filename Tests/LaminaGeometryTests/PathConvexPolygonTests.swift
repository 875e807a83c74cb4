// PathData.convexPolygon: the corners of a path whose fill is one convex polygon.
import Foundation
import Testing
@testable import LaminaGeometry

@Suite struct PathConvexPolygonTests {
    static func path(_ points: [CGPoint], close: Bool = true) -> PathData {
        var p = PathData()
        p.move(to: points[0])
        for point in points.dropFirst() { p.addLine(to: point) }
        if close { p.closeSubpath() }
        return p
    }

    @Test func aRectangleIsItsFourCorners() throws {
        var p = PathData()
        p.addRect(CGRect(x: 1, y: 2, width: 4, height: 3))
        let corners = try #require(p.convexPolygon(maximumCorners: 8))
        #expect(Set(corners.map { "\($0.x),\($0.y)" }) == ["1.0,2.0", "5.0,2.0", "5.0,5.0", "1.0,5.0"])
    }

    /// As Lottie writes a rectangle without rounding: eight points, pairs
    /// of them the same, each side a curve whose controls are its ends.
    @Test func straightCurvesAndRepeatedPointsAreSides() throws {
        let xy: [(Double, Double)] = [(9, 2), (9, 2), (9, 7), (9, 7), (1, 7), (1, 7), (1, 2), (1, 2)]
        let points = xy.map { CGPoint(x: $0.0, y: $0.1) }
        var p = PathData()
        p.move(to: points[0])
        for i in 1...points.count {
            let (from, to) = (points[i - 1], points[i % points.count])
            p.addCurve(to: to, control1: from, control2: to)
        }
        p.closeSubpath()
        #expect(p.convexPolygon(maximumCorners: 8)?.count == 4)
        // A control along the side, between its ends, is straight too.
        var q = PathData()
        q.move(to: CGPoint(x: 0, y: 0))
        q.addCurve(to: CGPoint(x: 6, y: 3), control1: CGPoint(x: 2, y: 1), control2: CGPoint(x: 4, y: 2))
        q.addLine(to: CGPoint(x: 0, y: 5))
        #expect(q.convexPolygon(maximumCorners: 8)?.count == 3)
    }

    @Test func pointsAlongASideAreNotCorners() throws {
        let xy: [(Double, Double)] = [(0, 0), (2, 0), (4, 0), (4, 4), (0, 4), (0, 2)]
        let p = Self.path(xy.map { CGPoint(x: $0.0, y: $0.1) }, close: false)
        #expect(p.convexPolygon(maximumCorners: 8)?.count == 4)
    }

    @Test func anythingElseIsNot() throws {
        func pts(_ xy: [(Double, Double)]) -> [CGPoint] { xy.map { CGPoint(x: $0.0, y: $0.1) } }
        // Concave.
        #expect(Self.path(pts([(0, 0), (4, 0), (2, 1), (4, 4), (0, 4)])).convexPolygon(maximumCorners: 8) == nil)
        // A pentagram turns one way, twice round.
        let star = (0..<5).map { (i: Int) -> CGPoint in
            let angle = Double(i * 2) * 2 * Double.pi / 5
            return CGPoint(x: sin(angle), y: -cos(angle))
        }
        #expect(Self.path(star).convexPolygon(maximumCorners: 8) == nil)
        // A curve.
        var ellipse = PathData()
        ellipse.addEllipse(in: CGRect(x: 0, y: 0, width: 4, height: 3))
        #expect(ellipse.convexPolygon(maximumCorners: 100) == nil)
        var bent = Self.path(pts([(0, 0), (4, 0)]), close: false)
        bent.addCurve(to: CGPoint(x: 0, y: 4), control1: CGPoint(x: 4, y: 4), control2: CGPoint(x: 4, y: 4))
        #expect(bent.convexPolygon(maximumCorners: 8) == nil)
        // A control beyond the side's end.
        var beyond = Self.path(pts([(0, 0), (4, 0)]), close: false)
        beyond.addQuadCurve(to: CGPoint(x: 4, y: 4), control: CGPoint(x: 4, y: 6))
        #expect(beyond.convexPolygon(maximumCorners: 8) == nil)
        // Two subpaths.
        var two = Self.path(pts([(0, 0), (4, 0), (4, 4)]))
        two.append(Self.path(pts([(10, 0), (14, 0), (14, 4)])))
        #expect(two.convexPolygon(maximumCorners: 8) == nil)
        // No area: a line, a point.
        #expect(Self.path(pts([(0, 0), (2, 2), (4, 4)])).convexPolygon(maximumCorners: 8) == nil)
        #expect(Self.path(pts([(1, 1), (1, 1), (1, 1)])).convexPolygon(maximumCorners: 8) == nil)
        // Too many corners for the caller.
        let octagon = (0..<8).map { (i: Int) -> CGPoint in
            let angle = Double(i) * Double.pi / 4
            return CGPoint(x: cos(angle), y: sin(angle))
        }
        #expect(Self.path(octagon).convexPolygon(maximumCorners: 8)?.count == 8)
        #expect(Self.path(octagon).convexPolygon(maximumCorners: 7) == nil)
        // A point that is not a number.
        #expect(Self.path(pts([(0, 0), (4, 0), (.nan, 4)])).convexPolygon(maximumCorners: 8) == nil)
    }

    @Test func eitherDirectionAndAMoveBeforeTheStart() throws {
        var p = PathData()
        p.move(to: CGPoint(x: 50, y: 50))
        p.move(to: CGPoint(x: 0, y: 0))
        p.addLine(to: CGPoint(x: 0, y: 3))
        p.addLine(to: CGPoint(x: 3, y: 3))
        p.addLine(to: CGPoint(x: 3, y: 0))
        p.closeSubpath()
        #expect(p.convexPolygon(maximumCorners: 4)?.count == 4)
    }
}
