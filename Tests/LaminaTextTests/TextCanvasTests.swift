import LaminaCore
import Testing
@testable import LaminaRaster
@testable import LaminaText

/// Text composites its glyphs with LaminaRaster's one source-over, so a text
/// layer's pixels round as every other draw's do (it had a blend of its own).
@Suite struct TextCanvasTests {
    @Test func textBlendsAsEveryOtherDrawDoes() throws {
        let red = PremultipliedColor(CGColor(red: 1, green: 0, blue: 0, alpha: 0.6))
        let blue = PremultipliedColor(CGColor(red: 0, green: 0.3, blue: 1, alpha: 0.8))
        var canvas = TextCanvas(width: 1, height: 1)
        // A third of the pixel in red, then half of it in blue, over it.
        canvas.fill(x0: 0, x1: 1.0 / 3, y0: 0, y1: 1, color: red)
        canvas.fill(x0: 0, x1: 0.5, y0: 0, y1: 1, color: blue)
        let expected = PremultipliedColor.sourceOver(
            blue, onto: PremultipliedColor.sourceOver(red, onto: .clear, coverage: 85), coverage: 128)
        let pixel = try #require(try canvas.makeImage().pixel(x: 0, y: 0))
        #expect([pixel.red, pixel.green, pixel.blue, pixel.alpha] == [expected.r, expected.g, expected.b, expected.a])
    }
}
