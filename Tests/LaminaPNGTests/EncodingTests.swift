import CPNG
import Foundation
import Testing
import LaminaCore
@testable import LaminaPNG

/// Encoding, and what a decode of the encoding gives back.
@Suite struct EncodingTests {
    /// Every valid premultiplied pixel: for each alpha a, each component 0...a.
    /// 32,896 pixels = 257 x 128.
    static let everyValidPixel: CGImage = {
        var bytes: [UInt8] = []
        for alpha in 0...255 {
            for component in 0...alpha {
                bytes += [UInt8(component), UInt8(alpha - component), UInt8(component / 2), UInt8(alpha)]
            }
        }
        return try! CGImage(width: 257, height: 128, premultipliedRGBA: bytes)
    }()

    /// A small picture with flat areas, edges, a gradient and translucency.
    static let sample: CGImage = {
        var bytes: [UInt8] = []
        for y in 0..<40 {
            for x in 0..<50 {
                let alpha = UInt8(x < 25 ? 255 : (x * 5) & 0xFF)
                let inside = (10..<30).contains(x) && (8..<20).contains(y)
                bytes += inside ? [200, 40, 40, 255] : [UInt8(x * 5), UInt8(y * 6), 128, alpha]
            }
        }
        return try! CGImage(width: 50, height: 40, straightRGBA: bytes)
    }()

    static let presets: [PNGEncoder.Options] = [.fast, .balanced, .smallest]

    /// The guarantee: encode then decode gives back exactly the same pixels for
    /// every valid premultiplied pixel, translucent ones included.
    @Test(arguments: presets)
    func roundTripIsExactForEveryValidPremultipliedPixel(options: PNGEncoder.Options) throws {
        let png = try PNGEncoder(options: options).encode(Self.everyValidPixel)
        let decoded = try PNGDecoder().decode(png)
        #expect(decoded == Self.everyValidPixel)
    }

    @Test func everyLevelAndFilterDecodesToTheSamePixels() throws {
        for level in 0...9 {
            for filter in PNGEncoder.Filter.allCases {
                let options = PNGEncoder.Options(compressionLevel: level, filter: filter)
                let png = try PNGEncoder(options: options).encode(Self.sample)
                #expect(try PNGDecoder().decode(png) == Self.sample, "\(options)")
            }
        }
    }

    /// Each filter against the PNG specification's definition, byte by byte,
    /// on rows with every kind of neighbour (first row, first pixel, wrap-around).
    @Test func filtersMatchTheSpecification() {
        var random = SeededRandom(seed: 3)
        let row = (0..<24).map { _ in UInt8.random(in: 0...255, using: &random) }
        let above = (0..<24).map { _ in UInt8.random(in: 0...255, using: &random) }
        func paeth(_ a: Int, _ b: Int, _ c: Int) -> Int {
            let p = a + b - c
            let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
            return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
        }
        for filter in PNGRowFilter.allCases {
            var out = [UInt8](repeating: 0, count: 24)
            out.withUnsafeMutableBufferPointer { filter.apply(row, above, into: $0) }
            for i in 0..<24 {
                let (x, a, b, c) = (Int(row[i]), i >= 4 ? Int(row[i - 4]) : 0, Int(above[i]), i >= 4 ? Int(above[i - 4]) : 0)
                let prediction = switch filter {
                case .none: 0
                case .sub: a
                case .up: b
                case .average: (a + b) / 2
                case .paeth: paeth(a, b, c)
                }
                #expect(Int(out[i]) == (x - prediction) & 0xFF, "\(filter) byte \(i)")
            }
        }
    }

    @Test func storesStraightAlphaAsEightBitRGBAWithAnSRGBChunk() throws {
        let image = try CGImage(width: 3, height: 1, premultipliedRGBA: [64, 32, 0, 128, 1, 2, 3, 255, 0, 0, 0, 0])
        let png = try PNGEncoder().encode(image)
        #expect(Array(png.prefix(8)) == FixturePNG.signature)
        #expect(Array(png[12..<16]) == Array("IHDR".utf8))
        #expect(png[24] == 8)  // bit depth
        #expect(png[25] == 6)  // colour type RGBA
        #expect(png[28] == 0)  // not interlaced
        #expect(png.indices.dropLast(3).contains { Array(png[$0..<$0 + 4]) == Array("sRGB".utf8) })
        // Read back without premultiplying: 64 * 255 / 128 = 127.5 rounds to 128.
        #expect(try straightRGBA(of: png) == [128, 64, 0, 128, 1, 2, 3, 255, 0, 0, 0, 0])
    }

    @Test func componentsAboveAlphaAreClamped() throws {
        // Not valid premultiplied colour: 200 > 100, and colour under alpha 0.
        let image = try CGImage(width: 2, height: 1, premultipliedRGBA: [200, 50, 0, 100, 9, 9, 9, 0])
        let decoded = try PNGDecoder().decode(PNGEncoder().encode(image))
        #expect(decoded.allPixels == [.init(red: 100, green: 50, blue: 0, alpha: 100), .init(red: 0, green: 0, blue: 0, alpha: 0)])
    }

    @Test func straightPixelsRoundTripExactlyWhenOpaque() throws {
        let bytes = (0..<256).flatMap { i -> [UInt8] in [UInt8(i), UInt8(255 - i), UInt8(i / 3), 255] }
        let image = try CGImage(width: 16, height: 16, straightRGBA: bytes)
        #expect(try straightRGBA(of: PNGEncoder().encode(image)) == bytes)
    }

    @Test(arguments: [-1, 10, 100])
    func rejectsCompressionLevelsOutsideZeroToNine(level: Int) {
        #expect(throws: PNGError.invalidCompressionLevel(level)) {
            try PNGEncoder(options: .init(compressionLevel: level, filter: .none)).encode(Self.sample)
        }
    }

    @Test func pngDataMatchesTheEncoder() throws {
        #expect(try Self.sample.pngData() == Data(PNGEncoder().encode(Self.sample)))
        #expect(try Self.sample.pngData(options: .smallest) == Data(PNGEncoder(options: .smallest).encode(Self.sample)))
    }

    /// Filters do their job: on a picture with gradients, Up, Paeth and
    /// adaptive filtering make smaller files than no filter at the same level.
    @Test func filtersMakeGradientsSmaller() throws {
        var bytes: [UInt8] = []
        for y in 0..<64 { for x in 0..<64 { bytes += [UInt8(x * 4), UInt8(y * 4), UInt8((x + y) * 2), 255] } }
        let gradient = try CGImage(width: 64, height: 64, straightRGBA: bytes)
        let unfiltered = try PNGEncoder(options: .init(compressionLevel: 1, filter: .none)).encode(gradient)
        for filter in [PNGEncoder.Filter.up, .paeth, .adaptive] {
            #expect(try PNGEncoder(options: .init(compressionLevel: 1, filter: filter)).encode(gradient).count < unfiltered.count, "\(filter)")
        }
    }

    @Test func encodesOneByOneAndWiderThanLibpngsReadLimit() throws {
        let dot = try CGImage(width: 1, height: 1, premultipliedRGBA: [1, 2, 3, 4])
        #expect(try PNGDecoder().decode(PNGEncoder().encode(dot)) == dot)
        // PNG allows 2^31 - 1 per side; libpng's reader stops at 1,000,000.
        let wide = try CGImage(width: 1_000_001, height: 1, filledWith: .init(red: 1, green: 2, blue: 3, alpha: 255))
        let png = try PNGEncoder().encode(wide)
        #expect(Array(png[16..<20]) == FixturePNG.bigEndian(1_000_001))
        #expect(throws: PNGError.self) { try PNGDecoder().decode(png) }
    }

    /// The file's RGBA8 samples as stored (straight alpha), read through libpng
    /// without the decoder's premultiplication.
    private func straightRGBA(of png: [UInt8]) throws -> [UInt8] {
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        defer { png_image_free(&image) }
        try png.withUnsafeBytes {
            try #require(png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) != 0)
        }
        image.format = PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA
        var pixels = [UInt8](repeating: 0, count: Int(image.width * image.height) * 4)
        try #require(png_image_finish_read(&image, nil, &pixels, 0, nil) != 0)
        return pixels
    }
}

extension PNGEncoder.Options: CustomTestStringConvertible {
    public var testDescription: String { "level \(compressionLevel), \(filter)" }
}
