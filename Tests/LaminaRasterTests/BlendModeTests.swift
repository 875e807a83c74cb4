// The blend modes' arithmetic against the W3C's definitions, worked by hand.
import Testing
@testable import LaminaRaster

@Suite struct BlendModeTests {
    /// Straight colour `c` at alpha `a`, premultiplied.
    private func pixel(_ c: (Double, Double, Double), _ a: Double) -> SIMD4<Double> { SIMD4(c.0 * a, c.1 * a, c.2 * a, a) }
    private func near(_ x: SIMD4<Double>, _ y: SIMD4<Double>) -> Bool { ((x - y) * (x - y)).sum() < 1e-18 }

    @Test func separableModesOnOpaqueColoursAreTheirFunctions() {
        let b = pixel((0.2, 0.6, 0.9), 1), s = pixel((0.5, 0.25, 0.8), 1)
        let expected: [BlendMode: (Double, Double, Double)] = [
            .multiply: (0.1, 0.15, 0.72),
            .screen: (0.6, 0.7, 0.98),
            // overlay(b, s) = hardLight(s, b): b ≤ 0.5 multiplies 2b·s, else screens.
            .overlay: (2 * 0.2 * 0.5, 1 - 2 * (1 - 0.6) * (1 - 0.25), 1 - 2 * (1 - 0.9) * (1 - 0.8)),
            .darken: (0.2, 0.25, 0.8),
            .lighten: (0.5, 0.6, 0.9),
            .colorDodge: (0.2 / 0.5, 0.6 / 0.75, 1),
            .colorBurn: (1 - 0.8 / 0.5 < 0 ? 0 : 1 - 0.8 / 0.5, 0, 1 - 0.1 / 0.8),
            .hardLight: (0.2 * 2 * 0.5, 0.6 * 2 * 0.25, 0.9 + 0.6 - 0.9 * 0.6),
            .difference: (0.3, 0.35, 0.1),
            .exclusion: (0.2 + 0.5 - 2 * 0.1, 0.6 + 0.25 - 2 * 0.15, 0.9 + 0.8 - 2 * 0.72),
        ]
        for (mode, c) in expected {
            #expect(near(mode.blend(s, over: b), SIMD4(c.0, c.1, c.2, 1)), "\(mode): \(mode.blend(s, over: b))")
        }
        // soft light, both branches: s ≤ 0.5 darkens, s > 0.5 with b ≤ 0.25 uses D's polynomial.
        let soft = BlendMode.softLight.blend(pixel((0.25, 0.8, 0.8), 1), over: pixel((0.5, 0.2, 0.64), 1))
        let d02 = ((16 * 0.2 - 12) * 0.2 + 4) * 0.2
        #expect(near(soft, SIMD4(0.5 - 0.5 * 0.5 * 0.5, 0.2 + 0.6 * (d02 - 0.2), 0.64 + 0.6 * (0.8 - 0.64), 1)))
    }

    @Test func aModeActsOnlyWhereBothArePresent() {
        // co = cs·(1 − αb) + cb·(1 − αs) + αs·αb·B: over nothing the source
        // stays itself; nothing over the backdrop leaves it.
        let s = pixel((0.5, 0.25, 0.8), 0.6), b = pixel((0.2, 0.6, 0.9), 0.5)
        for mode in BlendMode.allCases where mode != .plusLighter {
            #expect(near(mode.blend(s, over: .zero), s), "\(mode)")
            #expect(near(mode.blend(.zero, over: b), b), "\(mode)")
        }
        let m = BlendMode.multiply.blend(s, over: b)
        let αo = 0.6 + 0.5 * 0.4
        #expect(near(m, SIMD4(0.3 * 0.5 + 0.1 * 0.4 + 0.3 * 0.1, 0.15 * 0.5 + 0.3 * 0.4 + 0.3 * 0.15,
                              0.48 * 0.5 + 0.45 * 0.4 + 0.3 * 0.72, αo)))
    }

    @Test func plusLighterAddsUpToWhite() {
        let s = pixel((0.5, 0.25, 0.8), 0.6), b = pixel((0.6, 0.6, 0.9), 0.7)
        #expect(near(BlendMode.plusLighter.blend(s, over: b), SIMD4(0.3 + 0.42, 0.15 + 0.42, 1, 1)))
        #expect(BlendMode.plusLighter.blend(word: pixelWord(200, 10, 100, 200), over: pixelWord(100, 10, 0, 100))
                == pixelWord(255, 20, 100, 255))
    }

    @Test func wordsRoundTheExactBlend() {
        // The byte form is the exact blend, rounded, for every mode.
        let source = pixelWord(40, 120, 30, 200), backdrop = pixelWord(90, 30, 160, 180)
        func unit(_ w: UInt32) -> SIMD4<Double> {
            SIMD4(Double(w & 0xFF), Double(w >> 8 & 0xFF), Double(w >> 16 & 0xFF), Double(w >> 24)) / 255
        }
        for mode in BlendMode.allCases {
            let exact = mode.blend(unit(source), over: unit(backdrop)) * 255
            let word = mode.blend(word: source, over: backdrop)
            let bytes = [word & 0xFF, word >> 8 & 0xFF, word >> 16 & 0xFF, word >> 24].map(Double.init)
            for k in 0..<4 { #expect(abs(bytes[k] - exact[k]) <= 0.5, "\(mode) channel \(k)") }
            // Premultiplied: no colour channel above alpha.
            #expect(bytes[0] <= bytes[3] && bytes[1] <= bytes[3] && bytes[2] <= bytes[3], "\(mode)")
        }
    }

    @Test func aBlendedPaintBlendsEachPixelItCovers() throws {
        // A half-covered pixel is the blend at full coverage, faded by half.
        var target = try Pixmap(width: 4, height: 1, premultipliedRGBA: Array([[UInt8]](repeating: [200, 100, 50, 255], count: 4).joined()))
        let source = try Pixmap(width: 4, height: 1, premultipliedRGBA: [0, 0, 0, 0, 128, 128, 128, 255, 64, 64, 64, 128, 0, 0, 0, 0])
        let composite = try #require(try PixmapComposite(source, atX: 0, y: 0, within: target.bounds))
        target.paint(BlendedPaint(AnyRowPaint(composite), mode: .multiply))
        #expect(Array(target.data[0..<4]) == [200, 100, 50, 255], "no source: unchanged")
        #expect(Array(target.data[4..<8]) == [100, 50, 25, 255], "200·128/255 = 100.4")
        // Half coverage of grey 128 is premultiplied (64, 128): (1 − ½)·b + ½·b·0.502.
        #expect(Array(target.data[8..<12]) == [150, 75, 37, 255])
        #expect(Array(target.data[12..<16]) == [200, 100, 50, 255])
    }
}
