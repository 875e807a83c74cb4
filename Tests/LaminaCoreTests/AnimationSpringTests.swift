// CASpringAnimation: the damped oscillator in each regime, and settling.
import Foundation
import Testing
@testable import LaminaCore

@Suite struct AnimationSpringTests {
    static func spring(damping: CGFloat, velocity: CGFloat = 0, duration: CFTimeInterval = 10) -> CASpringAnimation {
        let a = CASpringAnimation(keyPath: "position.x")
        a.fromValue = 0.0
        a.toValue = 100.0
        a.damping = damping
        a.initialVelocity = velocity
        a.duration = duration
        return a
    }

    /// The path of the spring over its duration, in 1 ms steps.
    static func path(_ a: CASpringAnimation) -> [Double] {
        stride(from: 0.0, to: a.duration, by: 0.001).compactMap { value(a, at: $0) }
    }

    @Test func defaultsAreApples() {
        let a = CASpringAnimation()
        #expect(a.mass == 1 && a.stiffness == 100 && a.damping == 10 && a.initialVelocity == 0)
    }

    @Test func valuesConvergeOnToValue() throws {
        for damping in [2.0, 10, 20, 60] as [CGFloat] {
            let a = Self.spring(damping: damping)
            let settle = a.settlingDuration
            #expect(value(a, at: 0) == 0)
            let late = try #require(value(a, at: settle + 0.01))
            #expect(abs(late - 100) <= 100.0 / 1200, "damping \(damping)")
        }
    }

    @Test func underDampedOvershoots() {
        let path = Self.path(Self.spring(damping: 5))
        #expect(path.max()! > 120)
        #expect(path.min()! >= 0)
    }

    @Test func criticallyDampedDoesNotOvershoot() {
        // damping = 2·sqrt(stiffness·mass)
        let path = Self.path(Self.spring(damping: 20))
        #expect(path.allSatisfy { $0 <= 100 })
        #expect(zip(path, path.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(path.last! > 99.99)
    }

    @Test func overDampedDoesNotOvershootAndIsSlower() {
        let over = Self.path(Self.spring(damping: 60))
        let critical = Self.path(Self.spring(damping: 20))
        #expect(over.allSatisfy { $0 <= 100 })
        #expect(over[500] < critical[500])
    }

    @Test func initialVelocityStartsItMoving() {
        let still = Self.spring(damping: 20), pushed = Self.spring(damping: 20, velocity: 20)
        #expect(value(pushed, at: 0.01)! > value(still, at: 0.01)!)
        // Faster than its natural frequency (10 here), even a critically
        // damped spring overshoots.
        #expect(Self.path(pushed).max()! > 100)
    }

    @Test func motionObeysTheSpringEquation() throws {
        // m·x'' + c·x' + k·x = 0, x(0) = 1, x'(0) = -v0, in every regime.
        for (damping, v0) in [(4.0, 0.0), (20, 3), (20 + 1e-10, 0), (50, -2)] {
            let s = try #require(DampedOscillator(mass: 2, stiffness: 50, damping: damping, initialVelocity: v0))
            #expect(isClose(s.displacement(at: 0), 1, 1e-12))
            let h = 1e-4
            #expect(isClose((s.displacement(at: h) - s.displacement(at: -h)) / (2 * h), -v0, 1e-5))
            for t in [0.1, 0.5, 1.3] {
                let x = s.displacement(at: t)
                let dx = (s.displacement(at: t + h) - s.displacement(at: t - h)) / (2 * h)
                let ddx = (s.displacement(at: t + h) - 2 * x + s.displacement(at: t - h)) / (h * h)
                #expect(abs(2 * ddx + damping * dx + 50 * x) < 1e-4, "damping \(damping) at \(t)")
            }
        }
    }

    @Test func settlingDurationMatchesApplesDocumentedExamples() {
        // Apple: damping 5 settles in about 2.85 s, damping 15 in just over 1 s.
        #expect(isClose(Self.spring(damping: 5).settlingDuration, 2.85, 0.01))
        let fifteen = Self.spring(damping: 15).settlingDuration
        #expect(fifteen > 1 && fifteen < 1.05)
        #expect(Self.spring(damping: 0).settlingDuration == .infinity)
    }

    @Test func durationCutsTheMotionShort() {
        let a = Self.spring(damping: 5, duration: 0.2)
        a.fillMode = .forwards
        let atEnd = value(a, at: 0.2 - 1e-9)!
        #expect(isClose(value(a, at: 3)!, atEnd, 1e-6))
        #expect(value(a, at: 3)! != 100)
    }

    @Test func invalidParametersHaveNoEffect() {
        let a = Self.spring(damping: 10)
        a.mass = 0
        #expect(value(a, at: 0.5) == nil)
        #expect(a.settlingDuration == 0)
        do {
            try a.validate()
            Issue.record("mass 0 was accepted")
        } catch {
            #expect(error.property == "mass")
        }
        a.mass = 1
        a.damping = -1
        #expect(value(a, at: 0.5) == nil)
    }

    @Test func springsMoveOtherTypes() throws {
        let a = CASpringAnimation(keyPath: "position")
        a.fromValue = CGPoint(x: 0, y: 0)
        a.toValue = CGPoint(x: 10, y: 20)
        a.duration = a.settlingDuration
        a.fillMode = .forwards
        let end = try #require(a.presentationValue(atTime: 100, modelValue: nil) as? CGPoint)
        #expect(abs(end.x - 10) < 0.05 && abs(end.y - 20) < 0.05)
        let copy = try #require(a.copy() as? CASpringAnimation)
        #expect(copy.settlingDuration == a.settlingDuration)
    }
}
