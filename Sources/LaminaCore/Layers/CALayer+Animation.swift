import Foundation

/// Attached animations and the presentation copy they produce.
///
/// Lamina samples animations rather than running them on a clock:
/// `presentation(atTime:)` copies the layer tree and writes into the copy
/// what each animation shows at that time. Every layer of the tree is
/// sampled at the same time (layers have no timing of their own here).
extension CALayer {

    /// Attaches a copy of `animation` (later changes to `animation` do not
    /// reach the layer, as in Core Animation). An animation already attached
    /// under `key` is removed first; the new one applies after all others.
    /// A nil key attaches it without a name: it is not in `animationKeys()`.
    public func add(_ animation: CAAnimation, forKey key: String?) {
        let copy = animation.copy() as? CAAnimation ?? animation
        if copy !== animation { prepareForSampling(copy) }
        if let key { animationEntries.removeAll { $0.key == key } }
        animationEntries.append((key, copy))
    }

    /// Readies `animation` (a copy this layer owns, a group's children
    /// included) for the frames that sample it: each keyframe animation's
    /// values laid out, and the row of this layer's property table each
    /// property animation writes found (`CAPropertyAnimation.attachedKey`).
    private func prepareForSampling(_ animation: CAAnimation) {
        if let group = animation as? CAAnimationGroup {
            for child in group.animations ?? [] { prepareForSampling(child) }
            return
        }
        (animation as? CAKeyframeAnimation)?.makeTrackForAttaching()
        guard let property = animation as? CAPropertyAnimation, property.isLaminaClass,
              let split = property.splitKeyPath, split.rest == nil
        else { return }
        property.attachedKey = type(of: self).keyTable[split.head]
    }

    /// The animation attached under `key`, or nil.
    public func animation(forKey key: String) -> CAAnimation? {
        animationEntries.first { $0.key == key }?.animation
    }

    /// The keys of the attached animations, in the order they apply; nil
    /// when there are none.
    public func animationKeys() -> [String]? {
        let keys = animationEntries.compactMap(\.key)
        return keys.isEmpty ? nil : keys
    }

    /// Detaches the animation attached under `key`.
    public func removeAnimation(forKey key: String) {
        animationEntries.removeAll { $0.key == key }
    }

    /// Detaches every animation.
    public func removeAllAnimations() {
        animationEntries.removeAll()
    }

    /// The presentation tree at time `t`: a copy of this layer and everything
    /// below it (sublayers and masks, each made with `init(layer:)`), with
    /// the animations applied.
    ///
    /// For each layer, each attached `CAPropertyAnimation` in turn (the order
    /// of `animationKeys()`; a `CAAnimationGroup`'s children in their order,
    /// at the group's local time) is asked for
    /// `presentationValue(atTime: t, modelValue:)`, the model value being the
    /// copy's current value at the animation's `keyPath` (so an animation
    /// builds on the ones before it); the result is written to the copy with
    /// `setValue(_:forKeyPath:)`. An animation without a key path, without an
    /// effect at `t`, or whose value does not fit the property changes
    /// nothing. A write of a key for which `needsDisplay(forKey:)` is true
    /// marks the copy for display, so that a renderer calling
    /// `displayIfNeededRecursively()` on the copy redraws it with the
    /// animated values (call it on the model tree first for content that does
    /// not depend on animations: copies share the model's `contents`).
    ///
    /// The copy's layers answer `model()` with the layer they copy.
    public func presentation(atTime t: CFTimeInterval) -> Self {
        let copy = type(of: self).init(layer: self)
        copy.modelLayerReference = model()
        for sublayer in sublayerStorage {
            copy.insert(sublayer.presentation(atTime: t), at: Int.max)
        }
        if let mask = maskStorage {
            copy.setMask(mask.presentation(atTime: t))
        }
        for entry in animationEntries {
            entry.animation.forEachPropertyAnimation(atTime: t) { animation, time in apply(animation, atTime: time, to: copy) }
        }
        return copy
    }

    /// This layer alone at time `t`: a copy with its own animations applied
    /// (as `presentation(atTime:)` makes each layer of its tree), without
    /// sublayers or mask; this layer itself when it has no animations. A
    /// renderer that walks the model tree reads each layer's values here
    /// (positions against its presented superlayer), and copies only what
    /// animates. Nil when an animation reaches through to the mask or the
    /// sublayers (`mask.opacity`): that layer needs `presentation(atTime:)`.
    package func presentationAlone(atTime t: CFTimeInterval) -> CALayer? {
        var none: [CALayer] = []
        return presentationAlone(atTime: t, reusing: &none)
    }

    /// `presentationAlone(atTime:)`, made in one of `spares` where one
    /// fits: a copy of this layer's class that nothing else holds any more
    /// (an earlier layer's copy, done with), taken out of the list. A
    /// renderer walking a tree copies each animated layer every frame, and
    /// making and freeing those objects cost more than filling one again.
    /// Only copies that `canBeRefilled` are filled again (a subclass's
    /// `init(layer:)` may do more than copy properties).
    package func presentationAlone(atTime t: CFTimeInterval, reusing spares: inout [CALayer]) -> CALayer? {
        presentationAlone(atTime: t, reusing: &spares, hidden: nil)
    }

    /// `presentationAlone(atTime:reusing:)` with the copy's `isHidden`
    /// already known (`isHiddenWhenPresented`): the animations of `hidden`
    /// are not played again.
    package func presentationAlone(atTime t: CFTimeInterval, reusing spares: inout [CALayer], hidden: Bool?) -> CALayer? {
        guard !animationEntries.isEmpty else { return self }
        let copy = reusedCopy(from: &spares) ?? type(of: self).init(layer: self)
        copy.modelLayerReference = model()
        // One pass, no list of the animations made: one that reaches into
        // the subtree (rare) gives the copy up when it comes.
        var reachesSubtree = false
        let knownHidden = animatesHidden ? hidden : nil
        // By index: an entry copied out retained its key and animation.
        for i in animationEntries.indices where !reachesSubtree {
            animationEntries[i].animation.forEachPropertyAnimation(atTime: t) { animation, time in
                guard !reachesSubtree else { return }
                if animation.reachesSubtree {
                    reachesSubtree = true
                    return
                }
                if knownHidden != nil && animation.writesHidden { return }
                apply(animation, atTime: time, to: copy)
            }
        }
        if let knownHidden { copy.isHidden = knownHidden }
        return reachesSubtree ? nil : copy
    }

    /// Whether this layer is hidden in its presentation at `t`, found
    /// without copying it: its model's `isHidden` with its animations of
    /// `hidden` applied as `presentationAlone(atTime:)` applies them (to
    /// `scratch`, a plain layer of no other use, which only `isHidden` of is
    /// written), none of its other animations played. Nil for a class of an
    /// app's own (its `isHidden` may be its own). A renderer reads nothing
    /// else of a hidden layer, and an animation's layers spend much of it
    /// hidden: a Lottie layer outside its in and out points is.
    ///
    /// Only animations of `hidden` write `hidden`, so applying them alone,
    /// in order, ends where applying every animation in order ends.
    package func isHiddenWhenPresented(atTime t: CFTimeInterval, scratch: CALayer) -> Bool? {
        guard isLaminaClassInstance else { return nil }
        guard animatesHidden else { return isHidden }
        var hidden = isHidden
        for i in animationEntries.indices {
            animationEntries[i].animation.forEachPropertyAnimation(atTime: t) { animation, time in
                guard animation.writesHidden else { return }
                // Discrete keyframes of Bools, the usual case, read unboxed.
                if let keyframes = animation as? CAKeyframeAnimation, let shown = keyframes.discreteBool(atTime: time),
                   animation.splitKeyPath?.rest == nil {
                    if let shown { hidden = shown }
                    return
                }
                scratch.isHidden = hidden
                apply(animation, atTime: time, to: scratch)
                hidden = scratch.isHidden
            }
        }
        return hidden
    }

    /// Whether the layer sets none of shadow, `filters`,
    /// `backgroundFilters` and `compositingFilter`, known from one look at
    /// its storage (a snapshot asks it of every layer it draws; most set
    /// none). False where not known that way: a class of the app's own may
    /// answer those properties otherwise.
    package var setsNoEffects: Bool {
        isLaminaClassInstance && properties.shadowOpacity <= 0 && properties.filters == nil
            && properties.backgroundFilters == nil && !properties.hasCompositingFilter
    }

    /// Whether the layer has no `contents`, known from one look at its
    /// storage, as `setsNoEffects` is (most layers a snapshot reads have
    /// none). False where not known that way.
    package var storesNoContents: Bool {
        isLaminaClassInstance && !properties.hasContents
    }

    /// Whether a copy of this layer can be filled again as another's
    /// presentation copy: Lamina's own `CALayer` and `CAShapeLayer`, whose
    /// state is exactly what `init(layer:)` copies.
    package var canBeRefilled: Bool {
        let type = type(of: self)
        return type == CALayer.self || type == CAShapeLayer.self
    }

    /// A spare of exactly this layer's class, refilled as `init(layer:)`
    /// fills a new copy of it; nil when none fits.
    private func reusedCopy(from spares: inout [CALayer]) -> CALayer? {
        let type = type(of: self)
        guard canBeRefilled, let index = spares.lastIndex(where: { Swift.type(of: $0) == type }) else { return nil }
        var spare = spares.remove(at: index)
        // Held elsewhere (a caller kept it), or given a tree of its own: left alone.
        guard isKnownUniquelyReferenced(&spare), spare.sublayerStorage.isEmpty, spare.maskStorage == nil,
              spare.superlayerStorage == nil, spare.animationEntries.isEmpty
        else { return nil }
        spare.properties = properties
        if type != CALayer.self {
            for copy in type.keyTable.subclassCopiers { copy(spare, self) }
        }
        spare.customValues = customValues
        spare.invertsMask = invertsMask
        spare.needsDisplayFlag = false
        spare.delegate = nil
        return spare
    }

    /// The value `animation`, sampled at `time`, shows written to `copy`
    /// (see `presentation(atTime:)`): each animation builds on the ones
    /// before it.
    private func apply(_ animation: CAPropertyAnimation, atTime time: CFTimeInterval, to copy: CALayer) {
        guard let split = animation.splitKeyPath, let keyPath = animation.keyPath else { return }
        let model = animation.needsModelValue ? copy.value(forKeyPath: keyPath) : nil
        if animation.attachedKey != nil || split.transformComponent != nil || split.pointComponent != nil {
            // Typed, where the value has the property's own shape (or is a
            // number for a transform's component or a point's coordinate),
            // as the boxed path would write it: a number the animation's
            // values (or the model) give as Float is boxed as a Float there,
            // so it is rounded through Float here (Lottie's opacities are).
            guard var value = animation.animatedPresentationValue(atTime: time, modelValue: model) else { return }
            if animation.boxesAsFloat(value, modelValue: model), let number = value.asNumber { value = .number(Double(Float(number))) }
            if copy.writeTyped(value, as: animation.attachedKey, at: split) { return }
            try? copy.writeValue(animation.boxed(value, modelValue: model), at: split, keyPath: keyPath)
            return
        }
        guard let value = animation.presentationValue(atTime: time, modelValue: model) else { return }
        // As `setValue(_:forKeyPath:)` writes it (a value the key cannot
        // take is dropped), with the path split once per animation.
        try? copy.writeValue(value, at: split, keyPath: keyPath)
    }

    /// Writes an animation's value unboxed: whole, to the property its key
    /// names (`attachedKey`), or a number to a transform's component or a
    /// point's coordinate. False, having written nothing, where the value
    /// has another shape.
    private func writeTyped(_ value: AnimatableValue, as key: LayerKey?, at split: SplitKeyPath) -> Bool {
        guard let key else {
            guard case .vector(.number, let v) = value else { return false }
            return writeNumber(v[0], at: split)
        }
        guard key.writeAnimated(self, value) else { return false }
        if type(of: self).needsDisplay(forKey: split.head) { setNeedsDisplay() }
        return true
    }

    /// Whether this layer, its mask or any layer below it has an animation
    /// attached: without one, the presentation tree at any time shows the
    /// model's values, and a renderer may read the model itself instead of
    /// copying it (LayerRenderer does).
    package var treeHasAnimations: Bool {
        var pending: [CALayer] = [self]
        while let layer = pending.popLast() {
            if !layer.animationEntries.isEmpty { return true }
            pending += layer.sublayerStorage
            if let mask = layer.maskStorage { pending.append(mask) }
        }
        return false
    }

    /// The presentation tree at time 0 (Core Animation returns the copy
    /// currently on screen; a sampled model has no "now", and 0 is the
    /// scene format's default time). Never nil.
    public func presentation() -> Self? {
        presentation(atTime: 0)
    }

    /// For a presentation copy, the layer it was copied from; for any other
    /// layer, the layer itself.
    public func model() -> Self {
        modelLayerReference as? Self ?? self
    }
}
