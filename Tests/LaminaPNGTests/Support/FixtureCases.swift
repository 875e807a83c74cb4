import LaminaPNG
import Testing

/// One decoding fixture: a colour type, bit depth and layout, with a
/// deterministic pattern of samples that covers each depth's whole range.
struct FixtureCase: Sendable, CustomStringConvertible {
    var colorType: FixturePNG.ColorType
    var bitDepth: Int
    var interlaced: Bool
    var width = 13
    var height = 11

    var description: String {
        "\(colorType) \(bitDepth)-bit \(width)x\(height)\(interlaced ? " interlaced" : "")"
    }

    /// Every colour type and bit depth PNG allows, plain and interlaced.
    static let all: [FixtureCase] = FixturePNG.ColorType.allCases.flatMap { colorType in
        colorType.bitDepths.flatMap { depth in
            [false, true].map { FixtureCase(colorType: colorType, bitDepth: depth, interlaced: $0) }
        }
    }

    /// The fixture PNG. Alpha samples are forced to the maximum in column 0 and
    /// to 0 in column 1 so that both ends always occur; palette images get a
    /// full palette and a tRNS chunk covering half of it.
    func fixture() -> FixturePNG {
        let maxSample = (1 << bitDepth) - 1
        let channels = colorType.channels
        var samples: [UInt16] = []
        for y in 0..<height {
            for x in 0..<width {
                for channel in 0..<channels {
                    var value = Int(Self.hash(x, y, channel)) & maxSample
                    let isAlpha = (colorType == .greyAlpha || colorType == .rgba) && channel == channels - 1
                    if isAlpha && x == 0 { value = maxSample }
                    if isAlpha && x == 1 { value = 0 }
                    samples.append(UInt16(value))
                }
            }
        }
        var png = FixturePNG(
            width: width, height: height, colorType: colorType, bitDepth: bitDepth,
            interlaced: interlaced, samples: samples)
        if colorType == .palette {
            let entries = 1 << bitDepth
            png.palette = (0..<entries).map { i in
                (red: UInt8(truncatingIfNeeded: i &* 67 &+ 11),
                 green: UInt8(truncatingIfNeeded: i &* 151 &+ 3),
                 blue: UInt8(truncatingIfNeeded: 255 &- i &* 29))
            }
            png.transparency = (0..<max(1, entries / 2)).map { UInt8(truncatingIfNeeded: $0 &* 97) }
        }
        return png
    }

    /// A small integer hash, so samples look random but are reproducible.
    static func hash(_ x: Int, _ y: Int, _ channel: Int) -> UInt32 {
        var h = UInt32(truncatingIfNeeded: x &* 73_856_093 ^ y &* 19_349_663 ^ channel &* 83_492_791 &+ 0x9E37)
        h ^= h >> 13
        h = h &* 0x5BD1_E995
        h ^= h >> 15
        return h
    }
}

extension FixturePNG {
    /// The premultiplied RGBA8 pixels a correct decoder gives for this file,
    /// worked out from the PNG specification: sub-byte samples scale by
    /// `v * 255 / (2^depth - 1)`, 16-bit samples by `round(v / 257)`, tRNS makes
    /// the matching colour (or palette entry) transparent, and colour is
    /// premultiplied by `round(c * a / 255)` (computed here in floating point).
    func expectedPixels() -> [CGImage.Pixel] {
        var pixels: [CGImage.Pixel] = []
        for y in 0..<height {
            for x in 0..<width {
                pixels.append(expectedPixel(x: x, y: y))
            }
        }
        return pixels
    }

    private func to8(_ value: UInt16) -> Int {
        switch bitDepth {
        case 16: return Int((Double(value) / 257).rounded())
        case 8: return Int(value)
        default: return Int(value) * 255 / ((1 << bitDepth) - 1)
        }
    }

    private func expectedPixel(x: Int, y: Int) -> CGImage.Pixel {
        let s = { (channel: Int) in self.sample(x: x, y: y, channel: channel) }
        let key = transparency.map { bytes in
            stride(from: 0, to: bytes.count - 1, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
        }
        let (r, g, b, a): (Int, Int, Int, Int)
        switch colorType {
        case .grey:
            let grey = to8(s(0))
            (r, g, b, a) = (grey, grey, grey, key == [s(0)] ? 0 : 255)
        case .rgb:
            (r, g, b) = (to8(s(0)), to8(s(1)), to8(s(2)))
            a = key == [s(0), s(1), s(2)] ? 0 : 255
        case .palette:
            let index = Int(s(0))
            let entry = palette[index]
            (r, g, b) = (Int(entry.red), Int(entry.green), Int(entry.blue))
            a = index < (transparency?.count ?? 0) ? Int(transparency![index]) : 255
        case .greyAlpha:
            let grey = to8(s(0))
            (r, g, b, a) = (grey, grey, grey, to8(s(1)))
        case .rgba:
            (r, g, b, a) = (to8(s(0)), to8(s(1)), to8(s(2)), to8(s(3)))
        }
        let premultiply = { (c: Int) in UInt8((Double(c) * Double(a) / 255).rounded()) }
        return CGImage.Pixel(red: premultiply(r), green: premultiply(g), blue: premultiply(b), alpha: UInt8(a))
    }
}

extension CGImage {
    /// All pixels, row by row from the top.
    var allPixels: [CGImage.Pixel] {
        (0..<height).flatMap { y in (0..<width).compactMap { x in pixel(x: x, y: y) } }
    }
}

/// Expects `image` to hold `png.expectedPixels()`. A 16-bit interlaced PNG with
/// an alpha channel may be off by 1 in colour (see `Interlaced16BitDecoding`);
/// everything else must match exactly.
func expectPixels(_ image: CGImage, match png: FixturePNG, sourceLocation: SourceLocation = #_sourceLocation) {
    let expected = png.expectedPixels()
    let hasAlphaChannel = png.colorType == .greyAlpha || png.colorType == .rgba
    if png.bitDepth == 16 && png.interlaced && hasAlphaChannel {
        let expectedImage = try? CGImage(
            width: png.width, height: png.height,
            premultipliedRGBA: expected.flatMap { [$0.red, $0.green, $0.blue, $0.alpha] })
        #expect(expectedImage.map { maxColorDifference(image, $0) <= 1 } == true, sourceLocation: sourceLocation)
        #expect(image.allPixels.map(\.alpha) == expected.map(\.alpha), sourceLocation: sourceLocation)
    } else {
        #expect(image.allPixels == expected, sourceLocation: sourceLocation)
    }
}

/// The largest difference between two same-sized images in any component.
func maxColorDifference(_ a: CGImage, _ b: CGImage) -> Int {
    guard a.width == b.width, a.height == b.height else { return .max }
    return zip(a.pixelBytes, b.pixelBytes).map { abs(Int($0) - Int($1)) }.max() ?? 0
}
