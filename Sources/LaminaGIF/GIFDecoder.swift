import LaminaCore

/// Decodes a GIF's first picture into a premultiplied `CGImage` of the
/// GIF's screen size: the first image placed at its offset (interlaced or
/// not), through its local or the global colour table, its transparent
/// colour transparent, the rest of the screen transparent; or all of an
/// animated GIF's pictures (`frames(_:maxFrames:)`) with their delays.
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
        var first: CGImage?
        try walk(bytes, maxFrames: 1) { (screen, _) throws(GIFError) in first = try screen.image() }
        guard let first else { throw GIFError("the GIF has no picture") }
        return first
    }

    /// One picture of an animated GIF: the screen as it shows it, and for
    /// how long, in seconds.
    public struct Frame: Sendable {
        public var image: CGImage
        public var duration: Double
    }

    /// The size of the GIF's screen (every picture's size) as its header
    /// says it; nil for bytes too short to be a GIF.
    public static func screenSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard isGIF(bytes), bytes.count >= 10 else { return nil }
        return (Int(bytes[6]) | Int(bytes[7]) << 8, Int(bytes[8]) | Int(bytes[9]) << 8)
    }

    /// How many pictures the GIF has, found without decompressing any.
    public func frameCount(_ bytes: [UInt8]) throws(GIFError) -> Int {
        var count = 0
        try walk(bytes, maxFrames: .max, decoding: false) { (_, _) throws(GIFError) in count += 1 }
        return count
    }

    /// Every picture of an animated GIF as its screen shows it: each drawn
    /// over what the one before left (as its disposal says: kept, cleared
    /// to transparent, or put back as it was), with its delay (under
    /// 0.011 s, 0.1 s, as Apple's ImageIO and browsers play it).
    ///
    /// - Throws: `GIFError` for a damaged GIF, one over the limits, or one
    ///   of more than `maxFrames` pictures (counted before any is decoded).
    public func frames(_ bytes: [UInt8], maxFrames: Int) throws(GIFError) -> [Frame] {
        let count = try frameCount(bytes)
        guard count <= maxFrames else {
            throw GIFError(overLimit: "the GIF has \(count) pictures, over the limit of \(maxFrames)")
        }
        var frames: [Frame] = []
        try walk(bytes, maxFrames: maxFrames) { (screen, delay) throws(GIFError) in
            frames.append(Frame(image: try screen.image(), duration: delay < 0.011 ? 0.1 : delay))
        }
        return frames
    }

    /// Reads the GIF's blocks in order, drawing each picture on the screen
    /// and calling `body` with the screen and the picture's delay, for up
    /// to `maxFrames` pictures; without `decoding`, pictures are skipped
    /// over (counted, not decompressed).
    private func walk(_ bytes: [UInt8], maxFrames: Int, decoding: Bool = true,
                      _ body: (Screen, Double) throws(GIFError) -> Void) throws(GIFError) {
        guard bytes.count <= limits.maxBytes else {
            throw GIFError(overLimit: "the GIF file has \(bytes.count) bytes, over the limit of \(limits.maxBytes)")
        }
        guard bytes.count >= 13, let (width, height) = Self.screenSize(bytes) else { throw GIFError("not a GIF file") }
        var reader = ByteReader(bytes: bytes, at: 10)  // past the signature and the screen's size
        guard width > 0, height > 0 else { throw GIFError("the GIF's screen is \(width) x \(height) pixels") }
        guard width * height <= limits.maxPixels else {
            throw GIFError(overLimit: "the GIF is \(width) x \(height) pixels, over the limit of \(limits.maxPixels)")
        }
        let screenFlags = try reader.byte()
        _ = try reader.bytes(2)  // background colour, aspect
        var globalTable: [UInt8]?
        if screenFlags & 0x80 != 0 { globalTable = try reader.bytes(3 << (Int(screenFlags & 7) + 1)) }
        var screen = Screen(width: width, height: height, pixels: decoding ? [UInt8](repeating: 0, count: width * height * 4) : [])
        var control = GraphicControl()
        var pictures = 0
        while pictures < maxFrames {
            switch try reader.byte() {
            case 0x21:
                let label = try reader.byte()
                let data = try reader.subBlocks()
                if label == 0xF9, data.count >= 4 { control = GraphicControl(data) }
            case 0x2C:
                pictures += 1
                if decoding {
                    let disposed = try picture(&reader, on: &screen, globalTable: globalTable, control: control)
                    try body(screen, control.delay)
                    screen.dispose(disposed, as: control.disposal)
                } else {
                    try skipPicture(&reader)
                    try body(screen, control.delay)
                }
                control = GraphicControl()
            case 0x3B:
                if pictures == 0 { throw GIFError("the GIF has no picture") }
                return
            case let other:
                throw GIFError("a block that is not GIF's (0x\(String(other, radix: 16))) at byte \(reader.at - 1)")
            }
        }
    }

    /// Skips a picture's descriptor, colour table and data.
    private func skipPicture(_ reader: inout ByteReader) throws(GIFError) {
        _ = try reader.bytes(8)
        let flags = try reader.byte()
        if flags & 0x80 != 0 { _ = try reader.bytes(3 << (Int(flags & 7) + 1)) }
        _ = try reader.byte()  // the LZW code size
        try reader.skipSubBlocks()
    }

    /// Draws the next picture onto `screen`; returns the screen as it was
    /// under the picture's rectangle before (for a disposal that restores it).
    private func picture(_ reader: inout ByteReader, on screen: inout Screen, globalTable: [UInt8]?,
                         control: GraphicControl) throws(GIFError) -> Screen.Saved {
        let left = try reader.u16(), top = try reader.u16(), w = try reader.u16(), h = try reader.u16()
        // A picture's rectangle is its own (a damaged file's may be far
        // larger than the screen): its indices are held whole, so it is
        // checked against the limits as the screen is.
        guard w * h <= limits.maxPixels else {
            throw GIFError(overLimit: "a picture of the GIF is \(w) x \(h) pixels, over the limit of \(limits.maxPixels)")
        }
        let flags = try reader.byte()
        var table = globalTable
        if flags & 0x80 != 0 { table = try reader.bytes(3 << (Int(flags & 7) + 1)) }
        guard let table else { throw GIFError("a picture of the GIF has no colour table") }
        let minimumCodeSize = Int(try reader.byte())
        guard (2...11).contains(minimumCodeSize) else { throw GIFError("an LZW code size of \(minimumCodeSize)") }
        let indices = try LZW.decompress(try reader.subBlocks(), minimumCodeSize: minimumCodeSize, count: w * h)
        let saved = screen.save(x: left, y: top, width: w, height: h, whole: control.disposal == 3)
        // Interlaced rows come in four passes: every 8th from 0, 8th from 4, 4th from 2, 2nd from 1.
        var rows = Array(0..<h)
        if flags & 0x40 != 0 {
            rows = Array(stride(from: 0, to: h, by: 8)) + Array(stride(from: 4, to: h, by: 8))
                + Array(stride(from: 2, to: h, by: 4)) + Array(stride(from: 1, to: h, by: 2))
        }
        let (width, height) = (screen.width, screen.height)
        for (k, row) in rows.enumerated() {
            let y = top + row
            guard y < height else { continue }
            for x in 0..<w where left + x < width {
                let index = Int(indices[k * w + x])
                guard index != control.transparent, index * 3 + 2 < table.count else { continue }
                let o = (y * width + left + x) * 4
                screen.pixels[o] = table[index * 3]; screen.pixels[o + 1] = table[index * 3 + 1]
                screen.pixels[o + 2] = table[index * 3 + 2]; screen.pixels[o + 3] = 255
            }
        }
        return saved
    }
}

/// A picture's graphic control extension: its delay, what becomes of it
/// before the next, and its transparent colour.
private struct GraphicControl {
    var delay = 0.0
    var disposal = 0
    var transparent: Int?

    init() {}

    init(_ data: [UInt8]) {
        disposal = Int(data[0] >> 2 & 7)
        delay = Double(Int(data[1]) | Int(data[2]) << 8) / 100
        transparent = data[0] & 1 != 0 ? Int(data[3]) : nil
    }
}

/// The GIF's logical screen: what it shows after each picture.
private struct Screen {
    let width: Int, height: Int
    var pixels: [UInt8]

    /// The screen's pixels under a picture's rectangle, to put back.
    struct Saved {
        var x: Int, y: Int, width: Int, height: Int
        var pixels: [UInt8]?
    }

    func save(x: Int, y: Int, width w: Int, height h: Int, whole: Bool) -> Saved {
        let x0 = min(x, width), y0 = min(y, height)
        let x1 = min(x + w, width), y1 = min(y + h, height)
        var saved = Saved(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        if whole {
            var copy: [UInt8] = []
            copy.reserveCapacity(saved.width * saved.height * 4)
            for row in y0..<y1 { copy += pixels[(row * width + x0) * 4..<(row * width + x1) * 4] }
            saved.pixels = copy
        }
        return saved
    }

    /// After a picture: 2 clears its rectangle, 3 puts back what was there.
    mutating func dispose(_ saved: Saved, as disposal: Int) {
        guard disposal == 2 || disposal == 3, saved.width > 0 else { return }
        for row in 0..<saved.height {
            let at = ((saved.y + row) * width + saved.x) * 4
            if disposal == 3, let old = saved.pixels {
                pixels.replaceSubrange(at..<at + saved.width * 4, with: old[row * saved.width * 4..<(row + 1) * saved.width * 4])
            } else {
                for i in at..<at + saved.width * 4 { pixels[i] = 0 }
            }
        }
    }

    /// The screen as a picture (opaque or clear pixels: already premultiplied).
    func image() throws(GIFError) -> CGImage {
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

    /// Sub-blocks up to their terminator, passed over.
    mutating func skipSubBlocks() throws(GIFError) {
        while true {
            let n = Int(try byte())
            if n == 0 { return }
            guard n <= bytes.count - at else { throw GIFError("the GIF ends early, at byte \(at)") }
            at += n
        }
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
