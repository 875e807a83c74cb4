// Arcs: Core Graphics' and UIKit's direction conventions, full circles,
// tangent arcs, rounded rectangles.
import Foundation
import Testing
@testable import LaminaGeometry

@Suite struct PathArcTests {
    let r: CGFloat = 10
    var diagonal: CGFloat { r * CGFloat(2).squareRoot() / 2 }

    @Test func coreGraphicsCounterclockwiseQuarterIncreasesAngle() {
        let p = CGMutablePath()
        p.addArc(center: .zero, radius: r, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        #expect(p.elements.first == .moveTo(CGPoint(x: 10, y: 0)))
        let pieces = cubics(p.pathData)
        #expect(pieces.count == 1)
        #expect(near(p.currentPoint, CGPoint(x: 0, y: 10)))
        // The midpoint is on the +x+y diagonal, on the circle.
        #expect(near(cubicPoint(pieces[0], 0.5), CGPoint(x: diagonal, y: diagonal), 1e-3))
    }

    @Test func coreGraphicsClockwiseQuarterGoesTheLongWay() {
        // clockwise == true sweeps with decreasing angle: 0 → -90° → -180°
        // → -270° (= +90°), three quarter pieces.
        let p = CGMutablePath()
        p.addArc(center: .zero, radius: r, startAngle: 0, endAngle: .pi / 2, clockwise: true)
        #expect(near(endPoints(p.pathData), [
            CGPoint(x: 10, y: 0), CGPoint(x: 0, y: -10), CGPoint(x: -10, y: 0), CGPoint(x: 0, y: 10),
        ]))
        // A short clockwise arc, from 90° down to 0°, passes the diagonal.
        let q = CGMutablePath()
        q.addArc(center: .zero, radius: r, startAngle: .pi / 2, endAngle: 0, clockwise: true)
        let pieces = cubics(q.pathData)
        #expect(pieces.count == 1)
        #expect(near(cubicPoint(pieces[0], 0.5), CGPoint(x: diagonal, y: diagonal), 1e-3))
        #expect(near(q.currentPoint, CGPoint(x: 10, y: 0)))
    }

    @Test func uiKitClockwiseIncreasesAngle() {
        // Visually clockwise on a y-down screen: from +x (right) to +y (down).
        let p = UIBezierPath(arcCenter: .zero, radius: r, startAngle: 0, endAngle: .pi / 2, clockwise: true)
        let pieces = cubics(p.pathData)
        #expect(pieces.count == 1)
        #expect(near(p.currentPoint, CGPoint(x: 0, y: 10)))
        #expect(near(cubicPoint(pieces[0], 0.5), CGPoint(x: diagonal, y: diagonal), 1e-3))

        let q = UIBezierPath(arcCenter: .zero, radius: r, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        #expect(cubics(q.pathData).count == 3)
        #expect(near(endPoints(q.pathData)[1], CGPoint(x: 0, y: -10)))
    }

    @Test func uiKitArcMatchesCoreGraphicsWithFlagFlipped() {
        let ui = UIBezierPath()
        ui.addArc(withCenter: CGPoint(x: 5, y: 5), radius: 3, startAngle: 1, endAngle: 4, clockwise: false)
        let cg = CGMutablePath()
        cg.addArc(center: CGPoint(x: 5, y: 5), radius: 3, startAngle: 1, endAngle: 4, clockwise: true)
        #expect(ui.cgPath == cg)
    }

    @Test func fullCircles() {
        for clockwise in [false, true] {
            for (start, end) in [(0.0, 2 * CGFloat.pi), (-CGFloat.pi, .pi), (0.0, 7.0), (3.0, -4.0)] {
                let p = UIBezierPath(arcCenter: .zero, radius: r, startAngle: start, endAngle: end, clockwise: clockwise)
                let pieces = cubics(p.pathData)
                #expect(pieces.count == 4, "\(start) \(end) \(clockwise)")
                let startPoint = CGPoint(x: r * cos(start), y: r * sin(start))
                #expect(near(p.currentPoint, startPoint, 1e-9))
                // The direction: the first quarter turns the requested way.
                let quarter = start + (clockwise ? 1 : -1) * .pi / 2
                #expect(near(pieces[0].3, CGPoint(x: r * cos(quarter), y: r * sin(quarter)), 1e-9))
            }
        }
    }

    @Test func arcJoinsCurrentPointWithALine() {
        let p = UIBezierPath()
        p.move(to: CGPoint(x: -50, y: 0))
        p.addArc(withCenter: .zero, radius: r, startAngle: .pi, endAngle: 0, clockwise: true)
        #expect(p.pathData.elements[1] == .lineTo(CGPoint(x: -10, y: 0)))
        // With no current point the arc starts a subpath.
        let q = UIBezierPath()
        q.addArc(withCenter: .zero, radius: r, startAngle: .pi, endAngle: 0, clockwise: true)
        #expect(q.pathData.elements[0] == .moveTo(CGPoint(x: -10, y: 0)))
        // Through the top of the screen (-y) when clockwise on screen.
        #expect(near(endPoints(q.pathData)[1], CGPoint(x: 0, y: -10)))
    }

    @Test func stickFigureHeadMatchesOracle() {
        // listing 6.1: moveTo(175, 100) then a full circle about (150, 100).
        let p = UIBezierPath()
        p.move(to: CGPoint(x: 175, y: 100))
        p.addArc(withCenter: CGPoint(x: 150, y: 100), radius: 25, startAngle: 0, endAngle: 2 * .pi, clockwise: true)
        #expect(near(endPoints(p.pathData), [
            CGPoint(x: 175, y: 100), CGPoint(x: 175, y: 100), CGPoint(x: 150, y: 125),
            CGPoint(x: 125, y: 100), CGPoint(x: 150, y: 75), CGPoint(x: 175, y: 100),
        ]))
    }

    /// Piece end points that the conformance oracle's `arc_to_svg` gives
    /// for centre (10, 20), radius 5, in UIKit's direction (its output,
    /// printed to 9 digits).
    static let oracleArcs: [(CGFloat, CGFloat, Bool, [CGPoint])] = {
        func p(_ x: CGFloat, _ y: CGFloat) -> CGPoint { CGPoint(x: x, y: y) }
        return [
            (0, 1, true, [p(15, 20), p(12.7015115, 24.2073549)]),
            (0, 1, false, [p(15, 20), p(11.2370198, 15.1554379), p(5.61208719, 17.6028723), p(6.5918062, 23.6584443),
                           p(12.7015115, 24.2073549)]),
            (1, 0, true, [p(12.7015115, 24.2073549), p(6.5918062, 23.6584443), p(5.61208719, 17.6028723),
                          p(11.2370198, 15.1554379), p(15, 20)]),
            (2, -3, false, [p(7.91926582, 24.5464871), p(13.6584443, 23.4081938), p(14.3879128, 17.6028723),
                            p(9.10876972, 15.0800703), p(5.05003752, 19.2944)]),
            (-1, 5, true, [p(12.7015115, 15.7926451), p(14.3879128, 22.3971277), p(7.91926582, 24.5464871),
                           p(5.31771656, 18.2460839), p(11.4183109, 15.2053786)]),
            (0.5, 6.8, false, [p(14.3879128, 22.3971277), p(12.3971277, 15.6120872), p(5.61208719, 17.6028723),
                               p(7.60287231, 24.3879128), p(14.3879128, 22.3971277)]),
            (0, -6.2, true, [p(15, 20), p(14.9827105, 20.415447)]),
            (0, 6.2, false, [p(15, 20), p(14.9827105, 19.584553)]),
        ]
    }()

    @Test func piecesMatchTheConformanceOracle() {
        for (start, end, clockwise, expected) in Self.oracleArcs {
            let p = UIBezierPath(arcCenter: CGPoint(x: 10, y: 20), radius: 5, startAngle: start, endAngle: end,
                                 clockwise: clockwise)
            #expect(near(endPoints(p.pathData), expected, 1e-7), "\(start) \(end) \(clockwise)")
        }
    }

    @Test func zeroSweepAddsOnlyTheStart() {
        let p = CGMutablePath()
        p.addArc(center: .zero, radius: r, startAngle: 1, endAngle: 1, clockwise: false)
        #expect(p.elements.count == 1)
    }

    @Test func relativeArc() {
        let p = CGMutablePath()
        p.addRelativeArc(center: .zero, radius: r, startAngle: 0, delta: -.pi)
        #expect(near(endPoints(p.pathData), [CGPoint(x: 10, y: 0), CGPoint(x: 0, y: -10), CGPoint(x: -10, y: 0)]))
        let q = CGMutablePath()
        q.addRelativeArc(center: .zero, radius: r, startAngle: 0, delta: 100)
        #expect(cubics(q.pathData).count == 4)  // clamped to one turn
    }

    @Test func arcWithTransform() {
        let p = CGMutablePath()
        p.addArc(center: .zero, radius: 1, startAngle: 0, endAngle: .pi / 2, clockwise: false,
                 transform: CGAffineTransform(scaleX: 10, y: 20))
        #expect(near(endPoints(p.pathData), [CGPoint(x: 10, y: 0), CGPoint(x: 0, y: 20)]))
    }

    @Test func tangentArcRoundsTheCorner() {
        let p = CGMutablePath()
        p.move(to: .zero)
        p.addArc(tangent1End: CGPoint(x: 100, y: 0), tangent2End: CGPoint(x: 100, y: 100), radius: 20)
        #expect(p.elements[1] == .lineTo(CGPoint(x: 80, y: 0)))
        let pieces = cubics(p.pathData)
        #expect(pieces.count == 1)
        #expect(near(p.currentPoint, CGPoint(x: 100, y: 20), 1e-9))
        let mid = cubicPoint(pieces[0], 0.5)
        #expect(near(hypot(mid.x - 80, mid.y - 20), 20, 1e-2))
        #expect(mid.x > 80 && mid.y < 20)  // bulging into the corner
    }

    @Test func tangentArcDegenerateCasesDrawALine() {
        for (t1, t2, radius) in [
            (CGPoint(x: 10, y: 0), CGPoint(x: 20, y: 0), CGFloat(5)),  // collinear
            (CGPoint(x: 10, y: 0), CGPoint(x: 10, y: 10), 0),          // zero radius
            (CGPoint(x: 10, y: 0), CGPoint(x: 10, y: 0), 5),           // coincident
        ] {
            let p = CGMutablePath()
            p.move(to: .zero)
            p.addArc(tangent1End: t1, tangent2End: t2, radius: radius)
            #expect(p.elements == [.moveTo(.zero), .lineTo(t1)])
        }
        let empty = CGMutablePath()
        empty.addArc(tangent1End: CGPoint(x: 1, y: 0), tangent2End: CGPoint(x: 1, y: 1), radius: 1)
        #expect(empty.isEmpty)
    }

    @Test func tangentArcUnderTransform() {
        // The geometry is worked out before the transform.
        let t = CGAffineTransform(scaleX: 2, y: 2)
        let p = CGMutablePath()
        p.move(to: .zero)
        p.addArc(tangent1End: CGPoint(x: 50, y: 0), tangent2End: CGPoint(x: 50, y: 50), radius: 10, transform: t)
        #expect(p.elements[1] == .lineTo(CGPoint(x: 80, y: 0)))
        #expect(near(p.currentPoint, CGPoint(x: 100, y: 20)))
    }

    @Test func roundedRectCornerSelection() {
        let rect = CGRect(x: 0, y: 0, width: 100, height: 50)
        let p = UIBezierPath(roundedRect: rect, byRoundingCorners: [.topLeft, .bottomRight],
                             cornerRadii: CGSize(width: 10, height: 10))
        #expect(cubics(p.pathData).count == 2)
        // Rounded corners are cut away, square ones are filled.
        #expect(!p.contains(CGPoint(x: 0.5, y: 0.5)))      // top left (minY)
        #expect(p.contains(CGPoint(x: 99.5, y: 0.5)))      // top right
        #expect(p.contains(CGPoint(x: 0.5, y: 49.5)))      // bottom left
        #expect(!p.contains(CGPoint(x: 99.5, y: 49.5)))    // bottom right
        #expect(p.contains(CGPoint(x: 5, y: 5)))           // inside the top-left arc
    }

    @Test func roundedRectMatchesOracleOrder() {
        // rounded-corners-redux: the oracle's "M 50 50 L 130 50 A .. 150 70
        // L 150 130 A .. 130 150 L 70 150 A .. 50 130 L 50 50 Z".
        let p = UIBezierPath(roundedRect: CGRect(x: 50, y: 50, width: 100, height: 100),
                             byRoundingCorners: [.topRight, .bottomRight, .bottomLeft],
                             cornerRadii: CGSize(width: 20, height: 20))
        #expect(p.pathData.elements.map(\.type) == [
            .moveToPoint, .addLineToPoint, .addCurveToPoint, .addLineToPoint, .addCurveToPoint,
            .addLineToPoint, .addCurveToPoint, .addLineToPoint, .closeSubpath,
        ])
        #expect(endPoints(p.pathData) == [
            CGPoint(x: 50, y: 50), CGPoint(x: 130, y: 50), CGPoint(x: 150, y: 70), CGPoint(x: 150, y: 130),
            CGPoint(x: 130, y: 150), CGPoint(x: 70, y: 150), CGPoint(x: 50, y: 130), CGPoint(x: 50, y: 50),
        ])
    }

    @Test func roundedRectRadiusIsClampedPerAxis() {
        let p = UIBezierPath(roundedRect: CGRect(x: 0, y: 0, width: 100, height: 40), cornerRadius: 30)
        // Clamped to 30 across and 20 down, as the oracle clamps it.
        #expect(endPoints(p.pathData).first == CGPoint(x: 30, y: 0))
        // The right side has no straight part left: the top-right arc ends
        // where the bottom-right one starts, with no zero-length line between.
        #expect(endPoints(p.pathData).filter { $0 == CGPoint(x: 100, y: 20) }.count == 1)
        #expect(p.pathData.elements.filter { $0.type == .addLineToPoint }.count == 2)
        let q = CGPath(roundedRect: CGRect(x: 0, y: 0, width: 10, height: 10), cornerWidth: 0, cornerHeight: 3)
        #expect(q == CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10)))
    }

    @Test func ovalAndRectInitializersMatchCoreGraphics() {
        let rect = CGRect(x: 1, y: 2, width: 30, height: 40)
        #expect(UIBezierPath(ovalIn: rect).cgPath == CGPath(ellipseIn: rect))
        #expect(UIBezierPath(rect: rect).cgPath == CGPath(rect: rect))
        #expect(UIBezierPath(roundedRect: rect, cornerRadius: 5).cgPath
                == CGPath(roundedRect: rect, cornerWidth: 5, cornerHeight: 5))
    }
}
