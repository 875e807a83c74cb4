// Point containment with both fill rules, on lines and curves.
import Foundation
import Testing
@testable import LaminaGeometry

@Suite struct PathContainmentTests {
    /// A pentagram drawn in one stroke: its centre pentagon is wound twice.
    func star() -> CGMutablePath {
        let p = CGMutablePath()
        p.addLines(between: [
            CGPoint(x: 50, y: 0), CGPoint(x: 79, y: 90), CGPoint(x: 2, y: 35),
            CGPoint(x: 98, y: 35), CGPoint(x: 21, y: 90),
        ])
        p.closeSubpath()
        return p
    }

    @Test func selfIntersectingStar() {
        let p = star()
        let centre = CGPoint(x: 50, y: 50), tip = CGPoint(x: 50, y: 10), outside = CGPoint(x: 5, y: 80)
        #expect(abs(p.pathData.windingNumber(at: centre)) == 2)
        #expect(p.contains(centre, using: .winding))
        #expect(!p.contains(centre, using: .evenOdd))
        #expect(p.contains(tip, using: .winding))
        #expect(p.contains(tip, using: .evenOdd))
        #expect(!p.contains(outside, using: .winding))
        #expect(!p.contains(outside, using: .evenOdd))
        #expect(!p.contains(CGPoint(x: 0, y: 0)))
    }

    @Test func holeBySameDirectionAndByReversal() {
        let outer = CGRect(x: 0, y: 0, width: 100, height: 100)
        let inner = CGRect(x: 25, y: 25, width: 50, height: 50)
        let same = CGMutablePath()
        same.addRect(outer)
        same.addRect(inner)
        let centre = CGPoint(x: 50, y: 50), ring = CGPoint(x: 10, y: 50)
        #expect(same.contains(centre, using: .winding))
        #expect(!same.contains(centre, using: .evenOdd))
        #expect(same.contains(ring, using: .winding) && same.contains(ring, using: .evenOdd))

        let hole = UIBezierPath(rect: outer)
        hole.append(UIBezierPath(rect: inner).reversing())
        #expect(!hole.contains(centre))
        #expect(hole.contains(ring))
        hole.usesEvenOddFillRule = true
        #expect(!hole.contains(centre))
    }

    @Test func curvesAreTestedExactly() {
        let circle = CGPath(ellipseIn: CGRect(x: -10, y: -10, width: 20, height: 20))
        for angle in stride(from: 0.05, to: 2 * CGFloat.pi, by: 0.37) {
            let inside = CGPoint(x: 9.99 * cos(angle), y: 9.99 * sin(angle))
            let outside = CGPoint(x: 10.01 * cos(angle), y: 10.01 * sin(angle))
            #expect(circle.contains(inside), "\(angle)")
            #expect(!circle.contains(outside), "\(angle)")
        }
        // A ring of two circles, the hole by even-odd.
        let ring = CGMutablePath()
        ring.addEllipse(in: CGRect(x: -10, y: -10, width: 20, height: 20))
        ring.addEllipse(in: CGRect(x: -5, y: -5, width: 10, height: 10))
        #expect(!ring.contains(.zero, using: .evenOdd))
        #expect(ring.contains(CGPoint(x: 7, y: 0), using: .evenOdd))
    }

    @Test func openSubpathsCountAsClosed() {
        let p = CGMutablePath()
        p.move(to: .zero)
        p.addLine(to: CGPoint(x: 10, y: 0))
        p.addQuadCurve(to: CGPoint(x: 0, y: 10), control: CGPoint(x: 10, y: 10))
        #expect(p.contains(CGPoint(x: 2, y: 2)))
        #expect(!p.contains(CGPoint(x: -1, y: 2)))
    }

    @Test func containsWithTransform() {
        let p = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10))
        let t = CGAffineTransform(scaleX: 2, y: 2)
        #expect(p.contains(CGPoint(x: 15, y: 15), transform: t))
        #expect(!p.contains(CGPoint(x: 15, y: 15)))
    }

    @Test func boundaryRuleCountsSharedVerticesOnce() {
        // A diamond whose vertices lie on the ray through its centre.
        let p = CGMutablePath()
        p.addLines(between: [CGPoint(x: 0, y: 5), CGPoint(x: 5, y: 0), CGPoint(x: 10, y: 5), CGPoint(x: 5, y: 10)])
        p.closeSubpath()
        #expect(p.contains(CGPoint(x: 5, y: 5)))
        #expect(!p.contains(CGPoint(x: -1, y: 5)))
        #expect(!p.contains(CGPoint(x: 11, y: 5)))
    }
}
