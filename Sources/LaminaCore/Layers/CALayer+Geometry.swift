import Foundation

/// Frame, affine transform and the matrices between a layer and its
/// ancestors. The math lives in `LayerGeometry`; see there for the
/// conventions.
extension CALayer {

    /// The layer's geometric properties as one value.
    package var geometry: LayerGeometry {
        LayerGeometry(
            bounds: bounds, position: position, zPosition: zPosition,
            anchorPoint: anchorPoint, anchorPointZ: anchorPointZ,
            transform: transform, sublayerTransform: sublayerTransform,
            isGeometryFlipped: isGeometryFlipped)
    }

    /// `geometry.placementTransform`, without reading the sublayer
    /// transform and the flip, which play no part in it: every layer of
    /// every frame drawn is placed.
    package var placementTransform: CATransform3D {
        guard isLaminaClassInstance else {
            return LayerGeometry.placementTransform(bounds: bounds, position: position, zPosition: zPosition,
                                                    anchorPoint: anchorPoint, anchorPointZ: anchorPointZ, transform: transform)
        }
        // Read from the storage, field by field, not through six getters.
        return LayerGeometry.placementTransform(bounds: properties.bounds, position: properties.position,
                                                zPosition: properties.zPosition, anchorPoint: properties.anchorPoint,
                                                anchorPointZ: properties.anchorPointZ, transform: properties.transform)
    }

    /// `LayerGeometry.sublayerSpace(of: geometry)`: the layer's sublayer
    /// space, nil where it is the bounds' own (no flip, no sublayer
    /// transform, most layers), read without the rest of the geometry.
    package var sublayerSpace: CATransform3D? {
        // Most layers: neither, and nothing else read.
        if isLaminaClassInstance, !properties.isGeometryFlipped, properties.sublayerTransformIsIdentity { return nil }
        let flipped = isGeometryFlipped, sublayers = sublayerTransform
        guard flipped || !sublayers.isIdentity else { return nil }
        return LayerGeometry.sublayerSpace(bounds: bounds, anchorPoint: anchorPoint, anchorPointZ: anchorPointZ,
                                           sublayerTransform: sublayers, isGeometryFlipped: flipped)
    }

    /// Sets `position` and `bounds.size` (never `bounds.origin`) for
    /// `frame`'s setter. With a non-identity transform the result is defined
    /// through the transform's affine part, as `LayerGeometry.setFrame(_:)`
    /// explains.
    func applyFrame(_ frame: CGRect) {
        var g = geometry
        g.setFrame(frame)
        if bounds.size != g.bounds.size { bounds.size = g.bounds.size }
        position = g.position
    }

    /// The transform as a 2D affine transform (its `m11 m12 m21 m22 m41 m42`).
    public func affineTransform() -> CGAffineTransform {
        transform.affineTransform
    }

    /// Sets `transform` to the 3D equivalent of `m`.
    public func setAffineTransform(_ m: CGAffineTransform) {
        transform = CATransform3D(m)
    }

    /// Whether the layer flattens its sublayers into its own plane: true for
    /// every layer except a `CATransformLayer`, whose sublayers keep their 3D
    /// positions and join the 3D scene of the nearest flattening ancestor.
    public var flattensSublayers: Bool { !(self is CATransformLayer) }

    /// Whether this layer is its superlayer's mask.
    public var isMask: Bool { superlayerStorage?.maskStorage === self }

    /// The 4x4 from this layer's own space to its superlayer's own space:
    /// `placementTransform`, then the superlayer's `sublayerSpaceTransform`
    /// (flip and `sublayerTransform` about its anchor point) unless this
    /// layer is the mask. For a layer without a superlayer it is the
    /// placement alone, into the space where its `position` is given.
    public var transformToSuperlayer: CATransform3D {
        LayerGeometry.transformToSuperlayer(of: geometry, in: superlayerStorage?.geometry, isMask: isMask)
    }

    /// The map from this layer's plane to `ancestor`'s plane, flattening at
    /// every flattening layer on the way (see `LayerGeometry`). With a nil
    /// `ancestor` the map goes to the space of the root layer's `position`
    /// (the space that `frame` and `hitTest(_:)` use at the root). Returns nil
    /// when `ancestor` is not this layer or one of its ancestors.
    package func projectiveTransform(to ancestor: CALayer?) -> PlaneHomography? {
        var flattened = PlaneHomography.identity
        var pending = CATransform3D.identity
        var layer = self
        while layer !== ancestor {
            pending = pending.concatenating(layer.transformToSuperlayer)
            guard let parent = layer.superlayerStorage else {
                if ancestor != nil { return nil }
                break
            }
            if parent.flattensSublayers {
                flattened = flattened.concatenating(PlaneHomography(pending))
                pending = .identity
            }
            layer = parent
        }
        return flattened.concatenating(PlaneHomography(pending))
    }

    /// The nearest ancestor (or the layer itself) that flattens, or nil
    /// when there is none up to the root. This is the plane that the points
    /// of `hitTest(_:)` and conversion meet in.
    var nearestFlatteningLayer: CALayer? {
        var node: CALayer? = self
        while let current = node, !current.flattensSublayers { node = current.superlayerStorage }
        return node
    }

    /// Whether the context that `display()` gives to `draw(in:)` is flipped
    /// so that y grows downward: true when an even number of layers from this
    /// one up to the root have `isGeometryFlipped` (the implicit container of
    /// an iOS root layer is flipped, so none flipped means y down). A
    /// renderer shows the content that `display()` draws so that the
    /// context's y axis matches the layer's own space.
    public func contentsAreFlipped() -> Bool {
        var flips = 0
        var node: CALayer? = self
        while let current = node {
            if current.isGeometryFlipped { flips += 1 }
            node = current.superlayerStorage
        }
        return flips % 2 == 0
    }
}
