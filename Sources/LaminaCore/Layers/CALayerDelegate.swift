import Foundation

/// The object that provides a layer's content (`CALayerDelegate`).
///
/// Core Animation's delegate methods are optional; here every method has a
/// default in the protocol extension, and the defaults do what Core
/// Animation does for a delegate that does not implement the method. A
/// delegate implements only what it needs, typically `draw(_:in:)`.
public protocol CALayerDelegate: AnyObject {
    /// Provides the layer's whole content, usually by setting `contents`.
    /// The default draws the layer: it makes a backing store, calls
    /// `layerWillDraw(_:)` and the layer's `draw(in:)` (which calls
    /// `draw(_:in:)`), as `display()` does without a delegate.
    func display(_ layer: CALayer)

    /// Draws the layer's content into `ctx`, whose user space is the layer's
    /// own space (see `CALayer.display()`). The default draws nothing.
    func draw(_ layer: CALayer, in ctx: CGContext)

    /// Called before the layer draws into a new backing store. The default
    /// does nothing.
    func layerWillDraw(_ layer: CALayer)
}

extension CALayerDelegate {
    /// Has the layer draw into its backing store (`draw(_:in:)` paints it).
    public func display(_ layer: CALayer) {
        layer.drawIntoBackingStore()
    }

    /// Draws nothing unless the delegate says otherwise.
    public func draw(_ layer: CALayer, in ctx: CGContext) {}

    /// Does nothing unless the delegate says otherwise.
    public func layerWillDraw(_ layer: CALayer) {}
}
