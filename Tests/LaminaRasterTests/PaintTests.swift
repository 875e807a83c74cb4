// Source-over arithmetic and the solid mask fill stage.
import Foundation
import Testing
@testable import LaminaRaster
@testable import LaminaCore
import LaminaGeometry

@Suite struct PaintTests {
    let blue = PremultipliedColor(r: 0, g: 0, b: 255, a: 255)
    let halfRed = PremultipliedColor(r: 128, g: 0, b: 0, a: 128)

    @Test func sourceOverMatchesTheFormula() {
        // s + d·(1 − sa), per channel, on premultiplied bytes.
        #expect(PremultipliedColor.sourceOver(halfRed, onto: blue) == PremultipliedColor(r: 128, g: 0, b: 127, a: 255))
        // Coverage scales the source first: 128·128/255 = 64.25 → 64; 255·191/255 = 191.
        #expect(PremultipliedColor.sourceOver(halfRed, onto: blue, coverage: 128) == PremultipliedColor(r: 64, g: 0, b: 191, a: 255))
        #expect(PremultipliedColor.sourceOver(blue, onto: halfRed) == blue)
        #expect(PremultipliedColor.sourceOver(halfRed, onto: .clear) == halfRed)
        #expect(PremultipliedColor.sourceOver(.clear, onto: halfRed) == halfRed)
        #expect(PremultipliedColor.sourceOver(blue, onto: halfRed, coverage: 0) == halfRed)
    }

    @Test func sourceOverNeverBreaksPremultiplication() {
        var rng = SeededRandom(seed: 7)
        for _ in 0..<2000 {
            func colour() -> PremultipliedColor {
                let a = UInt8.random(in: 0...255, using: &rng)
                return PremultipliedColor(
                    r: .random(in: 0...a, using: &rng), g: .random(in: 0...a, using: &rng),
                    b: .random(in: 0...a, using: &rng), a: a)
            }
            let s = colour(), d = colour(), k = UInt8.random(in: 0...255, using: &rng)
            let o = PremultipliedColor.sourceOver(s, onto: d, coverage: k)
            // Unclamped construction: no channel may exceed alpha.
            #expect(o.r <= o.a && o.g <= o.a && o.b <= o.a)
            // Against the real-valued formula, within rounding.
            let kf = Double(k) / 255, sa = Double(s.a) * kf / 255
            let expectedA = Double(s.a) * kf + Double(d.a) * (1 - sa)
            #expect(abs(Double(o.a) - expectedA) <= 1.01)
        }
    }

    @Test func fillPaintsCoverageTimesAlphaTimesClip() throws {
        var p = try Pixmap(width: 8, height: 4, filledWith: blue)
        let r = try CoverageRasterizer(width: 8, height: 4)
        // Columns 0...3 fully, column 4 half.
        let mask = try r.rasterize(contours: [points([(0, 0), (4.5, 0), (4.5, 4), (0, 4)])], fillRule: .nonZero)
        let clip = try CoverageMask(bounds: PixelRect(x: 2, y: 0, width: 6, height: 4), values: [UInt8](repeating: 255, count: 24))
        let red = PremultipliedColor(r: 255, g: 0, b: 0, a: 255)
        try p.fill(mask, with: red, alpha: 1, clip: clip)
        #expect(try p.pixel(x: 1, y: 1) == blue)  // clipped away
        #expect(try p.pixel(x: 2, y: 1) == red)
        #expect(try p.pixel(x: 4, y: 1) == PremultipliedColor(r: 128, g: 0, b: 127, a: 255))
        #expect(try p.pixel(x: 5, y: 1) == blue)

        var q = try Pixmap(width: 8, height: 4)
        try q.fill(mask, with: red, alpha: 0.5)
        #expect(try q.pixel(x: 0, y: 0) == PremultipliedColor(r: 128, g: 0, b: 0, a: 128))
        #expect(try q.pixel(x: 4, y: 0).a == 64)
        #expect(throws: RasterError.self) { try q.fill(mask, with: red, alpha: .nan) }
    }

    /// A plain fill skips empty runs of its mask and blends four pixels at a
    /// time; every pixel must still be what blending it alone gives,
    /// whatever its place in a run of four and however the row ends.
    @Test func aFillIsEveryPixelBlendedAlone() throws {
        var rng = SeededRandom(seed: 0xF111)
        for trial in 0..<60 {
            let width = rng.int(1...37), height = rng.int(1...5)
            var values = [UInt8](repeating: 0, count: width * height)
            for i in values.indices where rng.int(0...3) == 0 { values[i] = UInt8(rng.int(0...255)) }
            let mask = try CoverageMask(bounds: PixelRect(x: 1, y: 0, width: width, height: height), values: values)
            let background = PremultipliedColor(r: 10, g: 90, b: 40, a: UInt8(rng.int(90...255)))
            var filled = try Pixmap(width: width + 2, height: height, filledWith: background)
            var expected = filled
            try filled.fill(mask, with: halfRed)
            for y in 0..<height {
                for x in 0..<width {
                    let k = values[y * width + x]
                    if k != 0 { try expected.setPixel(PremultipliedColor.sourceOver(halfRed, onto: try expected.pixel(x: x + 1, y: y), coverage: k), x: x + 1, y: y) }
                }
            }
            #expect(filled.data == expected.data, "trial \(trial)")
        }
    }

    /// Four pixels scaled and blended at once are, lane by lane, the words
    /// scaled and blended one by one: every scale 0...255 on random
    /// premultiplied pixels, and blends of opaque, transparent and
    /// translucent sources onto every kind of destination.
    @Test func fourPixelsAtOnceAreEachPixelAlone() {
        var rng = SeededRandom(seed: 0xB1E4)
        func pixel() -> UInt32 {
            let a = UInt32([0, 255, rng.int(0...255)][rng.int(0...2)])
            return pixelWord(UInt32(rng.int(0...Int(a))), UInt32(rng.int(0...Int(a))), UInt32(rng.int(0...Int(a))), a)
        }
        for k in 0...255 {
            let pixels = SIMD4(pixel(), pixel(), pixel(), pixel())
            let ks = SIMD4(UInt32(k), UInt32(rng.int(0...255)), 255, 0)
            let together = scaled(pixels, by: ks)
            for lane in 0..<4 { #expect(together[lane] == scaled(pixels[lane], by: ks[lane]), "k \(k), lane \(lane)") }
        }
        for trial in 0..<2000 {
            let sources = SIMD4(pixel(), pixel(), pixel(), trial % 7 == 0 ? 0 : pixel())
            var together = SIMD4(pixel(), pixel(), pixel(), pixel())
            var alone = together
            withUnsafeMutableBytes(of: &together) { blendWords($0.baseAddress!, sources) }
            withUnsafeMutableBytes(of: &alone) { bytes in
                for lane in 0..<4 { blendWord(bytes.baseAddress! + 4 * lane, sources[lane]) }
            }
            #expect(together == alone, "trial \(trial)")
        }
    }

    /// A plain fill scales by its coverage bytes through the opaque table,
    /// which must leave every byte as it is.
    @Test func opaqueCoverageScalesAreTheBytesThemselves() {
        #expect(CoverageScales.opaque == (0...255).map { UInt32($0) })
    }
}
