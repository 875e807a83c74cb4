import Foundation

/// A basic animation that moves like a mass on a damped spring
/// (`CASpringAnimation`): it leaves the start value with `initialVelocity`,
/// may overshoot the end value and oscillate, and settles on it.
///
/// The start and end come from `fromValue`, `toValue` and `byValue` exactly as
/// for `CABasicAnimation`. The spring runs in real seconds of the animation's
/// local time, not scaled to `duration`: the animation plays the first
/// `duration` seconds of the motion (as in Core Animation, set `duration` to
/// `settlingDuration` to see it come to rest), and a `forwards` fill holds
/// where the spring is at `duration`. A timing function, if set, remaps time
/// within the duration before the spring is evaluated.
open class CASpringAnimation: CABasicAnimation {
    /// The mass on the spring; must be > 0. Defaults to 1.
    @exclusivity(unchecked) open var mass: CGFloat = 1
    /// The spring constant; must be > 0. Defaults to 100.
    @exclusivity(unchecked) open var stiffness: CGFloat = 100
    /// The friction coefficient; must be >= 0. Defaults to 10.
    @exclusivity(unchecked) open var damping: CGFloat = 10
    /// The starting speed towards the end value, in whole distances per
    /// second (1 covers the distance from start to end in one second); a
    /// negative value starts away from it. Defaults to 0.
    @exclusivity(unchecked) open var initialVelocity: CGFloat = 0

    /// An estimate of how long the spring takes to come to rest with the
    /// current parameters: the time after which its decay envelope stays
    /// within 1/1200 of the distance. Apple does not document its
    /// threshold; this one reproduces the two cases its documentation gives
    /// (mass 1, stiffness 100: damping 5 settles in about 2.85 s, damping 15
    /// in just over 1 s). Infinite without damping; 0 with invalid parameters.
    open var settlingDuration: CFTimeInterval {
        oscillator?.settlingTime(epsilon: Self.settlingEpsilon) ?? 0
    }

    static let settlingEpsilon = 1.0 / 1200

    /// The spring with the current parameters, or nil when they are out of range.
    var oscillator: DampedOscillator? {
        DampedOscillator(
            mass: Double(mass), stiffness: Double(stiffness),
            damping: Double(damping), initialVelocity: Double(initialVelocity))
    }

    override func copyState(from other: CAAnimation) {
        super.copyState(from: other)
        guard let other = other as? CASpringAnimation else { return }
        mass = other.mass
        stiffness = other.stiffness
        damping = other.damping
        initialVelocity = other.initialVelocity
    }

    override func animatedValue(at sample: AnimationTimingSample, base: AnimatableValue?) -> AnimatableValue? {
        guard let spring = oscillator, let (from, to) = endpoints(base: base) else { return nil }
        let seconds = easedFraction(sample) * sample.simpleDuration
        return from.interpolated(to: to, fraction: spring.progress(at: seconds))
    }

    /// Adds to the basic animation's checks: the spring's parameters.
    open override func validate() throws(AnimationValidationError) {
        try super.validate()
        func check(_ name: String, _ value: CGFloat, _ ok: Bool, _ expected: String) throws(AnimationValidationError) {
            guard ok, value.isFinite else {
                throw AnimationValidationError(property: name, problem: "must be \(expected), got \(value)")
            }
        }
        try check("mass", mass, mass > 0, "finite and > 0")
        try check("stiffness", stiffness, stiffness > 0, "finite and > 0")
        try check("damping", damping, damping >= 0, "finite and >= 0")
        try check("initialVelocity", initialVelocity, true, "finite")
    }
}
