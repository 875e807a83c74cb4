import Foundation

/// Hit testing, as Core Animation documents it.
extension CALayer {

    /// `hitTest(_:)`: the farthest descendant of this layer (or the layer
    /// itself) that contains `point`, or nil.
    ///
    /// `point` is in the own space of this layer's nearest ancestor that is
    /// not a `CATransformLayer` (its superlayer's, in the usual case; for a
    /// root layer, the space its `position` is given in). The rules:
    ///
    /// - a hidden layer and everything below it is skipped;
    /// - an ordinary layer is hit only when it `contains(_:)` the point, and
    ///   only then are its sublayers searched: sublayers that stick out of
    ///   their superlayer's bounds are not hit there;
    /// - sublayers are searched front to back, last sublayer first; neither
    ///   `zPosition` nor depth changes that order;
    /// - a transform layer has no area: it passes the point to its
    ///   sublayers, with its own geometry applied, and is never the result;
    /// - a layer that faces away is still hit, whatever `isDoubleSided` says;
    /// - a point whose line of sight misses the layer's plane in front of the
    ///   eye (behind a perspective, or the layer seen edge-on) is a miss;
    /// - masks, `masksToBounds` and `opacity` play no part;
    /// - `contains(_:)` decides whether a layer contains a point: `bounds`,
    ///   for `CAShapeLayer` too (as in Core Animation), unless a subclass
    ///   overrides it.
    ///
    /// Overrides of `hitTest(_:)` and `contains(_:)` in subclasses are called
    /// for each sublayer, as in Core Animation.
    func defaultHitTest(_ point: CGPoint) -> CALayer? {
        if isHidden { return nil }
        guard flattensSublayers else {
            for sublayer in sublayerStorage.reversed() {
                if let hit = sublayer.hitTest(point) { return hit }
            }
            return nil
        }
        guard let local = localPoint(fromHitTestSpace: point), contains(local) else { return nil }
        for sublayer in sublayerStorage.reversed() {
            if let hit = sublayer.hitTest(local) { return hit }
        }
        return self
    }

    /// Maps a point of the hit-test space (the own space of the nearest
    /// ancestor that flattens) into this layer's own space, or nil when its
    /// line of sight does not meet the layer's plane in front of the eye.
    func localPoint(fromHitTestSpace point: CGPoint) -> CGPoint? {
        var toPlane = transformToSuperlayer
        var node = superlayerStorage
        while let current = node, !current.flattensSublayers {
            toPlane = toPlane.concatenating(current.transformToSuperlayer)
            node = current.superlayerStorage
        }
        guard let inverse = PlaneHomography(toPlane).inverted() else { return nil }
        let h = inverse.applyHomogeneous(to: point)
        guard h.w > 0 else { return nil }
        let local = CGPoint(x: h.x / h.w, y: h.y / h.w)
        return local.x.isFinite && local.y.isFinite ? local : nil
    }
}
