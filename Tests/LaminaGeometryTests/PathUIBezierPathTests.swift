// UIBezierPath: the book's calls and UIKit's defaults.
import Foundation
import Testing
@testable import LaminaGeometry

@Suite struct PathUIBezierPathTests {
    @Test func stickFigureListing() {
        // Listing 6.1, line for line.
        let path = UIBezierPath()
        path.move(to: CGPoint(x: 175, y: 100))
        path.addArc(withCenter: CGPoint(x: 150, y: 100), radius: 25, startAngle: 0, endAngle: 2 * .pi, clockwise: true)
        path.move(to: CGPoint(x: 150, y: 125))
        path.addLine(to: CGPoint(x: 150, y: 175))
        path.addLine(to: CGPoint(x: 125, y: 225))
        path.move(to: CGPoint(x: 150, y: 175))
        path.addLine(to: CGPoint(x: 175, y: 225))
        path.move(to: CGPoint(x: 100, y: 150))
        path.addLine(to: CGPoint(x: 200, y: 150))
        #expect(near(path.bounds, CGRect(x: 100, y: 75, width: 100, height: 150), 1e-9))
        #expect(path.currentPoint == CGPoint(x: 200, y: 150))
        #expect(path.pathData.flattened(tolerance: 0.25).count == 4)
    }

    @Test func defaultsAndAttributes() {
        let path = UIBezierPath()
        #expect(path.isEmpty)
        #expect(path.bounds.isNull)
        #expect(path.lineWidth == 1 && path.lineCapStyle == .butt && path.lineJoinStyle == .miter)
        #expect(path.miterLimit == 10 && path.flatness == 0.6 && !path.usesEvenOddFillRule)
        path.setLineDash([4, 2, 1], count: 2, phase: 3)
        #expect(path.lineDashPattern == [4, 2] && path.lineDashPhase == 3)
        var out = [CGFloat](repeating: 0, count: 2)
        var count = 0
        var phase: CGFloat = 0
        path.getLineDash(&out, count: &count, phase: &phase)
        #expect(out == [4, 2] && count == 2 && phase == 3)
        path.setLineDash(nil, count: 0, phase: 0)
        #expect(path.lineDashPattern.isEmpty)
    }

    @Test func cgPathGetAndSet() {
        let path = UIBezierPath(rect: CGRect(x: 0, y: 0, width: 4, height: 4))
        let snapshot = path.cgPath
        path.addLine(to: CGPoint(x: 9, y: 9))
        #expect(snapshot.elements.count == 5)  // a snapshot, not a view
        let mutable = CGMutablePath()
        mutable.addEllipse(in: CGRect(x: 0, y: 0, width: 2, height: 2))
        path.cgPath = mutable
        #expect(path.cgPath == mutable)
        #expect(UIBezierPath(cgPath: mutable).cgPath == mutable)
    }

    @Test func curvesAppendAndApply() {
        let path = UIBezierPath()
        path.move(to: .zero)
        path.addQuadCurve(to: CGPoint(x: 10, y: 0), controlPoint: CGPoint(x: 5, y: 5))
        path.addCurve(to: CGPoint(x: 20, y: 0), controlPoint1: CGPoint(x: 12, y: -5), controlPoint2: CGPoint(x: 18, y: -5))
        path.close()
        let other = UIBezierPath(ovalIn: CGRect(x: 30, y: 0, width: 2, height: 2))
        path.append(other)
        #expect(path.pathData.elements.count == 4 + 6)
        path.apply(CGAffineTransform(translationX: 1, y: 2))
        #expect(path.pathData.elements[0] == .moveTo(CGPoint(x: 1, y: 2)))
        #expect(near(path.bounds, CGRect(x: 1, y: -3, width: 32, height: 10)))
        let copy = path.copy()
        path.removeAllPoints()
        #expect(path.isEmpty && !copy.isEmpty)
    }
}
