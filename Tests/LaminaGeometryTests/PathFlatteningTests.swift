// Flattening: the tolerance bound, adaptive counts, polyline invariants.
import Foundation
import Testing
@testable import LaminaGeometry

@Suite struct PathFlatteningTests {
    /// Curves chosen to be hard: a cusp-like cubic, a loop, a flat quad, a
    /// circle, an elliptic arc from SVG.
    func samples() throws -> [PathData] {
        try [
            "M0 0 C100 100 0 100 100 0",
            "M0 0 C150 100 -50 100 100 0",
            "M0 0 Q500 1 1000 0",
            "M10 50 A40 40 0 1 1 10 50.01",
            "M0 0 A300 40 20 1 0 200 100 Z",
        ].map { try PathData(svgPathData: $0) }
    }

    /// The largest distance from the true curve, sampled densely, to the
    /// polylines.
    func maximumError(_ data: PathData, _ polylines: [Polyline]) -> CGFloat {
        var worst: CGFloat = 0
        var current = CGPoint.zero
        for element in data.elements {
            var curvePoints: [CGPoint] = []
            switch element {
            case .quadCurveTo(let c, let p):
                curvePoints = (0...400).map { Bezier.point(current, c, p, at: CGFloat($0) / 400) }
            case .curveTo(let c1, let c2, let p):
                curvePoints = (0...400).map { Bezier.point(current, c1, c2, p, at: CGFloat($0) / 400) }
            default: break
            }
            for q in curvePoints {
                worst = max(worst, polylines.map { distance(q, to: $0) }.min() ?? .infinity)
            }
            if let p = element.endPoint { current = p }
        }
        return worst
    }

    @Test(arguments: [1.0, 0.25, 0.05, 0.01])
    func errorStaysWithinTolerance(tolerance: CGFloat) throws {
        for data in try samples() {
            let polylines = data.flattened(tolerance: tolerance)
            let error = maximumError(data, polylines)
            #expect(error <= tolerance * 1.000001, "\(data.svgPathData.prefix(30)): \(error) > \(tolerance)")
        }
    }

    @Test func segmentCountGrowsAsToleranceShrinks() throws {
        for data in try samples() {
            let counts = [1.0, 0.1, 0.01, 0.001].map { tolerance in
                data.flattened(tolerance: tolerance).reduce(0) { $0 + $1.points.count }
            }
            #expect(counts[0] < counts[1] && counts[1] < counts[2] && counts[2] < counts[3], "\(counts)")
            // Wang's count goes as 1/√tolerance: about √10 more per decade.
            let ratio = CGFloat(counts[3]) / CGFloat(counts[2])
            #expect(ratio > 2.5 && ratio < 3.8, "\(counts)")
        }
    }

    @Test func flatCurvesCostOneChord() {
        var data = PathData()
        data.move(to: .zero)
        data.addCurve(to: CGPoint(x: 3, y: 0), control1: CGPoint(x: 1, y: 0), control2: CGPoint(x: 2, y: 0))
        #expect(data.flattened(tolerance: 0.001)[0].points == [.zero, CGPoint(x: 3, y: 0)])
        #expect(Flattening.steps(.zero, CGPoint(x: 1, y: 1), CGPoint(x: 2, y: 2), tolerance: 1e-9) == 1)
    }

    /// A straight line written as a curve (a Lottie vertex with no tangents
    /// puts the control points on the ends) is one chord, however long;
    /// control points off the line by more than the tolerance, past an end,
    /// or in reverse order (the curve turns back along the line) are cut
    /// as curves are, within the tolerance.
    @Test func straightCurvesAreOneChordAndOthersAreNot() throws {
        func flat(_ c1: CGPoint, _ c2: CGPoint, quad: Bool = false) -> [CGPoint] {
            var data = PathData()
            data.move(to: .zero)
            if quad { data.addQuadCurve(to: CGPoint(x: 300, y: 0), control: c1) } else {
                data.addCurve(to: CGPoint(x: 300, y: 0), control1: c1, control2: c2)
            }
            return data.flattened(tolerance: 0.05)[0].points
        }
        let ends = [CGPoint.zero, CGPoint(x: 300, y: 0)]
        #expect(flat(.zero, CGPoint(x: 300, y: 0)) == ends)
        #expect(flat(CGPoint(x: 100, y: 0.04), CGPoint(x: 250, y: -0.04)) == ends)
        #expect(flat(CGPoint(x: 120, y: 0), CGPoint(x: 120, y: 0)) == ends)
        #expect(flat(CGPoint(x: 150, y: 0.05), .zero, quad: true) == ends)
        // Off the line by more than the tolerance: a curve.
        #expect(flat(CGPoint(x: 100, y: 0.2), CGPoint(x: 200, y: 0)).count > 2)
        // Past an end, or turning back: the chords follow it there and back.
        let past = flat(CGPoint(x: 100, y: 0), CGPoint(x: 400, y: 0))
        #expect(past.count > 2 && past.contains { $0.x > 300 })
        #expect(flat(CGPoint(x: 250, y: 0), CGPoint(x: 50, y: 0)).count > 2)
        #expect(flat(CGPoint(x: -60, y: 0), CGPoint(x: 200, y: 0)).count > 2)
        // Turned and long, as Lottie's triangles are.
        var triangle = PathData()
        let a = CGPoint(x: 0, y: -100), b = CGPoint(x: 86.6, y: 50), c = CGPoint(x: -86.6, y: 50)
        triangle.move(to: a)
        for (from, to) in [(a, b), (b, c), (c, a)] { triangle.addCurve(to: to, control1: from, control2: to) }
        triangle.closeSubpath()
        #expect(triangle.flattened(tolerance: 0.05)[0].points.count == 3)
        // The error bound holds for all of them.
        for svg in ["M0 0 C100 0.04 250 -0.04 300 0", "M0 0 C100 0 400 0 300 0", "M0 0 C250 0 50 0 300 0"] {
            let data = try PathData(svgPathData: svg)
            #expect(maximumError(data, data.flattened(tolerance: 0.05)) <= 0.05 * 1.000001, "\(svg)")
        }
    }

    @Test func absurdTolerancesAreBounded() {
        let p0 = CGPoint.zero, p1 = CGPoint(x: 1e6, y: 1e6), p2 = CGPoint(x: 2e6, y: 0)
        #expect(Flattening.steps(p0, p1, p2, tolerance: 0) == Flattening.maximumSteps)
        #expect(Flattening.steps(p0, p1, p2, tolerance: -1) == Flattening.maximumSteps)
        #expect(Flattening.steps(p0, p1, p2, tolerance: .nan) == Flattening.maximumSteps)
        #expect(Flattening.steps(p0, CGPoint(x: CGFloat.nan, y: 0), p2, tolerance: 1) == 1)
        #expect(Flattening.steps(p0, p1, p2, tolerance: 1e-300) == Flattening.maximumSteps)
    }

    @Test func polylinesPerSubpathWithClosedFlag() {
        var data = PathData()
        data.move(to: CGPoint(x: 100, y: 100))  // a lone moveTo: dropped
        data.addRect(CGRect(x: 0, y: 0, width: 10, height: 10))
        data.move(to: CGPoint(x: 20, y: 0))
        data.addLine(to: CGPoint(x: 30, y: 0))
        data.addLine(to: CGPoint(x: 30, y: 0))  // a duplicate point: dropped
        data.addLine(to: CGPoint(x: 30, y: 10))
        data.move(to: CGPoint(x: 50, y: 50))
        data.addLine(to: CGPoint(x: 50, y: 50))  // zero length: one point
        data.move(to: CGPoint(x: 60, y: 60))
        data.closeSubpath()                      // a closed point
        let polylines = data.flattened(tolerance: 0.1)
        #expect(polylines == [
            Polyline(points: [CGPoint(x: 0, y: 0), CGPoint(x: 10, y: 0), CGPoint(x: 10, y: 10), CGPoint(x: 0, y: 10)],
                     isClosed: true),
            Polyline(points: [CGPoint(x: 20, y: 0), CGPoint(x: 30, y: 0), CGPoint(x: 30, y: 10)], isClosed: false),
            Polyline(points: [CGPoint(x: 50, y: 50)], isClosed: false),
            Polyline(points: [CGPoint(x: 60, y: 60)], isClosed: true),
        ])
    }

    @Test func manySubpathsFlattenAsEachDoesAlone() throws {
        // Each subpath's lists are sized from the elements up to the next
        // moveTo: subpaths of lines, of curves, open and closed, one after
        // another, come out as each does on its own.
        let parts = ["M0 0 L10 0 L10 10 Z", "M20 0 C30 10 40 -10 50 0", "M60 0 L70 5", "M80 0 Q90 20 100 0 L100 10 Z", "M0 50"]
        let whole = try PathData(svgPathData: parts.joined(separator: " ")).flattened(tolerance: 0.1)
        let alone = try parts.flatMap { try PathData(svgPathData: $0).flattened(tolerance: 0.1) }
        #expect(whole.count == 4)
        #expect(whole.map(\.points) == alone.map(\.points))
        #expect(whole.map(\.isSmooth) == alone.map(\.isSmooth))
        #expect(whole.map(\.isClosed) == [true, false, false, true])
    }

    @Test func explicitReturnToStartIsNotDuplicated() {
        var data = PathData()
        data.addLines(between: [.zero, CGPoint(x: 10, y: 0), CGPoint(x: 0, y: 10), .zero])
        data.closeSubpath()
        let polyline = data.flattened(tolerance: 1)[0]
        #expect(polyline.points == [.zero, CGPoint(x: 10, y: 0), CGPoint(x: 0, y: 10)])
        #expect(polyline.isSmooth == [false, false, false])
    }

    @Test func smoothFlagsMarkCurveInteriorsAndTangentJoins() {
        let circle = PathData(CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 100, height: 100)).elements)
        let polyline = circle.flattened(tolerance: 0.1)[0]
        #expect(polyline.isClosed)
        #expect(polyline.isSmooth.allSatisfy { $0 })  // the joins of the four quarters too
        #expect(polyline.points.count > 20)

        // A line running into a curve along its tangent is smooth; a corner
        // into the same curve is not.
        let smooth = try! PathData(svgPathData: "M0 0 L10 0 Q20 0 20 10 L 30 10")
        let flags = smooth.flattened(tolerance: 0.01)[0].isSmooth
        #expect(flags.first == false)
        #expect(flags[1] == true)      // (10, 0): line then curve, same tangent
        #expect(flags[flags.count - 2] == false)  // (20, 10): curve going down, line going right
    }

    @Test func cgPathFlattenedMatchesData() {
        let p = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 10, height: 10))
        #expect(p.flattened(tolerance: 0.05) == p.pathData.flattened(tolerance: 0.05))
    }
}
