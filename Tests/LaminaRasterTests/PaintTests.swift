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

    /// `blendSolid` works four pixels, or a run of full coverage, at a
    /// time: the bytes `blendWord` gives pixel by pixel, for runs of every
    /// length and position, opaque and translucent colours, any opacity.
    @Test func aSolidRowIsWhatPixelByPixelBlendingGives() {
        var rng = SeededRandom(seed: 11)
        for _ in 0..<300 {
            let count = Int.random(in: 0...90, using: &rng)
            // Runs of full, empty and partial coverage, as a shape's row has.
            var coverage: [UInt8] = []
            while coverage.count < count {
                let run = Int.random(in: 1...40, using: &rng)
                let kind = Int.random(in: 0...2, using: &rng)
                for _ in 0..<run { coverage.append(kind == 0 ? 255 : kind == 1 ? 0 : .random(in: 0...255, using: &rng)) }
            }
            coverage = Array(coverage.prefix(count))
            let alpha = Bool.random(using: &rng) ? UInt32(255) : .random(in: 0...255, using: &rng)
            let word = pixelWord(.random(in: 0...alpha, using: &rng), .random(in: 0...alpha, using: &rng),
                                 .random(in: 0...alpha, using: &rng), alpha)
            let scale = Bool.random(using: &rng) ? CoverageScales.opaque : CoverageScales.at(opacity: .random(in: 0...1, using: &rng))
            let destination = (0..<count).map { _ in UInt32.random(in: 0...UInt32.max, using: &rng) & 0x7F7F_7F7F }
            var fast = destination, slow = destination
            coverage.withUnsafeBufferPointer { c in
                scale.withUnsafeBufferPointer { k in
                    fast.withUnsafeMutableBytes { row in
                        guard let base = row.baseAddress, let c = c.baseAddress else { return }
                        blendSolid(word, coverage: c, count: count, scale: k.baseAddress!, into: base)
                    }
                    slow.withUnsafeMutableBytes { row in
                        for x in 0..<count where k[Int(c[x])] != 0 {
                            let m = k[Int(c[x])]
                            blendWord(row.baseAddress! + x * 4, m == 255 ? word : scaled(word, by: m))
                        }
                    }
                }
            }
            #expect(fast == slow)
        }
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
