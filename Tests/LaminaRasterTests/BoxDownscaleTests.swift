import Testing
import LaminaRaster

@Suite("Box downscale")
struct BoxDownscaleTests {
    @Test func blocksAreAveragedAndTheLastOnesAreNarrower() throws {
        // 5 x 3 to fit 2: k = 3, so 2 x 1 pixels: a 3 x 3 block and a 2 x 3 one.
        var pixels: [UInt8] = []
        for y in 0..<3 {
            for x in 0..<5 { pixels += [UInt8(x * 50), UInt8(y * 100), 0, 255] }
        }
        let out = try #require(BoxDownscale.pixels(pixels, width: 5, height: 3, toFit: 2))
        #expect(out.width == 2 && out.height == 1)
        // Red: mean of 0, 50, 100 = 50; of 150, 200 = 175. Green: mean of 0, 100, 200 = 100.
        #expect(out.pixels == [50, 100, 0, 255, 175, 100, 0, 255])
        #expect(BoxDownscale.pixels(pixels, width: 5, height: 3, toFit: 5) == nil)
    }
}
