import Foundation

/// The layer tree: sublayers, superlayer and mask.
///
/// A layer has at most one parent: the layer whose `sublayers` hold it, or
/// the layer whose `mask` it is (Core Animation reports both as
/// `superlayer`). Adding a layer anywhere first takes it from where it was,
/// so a layer moved from one parent to another, or from being a mask to
/// being a sublayer, leaves its old place.
///
/// The tree cannot get a cycle. Adding a layer to itself or to one of its own
/// descendants (as a sublayer, a replacement or a mask) changes nothing:
/// the call is a no-op, as Core Animation's non-throwing API cannot report
/// it. `canAdd(_:)` says beforehand whether an addition will happen, so that
/// callers that build trees from input can report the problem.
extension CALayer {

    /// The layer that holds this one as a sublayer or as its mask.
    public var superlayer: CALayer? { superlayerStorage }

    /// The setter of `sublayers`: removes the old sublayers and adds the new
    /// ones in order. Layers that cannot be added (this layer or one of its
    /// ancestors) and repeated entries are skipped.
    func replaceSublayers(with layers: [CALayer]) {
        for old in sublayerStorage { old.superlayerStorage = nil }
        sublayerStorage = []
        // Built aside and stored once: each write to a layer's property is
        // an exclusivity check, and a scene sets thousands of sublayers.
        var added: [CALayer] = []
        added.reserveCapacity(layers.count)
        for layer in layers {
            let parent = layer.superlayerStorage
            // With the old sublayers gone, a layer whose parent is this one
            // was added earlier in the list (a repeat), unless it is the
            // mask, which moves from being the mask to being a sublayer.
            if parent === self && layer !== maskStorage { continue }
            if adopt(layer) { added.append(layer) }
        }
        sublayerStorage = added
    }

    /// The setter of `mask`: takes the new mask from its old parent and makes
    /// this layer its superlayer. A layer that cannot be added (this layer
    /// or an ancestor) is ignored.
    func setMask(_ newMask: CALayer?) {
        if newMask === maskStorage { return }
        if let newMask, !canAdd(newMask) { return }
        newMask?.removeFromSuperlayer()
        maskStorage?.superlayerStorage = nil
        maskStorage = newMask
        newMask?.superlayerStorage = self
    }

    /// Whether `layer` may become a sublayer or the mask of this layer: false
    /// when it is this layer or one of its ancestors, as the tree would get a
    /// cycle.
    public func canAdd(_ layer: CALayer) -> Bool {
        var node: CALayer? = self
        while let current = node {
            if current === layer { return false }
            node = current.superlayerStorage
        }
        return true
    }

    /// Whether this layer is `layer` or lies below it.
    public func isDescendant(of layer: CALayer) -> Bool {
        var node: CALayer? = self
        while let current = node {
            if current === layer { return true }
            node = current.superlayerStorage
        }
        return false
    }

    /// Appends `layer` to the sublayers (frontmost), taking it from its old
    /// parent. A no-op when `canAdd(layer)` is false.
    public func addSublayer(_ layer: CALayer) {
        insert(layer, at: Int.max)
    }

    /// Inserts `layer` at `index` of the sublayers, taking it from its old
    /// parent; an index past the end appends. A no-op when `canAdd(layer)`
    /// is false.
    public func insertSublayer(_ layer: CALayer, at index: UInt32) {
        insert(layer, at: Int(index))
    }

    /// Inserts `layer` just below `sibling`; at the back when `sibling` is nil
    /// or not a sublayer of this layer.
    public func insertSublayer(_ layer: CALayer, below sibling: CALayer?) {
        guard canAdd(layer) else { return }
        if layer === sibling { return }
        layer.removeFromSuperlayer()
        let index = sibling.flatMap { s in sublayerStorage.firstIndex { $0 === s } } ?? 0
        insert(layer, at: index)
    }

    /// Inserts `layer` just above `sibling`; at the front when `sibling` is
    /// nil or not a sublayer of this layer.
    public func insertSublayer(_ layer: CALayer, above sibling: CALayer?) {
        guard canAdd(layer) else { return }
        if layer === sibling { return }
        layer.removeFromSuperlayer()
        let index = sibling.flatMap { s in sublayerStorage.firstIndex { $0 === s } }
            .map { $0 + 1 } ?? sublayerStorage.count
        insert(layer, at: index)
    }

    /// Puts `newLayer` where `oldLayer` was in the sublayers and removes
    /// `oldLayer`. Nothing happens when `oldLayer` is not a sublayer of this
    /// layer (Core Animation leaves that undefined) or when `newLayer` cannot
    /// be added.
    public func replaceSublayer(_ oldLayer: CALayer, with newLayer: CALayer) {
        guard oldLayer !== newLayer, oldLayer.superlayerStorage === self,
              sublayerStorage.contains(where: { $0 === oldLayer }),
              canAdd(newLayer) else { return }
        newLayer.removeFromSuperlayer()
        guard let index = sublayerStorage.firstIndex(where: { $0 === oldLayer }) else { return }
        sublayerStorage[index] = newLayer
        oldLayer.superlayerStorage = nil
        newLayer.superlayerStorage = self
    }

    /// Takes the layer out of its superlayer's sublayers, or clears the
    /// superlayer's `mask` if it is the mask.
    public func removeFromSuperlayer() {
        guard let parent = superlayerStorage else { return }
        if parent.maskStorage === self {
            parent.maskStorage = nil
        } else {
            parent.sublayerStorage.removeAll { $0 === self }
        }
        superlayerStorage = nil
    }

    /// The topmost ancestor (the layer itself when it has no superlayer).
    var rootLayer: CALayer {
        var node = self
        while let parent = node.superlayerStorage { node = parent }
        return node
    }

    /// Inserts after the checks, clamping the index (a negative one appends).
    /// Returns whether it did.
    @discardableResult
    func insert(_ layer: CALayer, at index: Int) -> Bool {
        guard adopt(layer) else { return false }
        let clamped = index < 0 ? sublayerStorage.count : min(index, sublayerStorage.count)
        sublayerStorage.insert(layer, at: clamped)
        return true
    }

    /// Takes `layer` from where it was and makes this layer its parent, for
    /// the caller to put in its sublayers; false (nothing changed) when it
    /// cannot be added.
    private func adopt(_ layer: CALayer) -> Bool {
        guard canAdd(layer) else { return false }
        layer.removeFromSuperlayer()
        layer.superlayerStorage = self
        return true
    }
}
