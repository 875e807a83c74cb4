import Foundation

/// An animation from one value to another (`CABasicAnimation`).
///
/// At most two of `fromValue`, `toValue` and `byValue` are meant to be set;
/// the pair decides the start and end, with the model value standing in for a
/// missing end, as Core Animation documents:
///
/// | set | from | to |
/// |---|---|---|
/// | from, to | fromValue | toValue |
/// | from, by | fromValue | fromValue + byValue |
/// | by, to | toValue - byValue | toValue |
/// | from | fromValue | model value |
/// | to | model value | toValue |
/// | by | model value | model value + byValue |
/// | none | model value | model value |
///
/// (Core Animation's "none" case moves from the previous presentation value
/// to the model value; a sampled scene has no previous value, so it shows
/// the model value.) With all three set, `byValue` is ignored. "+" is the
/// addition of `CAPropertyAnimation.isAdditive`: for transforms,
/// `CATransform3DConcat(byValue, fromValue)`.
open class CABasicAnimation: CAPropertyAnimation {
    /// The value at the start; nil takes the layer's own value.
    @exclusivity(unchecked) open var fromValue: Any?
    /// The value at the end; nil takes the layer's own value.
    @exclusivity(unchecked) open var toValue: Any?
    /// The change over the animation, when `fromValue` or `toValue` is nil.
    @exclusivity(unchecked) open var byValue: Any?

    override func copyState(from other: CAAnimation) {
        super.copyState(from: other)
        guard let other = other as? CABasicAnimation else { return }
        fromValue = other.fromValue
        toValue = other.toValue
        byValue = other.byValue
    }

    /// The start and end values given the model (or value-function) base, or
    /// nil when a needed value is missing or they do not fit together.
    func endpoints(base: AnimatableValue?) -> (from: AnimatableValue, to: AnimatableValue)? {
        let from = fromValue.map(AnimatableValue.init)
        let to = toValue.map(AnimatableValue.init)
        let by = byValue.map(AnimatableValue.init)
        let pair: (AnimatableValue?, AnimatableValue?)
        switch (from, to, by) {
        case let (f?, t?, _): pair = (f, t)
        case let (f?, nil, b?): pair = (f, b.combined(onto: f))
        case let (nil, t?, b?): pair = (t.removing(b), t)
        case let (f?, nil, nil): pair = (f, base)
        case let (nil, t?, nil): pair = (base, t)
        case let (nil, nil, b?): pair = (base, base.flatMap { b.combined(onto: $0) })
        case (nil, nil, nil): pair = (base, base)
        }
        guard let start = pair.0, let end = pair.1, start.canAnimate(to: end) else { return nil }
        return (start, end)
    }

    override func animatedValue(at sample: AnimationTimingSample, base: AnimatableValue?) -> AnimatableValue? {
        guard let (from, to) = endpoints(base: base) else { return nil }
        return from.interpolated(to: to, fraction: easedFraction(sample))
    }

    override func cycleEndpoints(base: AnimatableValue?) -> (AnimatableValue, AnimatableValue)? {
        endpoints(base: base).map { ($0.from, $0.to) }
    }

    override var templateValue: Any? { fromValue ?? toValue ?? byValue }

    /// Adds to the timing checks: the values that are set must be of one
    /// interpolable type (arrays of one length).
    open override func validate() throws(AnimationValidationError) {
        try super.validate()
        let named = [("fromValue", fromValue), ("toValue", toValue), ("byValue", byValue)]
            .compactMap { name, value in value.map { (name, AnimatableValue($0)) } }
        for (name, value) in named where !value.isInterpolable {
            throw AnimationValidationError(property: name, problem: "a \(value.typeName) cannot be interpolated")
        }
        guard let (firstName, first) = named.first else { return }
        for (name, value) in named.dropFirst() where !first.canAnimate(to: value) {
            throw AnimationValidationError(
                property: name, problem: "a \(value.typeName) does not match \(firstName), a \(first.typeName)")
        }
    }
}
