// CAMediaTimingFunction: Apple's named curves and the Bézier solver.
import Foundation
import Testing
@testable import LaminaCore

@Suite struct AnimationTimingFunctionTests {
    /// y at x on the curve, found independently of the solver: the Bernstein
    /// form bisected on the parameter to the last bit.
    static func reference(_ p: (Double, Double, Double, Double), _ x: Double) -> Double {
        func bernstein(_ a: Double, _ b: Double, _ s: Double) -> Double {
            let u = 1 - s
            return 3 * u * u * s * a + 3 * u * s * s * b + s * s * s
        }
        var lo = 0.0, hi = 1.0
        for _ in 0..<200 {
            let mid = 0.5 * (lo + hi)
            if bernstein(p.0, p.2, mid) < x { lo = mid } else { hi = mid }
        }
        return bernstein(p.1, p.3, 0.5 * (lo + hi))
    }

    static func points(_ f: CAMediaTimingFunction) -> (Double, Double, Double, Double) {
        (Double(f.c1x), Double(f.c1y), Double(f.c2x), Double(f.c2y))
    }

    @Test func namedCurvesHaveApplesControlPoints() {
        let expected: [(CAMediaTimingFunctionName, [Float])] = [
            (.linear, [0, 0, 1, 1]), (.easeIn, [0.42, 0, 1, 1]), (.easeOut, [0, 0, 0.58, 1]),
            (.easeInEaseOut, [0.42, 0, 0.58, 1]), (.default, [0.25, 0.1, 0.25, 1]),
        ]
        for (name, p) in expected {
            let f = CAMediaTimingFunction(name: name)
            #expect([f.c1x, f.c1y, f.c2x, f.c2y] == p, "\(name.rawValue)")
        }
        #expect(CAMediaTimingFunctionName.easeInEaseOut.rawValue == "easeInEaseOut")
    }

    @Test func linearIsTheIdentity() {
        let f = CAMediaTimingFunction(name: .linear)
        for x in stride(from: 0.0, through: 1.0, by: 0.05) {
            #expect(isClose(f.solve(forInput: x), x, 1e-12))
        }
    }

    @Test func easeInEaseOutIsSymmetricAboutTheMiddle() {
        let f = CAMediaTimingFunction(name: .easeInEaseOut)
        #expect(isClose(f.solve(forInput: 0.5), 0.5, 1e-6))
        for x in [0.1, 0.25, 0.4] {
            #expect(isClose(f.solve(forInput: x) + f.solve(forInput: 1 - x), 1, 1e-6))
            #expect(f.solve(forInput: x) < x)
        }
    }

    @Test func easeInLagsAndEaseOutLeadsLinear() {
        let easeIn = CAMediaTimingFunction(name: .easeIn)
        let easeOut = CAMediaTimingFunction(name: .easeOut)
        for x in stride(from: 0.05, to: 1.0, by: 0.05) {
            #expect(easeIn.solve(forInput: x) < x)
            #expect(easeOut.solve(forInput: x) > x)
        }
    }

    @Test func namedCurvesMatchTheReferenceAtKnownPoints() {
        // The default curve (CSS's "ease") is about 0.8024 half-way.
        #expect(isClose(CAMediaTimingFunction(name: .default).solve(forInput: 0.5), 0.8024, 1e-4))
        for name in CAMediaTimingFunctionName.allCases {
            let f = CAMediaTimingFunction(name: name)
            for x in stride(from: 0.0, through: 1.0, by: 0.01) {
                #expect(isClose(f.solve(forInput: x), Self.reference(Self.points(f), x), 1e-10), "\(name.rawValue) at \(x)")
            }
        }
    }

    @Test func solverIsAccurateOnHardCurves() {
        // Flat slopes at an end defeat Newton's method; bisection takes over.
        let curves: [(Float, Float, Float, Float)] = [(1, 0, 1, 0), (0, 1, 0, 1), (0.9, 0.1, 0.1, 0.9), (0.5, -0.5, 0.5, 1.5)]
        for c in curves {
            let f = CAMediaTimingFunction(controlPoints: c.0, c.1, c.2, c.3)
            for x in [1e-6, 0.001, 0.3, 0.5, 0.77, 0.999, 0.999999] {
                #expect(isClose(f.solve(forInput: x), Self.reference(Self.points(f), x), 1e-9), "\(c) at \(x)")
            }
        }
    }

    @Test func endsAreExactAndInputIsClamped() {
        let f = CAMediaTimingFunction(controlPoints: 0.3, 0.9, 0.6, 0.1)
        #expect(f.solve(forInput: 0) == 0)
        #expect(f.solve(forInput: 1) == 1)
        #expect(f.solve(forInput: -3) == 0)
        #expect(f.solve(forInput: 7) == 1)
    }

    @Test func curvesMayOvershoot() {
        let back = CAMediaTimingFunction(controlPoints: 0.5, -0.5, 0.5, 1.5)
        #expect(back.solve(forInput: 0.1) < 0)
        #expect(back.solve(forInput: 0.9) > 1)
    }

    @Test func controlPointAccess() {
        let f = CAMediaTimingFunction(name: .easeIn)
        var values: [Float] = [-1, -1]
        f.getControlPoint(at: 1, values: &values)
        #expect(values == [0.42, 0])
        f.getControlPoint(at: 3, values: &values)
        #expect(values == [1, 1])
        f.getControlPoint(at: 4, values: &values)
        #expect(values == [1, 1])  // out of range: nothing written
        #expect(f.controlPoint(at: 0) == CGPoint(x: 0, y: 0))
        #expect(f.controlPoint(at: -1) == nil)
        #expect(f == CAMediaTimingFunction(controlPoints: 0.42, 0, 1, 1))
    }
}
