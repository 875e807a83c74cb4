import Foundation

/// An animation through a list of values (`CAKeyframeAnimation`).
///
/// `keyTimes` place the values on the 0...1 progress of each iteration
/// (after the animation's `timingFunction`); without them the values are
/// evenly spaced. `timingFunctions` pace each segment between two values
/// (segment `i` uses entry `i`; missing entries are linear). In `discrete`
/// mode each value is held until the next key time: `keyTimes` may have one
/// entry per value, or one more as Core Animation documents, and without them
/// each of `n` values shows for `1/n` of the duration. A discrete animation
/// of a single value has no effect, as in Core Animation: the layer's own
/// value shows.
///
/// Invalid `keyTimes` (a wrong count, out of 0...1, or decreasing) are
/// ignored and the values evenly spaced; `validate()` reports them. Values
/// of types that cannot be interpolated (a `Bool`, a string) work in
/// `discrete` mode only.
///
/// With a `path`, a point property (`position`) moves along it: the path's
/// points (the ends of its lines and curves) are the values, and each curve
/// is followed at its parameter between its two key times. A path closed
/// after as many points as there are `keyTimes` ends there (lottie-ios
/// closes the paths it builds); otherwise the close is a segment back to the
/// start. The `paced` modes are not supported along a path (the points are
/// paced as if joined by lines).
open class CAKeyframeAnimation: CAPropertyAnimation {
    /// The keyframe values, all of the animated property's type.
    @exclusivity(unchecked) open var values: [Any]? { didSet { forgetTrack() } }
    /// A path for a point property to move along, instead of `values`.
    @exclusivity(unchecked) open var path: CGPath? { didSet { forgetTrack() } }
    /// Where each value falls, as fractions 0...1 of the simple duration.
    @exclusivity(unchecked) open var keyTimes: [NSNumber]? { didSet { forgetTrack() } }
    /// The pacing of each segment between two values.
    @exclusivity(unchecked) open var timingFunctions: [CAMediaTimingFunction]? { didSet { forgetTrack() } }
    /// How the values are joined; defaults to `linear`.
    @exclusivity(unchecked) open var calculationMode: CAAnimationCalculationMode = .linear { didSet { forgetTrack() } }
    /// Per value, for the cubic modes: how tight the curve is (-1...1; 1 is
    /// straight lines, -1 rounder).
    @exclusivity(unchecked) open var tensionValues: [NSNumber]? { didSet { forgetTrack() } }
    /// Per value, for the cubic modes: how sharp the corner is (-1...1).
    @exclusivity(unchecked) open var continuityValues: [NSNumber]? { didSet { forgetTrack() } }
    /// Per value, for the cubic modes: where the curve overshoots (-1...1;
    /// positive before the value, negative after).
    @exclusivity(unchecked) open var biasValues: [NSNumber]? { didSet { forgetTrack() } }

    override func copyState(from other: CAAnimation) {
        super.copyState(from: other)
        guard let other = other as? CAKeyframeAnimation else { return }
        values = other.values
        path = other.path
        keyTimes = other.keyTimes
        timingFunctions = other.timingFunctions
        calculationMode = other.calculationMode
        tensionValues = other.tensionValues
        continuityValues = other.continuityValues
        biasValues = other.biasValues
    }

    /// The values laid out for sampling, made once and kept until a
    /// property it is made from changes: a Lottie tree samples thousands of
    /// keyframe animations a frame, and laying out the values (each cast
    /// from `Any`) was most of that. Behind a lock: frames of one tree are
    /// drawn on several threads at once.
    var track: KeyframeTrack {
        if let attachedTrack { return attachedTrack }
        if let track = trackCache.withLock({ $0 }) { return track }
        let track = makeTrack()
        trackCache.withLock { $0 = track }
        return track
    }

    private let trackCache = Locked<KeyframeTrack?>(nil)

    /// The track made when the animation was attached to a layer
    /// (`makeTrackForAttaching()`), read without the lock: nothing changes
    /// it while frames are drawn, and each sample asked the lock for it.
    @exclusivity(unchecked) private var attachedTrack: KeyframeTrack?

    /// Makes the track now, as the animation is attached to a layer (its
    /// layer's copy, set up before any frame samples it).
    func makeTrackForAttaching() { attachedTrack = makeTrack() }

    private func forgetTrack() {
        attachedTrack = nil
        trackCache.withLock { $0 = nil }
    }

    private func makeTrack() -> KeyframeTrack {
        func doubles(_ numbers: [NSNumber]?) -> [Double] { numbers?.map(\.doubleValue) ?? [] }
        if let path {
            let (points, curves) = Self.pathPoints(path, keyTimeCount: keyTimes?.count)
            return KeyframeTrack(
                values: points.map { AnimatableValue($0) }, keyTimes: keyTimes.map { $0.map(\.doubleValue) },
                mode: calculationMode, timingFunctions: timingFunctions ?? [], tension: [], continuity: [], bias: [],
                curves: curves)
        }
        return KeyframeTrack(
            values: (values ?? []).map(AnimatableValue.init), templateIsFloat: super.templateIsFloat,
            keyTimes: keyTimes.map { $0.map(\.doubleValue) },
            mode: calculationMode,
            timingFunctions: timingFunctions ?? [],
            tension: doubles(tensionValues), continuity: doubles(continuityValues), bias: doubles(biasValues))
    }

    override func animatedValue(at sample: AnimationTimingSample, base: AnimatableValue?) -> AnimatableValue? {
        track.value(at: easedFraction(sample))
    }

    /// The `Bool` this animation shows at `t` (a time of its layer), found
    /// without boxing where its keyframes are discrete `Bool`s that need no
    /// model value (a Lottie layer's visibility): `.some(nil)` where it
    /// shows nothing then, nil where `presentationValue` must answer.
    func discreteBool(atTime t: CFTimeInterval) -> Bool?? {
        guard isLaminaClass, path == nil, !isAdditive, !isCumulative, valueFunction == nil else { return nil }
        let track = track
        guard let bools = track.bools else { return nil }
        guard let sample = timingSample(atTime: t), let index = track.discreteIndex(at: easedFraction(sample)) else {
            return .some(nil)
        }
        return bools[index]
    }

    override func cycleEndpoints(base: AnimatableValue?) -> (AnimatableValue, AnimatableValue)? {
        if path != nil {
            let points = track.values
            guard let first = points.first, let last = points.last else { return nil }
            return (first, last)
        }
        guard let first = values?.first, let last = values?.last else { return nil }
        return (AnimatableValue(first), AnimatableValue(last))
    }

    /// Keyframes are absolute: the model value matters only to additive or
    /// cumulative ones, through a value function, or with no keyframes.
    override var needsModelValue: Bool {
        isAdditive || isCumulative || valueFunction != nil || (path == nil && (values?.isEmpty ?? true))
    }

    /// Kept by the track, worked out once from `templateValue` as the
    /// superclass works it out.
    override var templateIsFloat: Bool {
        // Read in place where the track was made on attaching (every frame
        // asks): `track` hands out a copy, its lists retained and released.
        if let float = attachedTrack?.templateIsFloat { return float }
        return track.templateIsFloat
    }

    override var templateValue: Any? {
        // Along a path the values are points; only the type matters here.
        if path != nil { return CGPoint.zero }
        return values?.first
    }

    /// A path's points (the ends of its segments) and, per segment, the
    /// control points between its ends (none for a line).
    static func pathPoints(_ path: CGPath, keyTimeCount: Int?) -> (points: [CGPoint], curves: [[CGPoint]]) {
        var points: [CGPoint] = [], curves: [[CGPoint]] = []
        func add(_ point: CGPoint, _ controls: [CGPoint]) {
            if !points.isEmpty { curves.append(controls) }
            points.append(point)
        }
        var start = CGPoint.zero
        let elements = path.elements
        for (k, element) in elements.enumerated() {
            switch element {
            case .moveTo(let p): add(p, []); start = p
            case .lineTo(let p): add(p, [])
            case .quadCurveTo(let c, let p): add(p, [c])
            case .curveTo(let c1, let c2, let p): add(p, [c1, c2])
            case .closeSubpath:
                // A close after as many points as key times ends the path there.
                if k == elements.count - 1, let keyTimeCount, keyTimeCount == points.count { continue }
                if let last = points.last, last != start { add(start, []) }
            }
        }
        return (points, curves)
    }

    /// Adds to the timing checks: usable `keyTimes`, and values of one
    /// interpolable type unless the mode is discrete.
    open override func validate() throws(AnimationValidationError) {
        try super.validate()
        if path != nil { return }
        let converted = (values ?? []).map(AnimatableValue.init)
        if let keyTimes, !calculationMode.isPaced,
           let problem = KeyframeTrack.keyTimesProblem(
               keyTimes.map(\.doubleValue), valueCount: converted.count, mode: calculationMode)
        {
            throw problem
        }
        guard calculationMode != .discrete, let first = converted.first else { return }
        for (i, value) in converted.enumerated() {
            guard value.isInterpolable else {
                throw AnimationValidationError(
                    property: "values[\(i)]",
                    problem: "a \(value.typeName) cannot be interpolated; use the discrete calculation mode")
            }
            guard first.canAnimate(to: value) else {
                throw AnimationValidationError(
                    property: "values[\(i)]", problem: "a \(value.typeName) does not match values[0], a \(first.typeName)")
            }
        }
    }
}
