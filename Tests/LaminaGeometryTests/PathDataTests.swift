// PathData and CGPath / CGMutablePath: building, copying, iterating, bounds.
import Foundation
import Testing
@testable import LaminaGeometry

@Suite struct PathDataTests {
    @Test func segmentsWithoutCurrentPointAreIgnored() {
        var data = PathData()
        data.addLine(to: CGPoint(x: 1, y: 1))
        data.addCurve(to: CGPoint(x: 1, y: 1), control1: .zero, control2: .zero)
        data.closeSubpath()
        #expect(data.isEmpty)
        #expect(data.currentPoint == nil)
    }

    @Test func segmentAfterCloseStartsAtSubpathStart() {
        var data = PathData()
        data.move(to: CGPoint(x: 1, y: 2))
        data.addLine(to: CGPoint(x: 5, y: 2))
        data.closeSubpath()
        #expect(data.currentPoint == CGPoint(x: 1, y: 2))
        data.closeSubpath()  // a second close is dropped
        data.addLine(to: CGPoint(x: 1, y: 9))
        #expect(data.elements == [
            .moveTo(CGPoint(x: 1, y: 2)), .lineTo(CGPoint(x: 5, y: 2)), .closeSubpath,
            .moveTo(CGPoint(x: 1, y: 2)), .lineTo(CGPoint(x: 1, y: 9)),
        ])
    }

    @Test func initFromElementsEnforcesInvariants() {
        let data = PathData([.lineTo(CGPoint(x: 3, y: 3)), .moveTo(.zero), .lineTo(CGPoint(x: 1, y: 0))])
        #expect(data.elements == [.moveTo(.zero), .lineTo(CGPoint(x: 1, y: 0))])
    }

    @Test func mutablePathBuildsAppleStyle() {
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 0, y: 0))
        p.addLine(to: CGPoint(x: 10, y: 0))
        p.addQuadCurve(to: CGPoint(x: 20, y: 10), control: CGPoint(x: 20, y: 0))
        p.addCurve(to: CGPoint(x: 0, y: 20), control1: CGPoint(x: 20, y: 20), control2: CGPoint(x: 10, y: 20))
        p.closeSubpath()
        #expect(p.elements.map(\.type) == [
            .moveToPoint, .addLineToPoint, .addQuadCurveToPoint, .addCurveToPoint, .closeSubpath,
        ])
        #expect(p.currentPoint == .zero)
        #expect(!p.isEmpty)
        #expect(CGMutablePath().isEmpty)
        #expect(CGMutablePath().currentPoint == .zero)
    }

    @Test func transformArgumentAppliesToWhatIsAdded() {
        let p = CGMutablePath()
        let t = CGAffineTransform(translationX: 100, y: 0)
        p.move(to: CGPoint(x: 1, y: 1), transform: t)
        p.addLine(to: CGPoint(x: 2, y: 1), transform: t)
        p.addQuadCurve(to: CGPoint(x: 3, y: 3), control: CGPoint(x: 3, y: 1), transform: t)
        #expect(p.elements == [
            .moveTo(CGPoint(x: 101, y: 1)), .lineTo(CGPoint(x: 102, y: 1)),
            .quadCurveTo(control: CGPoint(x: 103, y: 1), to: CGPoint(x: 103, y: 3)),
        ])
    }

    @Test func copiesAreIndependentAndEqual() {
        let p = CGMutablePath()
        p.addRect(CGRect(x: 0, y: 0, width: 10, height: 10))
        let frozen = p.copy()
        let other = p.mutableCopy()
        #expect(frozen == p)
        #expect(other == p)
        #expect(frozen.map { $0.hashValue } == p.hashValue)
        p.addLine(to: CGPoint(x: 5, y: 5))
        #expect(frozen != p)
        #expect(other?.elements.count == 5)
        #expect(!(frozen is CGMutablePath))
    }

    @Test func copyUsingTransformPointerAndValue() throws {
        let p = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10))
        var t = CGAffineTransform(scaleX: 2, y: 3)
        let a = try #require(p.copy(using: &t))
        let b = p.copy(using: t)
        #expect(a == b)
        #expect(a.boundingBox == CGRect(x: 0, y: 0, width: 20, height: 30))
        #expect(p.copy(using: nil) == p)
    }

    @Test func applyWithBlockHandsOutCoreGraphicsElements() {
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 1, y: 2))
        p.addCurve(to: CGPoint(x: 7, y: 8), control1: CGPoint(x: 3, y: 4), control2: CGPoint(x: 5, y: 6))
        p.addQuadCurve(to: CGPoint(x: 11, y: 12), control: CGPoint(x: 9, y: 10))
        p.closeSubpath()
        var seen: [(CGPathElementType, [CGPoint])] = []
        p.applyWithBlock { element in
            let e = element.pointee
            let n = [CGPathElementType.moveToPoint: 1, .addLineToPoint: 1, .addQuadCurveToPoint: 2,
                     .addCurveToPoint: 3, .closeSubpath: 0][e.type] ?? 0
            seen.append((e.type, (0..<n).map { e.points[$0] }))
        }
        #expect(seen.map(\.0) == [.moveToPoint, .addCurveToPoint, .addQuadCurveToPoint, .closeSubpath])
        #expect(seen[1].1 == [CGPoint(x: 3, y: 4), CGPoint(x: 5, y: 6), CGPoint(x: 7, y: 8)])
        #expect(seen[2].1 == [CGPoint(x: 9, y: 10), CGPoint(x: 11, y: 12)])
    }

    @Test func addRectRunsFromMinCornerAlongX() {
        let p = CGMutablePath()
        p.addRects([CGRect(x: 10, y: 20, width: -5, height: 5), CGRect(x: 0, y: 0, width: 1, height: 1)])
        #expect(Array(p.elements.prefix(5)) == [
            .moveTo(CGPoint(x: 5, y: 20)), .lineTo(CGPoint(x: 10, y: 20)), .lineTo(CGPoint(x: 10, y: 25)),
            .lineTo(CGPoint(x: 5, y: 25)), .closeSubpath,
        ])
        #expect(p.elements.count == 10)
    }

    @Test func addLinesAndAddPath() {
        let a = CGMutablePath()
        a.addLines(between: [CGPoint(x: 0, y: 0), CGPoint(x: 1, y: 0), CGPoint(x: 1, y: 1)])
        let b = CGMutablePath()
        b.addPath(a, transform: CGAffineTransform(translationX: 0, y: 10))
        b.addPath(b)  // adding a path to itself doubles it
        #expect(b.elements == [
            .moveTo(CGPoint(x: 0, y: 10)), .lineTo(CGPoint(x: 1, y: 10)), .lineTo(CGPoint(x: 1, y: 11)),
            .moveTo(CGPoint(x: 0, y: 10)), .lineTo(CGPoint(x: 1, y: 10)), .lineTo(CGPoint(x: 1, y: 11)),
        ])
    }

    @Test func ellipseStartsRightAndTurnsTowardsPlusY() {
        let p = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 100, height: 50))
        #expect(p.elements.first == .moveTo(CGPoint(x: 100, y: 25)))
        #expect(endPoints(p.pathData) == [
            CGPoint(x: 100, y: 25), CGPoint(x: 50, y: 50), CGPoint(x: 0, y: 25),
            CGPoint(x: 50, y: 0), CGPoint(x: 100, y: 25),
        ])
        #expect(p.elements.last == .closeSubpath)
        // Each quarter's midpoint lies on the ellipse (to the usual 0.03%).
        for c in cubics(p.pathData) {
            let m = cubicPoint(c, 0.5)
            let r = hypot((m.x - 50) / 50, (m.y - 25) / 25)
            #expect(near(r, 1, 3e-4))
        }
    }

    @Test func boundingBoxIncludesControlPointsButPathBoxDoesNot() {
        let p = CGMutablePath()
        p.move(to: .zero)
        p.addCurve(to: CGPoint(x: 100, y: 0), control1: CGPoint(x: 0, y: 100), control2: CGPoint(x: 100, y: 100))
        #expect(p.boundingBox == CGRect(x: 0, y: 0, width: 100, height: 100))
        #expect(near(p.boundingBoxOfPath, CGRect(x: 0, y: 0, width: 100, height: 75)))

        let q = CGMutablePath()
        q.move(to: .zero)
        q.addQuadCurve(to: CGPoint(x: 100, y: 0), control: CGPoint(x: 150, y: -100))
        #expect(q.boundingBox == CGRect(x: 0, y: -100, width: 150, height: 100))
        // x peaks at t = 0.75: 2·0.25·0.75·150 + 0.5625·100 = 112.5; y dips
        // to -50 at t = 0.5.
        #expect(near(q.boundingBoxOfPath, CGRect(x: 0, y: -50, width: 112.5, height: 50)))

        #expect(CGMutablePath().boundingBox.isNull)
        #expect(CGMutablePath().boundingBoxOfPath.isNull)

        let circle = CGPath(ellipseIn: CGRect(x: -10, y: -10, width: 20, height: 20))
        #expect(near(circle.boundingBoxOfPath, CGRect(x: -10, y: -10, width: 20, height: 20)))
    }

    @Test func reversingKeepsShapeAndFlipsWinding() {
        var data = PathData()
        data.addRect(CGRect(x: 0, y: 0, width: 10, height: 10))
        data.move(to: CGPoint(x: 20, y: 0))
        data.addQuadCurve(to: CGPoint(x: 30, y: 0), control: CGPoint(x: 25, y: 5))
        let reversed = data.reversingSubpaths()
        #expect(reversed.elements == [
            .moveTo(CGPoint(x: 0, y: 10)), .lineTo(CGPoint(x: 10, y: 10)), .lineTo(CGPoint(x: 10, y: 0)),
            .lineTo(CGPoint(x: 0, y: 0)), .closeSubpath,
            .moveTo(CGPoint(x: 30, y: 0)), .quadCurveTo(control: CGPoint(x: 25, y: 5), to: CGPoint(x: 20, y: 0)),
        ])
        let center = CGPoint(x: 5, y: 5)
        #expect(data.windingNumber(at: center) == -reversed.windingNumber(at: center))
        #expect(data.windingNumber(at: center) != 0)
    }

    @Test func pathCrossesTasks() async {
        let p = CGMutablePath()
        p.addEllipse(in: CGRect(x: 0, y: 0, width: 10, height: 10))
        let frozen: CGPath = p
        let box = await Task.detached { frozen.boundingBox }.value
        #expect(box == CGRect(x: 0, y: 0, width: 10, height: 10))
    }
}

/// A path's hash: equal paths hash alike (a zero's sign aside, as `==`
/// sets it aside), and paths that differ in a point, an element's kind or
/// their order hash apart.
@Suite struct PathDataHashTests {
    static func path(_ points: [CGPoint], curve: Bool = false) -> PathData {
        var p = PathData()
        p.move(to: points[0])
        for point in points.dropFirst() {
            if curve { p.addQuadCurve(to: point, control: CGPoint(x: point.x + 1, y: point.y)) } else { p.addLine(to: point) }
        }
        p.closeSubpath()
        return p
    }

    @Test func equalPathsHashAlikeAndDifferentOnesApart() {
        let points = [CGPoint(x: 0, y: 0), CGPoint(x: 10, y: 0.5), CGPoint(x: 3, y: 7)]
        let a = Self.path(points)
        let negativeZero = Self.path([CGPoint(x: -0.0, y: -0.0)] + points.dropFirst())
        #expect(a == negativeZero)
        #expect(a.hashValue == negativeZero.hashValue)
        #expect(a.hashValue == Self.path(points).hashValue)
        let others = [Self.path(points, curve: true), Self.path(points.reversed()),
                      Self.path([CGPoint(x: 0, y: 0), CGPoint(x: 10, y: 0.5000001), CGPoint(x: 3, y: 7)]),
                      Self.path(Array(points.prefix(2))), PathData()]
        let hashes = Set(([a] + others).map(\.hashValue))
        #expect(hashes.count == others.count + 1)
        // Swapped coordinates are another path, and another hash.
        #expect(Self.path(points.map { CGPoint(x: $0.y, y: $0.x) }).hashValue != a.hashValue)
    }
}
