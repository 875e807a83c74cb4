import Foundation

/// Animations that play together on one timeline (`CAAnimationGroup`).
///
/// The group's own timing (begin time, duration, speed, repeats, fill,
/// timing function) maps its layer's time to a local time, and each child is
/// sampled at that local time, as Core Animation does: a child's
/// `beginTime` counts from the start of the group, and the group's duration
/// cuts off any child that would run longer.
///
/// ```swift
/// let spin = CABasicAnimation(keyPath: "transform.rotation.z")
/// spin.toValue = CGFloat.pi
/// let fade = CABasicAnimation(keyPath: "opacity")
/// fade.toValue = 0
/// fade.beginTime = 0.5          // half-way through the group
/// let group = CAAnimationGroup()
/// group.animations = [spin, fade]
/// group.duration = 1
/// layer.add(group, forKey: "spinAndFade")
/// ```
open class CAAnimationGroup: CAAnimation {
    /// The animations played on the group's timeline; nested groups are
    /// allowed.
    @exclusivity(unchecked) open var animations: [CAAnimation]?

    /// An empty group with Core Animation's defaults.
    public required init() {
        super.init()
    }

    override func copyState(from other: CAAnimation) {
        super.copyState(from: other)
        guard let other = other as? CAAnimationGroup else { return }
        // A copy owns copies of its children, as a group added to a layer does.
        animations = other.animations?.map { $0.copy() as? CAAnimation ?? $0 }
    }

    /// The group's timing, then each child's.
    open override func validate() throws(AnimationValidationError) {
        try super.validate()
        for child in animations ?? [] {
            try child.validate()
        }
    }

    /// The time on the group's timeline at `t`, a time of its layer: how far
    /// into its simple duration the group is, after its timing function.
    /// Nil when the group has no effect at `t`.
    public func localTime(atTime t: CFTimeInterval) -> CFTimeInterval? {
        guard let sample = timingSample(atTime: t) else { return nil }
        return easedFraction(sample) * sample.simpleDuration
    }
}

extension CAAnimation {
    /// Whether this is an animation of `hidden`, or a group holding one.
    var writesHiddenAnywhere: Bool {
        switch self {
        case let property as CAPropertyAnimation: property.writesHidden
        case let group as CAAnimationGroup: group.animations?.contains { $0.writesHiddenAnywhere } ?? false
        default: false
        }
    }

    /// Calls `body` with each property animation that applies at `t` (a
    /// time of the layer this is attached to) and the time it is sampled
    /// at: the animation itself at `t`, or a group's children at the
    /// group's local time, nested groups followed down. Children come in
    /// the group's order. No list is made: a layer's animations are
    /// sampled every frame.
    func forEachPropertyAnimation(atTime t: CFTimeInterval, _ body: (CAPropertyAnimation, CFTimeInterval) -> Void) {
        switch self {
        case let property as CAPropertyAnimation:
            body(property, t)
        case let group as CAAnimationGroup:
            guard let local = group.localTime(atTime: t), let children = group.animations else { return }
            for child in children { child.forEachPropertyAnimation(atTime: local, body) }
        default:
            return
        }
    }
}
