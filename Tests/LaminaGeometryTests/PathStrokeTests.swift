// The stroker: caps, joins, the miter limit, zero-length subpaths, closed
// subpaths, tight curves, and a property check against the distance field.
import Foundation
import Testing
@testable import LaminaGeometry

/// The outline of `svg` stroked in `style`, as a path to test points on.
func strokeOutline(_ svg: String, _ style: StrokeStyle, tolerance: CGFloat = 0.01) throws -> PathData {
    PathData(polygons: try PathData(svgPathData: svg).strokeOutline(style: style, tolerance: tolerance))
}

/// The area painted by `outline` under the nonzero rule, by sampling the
/// centres of a grid of `step`-sized cells over its bounding box.
func paintedArea(_ outline: PathData, step: CGFloat = 0.25) -> CGFloat {
    let box = outline.boundingBox
    guard !box.isNull else { return 0 }
    var count = 0
    var y = box.minY + step / 2
    while y < box.maxY {
        var x = box.minX + step / 2
        while x < box.maxX {
            if outline.contains(CGPoint(x: x, y: y)) { count += 1 }
            x += step
        }
        y += step
    }
    return CGFloat(count) * step * step
}


@Suite struct PathStrokeTests {
    let line = "M0 0 L100 0"

    @Test func buttCap() throws {
        let o = try strokeOutline(line, StrokeStyle(lineWidth: 10, lineCap: .butt))
        #expect(o.contains(CGPoint(x: 1, y: 0)) && o.contains(CGPoint(x: 99, y: 4.9)))
        #expect(!o.contains(CGPoint(x: -1, y: 0)) && !o.contains(CGPoint(x: 101, y: 0)))
        #expect(!o.contains(CGPoint(x: 50, y: 5.1)))
        #expect(near(paintedArea(o), 1000, 5))
    }

    @Test func squareCap() throws {
        let o = try strokeOutline(line, StrokeStyle(lineWidth: 10, lineCap: .square))
        #expect(o.contains(CGPoint(x: -4.9, y: 4.9)) && o.contains(CGPoint(x: 104.9, y: -4.9)))
        #expect(!o.contains(CGPoint(x: -5.1, y: 0)) && !o.contains(CGPoint(x: 105.1, y: 0)))
        #expect(near(paintedArea(o), 1100, 5))
    }

    @Test func roundCap() throws {
        let o = try strokeOutline(line, StrokeStyle(lineWidth: 10, lineCap: .round))
        #expect(o.contains(CGPoint(x: -4.9, y: 0)) && o.contains(CGPoint(x: -3, y: 3)))
        #expect(!o.contains(CGPoint(x: -4, y: 4)))  // 5.66 from the end point
        #expect(o.contains(CGPoint(x: 103.5, y: -3.5)) && !o.contains(CGPoint(x: 105.1, y: 0)))
        #expect(near(paintedArea(o), 1000 + 25 * .pi, 5))
    }

    // A right-angle corner: +x then +y turns left in y-up axes, so the outer
    // corner is at (105, -5).
    let corner = "M0 0 L100 0 L100 100"

    @Test func miterJoin() throws {
        let o = try strokeOutline(corner, StrokeStyle(lineWidth: 10, lineJoin: .miter))
        #expect(o.contains(CGPoint(x: 104.9, y: -4.9)))
        #expect(near(paintedArea(o), 2000, 6))
    }

    @Test func bevelJoin() throws {
        let o = try strokeOutline(corner, StrokeStyle(lineWidth: 10, lineJoin: .bevel))
        #expect(!o.contains(CGPoint(x: 103, y: -3)))  // beyond the bevel line y = x - 105
        #expect(o.contains(CGPoint(x: 102.5, y: -2)))
        #expect(near(paintedArea(o), 2000 - 12.5, 6))
    }

    @Test func roundJoin() throws {
        let o = try strokeOutline(corner, StrokeStyle(lineWidth: 10, lineJoin: .round))
        #expect(o.contains(CGPoint(x: 103.5, y: -3.5)))  // 4.95 from the vertex
        #expect(!o.contains(CGPoint(x: 103.6, y: -3.6)))  // 5.09 from it
        #expect(near(paintedArea(o), 2000 - 25 + 25 * .pi / 4, 6))
    }

    @Test func miterLimitFollowsCoreGraphics() throws {
        // The segments meet at φ = atan(20/100) ≈ 11.31°, so the miter is
        // 1 / sin(φ/2) ≈ 10.15 line widths long: beveled under the default
        // limit of 10, drawn under 10.2.
        let path = "M0 0 L100 0 L0 20"
        let phi = atan2(20.0, 100.0)
        let ratio = 1 / sin(phi / 2)
        #expect(ratio > 10.1 && ratio < 10.2)
        // The tip lies along the outer bisector, hw · ratio from the vertex.
        let a = CGPoint(x: 1, y: 0), b = CGPoint(x: -100, y: 20) * (1 / hypot(100, 20))
        let bisector = (a - b) * (1 / (a - b).length)
        let nearTip = CGPoint(x: 100, y: 0) + bisector * (5 * ratio * 0.97)
        for (limit, mitered) in [(10.0, false), (10.1, false), (10.2, true), (50.0, true)] {
            let o = try strokeOutline(path, StrokeStyle(lineWidth: 10, lineJoin: .miter, miterLimit: limit))
            #expect(o.contains(nearTip) == mitered, "limit \(limit)")
        }
    }

    @Test func zeroLengthSubpaths() throws {
        for svg in ["M10 10 L10 10", "M10 10 Z", "M10 10 Q10 10 10 10"] {
            let round = try strokeOutline(svg, StrokeStyle(lineWidth: 10, lineCap: .round))
            #expect(round.contains(CGPoint(x: 10, y: 14.9)) && !round.contains(CGPoint(x: 13.6, y: 13.6)))
            #expect(near(paintedArea(round, step: 0.1), 25 * .pi, 0.5))
            let square = try strokeOutline(svg, StrokeStyle(lineWidth: 10, lineCap: .square))
            #expect(square.contains(CGPoint(x: 14.9, y: 14.9)) && square.contains(CGPoint(x: 5.1, y: 5.1)))
            #expect(near(paintedArea(square), 100, 1))
            let butt = try strokeOutline(svg, StrokeStyle(lineWidth: 10, lineCap: .butt))
            #expect(butt.isEmpty)
        }
        // A lone moveTo draws nothing, whatever the cap.
        #expect(try strokeOutline("M10 10", StrokeStyle(lineWidth: 10, lineCap: .round)).isEmpty)
        // A zero-length segment inside a subpath draws no caps of its own.
        let o = try strokeOutline("M0 0 L50 0 L50 0 L100 0", StrokeStyle(lineWidth: 10, lineCap: .butt))
        #expect(near(paintedArea(o), 1000, 5))
    }

    @Test func closedSubpathJoinsAtItsStart() throws {
        let closed = try strokeOutline("M0 0 H100 V100 H0 Z", StrokeStyle(lineWidth: 10))
        #expect(closed.contains(CGPoint(x: -4.9, y: -4.9)))  // the start corner is mitered
        #expect(!closed.contains(CGPoint(x: 50, y: 50)))      // a ring, not a disc
        #expect(closed.contains(CGPoint(x: 0, y: 50)) && closed.contains(CGPoint(x: 4.9, y: 50)))
        #expect(!closed.contains(CGPoint(x: 5.1, y: 50)))
        // The same outline left open ends in butt caps at the start.
        let open = try strokeOutline("M0 0 H100 V100 H0 V0", StrokeStyle(lineWidth: 10))
        #expect(!open.contains(CGPoint(x: -4.9, y: -4.9)))
        #expect(open.contains(CGPoint(x: 2, y: -2)))
    }

    @Test func tightCurvesStayFilled() throws {
        // A circle of radius 2 under a line 10 wide: a disc of radius 7.
        let o = try strokeOutline("M2 0 A2 2 0 1 1 -2 0 A2 2 0 1 1 2 0 Z", StrokeStyle(lineWidth: 10), tolerance: 0.01)
        for i in 0..<200 {
            let angle = CGFloat(i) * 0.731, radius = CGFloat(i % 71) / 10
            let p = CGPoint(x: radius * cos(angle), y: radius * sin(angle))
            if radius < 6.95 { #expect(o.contains(p), "\(p)") }
            if radius > 7.05 { #expect(!o.contains(p), "\(p)") }
        }
    }

    @Test func everyContourWindsTheSameWay() throws {
        let styles = [
            StrokeStyle(lineWidth: 8, lineCap: .round, lineJoin: .round),
            StrokeStyle(lineWidth: 8, lineCap: .square, lineJoin: .miter, dashPattern: [9, 4, 0, 4]),
            StrokeStyle(lineWidth: 30, lineCap: .butt, lineJoin: .bevel),
        ]
        let svg = "M0 0 C80 0 -20 60 60 60 L10 20 Z M70 0 Q90 40 100 0"
        for style in styles {
            let outline = try PathData(svgPathData: svg).strokeOutline(style: style, tolerance: 0.05)
            let data = PathData(polygons: outline)
            for x in stride(from: -20.0, through: 120, by: 3.7) {
                for y in stride(from: -20.0, through: 80, by: 3.3) {
                    #expect(data.windingNumber(at: CGPoint(x: x, y: y)) <= 0)
                }
            }
        }
    }

    @Test func roundStrokeIsTheDistanceField() {
        // With round caps and joins the stroke is every point within half
        // the width of the polyline: check random polylines against that.
        var rng = SeededRandom(seed: 42)
        for _ in 0..<12 {
            let count = Int.random(in: 2...7, using: &rng)
            let points = (0..<count).map { _ in
                CGPoint(x: CGFloat.random(in: 0...100, using: &rng), y: CGFloat.random(in: 0...100, using: &rng))
            }
            let closed = Bool.random(using: &rng)
            let width = CGFloat.random(in: 1...40, using: &rng)
            let polyline = Polyline(points: points, isClosed: closed)
            let style = StrokeStyle(lineWidth: width, lineCap: .round, lineJoin: .round)
            let tolerance: CGFloat = 0.01
            let outline = PathData(polygons: Stroker.outline(of: [polyline], style: style, tolerance: tolerance))
            for _ in 0..<300 {
                let p = CGPoint(x: CGFloat.random(in: -25...125, using: &rng), y: CGFloat.random(in: -25...125, using: &rng))
                let d = distance(p, to: polyline)
                if d < width / 2 - tolerance - 1e-6 { #expect(outline.contains(p), "\(points) \(width) \(p)") }
                if d > width / 2 + 1e-6 { #expect(!outline.contains(p), "\(points) \(width) \(p)") }
            }
        }
    }

    @Test func badWidthsGiveNoOutline() throws {
        for width in [0, -3, CGFloat.nan, .infinity] {
            #expect(try strokeOutline(line, StrokeStyle(lineWidth: width, lineCap: .round)).isEmpty)
        }
    }

    @Test func handMadePolylinesAreCleanedNotTrusted() {
        let style = StrokeStyle(lineWidth: 4, lineCap: .round, lineJoin: .round, dashPattern: [3, 1])
        let odd = [
            Polyline(points: [], isClosed: false),
            Polyline(points: [], isClosed: true),
            Polyline(points: [.zero, .zero, CGPoint(x: 10, y: 0), CGPoint(x: 10, y: 0)], isClosed: false, isSmooth: [true]),
            Polyline(points: [.zero, CGPoint(x: 10, y: 0), CGPoint(x: 10, y: 10), .zero], isClosed: true,
                     isSmooth: Array(repeating: true, count: 9)),
            Polyline(points: [CGPoint(x: CGFloat.nan, y: 0), CGPoint(x: 1, y: CGFloat.infinity)], isClosed: true),
        ]
        for polyline in odd {
            _ = Stroker.outline(of: [polyline], style: style, tolerance: 0.1)
            _ = Stroker.outline(of: [polyline], style: StrokeStyle(lineWidth: 2), tolerance: 0.1)
        }
        let cleaned = Stroker.outline(of: [odd[2]], style: StrokeStyle(lineWidth: 2), tolerance: 0.1)
        #expect(near(paintedArea(PathData(polygons: cleaned)), 20, 1))
    }

    @Test func cgPathStrokingCopy() {
        let p = CGMutablePath()
        p.move(to: .zero)
        p.addLine(to: CGPoint(x: 100, y: 0))
        let stroked = p.copy(strokingWithWidth: 10, lineCap: .square, lineJoin: .miter, miterLimit: 10,
                             transform: CGAffineTransform(translationX: 0, y: 50))
        #expect(stroked.contains(CGPoint(x: -4, y: 54)))
        #expect(!stroked.contains(CGPoint(x: 50, y: 0)))
        #expect(near(stroked.boundingBox, CGRect(x: -5, y: 45, width: 110, height: 10)))
    }
}
