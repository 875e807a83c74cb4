import Foundation
import Testing
@testable import LaminaRender

@Suite("Contents layout")
struct ContentsLayoutTests {
    let bounds = CGRect(x: 0, y: 0, width: 100, height: 80)
    let image = CGSize(width: 40, height: 20)

    @Test func gravityPlacesTheImageAsCoreAnimationDoes() {
        func place(_ g: CALayerContentsGravity) -> CGRect { ContentsLayout.placement(of: image, gravity: g, in: bounds) }
        #expect(place(.resize) == bounds)
        #expect(place(.center) == CGRect(x: 30, y: 30, width: 40, height: 20))
        // `top` is the max-Y edge: the visual bottom with y down.
        #expect(place(.top) == CGRect(x: 30, y: 60, width: 40, height: 20))
        #expect(place(.bottom) == CGRect(x: 30, y: 0, width: 40, height: 20))
        #expect(place(.left) == CGRect(x: 0, y: 30, width: 40, height: 20))
        #expect(place(.right) == CGRect(x: 60, y: 30, width: 40, height: 20))
        #expect(place(.topLeft) == CGRect(x: 0, y: 60, width: 40, height: 20))
        #expect(place(.topRight) == CGRect(x: 60, y: 60, width: 40, height: 20))
        #expect(place(.bottomLeft) == CGRect(x: 0, y: 0, width: 40, height: 20))
        #expect(place(.bottomRight) == CGRect(x: 60, y: 0, width: 40, height: 20))
        // Aspect fit: limited by the width (100/40 < 80/20); fill: by the height.
        #expect(place(.resizeAspect) == CGRect(x: 0, y: 15, width: 100, height: 50))
        #expect(place(.resizeAspectFill) == CGRect(x: -30, y: 0, width: 160, height: 80))
    }

    @Test func contentsScaleAndRectSetThePointSize() throws {
        let pixels = try CGImage(width: 80, height: 40, filledWith: CGImage.Pixel(red: 255, green: 255, blue: 255, alpha: 255))
        var content = ImageContent(image: pixels, gravity: .center)
        content.contentsScale = 2
        content.contentsRect = CGRect(x: 0.5, y: 0, width: 0.5, height: 1)
        let quads = ContentsLayout(content, in: bounds).quads
        // 80 px at 2 px per point, half of it: 20 x 20 points, centred.
        #expect(quads == [ContentsLayout.Quad(local: CGRect(x: 40, y: 30, width: 20, height: 20),
                                              uv: CGRect(x: 0.5, y: 0, width: 0.5, height: 1))])
    }

    @Test func contentsCenterStretchesOnlyTheMiddle() throws {
        let pixels = try CGImage(width: 30, height: 30, filledWith: CGImage.Pixel(red: 255, green: 255, blue: 255, alpha: 255))
        var content = ImageContent(image: pixels, gravity: .resize)
        content.contentsCenter = CGRect(x: 1.0 / 3, y: 1.0 / 3, width: 1.0 / 3, height: 1.0 / 3)
        let quads = ContentsLayout(content, in: bounds).quads
        #expect(quads.count == 9)
        // Corners keep their 10-point size; the middle takes the rest.
        #expect(quads[0].local == CGRect(x: 0, y: 0, width: 10, height: 10))
        #expect(quads[4].local == CGRect(x: 10, y: 10, width: 80, height: 60))
        #expect(quads[8].local == CGRect(x: 90, y: 70, width: 10, height: 10))
        #expect(abs(quads[4].uv.minX - 1.0 / 3) < 1e-12 && abs(quads[4].uv.width - 1.0 / 3) < 1e-12)
        // Too small for the corners: they shrink evenly.
        let tiny = ContentsLayout(content, in: CGRect(x: 0, y: 0, width: 10, height: 10)).quads
        #expect(tiny.first?.local == CGRect(x: 0, y: 0, width: 5, height: 5))
    }

    @Test func flippedContentsShowTheFirstRowAtMaxY() throws {
        let pixels = try CGImage(width: 40, height: 20, filledWith: CGImage.Pixel(red: 255, green: 255, blue: 255, alpha: 255))
        var content = ImageContent(image: pixels, gravity: .bottom)
        content.isFlipped = true
        let quad = try #require(ContentsLayout(content, in: bounds).quads.first)
        // Placed as before (bottom = min-Y edge), but sampled bottom row first.
        #expect(quad.local == CGRect(x: 30, y: 0, width: 40, height: 20))
        #expect(quad.uv.origin.y == 1 && quad.uv.size.height == -1)
    }
}
