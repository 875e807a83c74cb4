import Testing
import Foundation
@testable import LaminaPNG

/// Decoding every PNG form into premultiplied RGBA8, against fixtures written
/// by `FixturePNG` (an encoder independent of libpng).
@Suite struct DecodingTests {
    @Test(arguments: FixtureCase.all)
    func decodesEveryColorTypeAndBitDepth(_ fixtureCase: FixtureCase) throws {
        let png = fixtureCase.fixture()
        let image = try PNGDecoder().decode(png.encoded())
        #expect(image.width == png.width)
        #expect(image.height == png.height)
        expectPixels(image, match: png)
    }

    /// 16-bit interlaced PNGs go through `Interlaced16BitDecoding` (a libpng
    /// bug workaround): they must match the same picture stored without
    /// interlacing, exactly for alpha and opaque pixels, within 1 otherwise.
    @Test(arguments: [FixturePNG.ColorType.grey, .rgb, .greyAlpha, .rgba])
    func sixteenBitInterlacedMatchesNonInterlaced(_ colorType: FixturePNG.ColorType) throws {
        var fixture = FixtureCase(colorType: colorType, bitDepth: 16, interlaced: true, width: 97, height: 61)
        let interlaced = try PNGDecoder().decode(fixture.fixture().encoded())
        fixture.interlaced = false
        let plain = try PNGDecoder().decode(fixture.fixture().encoded())
        let channelsWithAlpha = colorType == .greyAlpha || colorType == .rgba
        #expect(maxColorDifference(interlaced, plain) <= (channelsWithAlpha ? 1 : 0))
        #expect(interlaced.allPixels.map(\.alpha) == plain.allPixels.map(\.alpha))
        let opaque = zip(interlaced.allPixels, plain.allPixels).filter { $0.1.alpha == 255 }
        #expect(opaque.allSatisfy { $0.0 == $0.1 })
    }

    @Test func sixteenBitInterlacedAppliesGamma() throws {
        // gAMA 1.0 (linear light) must be converted to sRGB (libpng's 2.2 power)
        // on both paths; libpng's own 16-to-8-bit gamma tables are off by up to 2.
        var fixture = FixtureCase(colorType: .rgb, bitDepth: 16, interlaced: true, width: 31, height: 17).fixture()
        let withoutGamma = try PNGDecoder().decode(fixture.encoded())
        fixture.extraChunks = [("gAMA", FixturePNG.bigEndian(100_000))]
        let interlaced = try PNGDecoder().decode(fixture.encoded())
        fixture.interlaced = false
        let plain = try PNGDecoder().decode(fixture.encoded())
        #expect(maxColorDifference(interlaced, plain) <= 2)
        #expect(maxColorDifference(interlaced, withoutGamma) > 10)
        let exact = (0..<fixture.height).flatMap { y in
            (0..<fixture.width).flatMap { x in
                (0..<3).map { c in
                    UInt8((255 * pow(Double(fixture.sample(x: x, y: y, channel: c)) / 65_535, 1 / 2.2)).rounded())
                }
            }
        }
        #expect(interlaced.allPixels.flatMap { [$0.red, $0.green, $0.blue] } == exact)
    }

    /// Adam7 passes that are empty or one pixel wide for tiny pictures.
    @Test(arguments: [(1, 1), (2, 3), (5, 1), (1, 7), (9, 9), (17, 2)])
    func decodesTinyInterlacedPictures(size: (Int, Int)) throws {
        for (colorType, depth) in [(FixturePNG.ColorType.rgba, 8), (.grey, 1), (.palette, 4), (.greyAlpha, 16)] {
            let png = FixtureCase(
                colorType: colorType, bitDepth: depth, interlaced: true, width: size.0, height: size.1
            ).fixture()
            let image = try PNGDecoder().decode(png.encoded())
            expectPixels(image, match: png)
        }
    }

    @Test func greyTransparencyKeyMakesMatchingPixelsTransparent() throws {
        // 2-bit grey: values 0...3; the key 2 (grey 170) becomes transparent.
        let png = FixturePNG(
            width: 4, height: 1, colorType: .grey, bitDepth: 2, samples: [0, 1, 2, 3], transparency: [0, 2])
        let image = try PNGDecoder().decode(png.encoded())
        #expect(image.allPixels == [
            .init(red: 0, green: 0, blue: 0, alpha: 255), .init(red: 85, green: 85, blue: 85, alpha: 255),
            .init(red: 0, green: 0, blue: 0, alpha: 0), .init(red: 255, green: 255, blue: 255, alpha: 255),
        ])
    }

    @Test(arguments: [false, true])
    func sixteenBitTransparencyKeyComparesAllSixteenBits(interlaced: Bool) throws {
        // 0x1235 differs from the key 0x1234 only in the low byte: it stays opaque.
        let png = FixturePNG(
            width: 3, height: 1, colorType: .grey, bitDepth: 16, interlaced: interlaced,
            samples: [0x1234, 0x1235, 0xFFFF], transparency: [0x12, 0x34])
        let image = try PNGDecoder().decode(png.encoded())
        #expect(image.allPixels == [
            .init(red: 0, green: 0, blue: 0, alpha: 0), .init(red: 0x12, green: 0x12, blue: 0x12, alpha: 255),
            .init(red: 255, green: 255, blue: 255, alpha: 255),
        ])
    }

    @Test func rgbTransparencyKeyMakesMatchingPixelsTransparent() throws {
        let png = FixturePNG(
            width: 2, height: 1, colorType: .rgb, bitDepth: 8, samples: [10, 20, 30, 10, 20, 31],
            transparency: [0, 10, 0, 20, 0, 30])
        let image = try PNGDecoder().decode(png.encoded())
        #expect(image.allPixels == [
            .init(red: 0, green: 0, blue: 0, alpha: 0), .init(red: 10, green: 20, blue: 31, alpha: 255),
        ])
    }

    @Test func paletteTransparencyIsPremultiplied() throws {
        // Entry 0 half transparent, entry 1 beyond the tRNS entries: opaque.
        let png = FixturePNG(
            width: 2, height: 1, colorType: .palette, bitDepth: 8, samples: [0, 1],
            palette: [(200, 100, 50), (1, 2, 3)], transparency: [128])
        let image = try PNGDecoder().decode(png.encoded())
        #expect(image.allPixels == [
            .init(red: 100, green: 50, blue: 25, alpha: 128), .init(red: 1, green: 2, blue: 3, alpha: 255),
        ])
    }

    @Test func sixteenBitWithoutGammaChunkIsTakenAsSRGB() throws {
        // libpng on its own would take this as linear light and brighten 0x8080 to ~188.
        let png = FixturePNG(width: 1, height: 1, colorType: .grey, bitDepth: 16, samples: [0x8080])
        #expect(try PNGDecoder().decode(png.encoded()).pixel(x: 0, y: 0) == .init(red: 128, green: 128, blue: 128, alpha: 255))
    }

    @Test func linearGammaChunkIsConvertedToSRGB() throws {
        // gAMA 1.0 (100000): linear light. Half intensity is about 186-188 in sRGB.
        var png = FixturePNG(width: 3, height: 1, colorType: .grey, bitDepth: 8, samples: [0, 128, 255])
        png.extraChunks = [("gAMA", FixturePNG.bigEndian(100_000))]
        let pixels = try PNGDecoder().decode(png.encoded()).allPixels
        #expect(pixels[0] == .init(red: 0, green: 0, blue: 0, alpha: 255))
        #expect((184...190).contains(pixels[1].red))
        #expect(pixels[2] == .init(red: 255, green: 255, blue: 255, alpha: 255))
    }

    @Test func decodesDataAndArraysAlike() throws {
        let bytes = FixtureCase(colorType: .rgba, bitDepth: 8, interlaced: false).fixture().encoded()
        #expect(try PNGDecoder().decode(Data(bytes)) == PNGDecoder().decode(bytes))
    }

    @Test func ignoresBytesAfterIEND() throws {
        let png = FixtureCase(colorType: .rgb, bitDepth: 8, interlaced: false).fixture()
        let image = try PNGDecoder().decode(png.encoded() + [1, 2, 3, 4, 5])
        #expect(image.allPixels == png.expectedPixels())
    }
}
