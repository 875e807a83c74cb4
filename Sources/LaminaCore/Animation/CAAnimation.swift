import Foundation

/// The root of Core Animation's animation classes (`CAAnimation`): timing
/// (`CAMediaTiming`), a timing function and a delegate.
///
/// Lamina does not run animations on a clock. An animation attached to a
/// layer is *sampled*: the render plan asks what it shows at one time (see
/// `CAPropertyAnimation.presentationValue(atTime:modelValue:)`), and a driver
/// that plays frames over time uses `isFinished(atTime:)` and
/// `notifyDelegate(from:to:)` for what Core Animation does as time passes.
open class CAAnimation: CAMediaTiming {
    // Stored properties are `@exclusivity(unchecked)`, as `CALayer`'s are
    // (why: there): every animation is read for every frame it is sampled at.
    // MARK: CAMediaTiming

    /// When the animation starts, in its layer's time (seconds).
    @exclusivity(unchecked) open var beginTime: CFTimeInterval = 0 { didSet { timing.beginTime = beginTime } }
    /// 0 (the default) plays for 0.25 s, as Core Animation does.
    @exclusivity(unchecked) open var duration: CFTimeInterval = 0 { didSet { timing.duration = duration } }
    /// How fast its time runs against its layer's (2 is twice as fast).
    @exclusivity(unchecked) open var speed: Float = 1 { didSet { timing.speed = Double(speed) } }
    /// Where in its own time the animation starts playing.
    @exclusivity(unchecked) open var timeOffset: CFTimeInterval = 0 { didSet { timing.timeOffset = timeOffset } }
    /// How many iterations play (fractions allowed; `.infinity` for ever).
    @exclusivity(unchecked) open var repeatCount: Float = 0 { didSet { timing.repeatCount = Double(repeatCount) } }
    /// How long it repeats, in seconds, instead of a count.
    @exclusivity(unchecked) open var repeatDuration: CFTimeInterval = 0 { didSet { timing.repeatDuration = repeatDuration } }
    /// Whether each iteration plays forwards, then backwards.
    @exclusivity(unchecked) open var autoreverses = false { didSet { timing.autoreverses = autoreverses } }
    /// Whether it holds its first value before it starts and its last after it ends.
    @exclusivity(unchecked) open var fillMode: CAMediaTimingFillMode = .removed { didSet { timing.fillMode = fillMode } }

    // MARK: Animation

    /// The pacing of each simple iteration; nil is linear.
    @exclusivity(unchecked) open var timingFunction: CAMediaTimingFunction?

    /// Whether Core Animation removes the animation from its layer once it
    /// has finished (true by default). Sampling ignores it: a sample at time
    /// `t` is what the presentation layer shows at `t` with the animation
    /// still attached, so a `forwards` fill holds its end value after the
    /// end even when this is true. A driver that plays frames in order
    /// removes finished animations for which this is true; after that they
    /// have no effect at all.
    @exclusivity(unchecked) open var isRemovedOnCompletion = true

    /// Told when the animation starts and stops, by a driver calling
    /// `notifyDelegate(from:to:)`. Held strongly, as Core Animation does.
    @exclusivity(unchecked) open var delegate: CAAnimationDelegate?

    /// An animation with Core Animation's defaults.
    public required init() {
        let type = type(of: self)
        isLaminaClass = type == CABasicAnimation.self || type == CAKeyframeAnimation.self || type == CASpringAnimation.self
            || type == CAAnimationGroup.self || type == CAPropertyAnimation.self || type == CAAnimation.self
    }

    /// A copy with the same settings: Core Animation copies an animation when
    /// it is added to a layer, so that later changes to the original do not
    /// reach the layer. The delegate and timing function are shared.
    open func copy() -> Any {
        let copy = type(of: self).init()
        copy.copyState(from: self)
        return copy
    }

    /// Copies this class's settings from `other`; subclasses add theirs.
    func copyState(from other: CAAnimation) {
        beginTime = other.beginTime
        duration = other.duration
        speed = other.speed
        timeOffset = other.timeOffset
        repeatCount = other.repeatCount
        repeatDuration = other.repeatDuration
        autoreverses = other.autoreverses
        fillMode = other.fillMode
        timingFunction = other.timingFunction
        isRemovedOnCompletion = other.isRemovedOnCompletion
        delegate = other.delegate
    }

    // MARK: Timing

    /// The timing fields as they are now, with Core Animation's arithmetic.
    package var timingModel: AnimationTimingModel { isLaminaClass ? timing : AnimationTimingModel(self) }

    /// The timing fields, kept as they are set: read every frame for every
    /// animation sampled, where reading the eight properties through their
    /// getters was a tenth of sampling one.
    @exclusivity(unchecked) private var timing = AnimationTimingModel()

    /// Whether this is one of Lamina's own animation classes, not an app's
    /// subclass, which may override a property's getter or how a value is
    /// worked out: for those, `timing` holds what the timing properties
    /// answer, and a layer writes the values typed (`CALayer.add`).
    @exclusivity(unchecked) private(set) var isLaminaClass = false

    /// Where the animation stands at `t`, a time of the layer it is attached
    /// to; nil when it has no effect there.
    package func timingSample(atTime t: CFTimeInterval) -> AnimationTimingSample? {
        // Sampled where it is kept (`timingModel` hands out a copy).
        isLaminaClass ? timing.sample(atTime: t) : AnimationTimingModel(self).sample(atTime: t)
    }

    /// Whether the animation has played to its end by `t`.
    public func isFinished(atTime t: CFTimeInterval) -> Bool {
        timingModel.isFinished(atTime: t)
    }

    /// The eased progress through the simple duration for a sample: the
    /// sample's fraction through the timing function.
    func easedFraction(_ sample: AnimationTimingSample) -> Double {
        timingFunction?.solve(forInput: sample.fraction) ?? sample.fraction
    }

    // MARK: Checking and events

    /// Throws the first setting that makes the animation unplayable: timing
    /// values out of range here, and each subclass's own rules. Sampling an
    /// invalid animation gives no effect rather than an error.
    open func validate() throws(AnimationValidationError) {
        if let error = timingModel.validationError { throw error }
    }

    /// Tells the delegate what happened as the layer's time went from
    /// `previousTime` to `time`: `animationDidStart` if the animation began
    /// in between, then `animationDidStop(_:finished: true)` if it ended.
    /// A driver calls this once per frame with the previous frame's time.
    public func notifyDelegate(from previousTime: CFTimeInterval, to time: CFTimeInterval) {
        guard let delegate else { return }
        let model = timingModel
        func started(_ t: CFTimeInterval) -> Bool { (t - model.beginTime) * model.speed >= 0 }
        if !started(previousTime) && started(time) {
            delegate.animationDidStart(self)
        }
        if !model.isFinished(atTime: previousTime) && model.isFinished(atTime: time) {
            delegate.animationDidStop(self, finished: true)
        }
    }
}

/// What an animation tells its delegate (`CAAnimationDelegate`). Both methods
/// have empty default implementations, as they are optional in Core Animation.
public protocol CAAnimationDelegate: AnyObject {
    /// The animation's active time has begun.
    func animationDidStart(_ anim: CAAnimation)
    /// The animation's active time has ended (`finished` true) or it was
    /// removed before its end (`finished` false).
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool)
}

extension CAAnimationDelegate {
    /// Does nothing unless the delegate says otherwise.
    public func animationDidStart(_ anim: CAAnimation) {}
    /// Does nothing unless the delegate says otherwise.
    public func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {}
}
