import Foundation

/// Content drawn by code: `display()`, `draw(in:)` and the delegate.
///
/// As in Core Animation, a layer draws only when asked: `setNeedsDisplay()`
/// marks it (a new layer is not marked, and neither is a layer whose bounds
/// change unless `needsDisplayOnBoundsChange`), and `displayIfNeeded()` (or
/// `displayIfNeededRecursively()` over a tree, which a renderer calls before
/// it takes a snapshot, as a transaction commit does on iOS) calls
/// `display()`.
///
/// The default `display()` gives the work to the delegate's `display(_:)`
/// when there is a delegate; the protocol's default for that method, like a
/// delegate that does not implement `displayLayer:` in Core Animation, draws
/// into a backing store:
///
/// 1. a `CGContext` of `ceil(bounds.size * contentsScale)` pixels is made;
/// 2. the delegate's `layerWillDraw(_:)` is called;
/// 3. the CTM is set so that user space is the layer's own space: scaled by
///    `contentsScale`, moved by `-bounds.origin`, and flipped so y grows down
///    when `contentsAreFlipped()` (on iOS, unless the geometry is flipped);
/// 4. `draw(in:)` runs (its default calls the delegate's `draw(_:in:)`);
/// 5. `contents` becomes a `CABackingStore` of what was drawn, or nil when
///    nothing was drawn or the bounds are empty (so a layer that is asked to
///    display but draws nothing loses the image it had, as on iOS).
extension CALayer {

    /// The default `display()`.
    func performDisplay() {
        if let delegate {
            delegate.display(self)
        } else {
            drawIntoBackingStore()
        }
    }

    /// Draws the layer through `draw(in:)` into a new backing store and
    /// makes it the layer's `contents` (steps 1 to 5 above).
    func drawIntoBackingStore() {
        let scale = contentsScale > 0 && contentsScale.isFinite ? contentsScale : 1
        guard let size = pixelSize(scale: scale),
              let ctx = CGContext(width: size.width, height: size.height) else {
            contents = nil
            return
        }
        delegate?.layerWillDraw(self)
        if contentsAreFlipped() {
            ctx.translateBy(x: 0, y: CGFloat(size.height))
            ctx.scaleBy(x: 1, y: -1)
        }
        ctx.scaleBy(x: scale, y: scale)
        ctx.translateBy(x: -bounds.minX, y: -bounds.minY)
        draw(in: ctx)
        let recording = ctx.recording
        contents = recording.commands.isEmpty ? nil : CABackingStore(recording: recording, contentsScale: scale)
    }

    /// The backing store's size in pixels, or nil when the bounds are empty
    /// or too large to count in `Int32` pixels.
    private func pixelSize(scale: CGFloat) -> (width: Int, height: Int)? {
        let width = (bounds.width * scale).rounded(.up)
        let height = (bounds.height * scale).rounded(.up)
        let limit = CGFloat(Int32.max)
        guard width >= 1, height >= 1, width <= limit, height <= limit else { return nil }
        return (Int(width), Int(height))
    }

    /// Calls `displayIfNeeded()` on this layer, its mask and every sublayer,
    /// depth first: what a transaction commit does on iOS before the tree is
    /// rendered.
    public func displayIfNeededRecursively() {
        displayIfNeeded()
        maskStorage?.displayIfNeededRecursively()
        for sublayer in sublayerStorage { sublayer.displayIfNeededRecursively() }
    }
}
