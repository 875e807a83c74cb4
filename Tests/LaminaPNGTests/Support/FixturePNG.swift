/// A small PNG writer for test fixtures, written from the PNG specification
/// and independent of libpng, so the decoder is checked against a second
/// implementation. It writes every colour type, bit depth and Adam7
/// interlacing, with uncompressed ("stored") deflate blocks and filter type 0,
/// which every decoder must accept.
struct FixturePNG {
    enum ColorType: UInt8, CaseIterable, CustomStringConvertible {
        case grey = 0, rgb = 2, palette = 3, greyAlpha = 4, rgba = 6

        var channels: Int {
            switch self {
            case .grey, .palette: return 1
            case .greyAlpha: return 2
            case .rgb: return 3
            case .rgba: return 4
            }
        }

        /// The bit depths PNG allows for this colour type.
        var bitDepths: [Int] {
            switch self {
            case .grey: return [1, 2, 4, 8, 16]
            case .palette: return [1, 2, 4, 8]
            case .rgb, .greyAlpha, .rgba: return [8, 16]
            }
        }

        var description: String {
            switch self {
            case .grey: return "grey"
            case .rgb: return "RGB"
            case .palette: return "palette"
            case .greyAlpha: return "grey+alpha"
            case .rgba: return "RGBA"
            }
        }
    }

    var width: Int
    var height: Int
    var colorType: ColorType
    var bitDepth: Int
    var interlaced = false
    /// `channels` samples per pixel at `bitDepth`, row by row from the top;
    /// palette images hold indices.
    var samples: [UInt16]
    /// PLTE entries (palette images only).
    var palette: [(red: UInt8, green: UInt8, blue: UInt8)] = []
    /// The tRNS chunk's data, if any.
    var transparency: [UInt8]?
    /// Chunks placed between the header chunks and IDAT, e.g. gAMA.
    var extraChunks: [(type: String, data: [UInt8])] = []

    func sample(x: Int, y: Int, channel: Int) -> UInt16 {
        samples[(y * width + x) * colorType.channels + channel]
    }

    /// The complete PNG file.
    func encoded() -> [UInt8] {
        var png = Self.signature
        png += Self.chunk("IHDR", Self.ihdr(
            width: UInt32(width), height: UInt32(height), bitDepth: UInt8(bitDepth),
            colorType: colorType.rawValue, interlace: interlaced ? 1 : 0))
        if !palette.isEmpty {
            png += Self.chunk("PLTE", palette.flatMap { [$0.red, $0.green, $0.blue] })
        }
        if let transparency { png += Self.chunk("tRNS", transparency) }
        for extra in extraChunks { png += Self.chunk(extra.type, extra.data) }
        png += Self.chunk("IDAT", Self.zlibStored(scanlines()))
        png += Self.chunk("IEND", [])
        return png
    }

    /// The filtered (filter type 0) scanlines, pass after pass when interlaced.
    func scanlines() -> [UInt8] {
        guard interlaced else {
            return (0..<height).flatMap { y in [0] + packedRow(y: y, xs: Array(0..<width)) }
        }
        // Adam7: (x start, y start, x step, y step) of each of the 7 passes.
        let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        var out: [UInt8] = []
        for (x0, y0, dx, dy) in passes {
            let xs = Array(stride(from: x0, to: width, by: dx))
            guard !xs.isEmpty else { continue }  // an empty pass has no scanlines
            for y in stride(from: y0, to: height, by: dy) {
                out += [0] + packedRow(y: y, xs: xs)
            }
        }
        return out
    }

    /// The samples of the pixels `xs` of row `y`, packed big-endian at `bitDepth`
    /// (sub-byte samples fill each byte from its high bits, rows padded to a byte).
    private func packedRow(y: Int, xs: [Int]) -> [UInt8] {
        var out: [UInt8] = []
        var accumulator = 0, bits = 0
        for x in xs {
            for channel in 0..<colorType.channels {
                let value = Int(sample(x: x, y: y, channel: channel))
                switch bitDepth {
                case 16:
                    out += [UInt8(value >> 8), UInt8(value & 0xFF)]
                case 8:
                    out.append(UInt8(value))
                default:
                    accumulator = accumulator << bitDepth | value
                    bits += bitDepth
                    if bits == 8 { out.append(UInt8(accumulator)); accumulator = 0; bits = 0 }
                }
            }
        }
        if bits > 0 { out.append(UInt8(accumulator << (8 - bits))) }
        return out
    }

    // MARK: Building blocks, also used to make broken files.

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func ihdr(width: UInt32, height: UInt32, bitDepth: UInt8, colorType: UInt8, interlace: UInt8) -> [UInt8] {
        bigEndian(width) + bigEndian(height) + [bitDepth, colorType, 0, 0, interlace]
    }

    /// A chunk: length, type, data and the CRC-32 of type and data.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeAndData = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typeAndData + bigEndian(crc32(typeAndData))
    }

    /// A zlib stream holding `data` in stored (uncompressed) deflate blocks.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]  // deflate, 32 KiB window, check bits
        var start = 0
        repeat {
            let count = min(65_535, data.count - start)
            let isLast = start + count == data.count
            out.append(isLast ? 1 : 0)  // BFINAL, BTYPE 00 (stored)
            out += [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += data[start..<start + count]
            start += count
        } while start < data.count
        return out + bigEndian(adler32(data))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }
}
