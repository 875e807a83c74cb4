// CAAnimationGroup: children sampled on the group's timeline.
import Foundation
import Testing
@testable import LaminaCore

@Suite struct AnimationGroupTests {
    /// `position.x` from 0 to 100 over `duration`, starting `begin` into the group.
    private func move(begin: Double = 0, duration: Double = 1, fill: CAMediaTimingFillMode = .removed) -> CABasicAnimation {
        let a = CABasicAnimation(keyPath: "position.x")
        a.fromValue = CGFloat(0)
        a.toValue = CGFloat(100)
        a.beginTime = begin
        a.duration = duration
        a.fillMode = fill
        return a
    }

    private func x(_ group: CAAnimationGroup, at t: Double) -> CGFloat {
        let layer = CALayer()
        layer.position = CGPoint(x: -1, y: 0)
        layer.add(group, forKey: "g")
        return layer.presentation(atTime: t).position.x
    }

    @Test func childrenRunOnTheGroupsTimeline() {
        let group = CAAnimationGroup()
        group.animations = [move(begin: 0.5)]
        group.beginTime = 1
        group.duration = 2
        #expect(x(group, at: 0.5) == -1, "before the group starts: the model value")
        #expect(x(group, at: 1.25) == -1, "the child starts half a second into the group")
        #expect(x(group, at: 2) == 50)
        #expect(x(group, at: 3.5) == -1, "after the group: nothing, with no fill")
    }

    @Test func theGroupsDurationCutsItsChildrenOff() {
        let group = CAAnimationGroup()
        group.animations = [move(duration: 4, fill: .forwards)]
        group.duration = 1
        group.fillMode = .forwards
        #expect(x(group, at: 0.5) == 12.5)
        // The group holds its last instant, where the child was a quarter of the way.
        #expect(x(group, at: 3) == 25)
    }

    @Test func repeatsSpeedAndTimingFunctionApplyToTheChildren() {
        let group = CAAnimationGroup()
        group.animations = [move()]
        group.duration = 1
        group.repeatCount = .infinity
        group.speed = 2
        #expect(x(group, at: 0.25) == 50)
        #expect(x(group, at: 10.25) == 50, "for ever")
        group.speed = 1
        group.timingFunction = CAMediaTimingFunction(name: .easeIn)
        let eased = x(group, at: 0.5)
        #expect(eased < 50 && eased > 0, "the group's timing function paces its local time")
    }

    @Test func groupsNestAndCopyTheirChildren() throws {
        let inner = CAAnimationGroup()
        inner.animations = [move()]
        inner.duration = 1
        inner.beginTime = 1
        let outer = CAAnimationGroup()
        outer.animations = [inner]
        outer.duration = 3
        #expect(x(outer, at: 1.5) == 50)
        let copy = try #require(outer.copy() as? CAAnimationGroup)
        #expect(copy.animations?.first !== inner, "a copy owns copies of its children")
        inner.duration = 10
        #expect((copy.animations?.first as? CAAnimationGroup)?.duration == 1)
    }

    @Test func validationIncludesTheChildren() {
        let bad = move()
        bad.duration = -1
        let group = CAAnimationGroup()
        group.animations = [bad]
        #expect(throws: AnimationValidationError.self) { try group.validate() }
    }

    @Test func theGroupsActiveTimeIsTheSequencesEnd() throws {
        let group = CAAnimationGroup()
        group.animations = [move(duration: 10)]
        group.duration = 2
        group.beginTime = 1
        let layer = CALayer()
        layer.add(group, forKey: "g")
        #expect(try layer.animationsEnd() == 3)
    }
}
