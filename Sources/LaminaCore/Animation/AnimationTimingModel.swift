import Foundation

/// Core Animation's timing arithmetic for one animation, on a frozen copy of
/// its `CAMediaTiming` fields.
///
/// From a parent time `t` (the time of the layer the animation is attached
/// to), the model works out which iteration plays and how far into its simple
/// duration it is:
///
/// 1. `elapsed = (t - beginTime) * speed` is the local time since the start.
///    The animation is *active* while `0 <= elapsed < activeDuration`.
/// 2. The position on the local timeline is `elapsed + timeOffset`, wrapped
///    into the active duration: as Core Animation does, an offset starts the
///    animation part-way through, and it then plays to the end and wraps
///    around to the start, lasting the same active duration in all.
/// 3. The position falls in a cycle of `cycleDuration` (the simple duration,
///    doubled when `autoreverses`); the second half of an autoreversing cycle
///    mirrors the first.
/// 4. Before the start, `backwards` and `both` fill with the first active
///    instant; from the end on, `forwards` and `both` fill with the last one
///    (the end of the last iteration, or part-way through it when
///    `repeatCount` is fractional). Otherwise the animation has no effect.
///
/// A `duration` of 0 means 0.25 s, the default that Core Animation gives an
/// animation when it is added to a layer.
package struct AnimationTimingModel: Hashable, Sendable {
    /// When the animation starts, in its layer's time (seconds).
    public var beginTime: CFTimeInterval = 0
    /// The length of one iteration in seconds; 0 means 0.25 s.
    public var duration: CFTimeInterval = 0
    /// How fast its time runs against its layer's (2 is twice as fast).
    public var speed: Double = 1
    /// Where in its own time the animation starts playing.
    public var timeOffset: CFTimeInterval = 0
    /// How many iterations play (fractions allowed; `.infinity` for ever).
    public var repeatCount: Double = 0
    /// How long it repeats, in seconds, instead of a count.
    public var repeatDuration: CFTimeInterval = 0
    /// Whether each iteration plays forwards, then backwards.
    public var autoreverses = false
    /// Whether it holds its first value before it starts and its last after it ends.
    public var fillMode: CAMediaTimingFillMode = .removed

    /// The duration Core Animation gives an animation whose `duration` is 0.
    public static let defaultDuration: CFTimeInterval = 0.25

    /// Core Animation's defaults: begins at 0, plays 0.25 s once, no fill.
    public init() {}

    /// The timing of `timing`, as it is now.
    public init(_ timing: some CAMediaTiming) {
        beginTime = timing.beginTime
        duration = timing.duration
        speed = Double(timing.speed)
        timeOffset = timing.timeOffset
        repeatCount = Double(timing.repeatCount)
        repeatDuration = timing.repeatDuration
        autoreverses = timing.autoreverses
        fillMode = timing.fillMode
    }

    /// The length of one simple iteration: `duration`, or 0.25 s when it is 0.
    public var simpleDuration: CFTimeInterval {
        duration > 0 ? duration : Self.defaultDuration
    }

    /// One iteration: the simple duration, twice over when autoreversing.
    public var cycleDuration: CFTimeInterval {
        autoreverses ? 2 * simpleDuration : simpleDuration
    }

    /// How long the animation is active, in local time: `repeatDuration` when
    /// set, else `repeatCount` cycles (0 counts as 1); may be infinite.
    public var activeDuration: CFTimeInterval {
        if repeatDuration > 0 { return repeatDuration }
        if repeatCount > 0 { return cycleDuration * repeatCount }
        return cycleDuration
    }

    /// Where the animation stands at parent time `t`, or nil when it has no
    /// effect there (outside its active time without a fill, or with timing
    /// that `validate()` rejects).
    public func sample(atTime t: CFTimeInterval) -> AnimationTimingSample? {
        guard t.isFinite, isValid else { return nil }
        let elapsed = (t - beginTime) * speed
        let active = activeDuration
        if elapsed < 0 {
            guard fillMode.fillsBackwards else { return nil }
            return locate(position(elapsed: 0, fromBelow: false), fromBelow: false, phase: .before)
        }
        if elapsed >= active {
            guard fillMode.fillsForwards else { return nil }
            return locate(position(elapsed: active, fromBelow: true), fromBelow: true, phase: .after)
        }
        return locate(position(elapsed: elapsed, fromBelow: false), fromBelow: false, phase: .active)
    }

    /// Whether the animation has played to its end by parent time `t`: the
    /// moment Core Animation would remove it when `isRemovedOnCompletion`.
    public func isFinished(atTime t: CFTimeInterval) -> Bool {
        guard t.isFinite, isValid else { return false }
        return (t - beginTime) * speed >= activeDuration
    }

    /// The parent-time interval in which the animation is active, or nil when
    /// `speed` is 0 (then it is active at every time) or the timing is invalid.
    /// The upper bound may be infinite.
    public var activeInterval: (start: CFTimeInterval, end: CFTimeInterval)? {
        guard speed != 0, isValid else { return nil }
        let a = beginTime, b = beginTime + activeDuration / speed
        return (min(a, b), max(a, b))
    }

    /// Whether these timing values have no problem (`validationError` is
    /// nil), asked at every sample without making the error.
    public var isValid: Bool {
        beginTime.isFinite && duration >= 0 && duration.isFinite && speed.isFinite && timeOffset.isFinite
            && repeatCount >= 0 && repeatDuration >= 0
    }

    /// The first problem with these timing values, or nil when there is none.
    public var validationError: AnimationValidationError? {
        func problem(_ property: String, _ expected: String, _ value: Double) -> AnimationValidationError {
            AnimationValidationError(property: property, problem: "must be \(expected), got \(value)")
        }
        if !beginTime.isFinite { return problem("beginTime", "a finite number", beginTime) }
        if !(duration >= 0 && duration.isFinite) { return problem("duration", "finite and >= 0", duration) }
        if !speed.isFinite { return problem("speed", "a finite number", speed) }
        if !timeOffset.isFinite { return problem("timeOffset", "a finite number", timeOffset) }
        if !(repeatCount >= 0) { return problem("repeatCount", ">= 0 (or infinity)", repeatCount) }
        if !(repeatDuration >= 0) { return problem("repeatDuration", ">= 0 (or infinity)", repeatDuration) }
        return nil
    }

    /// The position on the local timeline `elapsed` after the start, with
    /// the time offset applied and wrapped into the active duration. With
    /// `fromBelow`, a position that lands exactly on a wrap point counts as
    /// the end of the timeline rather than its start.
    private func position(elapsed: CFTimeInterval, fromBelow: Bool) -> CFTimeInterval {
        let p = elapsed + timeOffset
        let active = activeDuration
        guard timeOffset != 0, active.isFinite, active > 0 else { return p }
        var wrapped = p - active * (p / active).rounded(.down)
        wrapped = min(max(wrapped, 0), active)
        if wrapped == active { wrapped = 0 }
        if fromBelow && wrapped == 0 { return active }
        return wrapped
    }

    private func locate(_ p: CFTimeInterval, fromBelow: Bool, phase: AnimationTimingSample.Phase) -> AnimationTimingSample {
        let d = simpleDuration, cycle = cycleDuration
        // A position exactly at the end of a cycle belongs to the cycle it
        // ends when approached from below (the held end value), and starts
        // the next one otherwise.
        let cycles = p / cycle
        let iteration = fromBelow && p > 0 ? cycles.rounded(.up) - 1 : cycles.rounded(.down)
        let cycleTime = min(max(p - iteration * cycle, 0), cycle)
        var simpleTime = cycleTime
        var reversing = false
        if autoreverses && cycleTime > d {
            simpleTime = cycle - cycleTime
            reversing = true
        }
        // Keep the index in Int's range however long an endless animation ran.
        let index = Int(min(max(iteration, 0), 1e15))
        return AnimationTimingSample(
            phase: phase, iteration: index, fraction: min(max(simpleTime / d, 0), 1),
            isReversing: reversing, simpleDuration: d)
    }
}

/// Where an animation stands at one moment.
package struct AnimationTimingSample: Hashable, Sendable {
    /// Before the active time (a backwards fill), during it, or after it (a
    /// forwards fill).
    public enum Phase: Hashable, Sendable {
        case before, active, after
    }

    /// Before the animation starts, while it plays, or after its end.
    public var phase: Phase
    /// The repeat cycle playing, 0 for the first. An autoreversing cycle
    /// counts once for its forward and backward halves.
    public var iteration: Int
    /// How far into the simple duration, 0...1, before any timing function;
    /// it runs back from 1 to 0 in the reversing half of a cycle.
    public var fraction: Double
    /// Whether this is the backward half of an autoreversing cycle.
    public var isReversing: Bool
    /// The simple duration in seconds (0.25 when the animation's is 0).
    public var simpleDuration: CFTimeInterval

    /// A moment of an animation's timing.
    public init(phase: Phase, iteration: Int, fraction: Double, isReversing: Bool, simpleDuration: CFTimeInterval) {
        self.phase = phase
        self.iteration = iteration
        self.fraction = fraction
        self.isReversing = isReversing
        self.simpleDuration = simpleDuration
    }
}
