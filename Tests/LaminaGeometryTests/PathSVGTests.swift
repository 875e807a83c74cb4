// SVG path data: every command absolute and relative, numbers, flags, arcs,
// errors, and the writer.
import Foundation
import Testing
@testable import LaminaGeometry

@Suite struct PathSVGTests {
    func parse(_ s: String) throws -> [PathElement] {
        try PathData(svgPathData: s).elements
    }

    func pt(_ x: CGFloat, _ y: CGFloat) -> CGPoint { CGPoint(x: x, y: y) }

    @Test func linesAbsoluteAndRelative() throws {
        #expect(try parse("M10 20 L30 40 H50 V60 Z") == [
            .moveTo(pt(10, 20)), .lineTo(pt(30, 40)), .lineTo(pt(50, 40)), .lineTo(pt(50, 60)), .closeSubpath,
        ])
        #expect(try parse("m10 20 l30 40 h5 v-10 z") == [
            .moveTo(pt(10, 20)), .lineTo(pt(40, 60)), .lineTo(pt(45, 60)), .lineTo(pt(45, 50)), .closeSubpath,
        ])
    }

    @Test func cubicsAbsoluteAndRelativeWithSmoothReflection() throws {
        let expected: [PathElement] = [
            .moveTo(pt(0, 0)),
            .curveTo(control1: pt(1, 2), control2: pt(3, 4), to: pt(5, 6)),
            .curveTo(control1: pt(7, 8), control2: pt(9, 10), to: pt(11, 12)),
        ]
        #expect(try parse("M0 0 C1 2 3 4 5 6 S9 10 11 12") == expected)
        #expect(try parse("m0 0 c1 2 3 4 5 6 s4 4 6 6") == expected)
        // S with no cubic before it uses the current point as first control.
        #expect(try parse("M1 1 L2 2 S3 3 4 4") == [
            .moveTo(pt(1, 1)), .lineTo(pt(2, 2)), .curveTo(control1: pt(2, 2), control2: pt(3, 3), to: pt(4, 4)),
        ])
    }

    @Test func quadraticsAbsoluteAndRelativeWithSmoothReflection() throws {
        let expected: [PathElement] = [
            .moveTo(pt(0, 0)),
            .quadCurveTo(control: pt(1, 1), to: pt(2, 0)),
            .quadCurveTo(control: pt(3, -1), to: pt(4, 0)),
            .quadCurveTo(control: pt(5, 1), to: pt(6, 0)),
        ]
        #expect(try parse("M0 0 Q1 1 2 0 T4 0 T6 0") == expected)
        #expect(try parse("m0 0 q1 1 2 0 t2 0 t2 0") == expected)
        // T after a cubic does not reflect it.
        #expect(try parse("M0 0 C1 1 2 1 3 0 T5 5").last == .quadCurveTo(control: pt(3, 0), to: pt(5, 5)))
    }

    @Test func implicitRepeatedCommands() throws {
        #expect(try parse("M0 0 10 10 20 0") == [.moveTo(pt(0, 0)), .lineTo(pt(10, 10)), .lineTo(pt(20, 0))])
        #expect(try parse("m1 1 2 2") == [.moveTo(pt(1, 1)), .lineTo(pt(3, 3))])
        #expect(try parse("M0 0 h1 2 v3") == [
            .moveTo(pt(0, 0)), .lineTo(pt(1, 0)), .lineTo(pt(3, 0)), .lineTo(pt(3, 3)),
        ])
        #expect(try parse("M0 0 l1,1,1,1") == [.moveTo(pt(0, 0)), .lineTo(pt(1, 1)), .lineTo(pt(2, 2))])
    }

    @Test func compactNumbers() throws {
        #expect(try parse("M1e-3.5.5-1") == [.moveTo(pt(0.001, 0.5)), .lineTo(pt(0.5, -1))])
        #expect(try parse("M-1-2L+1.5E+1,.25") == [.moveTo(pt(-1, -2)), .lineTo(pt(15, 0.25))])
        #expect(try parse("M 3. 4.") == [.moveTo(pt(3, 4))])
        #expect(try parse("\n\tM0,0\r\n") == [.moveTo(pt(0, 0))])
        #expect(try parse("") == [])
        #expect(try parse("   ") == [])
    }

    @Test func relativeAfterCloseStartsFromSubpathStart() throws {
        #expect(try parse("M10 10 l5 0 z l0 5 m1 1") == [
            .moveTo(pt(10, 10)), .lineTo(pt(15, 10)), .closeSubpath,
            .moveTo(pt(10, 10)), .lineTo(pt(10, 15)), .moveTo(pt(11, 16)),
        ])
    }

    @Test func arcSemicircleSweepFlagPicksTheSide() throws {
        // Centre (10, 0): sweep 1 runs with increasing angle, π → 3π/2 → 2π,
        // through (10, -10); sweep 0 through (10, 10).
        let up = try PathData(svgPathData: "M0 0 A10 10 0 0 1 20 0")
        #expect(near(endPoints(up), [pt(0, 0), pt(10, -10), pt(20, 0)]))
        let down = try PathData(svgPathData: "M0 0 A10 10 0 0 0 20 0")
        #expect(near(endPoints(down), [pt(0, 0), pt(10, 10), pt(20, 0)]))
        // Relative form and compact flags give the same elements.
        #expect(near(try parse("M0 0a10 10 0 0020 0"), down.elements))
    }

    @Test func arcLargeFlagPicksTheLongWay() throws {
        // Radius 10 from (0,0) to (10,10): the two circles are centred at
        // (10,0) and (0,10); large + sweep → 270° around (0,10)... checked by
        // the arc's length in quarter pieces.
        let small = try PathData(svgPathData: "M0 0 A10 10 0 0 1 10 10")
        let large = try PathData(svgPathData: "M0 0 A10 10 0 1 1 10 10")
        #expect(cubics(small).count == 1)
        #expect(cubics(large).count == 3)
        #expect(endPoints(large).last == pt(10, 10))
        // Large arc with sweep 1 (increasing angle) goes around centre (10, 0).
        #expect(near(endPoints(large)[1], pt(10, -10), 1e-9))
        #expect(try parse("M0 0a10 10 0 1110 10") == large.elements)
    }

    @Test func arcRadiiScaleUpWhenTooSmall() throws {
        let scaled = try PathData(svgPathData: "M0 0 A1 1 0 0 1 20 0")
        #expect(near(endPoints(scaled), [pt(0, 0), pt(10, -10), pt(20, 0)], 1e-9))
        let elliptic = try PathData(svgPathData: "M0 0 A2 1 0 0 1 40 0")  // scaled to 20 × 10
        #expect(near(endPoints(elliptic), [pt(0, 0), pt(20, -10), pt(40, 0)], 1e-9))
    }

    @Test func rotatedEllipticArcStaysOnItsEllipse() throws {
        // A quarter from the end of the major axis to the end of the minor
        // axis of an ellipse centred at (50, 50), radii 20 × 10, turned 30°.
        let phi = CGFloat.pi / 6
        let c = pt(50, 50)
        let start = pt(c.x + 20 * cos(phi), c.y + 20 * sin(phi))
        let end = pt(c.x - 10 * sin(phi), c.y + 10 * cos(phi))
        let data = try PathData(svgPathData: "M\(start.x) \(start.y) A20 10 30 0 1 \(end.x) \(end.y)")
        let pieces = cubics(data)
        #expect(pieces.count == 1)
        for i in 0...20 {
            let p = cubicPoint(pieces[0], CGFloat(i) / 20)
            let (dx, dy) = (p.x - c.x, p.y - c.y)
            let u = (dx * cos(phi) + dy * sin(phi)) / 20
            let v = (-dx * sin(phi) + dy * cos(phi)) / 10
            #expect(near(u * u + v * v, 1, 1e-3))
        }
    }

    @Test func degenerateArcs() throws {
        #expect(try parse("M0 0 A0 5 0 0 1 20 0") == [.moveTo(pt(0, 0)), .lineTo(pt(20, 0))])
        #expect(try parse("M5 5 A10 10 0 0 1 5 5") == [.moveTo(pt(5, 5))])
        // Negative radii act as their magnitude.
        #expect(try parse("M0 0 A-10 -10 0 0 1 20 0") == parse("M0 0 A10 10 0 0 1 20 0"))
    }

    @Test func oracleStickFigureHeadParses() throws {
        let data = try PathData(svgPathData: "M 175 100 A 25 25 0 1 1 175 99.9 Z")
        let box = data.boundingBoxOfPath
        // The end point sits 0.1 below the start, which shifts the circle by
        // about 0.05.
        #expect(near(box, CGRect(x: 125, y: 75, width: 50, height: 50), 0.06))
    }

    @Test(arguments: [
        ("M 10", 4, "expected a number, found the end of the data"),
        ("L 10 10", 0, "expected a moveto command (M or m), found 'L'"),
        ("M 10 10 X 5", 8, "expected a path command letter, found 'X'"),
        ("M 0 0 A 1 1 0 2 1 5 5", 14, "expected an arc flag (0 or 1), found '2'"),
        ("M 1e", 4, "expected the digits of an exponent, found the end of the data"),
        ("M 0 0 L 1 1 Z 2 2", 14, "expected a path command letter, found '2'"),
        ("M 0 0 L 1 ,, 2", 11, "expected a number, found ','"),
        ("M 0 0 L 1 1é", 11, "expected a path command letter, found 'é'"),
        ("M 1e999 0", 2, "the number 1e999 is out of range"),
        ("M 0 0 C 1 2 3 4 5", 17, "expected a number, found the end of the data"),
    ])
    func errorsSayWhereAndWhat(input: String, offset: Int, message: String) {
        do {
            _ = try PathData(svgPathData: input)
            Issue.record("\(input) parsed")
        } catch let error as SVGPathError {
            #expect(error.offset == offset)
            #expect(error.message == message)
            #expect(error.description.contains("character \(offset)"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func cgPathInitializerThrows() {
        #expect(throws: SVGPathError.self) { try CGPath(svgPathData: "M 1 1 L") }
    }

    @Test func writerRoundTrips() throws {
        let p = CGMutablePath()
        p.addRoundedRect(in: CGRect(x: 0.5, y: -3, width: 100, height: 40), cornerWidth: 7, cornerHeight: 3)
        p.move(to: pt(1e-7, 2))
        p.addQuadCurve(to: pt(3, 4), control: pt(-0.0, 123456789.125))
        p.addEllipse(in: CGRect(x: 0, y: 0, width: 10, height: 10))
        let text = p.svgPathData
        #expect(try CGPath(svgPathData: text) == p)
        #expect(CGPath(rect: CGRect(x: 0, y: 0, width: 2, height: 1.5)).svgPathData
                == "M 0 0 L 2 0 L 2 1.5 L 0 1.5 Z")
    }
}
