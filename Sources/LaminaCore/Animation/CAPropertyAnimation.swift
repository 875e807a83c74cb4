import Foundation

/// An animation of one layer property, named by key path
/// (`CAPropertyAnimation`): the parent of basic, keyframe and spring
/// animations, and the class the layer code talks to through
/// `presentationValue(atTime:modelValue:)`.
open class CAPropertyAnimation: CAAnimation {
    /// The animated property: `opacity`, `position`, `position.x`,
    /// `transform.rotation.z`, `bounds.size.width`... The animation itself
    /// only computes values; the layer reads and writes them through this path.
    @exclusivity(unchecked) open var keyPath: String? {
        didSet {
            splitKeyPath = keyPath.map(SplitKeyPath.init)
            writesHidden = splitKeyPath?.head == "hidden"
            reachesSubtree = splitKeyPath.map { ["mask", "sublayers", "superlayer"].contains($0.head) } ?? false
            attachedKey = nil
        }
    }

    /// The row of the property table that `keyPath` names, for the layer
    /// this animation is attached to: found when it is attached
    /// (`CALayer.add(_:forKey:)`), so that a frame writes the value typed
    /// instead of boxing it and looking the key up by name. Nil for a key
    /// path into a property (`transform.rotation.z`), a custom key, and an
    /// animation of a class of the app's own (it may answer
    /// `presentationValue` its own way).
    @exclusivity(unchecked) var attachedKey: LayerKey?

    /// `keyPath` split at its first dot when it is set, not at every frame
    /// the animation is sampled at.
    @exclusivity(unchecked) private(set) var splitKeyPath: SplitKeyPath?

    /// Whether `keyPath` is `hidden` (or a path into it): the animations a
    /// renderer plays first, to learn whether a layer shows at all
    /// (`CALayer.isHiddenWhenPresented`).
    @exclusivity(unchecked) private(set) var writesHidden = false

    /// Whether `keyPath` reaches out of the layer, into its `mask`,
    /// `sublayers` or `superlayer`: a presentation copy of the layer alone
    /// cannot show it (`CALayer.presentationAlone`).
    @exclusivity(unchecked) private(set) var reachesSubtree = false

    /// Whether the animated value is added to the model value rather than
    /// replacing it. Numbers, points, sizes, rectangles and colours add
    /// component by component (colours are clamped to 0...1 at the end);
    /// transforms concatenate, the animated one applied first:
    /// `CATransform3DConcat(animated, model)`.
    @exclusivity(unchecked) open var isAdditive = false

    /// Whether each repeat cycle builds on the previous one: cycle `n` adds
    /// `n` times the change of one cycle (end value minus start value). An
    /// autoreversing cycle ends where it began, so it accumulates nothing.
    @exclusivity(unchecked) open var isCumulative = false

    /// Turns the interpolated numbers into a transform (see
    /// `CAValueFunction`); nil animates the property's own values.
    @exclusivity(unchecked) open var valueFunction: CAValueFunction?

    /// A layer with Core Animation's defaults for this class.
    public required init() {
        super.init()
    }

    /// An animation of the property at `path` (`animationWithKeyPath:`).
    public convenience init(keyPath path: String?) {
        self.init()
        keyPath = path
    }

    override func copyState(from other: CAAnimation) {
        super.copyState(from: other)
        guard let other = other as? CAPropertyAnimation else { return }
        keyPath = other.keyPath
        isAdditive = other.isAdditive
        isCumulative = other.isCumulative
        valueFunction = other.valueFunction
    }

    /// The value the animated property shows at time `t`, or nil when the
    /// animation has no effect there. This is the call the layer makes.
    ///
    /// - Parameters:
    ///   - t: a time of the layer the animation is attached to (its local
    ///     time; for a layer with default timing under a root with default
    ///     timing, the scene's media time). Sampling at `t` is Core
    ///     Animation's presentation layer at `t` with the animation still
    ///     attached: fills before and after the active time apply, whatever
    ///     `isRemovedOnCompletion` says.
    ///   - modelValue: the property's model value, read through `keyPath`
    ///     (for `transform.rotation.z`, the model transform's z rotation, a
    ///     number). It is the start or end of a relative animation (only
    ///     `toValue`, say), the base of an additive one, and the template for
    ///     the type of the result.
    /// - Returns: nil when the animation has no effect: outside its active
    ///   time without a fill, with invalid timing, or when a value it needs
    ///   is missing or of the wrong type (a `CGPoint` against a number, arrays
    ///   of different lengths, no model value for a relative animation,
    ///   values that cannot be interpolated). Otherwise a value of the
    ///   property's type: numbers as the model value's type (`Double`,
    ///   `Float`, `NSNumber`, else `CGFloat`), `CGPoint`, `CGSize`, `CGRect`,
    ///   `CGColor`, `CATransform3D` (always, with a value function),
    ///   `CGAffineTransform`, or an array of these.
    open func presentationValue(atTime t: CFTimeInterval, modelValue: Any?) -> Any? {
        animatedPresentationValue(atTime: t, modelValue: modelValue).map { boxed($0, modelValue: modelValue) }
    }

    /// `value` boxed as `presentationValue` answers it: numbers take the
    /// type of the model value, else of the animation's own values.
    func boxed(_ value: AnimatableValue, modelValue: Any?) -> Any {
        value.toAny(like: modelValue ?? templateValue)
    }

    /// Whether `boxed` would give `value` as a `Float` (a number, where the
    /// model value or the animation's values are `Float`s): a writer that
    /// skips the box must round it through `Float` as the box does.
    func boxesAsFloat(_ value: AnimatableValue, modelValue: Any?) -> Bool {
        guard case .vector(.number, _) = value else { return false }
        if let modelValue { return type(of: modelValue) == Float.self }
        return templateIsFloat
    }

    /// Whether `templateValue` is a `Float`.
    var templateIsFloat: Bool { templateValue.map { type(of: $0) == Float.self } ?? false }

    /// `presentationValue(atTime:modelValue:)` before it is boxed: the
    /// value as the animation computes it.
    func animatedPresentationValue(atTime t: CFTimeInterval, modelValue: Any?) -> AnimatableValue? {
        guard let sample = timingSample(atTime: t) else { return nil }
        // The usual animation: its own values, nothing made of the model's.
        if modelValue == nil, valueFunction == nil, !isCumulative, !isAdditive {
            return animatedValue(at: sample, base: nil)
        }
        let model = modelValue.map(AnimatableValue.init)
        // Relative values start from the model value, except through a value
        // function, whose inputs are numbers while the model is a transform.
        let base = valueFunction.map(\.identityInput) ?? model
        guard var value = animatedValue(at: sample, base: base) else { return nil }

        if isCumulative && sample.iteration > 0 && !autoreverses {
            guard let (start, end) = cycleEndpoints(base: base),
                  let step = end.difference(from: start)?.repeated(sample.iteration),
                  let accumulated = step.combined(onto: value)
            else { return nil }
            value = accumulated
        }
        if let valueFunction {
            guard let transform = valueFunction.transform(for: value) else { return nil }
            value = .transform(transform)
        }
        if isAdditive {
            guard let model, let sum = value.combined(onto: model) else { return nil }
            value = sum
        }
        return value
    }

    // MARK: Subclass hooks

    /// The value within one cycle for `sample`, before accumulation, the
    /// value function and addition. A bare property animation has no values.
    func animatedValue(at sample: AnimationTimingSample, base: AnimatableValue?) -> AnimatableValue? {
        nil
    }

    /// The values at the start and end of one cycle, whose difference a
    /// cumulative animation adds per cycle.
    func cycleEndpoints(base: AnimatableValue?) -> (AnimatableValue, AnimatableValue)? {
        nil
    }

    /// An animation value whose Swift type the result takes when there is no
    /// model value.
    var templateValue: Any? { nil }

    /// Whether the value depends on the model value (relative, additive or
    /// cumulative values, a value function), so that the caller must read
    /// it; when false, `presentationValue(atTime:modelValue:)` may be given
    /// nil and answers in its own values' type. Reading a model value costs
    /// a boxed read (a transform decomposed for `transform.rotation.z`),
    /// per animation per layer per frame.
    var needsModelValue: Bool { true }
}

/// A key path split at its first dot: `transform.rotation.z` is the
/// layer's `transform` and, within it, `rotation.z`.
struct SplitKeyPath: Sendable {
    /// The layer's key.
    let head: String
    /// The path within its value; nil for the key alone.
    let rest: Substring?
    /// `rest` as a component of a transform (`rotation.z`), parsed once,
    /// where the key is one of the layer's transforms; nil elsewhere.
    let transformComponent: TransformKeyPath?
    /// `rest` as the `x` or `y` of the layer's `position` or `anchorPoint`
    /// (a Lottie layer's split position animates `position.x` and
    /// `position.y`), parsed once; nil elsewhere.
    let pointComponent: PointKeyPath?

    init(_ keyPath: String) {
        if let dot = keyPath.firstIndex(of: ".") {
            head = String(keyPath[..<dot])
            let rest = keyPath[keyPath.index(after: dot)...]
            self.rest = rest
            transformComponent = head == "transform" || head == "sublayerTransform" ? TransformKeyPath(rawValue: String(rest)) : nil
            pointComponent = PointKeyPath(head: head, rest: rest)
        } else {
            head = keyPath
            rest = nil
            transformComponent = nil
            pointComponent = nil
        }
    }
}

/// One coordinate of a layer's `position` or `anchorPoint`, as a key path
/// names it (`position.x`).
enum PointKeyPath: Sendable {
    case positionX, positionY, anchorPointX, anchorPointY

    /// The coordinate `head.rest` names; nil for any other key path.
    init?(head: String, rest: Substring) {
        switch (head, rest) {
        case ("position", "x"): self = .positionX
        case ("position", "y"): self = .positionY
        case ("anchorPoint", "x"): self = .anchorPointX
        case ("anchorPoint", "y"): self = .anchorPointY
        default: return nil
        }
    }

    /// The layer's key it is part of.
    var key: String {
        switch self {
        case .positionX, .positionY: "position"
        case .anchorPointX, .anchorPointY: "anchorPoint"
        }
    }
}
