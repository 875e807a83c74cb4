import Foundation

/// Converting points and rectangles between the coordinate spaces of layers.
///
/// Two layers see a point in the same place when they show it at the same
/// place of a common plane: the plane of their nearest common ancestor that
/// flattens (transform layers are skipped, as they have no plane of their
/// own). Each layer's plane maps to that plane by a `PlaneHomography`
/// (`projectiveTransform(to:)`), so a conversion is one map there and the
/// inverse of the other back. Through perspective this finds the point of the
/// other layer's plane that lies on the same line of sight.
///
/// A nil layer stands for the space of the root layer's `position`. Layers
/// of different trees meet in their roots' position spaces, as if the roots
/// shared one superlayer. A point that has no image (the target layer is
/// seen exactly edge-on) converts to a point with NaN coordinates.
extension CALayer {

    /// Converts `point` from `layer`'s own space to this layer's own space.
    public func convert(_ point: CGPoint, from layer: CALayer?) -> CGPoint {
        guard let map = CALayer.conversion(from: layer, to: self) else {
            return CGPoint(x: CGFloat.nan, y: CGFloat.nan)
        }
        return map.apply(to: point)
    }

    /// Converts `point` from this layer's own space to `layer`'s own space.
    public func convert(_ point: CGPoint, to layer: CALayer?) -> CGPoint {
        guard let map = CALayer.conversion(from: self, to: layer) else {
            return CGPoint(x: CGFloat.nan, y: CGFloat.nan)
        }
        return map.apply(to: point)
    }

    /// Converts `rect` from `layer`'s own space to this layer's: the bounding
    /// box of its four converted corners, or `CGRect.null` when a corner has
    /// no image.
    public func convert(_ rect: CGRect, from layer: CALayer?) -> CGRect {
        CALayer.boundingBox(of: rect, through: CALayer.conversion(from: layer, to: self))
    }

    /// Converts `rect` from this layer's own space to `layer`'s: the bounding
    /// box of its four converted corners, or `CGRect.null` when a corner has
    /// no image.
    public func convert(_ rect: CGRect, to layer: CALayer?) -> CGRect {
        CALayer.boundingBox(of: rect, through: CALayer.conversion(from: self, to: layer))
    }

    /// The map from `source`'s own space to `target`'s own space (nil stands
    /// for the root position space), or nil when it does not exist.
    static func conversion(from source: CALayer?, to target: CALayer?) -> PlaneHomography? {
        if source === target { return .identity }
        let meeting = meetingLayer(source, target)
        let forward = source.map { $0.projectiveTransform(to: meeting) } ?? .identity
        let backward = target.map { $0.projectiveTransform(to: meeting) } ?? .identity
        guard let forward, let inverse = backward?.inverted() else { return nil }
        return forward.concatenating(inverse)
    }

    /// The nearest common ancestor of `a` and `b` that flattens, or nil for
    /// the root position space.
    private static func meetingLayer(_ a: CALayer?, _ b: CALayer?) -> CALayer? {
        guard let a, let b, a.rootLayer === b.rootLayer else { return nil }
        var ancestorsOfA = Set<ObjectIdentifier>()
        var node: CALayer? = a
        while let current = node {
            ancestorsOfA.insert(ObjectIdentifier(current))
            node = current.superlayerStorage
        }
        node = b
        while let current = node, !ancestorsOfA.contains(ObjectIdentifier(current)) {
            node = current.superlayerStorage
        }
        return node?.nearestFlatteningLayer
    }

    private static func boundingBox(of rect: CGRect, through map: PlaneHomography?) -> CGRect {
        guard let map, !rect.isNull else { return .null }
        let corners = [
            CGPoint(x: rect.minX, y: rect.minY), CGPoint(x: rect.maxX, y: rect.minY),
            CGPoint(x: rect.minX, y: rect.maxY), CGPoint(x: rect.maxX, y: rect.maxY),
        ].map { map.apply(to: $0) }
        guard corners.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return .null }
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let minX = xs.min() ?? 0, minY = ys.min() ?? 0
        return CGRect(x: minX, y: minY, width: (xs.max() ?? 0) - minX, height: (ys.max() ?? 0) - minY)
    }
}
