import Foundation

/// A layer that builds true 3D hierarchies (`CATransformLayer`).
///
/// Unlike every other layer it does not flatten its sublayers into its
/// plane: they keep their 3D positions (through this layer's own geometry)
/// and join the 3D scene of the nearest ancestor that flattens
/// (`flattensSublayers` is false). It draws nothing of its own: background,
/// border, contents, shadow, mask, `masksToBounds` and `cornerRadius` are
/// ignored, and its `opacity` multiplies into each sublayer separately, not
/// as a group. It has no area for hit testing: `hitTest(_:)` passes through
/// it to its sublayers, with its geometry applied (see
/// `CALayer+HitTesting.swift`), and never returns it.
open class CATransformLayer: CALayer {}
