// display(), draw(in:), the delegate and the backing store.
import Foundation
import Testing
@testable import LaminaCore

/// A delegate that records the calls it gets and draws a 10x10 square.
private final class DrawingDelegate: CALayerDelegate {
    var calls: [String] = []
    var ctm: CGAffineTransform?

    func layerWillDraw(_ layer: CALayer) { calls.append("willDraw") }

    func draw(_ layer: CALayer, in ctx: CGContext) {
        calls.append("draw")
        ctm = ctx.ctm
        ctx.setFillColor(CGColor.white)
        ctx.fill(CGRect(x: 0, y: 0, width: 10, height: 10))
    }
}

/// A delegate that provides the whole content itself.
private final class ImageDelegate: CALayerDelegate {
    let image: CGImage
    var drew = false
    init(image: CGImage) { self.image = image }
    func display(_ layer: CALayer) { layer.contents = image }
    func draw(_ layer: CALayer, in ctx: CGContext) { drew = true }
}

/// A subclass that draws in draw(in:), the book's other pattern.
private final class CircleLayer: CALayer {
    var radius: CGFloat = 5
    override func draw(in ctx: CGContext) {
        ctx.addEllipse(in: CGRect(x: 0, y: 0, width: radius * 2, height: radius * 2))
        ctx.fillPath()
    }
}

@Suite struct LayerDisplayTests {
    private func backingStore(_ layer: CALayer) throws -> CABackingStore {
        try #require(layer.contents as? CABackingStore)
    }

    @Test func aLayerDrawsOnlyWhenAsked() {
        let delegate = DrawingDelegate()
        let layer = makeLayer(CGRect(x: 0, y: 0, width: 100, height: 50))
        layer.delegate = delegate
        layer.displayIfNeeded()
        #expect(delegate.calls.isEmpty)
        #expect(layer.contents == nil)
        layer.setNeedsDisplay()
        #expect(layer.needsDisplay())
        layer.displayIfNeeded()
        #expect(!layer.needsDisplay())
        #expect(delegate.calls == ["willDraw", "draw"])
        layer.displayIfNeeded()
        #expect(delegate.calls.count == 2)
    }

    @Test func theDelegateDrawsIntoAFlippedScaledBackingStore() throws {
        let delegate = DrawingDelegate()
        let layer = makeLayer(CGRect(x: 0, y: 0, width: 100, height: 50))
        layer.contentsScale = 2
        layer.delegate = delegate
        layer.display()
        let store = try backingStore(layer)
        #expect(store.width == 200 && store.height == 100 && store.contentsScale == 2)
        // y grows down in user space: user (0, 0) is the top-left pixel corner, device (0, 100).
        #expect(delegate.ctm == CGAffineTransform(a: 2, b: 0, c: 0, d: -2, tx: 0, ty: 100))
        guard case let .fill(fill) = try #require(store.recording.commands.first) else {
            Issue.record("not a fill")
            return
        }
        #expect(fill.path.boundingBox == CGRect(x: 0, y: 80, width: 20, height: 20))
    }

    @Test func userSpaceIsTheLayersOwnSpace() {
        let delegate = DrawingDelegate()
        let layer = CALayer()
        layer.bounds = CGRect(x: 10, y: 20, width: 30, height: 40)
        layer.delegate = delegate
        layer.display()
        // Own-space (10, 20) is the top-left corner: device (0, 40).
        #expect(delegate.ctm.map { CGPoint(x: 10, y: 20).applying($0) } == CGPoint(x: 0, y: 40))
    }

    @Test func aFlippedGeometryGivesAnUnflippedContext() {
        let delegate = DrawingDelegate()
        let layer = makeLayer(CGRect(x: 0, y: 0, width: 10, height: 10))
        layer.isGeometryFlipped = true
        layer.delegate = delegate
        layer.display()
        #expect(delegate.ctm == .identity)
    }

    @Test func fractionalSizesRoundUp() throws {
        let layer = makeLayer(CGRect(x: 0, y: 0, width: 10.2, height: 3.5))
        layer.contentsScale = 3
        let delegate = DrawingDelegate()
        layer.delegate = delegate
        layer.display()
        let store = try backingStore(layer)
        #expect(store.width == 31 && store.height == 11)
    }

    @Test func aDelegateThatDisplaysSetsTheContentsItself() throws {
        let image = try #require(makeTestImage())
        let delegate = ImageDelegate(image: image)
        let layer = makeLayer(CGRect(x: 0, y: 0, width: 10, height: 10))
        layer.delegate = delegate
        layer.setNeedsDisplay()
        layer.displayIfNeeded()
        #expect(layer.contents as? CGImage === image)
        #expect(!delegate.drew)
    }

    @Test func aSubclassDrawsWithoutADelegate() throws {
        let layer = CircleLayer()
        layer.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
        layer.display()
        let store = try backingStore(layer)
        #expect(store.recording.commands.count == 1)
        #expect(store.description.contains("20x20"))
    }

    @Test func drawingNothingLeavesNoContents() throws {
        let layer = makeLayer(CGRect(x: 0, y: 0, width: 10, height: 10))
        let image = try #require(makeTestImage())
        layer.contents = image
        layer.setNeedsDisplay()
        layer.displayIfNeeded()
        // As on iOS, displaying a layer that draws nothing clears its image.
        #expect(layer.contents == nil)
    }

    @Test func emptyOrHugeBoundsLeaveNoContents() {
        let delegate = DrawingDelegate()
        let empty = CALayer()
        empty.delegate = delegate
        empty.display()
        #expect(empty.contents == nil)
        let huge = makeLayer(CGRect(x: 0, y: 0, width: 1e12, height: 10))
        huge.delegate = delegate
        huge.display()
        #expect(huge.contents == nil)
        #expect(delegate.calls.isEmpty)
    }

    @Test func needsDisplayOnBoundsChange() {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 5, height: 5)
        #expect(!layer.needsDisplay())
        layer.needsDisplayOnBoundsChange = true
        layer.bounds = CGRect(x: 0, y: 0, width: 5, height: 5)
        #expect(!layer.needsDisplay())  // unchanged
        layer.frame = CGRect(x: 0, y: 0, width: 6, height: 5)
        #expect(layer.needsDisplay())
    }

    @Test func setNeedsDisplayInRectMarksTheLayerUnlessTheRectIsEmpty() {
        let layer = CALayer()
        layer.setNeedsDisplay(.zero)
        #expect(!layer.needsDisplay())
        layer.setNeedsDisplay(CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(layer.needsDisplay())
    }

    @Test func displayIfNeededRecursivelyReachesSublayersAndMasks() {
        let root = makeLayer(CGRect(x: 0, y: 0, width: 10, height: 10))
        let child = CircleLayer(), mask = CircleLayer()
        child.frame = root.bounds
        mask.frame = root.bounds
        root.addSublayer(child)
        root.mask = mask
        child.setNeedsDisplay()
        mask.setNeedsDisplay()
        root.displayIfNeededRecursively()
        #expect(child.contents is CABackingStore)
        #expect(mask.contents is CABackingStore)
        #expect(root.contents == nil)
    }

    @Test func backingStoresCompareByContent() throws {
        let ctx = try #require(CGContext(width: 1, height: 1))
        let a = CABackingStore(recording: ctx.recording, contentsScale: 1)
        let b = CABackingStore(recording: ctx.recording, contentsScale: 1)
        #expect(a == b && a.hashValue == b.hashValue)
        #expect(a != CABackingStore(recording: ctx.recording, contentsScale: 2))
    }
}
