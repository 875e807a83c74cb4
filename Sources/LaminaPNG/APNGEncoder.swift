import Foundation
import LaminaCore

/// Animated PNG (APNG): a PNG whose first frame is the ordinary picture, so
/// every viewer shows at least that, and whose `acTL`, `fcTL` and `fdAT`
/// chunks make browsers play the rest.
///
/// Frames are added one at a time as they are made; each is compressed at
/// once (as `PNGEncoder` would), so the encoder holds compressed frames,
/// never pictures. Every frame covers the whole canvas and replaces the one
/// before it (`APNG_DISPOSE_OP_NONE`, `APNG_BLEND_OP_SOURCE`), which is what
/// a rendered sequence is.
///
/// ```swift
/// var apng = try APNGEncoder(width: 600, height: 400, frameCount: 90)
/// for i in 0..<90 { try apng.add(frames[i], delay: (1, 30)) }
/// try FileIO.writeFileAtomically(apng.finish(), toPath: "spin.png")
/// ```
public struct APNGEncoder {
    /// Every frame's width in pixels.
    public let width: Int
    /// Every frame's height in pixels.
    public let height: Int
    /// How many frames the file will hold (written in its header first).
    public let frameCount: Int
    /// How many times the animation plays; 0 is forever.
    public let loopCount: Int
    private let encoder: PNGEncoder
    private var output: [UInt8] = []
    private var added = 0
    private var sequence: UInt32 = 0

    /// - Throws: `PNGError.tooLargeForPNG` for a size PNG cannot hold.
    public init(width: Int, height: Int, frameCount: Int, loopCount: Int = 0, options: PNGEncoder.Options = .fast) throws {
        guard width > 0, height > 0, width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF, frameCount > 0 else {
            throw PNGError.tooLargeForPNG(width: width, height: height)
        }
        self.width = width
        self.height = height
        self.frameCount = frameCount
        self.loopCount = max(0, loopCount)
        encoder = PNGEncoder(options: options)
    }

    /// Adds the next frame, shown for `delay.numerator / delay.denominator`
    /// seconds.
    /// - Throws: `PNGError` when the image is not of the encoder's size, or
    ///   more frames are added than `frameCount`.
    public mutating func add(_ image: CGImage, delay: (numerator: UInt16, denominator: UInt16)) throws {
        guard image.width == width, image.height == height else {
            throw PNGError.corrupt("frame \(added) is \(image.width)x\(image.height), not \(width)x\(height)")
        }
        guard added < frameCount else {
            throw PNGError.corrupt("frame \(added) is one more than the \(frameCount) announced")
        }
        let png = try encoder.encode(image)
        var ihdr: [UInt8] = [], idat: [[UInt8]] = []
        try png.withUnsafeBytes { raw in
            try PNGChunkScanner.forEachChunk(in: raw) { type, body in
                if type == .ihdr { ihdr = Array(raw[body]) }
                if type == .idat { idat.append(Array(raw[body])) }
            }
        }
        if added == 0 {
            output = PNGChunkScanner.signature
            appendChunk("IHDR", ihdr)
            appendChunk("acTL", Self.uint32(UInt32(frameCount)) + Self.uint32(UInt32(loopCount)))
        }
        var control = Self.uint32(sequence) + Self.uint32(UInt32(width)) + Self.uint32(UInt32(height))
        control += Self.uint32(0) + Self.uint32(0)  // x and y offsets
        control += Self.uint16(delay.numerator) + Self.uint16(max(1, delay.denominator))
        control += [0, 0]  // dispose: none; blend: source
        appendChunk("fcTL", control)
        sequence += 1
        for data in idat {
            if added == 0 {
                appendChunk("IDAT", data)
            } else {
                appendChunk("fdAT", Self.uint32(sequence) + data)
                sequence += 1
            }
        }
        added += 1
    }

    /// The whole file.
    /// - Throws: `PNGError.corrupt` when fewer frames were added than announced.
    public mutating func finish() throws -> [UInt8] {
        guard added == frameCount else {
            throw PNGError.corrupt("\(added) frames were added of the \(frameCount) announced")
        }
        appendChunk("IEND", [])
        return output
    }

    private mutating func appendChunk(_ type: String, _ data: [UInt8]) {
        PNGChunk.append(type, data, to: &output)
    }

    private static func uint32(_ v: UInt32) -> [UInt8] { PNGChunk.bigEndian(v) }
    private static func uint16(_ v: UInt16) -> [UInt8] { PNGChunk.bigEndian(v) }
}
