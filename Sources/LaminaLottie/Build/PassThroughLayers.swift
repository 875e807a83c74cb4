import Foundation
import LaminaCore

/// Takes out of a built tree the layers that change nothing about how
/// their sublayers draw, putting those sublayers in their place.
///
/// The mapping builds a layer for each part of a Lottie layer as lottie-ios
/// does (its transform, its content with the content's opacity, each shape
/// group), and many of those end up as plain layers with nothing to do: a
/// group whose transform is the identity, a content layer at full opacity
/// with no effects. Each is still a layer that every frame reads, places and
/// plans: taking them out leaves TwitterHeartButton 88 layers of 106,
/// TypeFace/S 136 of 179.
///
/// A layer goes when drawing its sublayers under its superlayer directly
/// draws the same picture:
/// - it is a plain `CALayer` with no animations, so it stays as it is at
///   every time;
/// - it places its sublayers where its superlayer would (at the origin,
///   no size, no transform, sublayer transform or flip) and draws nothing
///   itself (no contents, background, border, shadow, filters, blend
///   mode), clips and masks nothing, and is opaque and shown;
/// - it has no name: the render server's templates find layers by name
///   (`Template.layers(named:in:)`), and a named one may be changed later;
/// - its superlayer is a plain `CALayer` or `CAShapeLayer` with no
///   sublayer transform, then or animated: such a layer flattens its
///   sublayers into its own plane as the removed layer did (a
///   `CATransformLayer` would not), and places them as it placed the
///   removed one;
/// - none of its sublayers has a `zPosition`, which would order it among
///   its new siblings instead of its old ones.
///
/// A mask is never removed, but the layers in one are looked at as any
/// other.
enum PassThroughLayers {
    /// Removes, bottom up, every pass-through layer in the tree under
    /// `root` (the root stays).
    static func remove(under root: CALayer) {
        if let mask = root.mask { remove(under: mask) }
        guard let sublayers = root.sublayers, !sublayers.isEmpty else { return }
        for sublayer in sublayers { remove(under: sublayer) }
        guard keepsPlacement(root) else { return }
        guard sublayers.contains(where: isPassThrough) else { return }
        // Each sublayer is taken from the pass-through layer it was in.
        root.sublayers = sublayers.flatMap { isPassThrough($0) ? $0.sublayers ?? [] : [$0] }
    }

    /// Whether `superlayer` draws a sublayer's sublayers, moved up to it,
    /// as the sublayer did: it flattens them as any layer but a transform
    /// layer does, and its sublayer space is its bounds' own.
    private static func keepsPlacement(_ superlayer: CALayer) -> Bool {
        let type = type(of: superlayer)
        guard type == CALayer.self || type == CAShapeLayer.self else { return false }
        return CATransform3DIsIdentity(superlayer.sublayerTransform) && !superlayer.isGeometryFlipped
            && !(superlayer.animationKeys() ?? []).contains { key in
                (superlayer.animation(forKey: key) as? CAPropertyAnimation)?.keyPath?.hasPrefix("sublayerTransform") ?? true
            }
    }

    /// Whether `layer` places its sublayers where its superlayer would and
    /// adds nothing of its own (the list above).
    static func isPassThrough(_ layer: CALayer) -> Bool {
        type(of: layer) == CALayer.self && layer.name == nil && (layer.animationKeys() ?? []).isEmpty
            && layer.delegate == nil
            // Places its sublayers in its superlayer's space unchanged.
            && layer.bounds == .zero && layer.position == .zero && layer.zPosition == 0 && layer.anchorPointZ == 0
            && CATransform3DIsIdentity(layer.transform) && CATransform3DIsIdentity(layer.sublayerTransform)
            && !layer.isGeometryFlipped && layer.isDoubleSided
            // Draws, hides, fades and clips nothing.
            && !layer.isHidden && layer.opacity == 1 && layer.contents == nil && layer.backgroundColor == nil
            && layer.borderWidth == 0 && layer.shadowOpacity == 0 && layer.mask == nil && !layer.masksToBounds
            && layer.filters == nil && layer.backgroundFilters == nil && layer.compositingFilter == nil
            && (layer.sublayers ?? []).allSatisfy { $0.zPosition == 0 }
    }
}
