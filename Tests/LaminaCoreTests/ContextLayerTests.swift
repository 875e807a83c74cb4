// End to end: a layer's display() draws through draw(in:) or its delegate
// into a backing store, which the installed ContextRasterizer paints.
import Foundation
import Testing
@testable import LaminaRaster
@testable import LaminaCore

/// A layer that draws a red square at `spot` (1 x 1 points) in draw(in:).
private final class SpotLayer: CALayer {
    var spot = CGPoint(x: 5, y: 2)
    var image: CGImage?

    override func draw(in ctx: CGContext) {
        ctx.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        ctx.fill(CGRect(origin: spot, size: CGSize(width: 1, height: 1)))
        if let image { ctx.draw(image, in: CGRect(x: 0, y: 0, width: 2, height: 2)) }
    }
}

/// A delegate that strokes a circle and fills a dot at (3, 7).
private final class DotDelegate: CALayerDelegate {
    func draw(_ layer: CALayer, in ctx: CGContext) {
        ctx.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
        ctx.fill(CGRect(x: 3, y: 7, width: 1, height: 1))
        ctx.setStrokeColor(red: 0, green: 1, blue: 0, alpha: 1)
        ctx.strokeEllipse(in: layer.bounds.insetBy(dx: 1, dy: 1))
    }
}

/// The image of a layer's backing store after `display()`. It is painted
/// by a `ContextRasterizer` of its own rather than through the process-wide
/// registry, which other tests running at the same time change.
private func displayedImage(_ layer: CALayer) throws -> Pixmap {
    layer.display()
    let store = try #require(layer.contents as? CABackingStore)
    #expect(store.contentsScale == layer.contentsScale)
    let image = try #require(ContextRasterizer().makeImage(from: store.recording))
    #expect(image.width == store.width && image.height == store.height)
    return try Pixmap(width: image.width, height: image.height, premultipliedRGBA: image.pixelBytes)
}

@Suite("CGContext on the CPU: layers")
struct ContextLayerTests {
    @Test func drawInAtScaleTwoLandsAtTwiceThePoint() throws {
        let layer = SpotLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 20, height: 10)
        layer.contentsScale = 2
        let p = try displayedImage(layer)
        #expect(p.width == 40 && p.height == 20)
        // The point square (5, 2) ... (6, 3), y down, is pixels 10 ... 12, 4 ... 6.
        for (x, y) in [(10, 4), (11, 4), (10, 5), (11, 5)] { #expect(try rgba(p, x, y) == red) }
        for (x, y) in [(9, 4), (12, 4), (10, 3), (10, 6)] { #expect(try alpha(p, x, y) == 0) }
        #expect(abs(coveredArea(p) - 4) < 0.01)
    }

    @Test func drawInUsesTheBoundsOrigin() throws {
        let layer = SpotLayer()
        layer.bounds = CGRect(x: 10, y: 10, width: 20, height: 10)
        layer.contentsScale = 2
        layer.spot = CGPoint(x: 15, y: 12)
        let p = try displayedImage(layer)
        #expect(try rgba(p, 10, 4) == red && rgba(p, 11, 5) == red)
        #expect(abs(coveredArea(p) - 4) < 0.01)
    }

    @Test func delegateDrawsAtScaleTwo() throws {
        let delegate = DotDelegate()
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 16, height: 16)
        layer.contentsScale = 2
        layer.delegate = delegate
        let p = try displayedImage(layer)
        #expect(p.width == 32 && p.height == 32)
        #expect(try rgba(p, 6, 14) == blue && rgba(p, 7, 15) == blue)
        #expect(try alpha(p, 6, 13) == 0 && alpha(p, 8, 14) == 0)
        // The circle's stroke, 1 point = 2 pixels wide, crosses the top
        // middle at y = 1 point: pixel rows 1 ... 3. The chords of the
        // circle run up to 0.2 px inside it, moving the edges a little.
        for row in 1...2 {
            let pixel = try rgba(p, 16, row)
            #expect(pixel[0] == 0 && pixel[2] == 0 && near(pixel[3], 255, 26))
        }
        #expect(try alpha(p, 16, 0) == 0 && alpha(p, 16, 3) < 26 && alpha(p, 16, 16) == 0)
        withExtendedLifetime(delegate) {}
    }

    @Test func imageDrawnInALayerIsUpsideDownAsCGContextDrawImageIsOnIOS() throws {
        let layer = SpotLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 4, height: 4)
        layer.spot = CGPoint(x: 3, y: 3)
        layer.image = try quadrantImage()
        let p = try displayedImage(layer)
        // The image fills points (0, 0) ... (2, 2), top row at y = 2 (the
        // lower edge, y growing down): blue and white on top.
        #expect(try rgba(p, 0, 0) == blue && rgba(p, 1, 0) == white)
        #expect(try rgba(p, 0, 1) == red && rgba(p, 1, 1) == green)
        #expect(try rgba(p, 3, 3) == red)  // the spot, y down
    }

    @Test func installedRasterizerPaintsTheBackingStore() throws {
        let rasterizer = ContextRasterizer()
        let layer = SpotLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 8, height: 8)
        layer.display()
        let store = try #require(layer.contents as? CABackingStore)
        let image = try #require(rasterizer.makeImage(from: store.recording))
        #expect(image.pixel(x: 5, y: 2) == CGImage.Pixel(red: 255, green: 0, blue: 0, alpha: 255))
    }
}

@Suite("ContextRasterizer errors")
struct ContextErrorTests {
    private func square(at x: CGFloat) -> PathData {
        var path = PathData()
        path.addRect(CGRect(x: x, y: 0, width: 2, height: 2), transform: .identity)
        return path
    }

    @Test func coordinatesOutOfRangeNameTheCommand() throws {
        let ok = FillCommand(path: square(at: 0), rule: .winding, color: .black, clip: .none, antialias: true)
        var bad = ok
        bad.path = square(at: 1e13)
        let recording = DrawingRecording(width: 4, height: 4, commands: [.fill(ok), .fill(bad)])
        #expect(throws: RecordingReplayError.self) { try ContextRasterizer().render(recording) }
        do {
            _ = try ContextRasterizer().render(recording)
        } catch let error as RecordingReplayError {
            #expect(error.commandIndex == 1 && error.part == "fill")
            #expect(error.description.hasPrefix("drawing command 1 (fill)"))
        }
        #expect(ContextRasterizer().makeImage(from: recording) == nil)
    }

    @Test func badClipRegionNamesTheRegion() throws {
        let clip = DrawingClip(regions: [
            .init(path: square(at: 0), rule: .winding), .init(path: square(at: -1e13), rule: .winding),
        ])
        let recording = DrawingRecording(width: 4, height: 4, commands: [
            .clear(ClearCommand(path: square(at: 0), clip: clip)),
        ])
        do {
            _ = try ContextRasterizer().render(recording)
            Issue.record("a clip beyond the coordinate limit was painted")
        } catch let error as RecordingReplayError {
            #expect(error.commandIndex == 0 && error.part == "clip region 1")
        }
    }

    @Test func oversizedRecordingIsRefused() throws {
        let recording = DrawingRecording(width: Pixmap.maximumDimension + 1, height: 1)
        do {
            _ = try ContextRasterizer().render(recording)
            Issue.record("an oversized bitmap was made")
        } catch let error as RecordingReplayError {
            #expect(error.commandIndex == nil && error.part == "bitmap size")
        }
    }
}
