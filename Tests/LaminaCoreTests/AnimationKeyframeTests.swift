// CAKeyframeAnimation: key times, segment timing, and each calculation mode.
import Foundation
import Testing
@testable import LaminaCore

@Suite struct AnimationKeyframeTests {
    static func keyframes(
        _ values: [Any], keyTimes: [NSNumber]? = nil, mode: CAAnimationCalculationMode = .linear
    ) -> CAKeyframeAnimation {
        let a = CAKeyframeAnimation(keyPath: "position.x")
        a.values = values
        a.keyTimes = keyTimes
        a.calculationMode = mode
        a.duration = 1
        return a
    }

    @Test func evenlySpacedWithoutKeyTimes() {
        let a = Self.keyframes([0, 10, 30])
        #expect(value(a, at: 0) == 0)
        #expect(value(a, at: 0.25) == 5)
        #expect(value(a, at: 0.5) == 10)
        #expect(value(a, at: 0.75) == 20)
        a.fillMode = .forwards
        #expect(value(a, at: 1) == 30)
    }

    /// A position animated along a path follows its lines and curves, each
    /// segment between its two key times, a curve at its parameter.
    @Test func aPathIsFollowedSegmentBySegment() {
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addLine(to: CGPoint(x: 100, y: 0))
        path.addCurve(to: CGPoint(x: 100, y: 100), control1: CGPoint(x: 150, y: 0), control2: CGPoint(x: 150, y: 100))
        path.closeSubpath()  // after as many points as key times: the path ends at its last point
        let a = CAKeyframeAnimation(keyPath: "position")
        a.path = path
        a.keyTimes = [0, 0.5, 1]
        a.duration = 1
        let layer = CALayer()
        layer.add(a, forKey: "move")
        func at(_ t: Double) -> CGPoint { layer.presentation(atTime: t).position }
        #expect(at(0.25) == CGPoint(x: 50, y: 0))
        // Halfway along the curve's parameter: (0.125·100 + 0.375·150 + 0.375·150 + 0.125·100, 50).
        #expect(abs(at(0.75).x - 137.5) < 1e-9 && abs(at(0.75).y - 50) < 1e-9)
        #expect(abs(at(0.999).y - 100) < 1)
        // Without key times the close is a segment back to the start: 4 points, evenly spaced.
        a.keyTimes = nil
        let again = CALayer()
        again.add(a, forKey: "move")
        #expect(abs(again.presentation(atTime: 5.0 / 6).position.y - 50) < 1e-9, "halfway back from (100, 100) to (0, 0)")
    }

    @Test func keyTimesPlaceTheValues() {
        let a = Self.keyframes([0, 10, 30], keyTimes: [0, 0.8, 1])
        #expect(value(a, at: 0.4) == 5)
        #expect(isClose(value(a, at: 0.9) ?? -1, 20))
        // A repeated key time is a jump.
        let jump = Self.keyframes([0, 10, 50, 60], keyTimes: [0, 0.5, 0.5, 1])
        #expect(value(jump, at: 0.25) == 5)
        #expect(value(jump, at: 0.5) == 50)
        #expect(value(jump, at: 0.75) == 55)
    }

    @Test func invalidKeyTimesAreIgnored() throws {
        let a = Self.keyframes([0, 10, 30], keyTimes: [0, 1])  // one short
        #expect(value(a, at: 0.25) == 5)
        #expect(throws: AnimationValidationError.self) { try a.validate() }
        let b = Self.keyframes([0, 10, 30], keyTimes: [0, 0.7, 0.6])
        do {
            try b.validate()
            Issue.record("decreasing key times were accepted")
        } catch {
            #expect(error.property == "keyTimes[2]")
        }
    }

    @Test func segmentTimingFunctions() {
        let a = Self.keyframes([0, 10, 30])
        a.timingFunctions = [CAMediaTimingFunction(name: .easeIn)]  // the second segment is linear
        let easeIn = CAMediaTimingFunction(name: .easeIn).solve(forInput: 0.5)
        #expect(isClose(value(a, at: 0.25) ?? -1, 10 * easeIn))
        #expect(value(a, at: 0.75) == 20)
    }

    @Test func animationTimingFunctionAppliesToTheWholeTrack() {
        let a = Self.keyframes([0, 100])
        a.timingFunction = CAMediaTimingFunction(name: .easeOut)
        #expect(isClose(value(a, at: 0.3) ?? -1, 100 * CAMediaTimingFunction(name: .easeOut).solve(forInput: 0.3)))
    }

    @Test func discreteHoldsEachValue() {
        let a = Self.keyframes([1, 2, 3], mode: .discrete)
        #expect(value(a, at: 0) == 1)
        #expect(value(a, at: 0.3) == 1)
        #expect(value(a, at: 0.34) == 2)
        #expect(value(a, at: 0.66) == 2)
        #expect(value(a, at: 0.67) == 3)
        a.fillMode = .forwards
        #expect(value(a, at: 5) == 3)
    }

    @Test func discreteWithKeyTimes() {
        let perValue = Self.keyframes([1, 2, 3], keyTimes: [0, 0.5, 0.9], mode: .discrete)
        #expect(value(perValue, at: 0.6) == 2)
        #expect(value(perValue, at: 0.95) == 3)
        // Core Animation's documented form: one more key time than values.
        let bounded = Self.keyframes([1, 2, 3], keyTimes: [0, 0.2, 0.4, 1], mode: .discrete)
        #expect(value(bounded, at: 0.3) == 2)
        #expect(value(bounded, at: 0.5) == 3)
        #expect(throws: Never.self) { try bounded.validate() }
    }

    /// A discrete animation of one value has no effect: the layer's own
    /// value shows, as Apple's pictures of lottie-ios's lone held keyframes
    /// show it (a fill held at opacity 0 drawn at its layer's 1).
    @Test func discreteOfOneValueHasNoEffect() {
        let lone = Self.keyframes([0], keyTimes: [0, 1], mode: .discrete)
        #expect(lone.presentationValue(atTime: 0.5, modelValue: CGFloat(1)) == nil)
        let two = Self.keyframes([0, 5], keyTimes: [0, 0.5, 1], mode: .discrete)
        #expect(value(two, at: 0.25) == 0 && value(two, at: 0.75) == 5)
        #expect(value(Self.keyframes([7]), at: 0.5) == 7, "a linear animation of one value holds it")
    }

    @Test func discreteShowsValuesThatCannotBeInterpolated() throws {
        let a = Self.keyframes(["one", "two"], mode: .discrete)
        #expect(a.presentationValue(atTime: 0.75, modelValue: nil) as? String == "two")
        let flags = Self.keyframes([false, true], mode: .discrete)
        #expect(flags.presentationValue(atTime: 0.25, modelValue: nil) as? Bool == false)
        a.calculationMode = .linear
        #expect(a.presentationValue(atTime: 0.75, modelValue: nil) == nil)
        #expect(throws: AnimationValidationError.self) { try a.validate() }
    }

    @Test func pacedKeepsAConstantRate() {
        let a = Self.keyframes([0, 10, 40], keyTimes: [0, 0.9, 1], mode: .paced)
        a.timingFunctions = [CAMediaTimingFunction(name: .easeIn)]  // ignored, like keyTimes
        #expect(value(a, at: 0.125) == 5)
        #expect(value(a, at: 0.5) == 20)
        #expect(value(a, at: 0.75) == 30)
        let points = Self.keyframes([CGPoint(x: 0, y: 0), CGPoint(x: 30, y: 40), CGPoint(x: 30, y: 90)], mode: .paced)
        #expect(points.presentationValue(atTime: 0.75, modelValue: nil) as? CGPoint == CGPoint(x: 30, y: 65))
    }

    @Test func cubicPassesThroughTheValuesSmoothly() throws {
        let a = Self.keyframes([0, 1, 2, 3], mode: .cubic)
        // Catmull-Rom reproduces evenly spaced points on a line.
        #expect(isClose(value(a, at: 0.5) ?? -1, 1.5, 1e-12))
        let bumpy = Self.keyframes([0, 10, 0, 10], mode: .cubic)
        for (i, expected) in [0.0, 10, 0, 10].enumerated() {
            #expect(isClose(value(bumpy, at: Double(i) / 3 + (i == 3 ? -1e-12 : 0)) ?? -1, expected, 1e-9))
        }
        // Unlike linear, it curves: overshooting 10 just past the second value...
        let linear = Self.keyframes([0, 10, 0, 10])
        let s = 1.0 / 3 + 0.05
        #expect(try #require(value(bumpy, at: s)) > (try #require(value(linear, at: s))))
        // ...with no corner: equal slopes either side of it.
        let h = 1e-6, k = 1.0 / 3
        let left = (try #require(value(bumpy, at: k)) - (try #require(value(bumpy, at: k - h)))) / h
        let right = (try #require(value(bumpy, at: k + h)) - (try #require(value(bumpy, at: k)))) / h
        #expect(isClose(left, right, 1e-3))
        // Tension 1 at every value flattens the tangents: no overshoot.
        bumpy.tensionValues = [1, 1, 1, 1]
        let tight = try #require(value(bumpy, at: s))
        #expect(tight < 10 && tight > 0)
    }

    @Test func cubicPointsAndFallbackForTransforms() throws {
        let a = Self.keyframes([CGPoint(x: 0, y: 0), CGPoint(x: 10, y: 10), CGPoint(x: 20, y: 0)], mode: .cubicPaced)
        let mid = try #require(a.presentationValue(atTime: 0.5, modelValue: nil) as? CGPoint)
        #expect(isClose(Double(mid.x), 10, 1e-9) && isClose(Double(mid.y), 10, 1e-9))
        let turns = Self.keyframes(
            [CATransform3D.identity, CATransform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1)], mode: .cubic)
        let t = try #require(turns.presentationValue(atTime: 0.5, modelValue: nil) as? CATransform3D)
        #expect(isClose(t, CATransform3D(rotationAngle: .pi / 4, x: 0, y: 0, z: 1), 1e-12))
    }

    @Test func cumulativeKeyframesAndEdgeCases() {
        let a = Self.keyframes([0, 5, 10])
        a.repeatCount = 2
        a.isCumulative = true
        #expect(value(a, at: 1.25) == 12.5)  // 2.5 into the second cycle, which starts at 10
        #expect(value(Self.keyframes([]), at: 0.5) == nil)
        #expect(value(Self.keyframes([7]), at: 0.5) == 7)
        #expect(value(Self.keyframes([0, CGPoint.zero]), at: 0.5) == nil)
    }
}
