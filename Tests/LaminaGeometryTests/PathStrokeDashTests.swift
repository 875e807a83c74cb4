// Dash splitting and strokeStart / strokeEnd trimming.
import Foundation
import Testing
@testable import LaminaGeometry

@Suite struct PathStrokeDashTests {
    /// The runs the stroker would outline for `svg` in `style`.
    func runs(_ svg: String, _ style: StrokeStyle) throws -> [StrokeRun] {
        StrokeRuns.runs(of: try PathData(svgPathData: svg).flattened(tolerance: 0.01), style: style)
    }

    /// Each run's first and last point.
    func ends(_ runs: [StrokeRun]) -> [[CGPoint]] {
        runs.map { [$0.points[0], $0.points[$0.points.count - 1]] }
    }

    func pt(_ x: CGFloat, _ y: CGFloat) -> CGPoint { CGPoint(x: x, y: y) }

    let line = "M0 0 L50 0"

    @Test func dashesAndGaps() throws {
        let r = try runs(line, StrokeStyle(dashPattern: [10, 5]))
        #expect(ends(r) == [[pt(0, 0), pt(10, 0)], [pt(15, 0), pt(25, 0)], [pt(30, 0), pt(40, 0)], [pt(45, 0), pt(50, 0)]])
    }

    @Test func phaseShiftsThePattern() throws {
        let r = try runs(line, StrokeStyle(dashPattern: [10, 5], dashPhase: 5))
        #expect(ends(r) == [[pt(0, 0), pt(5, 0)], [pt(10, 0), pt(20, 0)], [pt(25, 0), pt(35, 0)], [pt(40, 0), pt(50, 0)]])
        // A negative phase counts back: -5 is 10 into a pattern 15 long.
        let back = try runs(line, StrokeStyle(dashPattern: [10, 5], dashPhase: -5))
        #expect(ends(back).first == [pt(5, 0), pt(15, 0)])
        // A phase beyond the period wraps.
        #expect(try runs(line, StrokeStyle(dashPattern: [10, 5], dashPhase: 40)) == back)
    }

    @Test func oddPatternRepeatsSwapped() throws {
        let r = try runs(line, StrokeStyle(dashPattern: [10]))
        #expect(ends(r) == [[pt(0, 0), pt(10, 0)], [pt(20, 0), pt(30, 0)], [pt(40, 0), pt(50, 0)]])
        let three = try runs(line, StrokeStyle(dashPattern: [4, 6, 10]))
        // 4 on, 6 off, 10 on, 4 off, 6 on, 10 off, 4 on...
        #expect(ends(three) == [[pt(0, 0), pt(4, 0)], [pt(10, 0), pt(20, 0)], [pt(24, 0), pt(30, 0)], [pt(40, 0), pt(44, 0)]])
    }

    @Test func dashesTurnCornersWithJoins() throws {
        // A 10 × 10 square, perimeter 40: dashes [0, 15] and [20, 35] go
        // round corners and through the closing side.
        let r = try runs("M0 0 H10 V10 H0 Z", StrokeStyle(dashPattern: [15, 5]))
        #expect(r.count == 2)
        #expect(r[0].points == [pt(0, 0), pt(10, 0), pt(10, 5)])
        #expect(r[1].points == [pt(10, 10), pt(0, 10), pt(0, 5)])
        #expect(!r[0].isClosed && !r[1].isClosed)
        let o = try strokeOutline("M0 0 H10 V10 H0 Z", StrokeStyle(lineWidth: 2, dashPattern: [15, 5]))
        #expect(o.contains(pt(10.9, -0.9)))   // the mitered corner inside a dash
        #expect(!o.contains(pt(-0.9, -0.9)))  // the start: a butt end, no join
        #expect(o.contains(pt(0, 8)) && !o.contains(pt(0, 2.5)))
    }

    @Test func aDashCoveringAClosedSubpathStaysClosed() throws {
        let r = try runs("M0 0 H10 V10 H0 Z", StrokeStyle(dashPattern: [100, 10]))
        #expect(r.count == 1 && r[0].isClosed && r[0].points.count == 4)
    }

    @Test func patternRestartsOnEverySubpath() throws {
        let r = try runs("M0 0 H10 M0 20 H10", StrokeStyle(dashPattern: [6, 6]))
        #expect(ends(r) == [[pt(0, 0), pt(6, 0)], [pt(0, 20), pt(6, 20)]])
    }

    @Test func zeroLengthDashesAreDots() throws {
        let r = try runs(line, StrokeStyle(dashPattern: [0, 10]))
        #expect(r.map { $0.points } == (0...5).map { [pt(CGFloat($0) * 10, 0)] })
        let round = try strokeOutline(line, StrokeStyle(lineWidth: 4, lineCap: .round, dashPattern: [0, 10]))
        #expect(round.contains(pt(10, 1.9)) && !round.contains(pt(5, 0)))
        let butt = try strokeOutline(line, StrokeStyle(lineWidth: 4, lineCap: .butt, dashPattern: [0, 10]))
        #expect(butt.isEmpty)
        // Square dots face along the path: on a diagonal they are diamonds.
        let square = try strokeOutline("M0 0 L100 100", StrokeStyle(lineWidth: 4, lineCap: .square, dashPattern: [0, 20]))
        let centre = pt(20 / 2.squareRoot(), 20 / 2.squareRoot())
        #expect(square.contains(pt(centre.x + 2.6, centre.y)))   // inside the diamond's tip
        #expect(!square.contains(pt(centre.x + 1.9, centre.y + 1.9)))  // beyond its side
    }

    @Test func dashOnASinglePointSubpath() throws {
        #expect(try runs("M5 5 Z", StrokeStyle(dashPattern: [3, 3])).count == 1)
        #expect(try runs("M5 5 Z", StrokeStyle(dashPattern: [3, 3], dashPhase: 4)).isEmpty)
    }

    @Test(arguments: [[CGFloat](), [0, 0], [-1, 5], [CGFloat.nan, 2], [CGFloat.infinity, 1]])
    func patternsCoreGraphicsIgnoresDrawSolid(pattern: [CGFloat]) throws {
        #expect(ends(try runs(line, StrokeStyle(dashPattern: pattern))) == [[pt(0, 0), pt(50, 0)]])
    }

    @Test func uselesslyFinePatternsDrawSolid() throws {
        let r = try runs(line, StrokeStyle(dashPattern: [1e-6, 1e-6]))
        #expect(ends(r) == [[pt(0, 0), pt(50, 0)]])
    }

    @Test func trimmingByStrokeStartAndEnd() throws {
        let r = try runs("M0 0 L100 0", StrokeStyle(strokeStart: 0.25, strokeEnd: 0.5))
        #expect(ends(r) == [[pt(25, 0), pt(50, 0)]])
        // Over the whole path's length: two subpaths of 100 each.
        let two = try runs("M0 0 H100 M0 10 H100", StrokeStyle(strokeEnd: 0.75))
        #expect(ends(two) == [[pt(0, 0), pt(100, 0)], [pt(0, 10), pt(50, 10)]])
        let second = try runs("M0 0 H100 M0 10 H100", StrokeStyle(strokeStart: 0.5, strokeEnd: 1))
        #expect(ends(second) == [[pt(0, 10), pt(100, 10)]])
        // Nothing when start reaches end.
        #expect(try runs("M0 0 L100 0", StrokeStyle(strokeStart: 0.6, strokeEnd: 0.4)).isEmpty)
        #expect(try runs("M0 0 L100 0", StrokeStyle(strokeStart: 0.5, strokeEnd: 0.5)).isEmpty)
        // Caps go on the trimmed ends.
        let o = try strokeOutline("M0 0 L100 0", StrokeStyle(lineWidth: 10, lineCap: .round, strokeStart: 0.25, strokeEnd: 0.5))
        #expect(o.contains(pt(21, 0)) && !o.contains(pt(19, 0)) && !o.contains(pt(56, 0)))
    }

    @Test func trimmingOpensAClosedSubpath() throws {
        let r = try runs("M0 0 H100 V100 H0 Z", StrokeStyle(strokeEnd: 0.5))
        #expect(r.count == 1 && !r[0].isClosed)
        #expect(r[0].points == [pt(0, 0), pt(100, 0), pt(100, 100)])
        let untrimmed = try runs("M0 0 H100 V100 H0 Z", StrokeStyle(strokeStart: 0, strokeEnd: 1))
        #expect(untrimmed.count == 1 && untrimmed[0].isClosed)
    }

    @Test func dashesStayPutWhileTrimmed() throws {
        // Trimming cuts the dashed stroke; it does not restart the pattern.
        let r = try runs(line, StrokeStyle(dashPattern: [10, 5], strokeStart: 0.1, strokeEnd: 0.9))
        #expect(ends(r) == [[pt(5, 0), pt(10, 0)], [pt(15, 0), pt(25, 0)], [pt(30, 0), pt(40, 0)]])
    }

    @Test func curvesAreMeasuredAlongTheirLength() throws {
        // A half circle of radius 10 is 10π long; a dash of 5π covers its
        // first quarter.
        let r = try runs("M10 0 A10 10 0 0 1 -10 0", StrokeStyle(dashPattern: [5 * .pi, 100]))
        #expect(r.count == 1)
        #expect(near(r[0].points.last ?? .zero, pt(0, 10), 0.02))
    }

    @Test func cgPathDashingCopy() {
        let p = CGMutablePath()
        p.move(to: .zero)
        p.addLine(to: CGPoint(x: 50, y: 0))
        let dashed = p.copy(dashingWithPhase: 0, lengths: [10, 5])
        #expect(dashed.elements.filter { $0.type == .moveToPoint }.count == 4)
        #expect(dashed.elements[0] == .moveTo(.zero) && dashed.elements[1] == .lineTo(CGPoint(x: 10, y: 0)))
        let dots = p.copy(dashingWithPhase: 0, lengths: [0, 25])
        #expect(dots.elements == [
            .moveTo(.zero), .lineTo(.zero), .moveTo(CGPoint(x: 25, y: 0)), .lineTo(CGPoint(x: 25, y: 0)),
            .moveTo(CGPoint(x: 50, y: 0)), .lineTo(CGPoint(x: 50, y: 0)),
        ])
    }
    /// A path measured once strokes to the contours of stroking the path
    /// itself, in every style: trims, dashes, caps and joins, open and
    /// closed subpaths, curves, a subpath of one point.
    @Test func aMeasuredPathStrokesAsThePathDoes() throws {
        let svgs = ["M0 0 L50 0", "M10 10 C40 0 60 40 90 10 S120 60 150 20", "M0 0 L40 0 L40 40 Z M60 60 Q80 20 100 60 Z",
                    "M5 5 L5 5 M20 20 L60 25 L30 70", "M0 0 A30 20 15 1 1 60 40"]
        let styles = [
            StrokeStyle(lineWidth: 3),
            StrokeStyle(lineWidth: 4, lineCap: .round, lineJoin: .round, strokeStart: 0.2, strokeEnd: 0.7),
            StrokeStyle(lineWidth: 2, lineCap: .square, lineJoin: .bevel, dashPattern: [7, 3, 1], dashPhase: 2),
            StrokeStyle(lineWidth: 6, miterLimit: 2, dashPattern: [0, 5], strokeStart: 0.35, strokeEnd: 0.36),
            StrokeStyle(lineWidth: 5, lineCap: .round, strokeStart: 0.9, strokeEnd: 0.1),
        ]
        for svg in svgs {
            let path = try PathData(svgPathData: svg)
            for tolerance in [0.05, 0.3] {
                let measured = MeasuredPath(path, tolerance: tolerance)
                for style in styles {
                    #expect(Stroker.outline(of: measured, style: style, tolerance: tolerance)
                            == path.strokeOutline(style: style, tolerance: tolerance), "\(svg) at \(tolerance)")
                }
            }
        }
    }
}
