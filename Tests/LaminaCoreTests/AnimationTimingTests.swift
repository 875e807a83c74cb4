// The timing model: fill modes, speed, offset, repeats, autoreverse.
import Foundation
import Testing
@testable import LaminaCore

@Suite struct AnimationTimingTests {
    @Test func removedFillHasNoEffectOutsideTheActiveTime() {
        let a = ramp { $0.beginTime = 1 }
        #expect(value(a, at: 0.5) == nil)
        #expect(value(a, at: 1) == 0)
        #expect(value(a, at: 1.5) == 50)
        // The active time is [begin, end): at the end the animation is over.
        #expect(value(a, at: 2) == nil)
        #expect(value(a, at: 3) == nil)
    }

    @Test func forwardsFillHoldsTheEndValueOnly() {
        let a = ramp { $0.beginTime = 1; $0.fillMode = .forwards }
        #expect(value(a, at: 0.5) == nil)
        #expect(value(a, at: 2) == 100)
        #expect(value(a, at: 50) == 100)
        // isRemovedOnCompletion (true) does not hide the hold: sampling is
        // the presentation layer with the animation still attached.
        #expect(a.isRemovedOnCompletion)
        #expect(a.isFinished(atTime: 50))
    }

    @Test func backwardsFillHoldsTheStartValueOnly() {
        let a = ramp { $0.beginTime = 1; $0.fillMode = .backwards }
        #expect(value(a, at: 0.5) == 0)
        #expect(value(a, at: -100) == 0)
        #expect(value(a, at: 2.5) == nil)
    }

    @Test func bothFillsHoldBothEnds() {
        let a = ramp { $0.beginTime = 1; $0.fillMode = .both }
        #expect(value(a, at: 0) == 0)
        #expect(value(a, at: 1.25) == 25)
        #expect(value(a, at: 5) == 100)
    }

    @Test func unknownFillModeFillsNothing() {
        let a = ramp { $0.fillMode = CAMediaTimingFillMode("sideways") }
        #expect(value(a, at: -1) == nil)
        #expect(value(a, at: 2) == nil)
        #expect(CAMediaTimingFillMode.both.rawValue == "both")
    }

    @Test func speedScalesLocalTime() {
        let a = ramp { $0.beginTime = 1; $0.speed = 2 }
        #expect(value(a, at: 1.25) == 50)
        #expect(value(a, at: 1.5) == nil)  // a 1 s animation at double speed ends after 0.5 s
        let slow = ramp { $0.speed = 0.5 }
        #expect(value(slow, at: 1) == 50)
        #expect(slow.timingModel.activeInterval?.end == 2)
    }

    @Test func zeroSpeedFreezesAtTheTimeOffset() {
        // The book's chapter 9 trick for scrubbing an animation by hand.
        let a = ramp { $0.speed = 0; $0.timeOffset = 0.3 }
        for t in [-10.0, 0, 0.7, 1000] {
            #expect(isClose(value(a, at: t) ?? -1, 30))
        }
    }

    @Test func timeOffsetStartsPartWayAndWrapsAround() {
        let a = ramp { $0.timeOffset = 0.5 }
        #expect(value(a, at: 0) == 50)
        #expect(isClose(value(a, at: 0.4) ?? -1, 90))
        #expect(isClose(value(a, at: 0.6) ?? -1, 10))  // wrapped to the start
        #expect(value(a, at: 1) == nil)  // still lasts 1 s in all
        // The forwards hold is the last active instant, just before 0.5 of the way.
        a.fillMode = .both
        #expect(value(a, at: 2) == 50)
        #expect(value(a, at: -1) == 50)
    }

    @Test func negativeTimeOffsetWrapsFromTheEnd() {
        let a = ramp { $0.timeOffset = -0.25 }
        #expect(value(a, at: 0) == 75)
        #expect(value(a, at: 0.5) == 25)
    }

    @Test func mediaTimeIsMonotonic() {
        let first = CACurrentMediaTime()
        #expect(CACurrentMediaTime() >= first)
        #expect(first > 0)
    }

    @Test func localTimeFormula() {
        let a = ramp { $0.beginTime = 2; $0.speed = 3; $0.timeOffset = 0.5 }
        #expect(a.convertFromParentTime(3) == 3.5)
    }

    @Test func wholeRepeatCounts() {
        let a = ramp { $0.repeatCount = 2 }
        #expect(value(a, at: 0.5) == 50)
        #expect(value(a, at: 1.5) == 50)
        #expect(a.timingSample(atTime: 1.5)?.iteration == 1)
        #expect(value(a, at: 2) == nil)
        a.fillMode = .forwards
        #expect(value(a, at: 2) == 100)
        #expect(a.timingSample(atTime: 3)?.iteration == 1)
    }

    @Test func fractionalRepeatCountEndsPartWay() {
        let a = ramp { $0.repeatCount = 2.5; $0.fillMode = .forwards }
        #expect(value(a, at: 2.25) == 25)
        #expect(value(a, at: 2.5) == 50)
        #expect(value(a, at: 10) == 50)
        #expect(a.timingModel.activeDuration == 2.5)
    }

    @Test func zeroRepeatCountPlaysOnce() {
        let a = ramp { $0.repeatCount = 0 }
        #expect(a.timingModel.activeDuration == 1)
    }

    @Test func infiniteRepeatNeverEnds() {
        let a = ramp { $0.repeatCount = .infinity }
        #expect(isClose(value(a, at: 1000.25) ?? -1, 25))
        #expect(!a.isFinished(atTime: 1e12))
        #expect(a.timingSample(atTime: 1000.25)?.iteration == 1000)
    }

    @Test func repeatDurationWinsOverRepeatCount() {
        let a = ramp { $0.repeatDuration = 1.5; $0.repeatCount = 10 }
        #expect(value(a, at: 1.25) == 25)
        #expect(value(a, at: 1.5) == nil)
        a.fillMode = .forwards
        #expect(value(a, at: 4) == 50)
    }

    @Test func autoreversePlaysBackAndDoublesTheCycle() {
        let a = ramp { $0.autoreverses = true }
        #expect(value(a, at: 0.5) == 50)
        #expect(value(a, at: 1) == 100)
        #expect(value(a, at: 1.25) == 75)
        #expect(value(a, at: 1.75) == 25)
        #expect(a.timingSample(atTime: 1.75)?.isReversing == true)
        #expect(value(a, at: 2) == nil)
        a.fillMode = .forwards
        #expect(value(a, at: 3) == 0)  // back where it began
    }

    @Test func autoreverseWithFractionalRepeat() {
        // 1.5 cycles of 2 s: forwards, backwards, forwards; ends at the top.
        let a = ramp { $0.autoreverses = true; $0.repeatCount = 1.5; $0.fillMode = .forwards }
        #expect(value(a, at: 2.5) == 50)
        #expect(value(a, at: 4) == 100)
    }

    @Test func autoreverseMirrorsTheTimingCurve() {
        let a = ramp { $0.autoreverses = true; $0.timingFunction = CAMediaTimingFunction(name: .easeIn) }
        let forward = value(a, at: 0.75) ?? -1
        let backward = value(a, at: 1.25) ?? -2
        #expect(isClose(forward, backward, 1e-9))
        #expect(forward < 75)  // eased in: behind linear
    }

    @Test func zeroDurationMeansCoreAnimationsDefault() {
        let a = ramp { $0.duration = 0 }
        #expect(a.timingModel.simpleDuration == 0.25)
        #expect(value(a, at: 0.125) == 50)
    }

    @Test func invalidTimingHasNoEffectAndIsReported() {
        let a = ramp { $0.duration = -1 }
        #expect(value(a, at: 0.5) == nil)
        #expect(throws: AnimationValidationError.self) { try a.validate() }
        do {
            try a.validate()
        } catch {
            #expect(error.property == "duration")
            #expect(error.description.contains("-1"))
        }
        let b = ramp { $0.repeatCount = -2 }
        #expect(b.timingModel.validationError?.property == "repeatCount")
        #expect(value(ramp(), at: .nan) == nil)
    }

    @Test func copyIsIndependent() throws {
        let a = ramp { $0.beginTime = 3; $0.autoreverses = true }
        let b = try #require(a.copy() as? CABasicAnimation)
        a.toValue = 7.0
        a.beginTime = 0
        #expect(b.beginTime == 3 && b.autoreverses && b.keyPath == "opacity")
        #expect(number(b.toValue) == 100)
    }

    final class Recorder: CAAnimationDelegate {
        var events: [String] = []
        func animationDidStart(_ anim: CAAnimation) { events.append("start") }
        func animationDidStop(_ anim: CAAnimation, finished flag: Bool) { events.append("stop \(flag)") }
    }

    @Test func delegateHearsStartAndStop() {
        let recorder = Recorder()
        let a = ramp { $0.beginTime = 1; $0.delegate = recorder }
        a.notifyDelegate(from: 0, to: 0.5)
        #expect(recorder.events.isEmpty)
        a.notifyDelegate(from: 0.5, to: 1.5)
        #expect(recorder.events == ["start"])
        a.notifyDelegate(from: 1.5, to: 2.5)
        #expect(recorder.events == ["start", "stop true"])
        a.notifyDelegate(from: 2.5, to: 3)
        #expect(recorder.events.count == 2)
        // A step over the whole animation reports both, in order.
        let b = ramp { $0.beginTime = 1; $0.delegate = recorder }
        b.notifyDelegate(from: 0, to: 10)
        #expect(recorder.events == ["start", "stop true", "start", "stop true"])
    }
}
