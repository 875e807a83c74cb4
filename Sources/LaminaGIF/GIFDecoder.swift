import LaminaCore

/// Decodes a GIF's first picture into a premultiplied `CGImage` of the
/// GIF's screen size: the first image placed at its offset (interlaced or
/// not), through its local or the global colour table, its transparent
/// colour transparent, the rest of the screen transparent.
///
/// The screen's size is checked against `limits` before a pixel is
/// allocated, and decompression stops when the image is full, so a small
/// file that claims a huge picture, or codes that never end, cost nothing.
///
/// ```swift
/// let image = try GIFDecoder(limits: .init(maxPixels: 16 << 20, maxBytes: 8 << 20)).decode(bytes)
/// ```
public struct GIFDecoder: Sendable {
    /// Resource limits checked before decoding.
    public typealias Limits = ImageDecodingLimits

    public var limits: Limits

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Whether `bytes` start as a GIF file does (`GIF87a` or `GIF89a`).
    public static func isGIF(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 6 && (bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)))
    }

    /// - Throws: `GIFError` for data that is not a GIF, is damaged,
    ///   or is over the limits.
    public func decode(_ bytes: [UInt8]) throws(GIFError) -> CGImage {
        guard bytes.count <= limits.maxBytes else {
            throw GIFError(overLimit: "the GIF file has \(bytes.count) bytes, over the limit of \(limits.maxBytes)")
        }
        guard Self.isGIF(bytes), bytes.count >= 13 else { throw GIFError("not a GIF file") }
        var reader = ByteReader(bytes: bytes, at: 6)
        let width = try reader.u16(), height = try reader.u16()
        guard width > 0, height > 0 else { throw GIFError("the GIF's screen is \(width) x \(height) pixels") }
        guard width * height <= limits.maxPixels else {
            throw GIFError(overLimit: "the GIF is \(width) x \(height) pixels, over the limit of \(limits.maxPixels)")
        }
        let screenFlags = try reader.byte()
        _ = try reader.bytes(2)  // background colour, aspect
        var globalTable: [UInt8]?
        if screenFlags & 0x80 != 0 { globalTable = try reader.bytes(3 << (Int(screenFlags & 7) + 1)) }
        var transparent: Int?
        while true {
            switch try reader.byte() {
            case 0x21:
                let label = try reader.byte()
                let data = try reader.subBlocks()
                if label == 0xF9, data.count >= 4, data[0] & 1 != 0 { transparent = Int(data[3]) }
            case 0x2C:
                return try image(&reader, width: width, height: height, globalTable: globalTable, transparent: transparent)
            case 0x3B:
                throw GIFError("the GIF has no picture")
            case let other:
                throw GIFError("a block that is not GIF's (0x\(String(other, radix: 16))) at byte \(reader.at - 1)")
            }
        }
    }

    private func image(_ reader: inout ByteReader, width: Int, height: Int, globalTable: [UInt8]?,
                       transparent: Int?) throws(GIFError) -> CGImage {
        let left = try reader.u16(), top = try reader.u16(), w = try reader.u16(), h = try reader.u16()
        let flags = try reader.byte()
        var table = globalTable
        if flags & 0x80 != 0 { table = try reader.bytes(3 << (Int(flags & 7) + 1)) }
        guard let table else { throw GIFError("the GIF's first picture has no colour table") }
        let minimumCodeSize = Int(try reader.byte())
        guard (2...11).contains(minimumCodeSize) else { throw GIFError("an LZW code size of \(minimumCodeSize)") }
        let indices = try LZW.decompress(try reader.subBlocks(), minimumCodeSize: minimumCodeSize, count: w * h)
        // Interlaced rows come in four passes: every 8th from 0, 8th from 4, 4th from 2, 2nd from 1.
        var rows = Array(0..<h)
        if flags & 0x40 != 0 {
            rows = Array(stride(from: 0, to: h, by: 8)) + Array(stride(from: 4, to: h, by: 8))
                + Array(stride(from: 2, to: h, by: 4)) + Array(stride(from: 1, to: h, by: 2))
        }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for (k, row) in rows.enumerated() {
            let y = top + row
            guard y < height else { continue }
            for x in 0..<w where left + x < width {
                let index = Int(indices[k * w + x])
                guard index != transparent, index * 3 + 2 < table.count else { continue }
                let o = (y * width + left + x) * 4
                pixels[o] = table[index * 3]; pixels[o + 1] = table[index * 3 + 1]; pixels[o + 2] = table[index * 3 + 2]
                pixels[o + 3] = 255
            }
        }
        // Opaque or clear pixels: already premultiplied.
        do { return try CGImage(width: width, height: height, premultipliedRGBA: pixels) } catch {
            throw GIFError("the GIF's picture could not be made: \(error)")
        }
    }
}

/// Bytes read in order, each read checked against the end.
private struct ByteReader {
    let bytes: [UInt8]
    var at: Int

    mutating func byte() throws(GIFError) -> UInt8 {
        guard at < bytes.count else { throw GIFError("the GIF ends early, at byte \(at)") }
        defer { at += 1 }
        return bytes[at]
    }

    mutating func u16() throws(GIFError) -> Int { Int(try byte()) | Int(try byte()) << 8 }

    mutating func bytes(_ n: Int) throws(GIFError) -> [UInt8] {
        guard n <= bytes.count - at else { throw GIFError("the GIF ends early, at byte \(at)") }
        defer { at += n }
        return Array(bytes[at..<at + n])
    }

    /// Sub-blocks up to their terminator, joined.
    mutating func subBlocks() throws(GIFError) -> [UInt8] {
        var out: [UInt8] = []
        while true {
            let n = Int(try byte())
            if n == 0 { return out }
            out += try bytes(n)
        }
    }
}
