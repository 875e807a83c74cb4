import LaminaCore

/// An animated (or still) GIF, written frame by frame: galleries and chat
/// apps want GIF.
///
/// Each frame gets its own palette of up to 256 colours, chosen by
/// libimagequant and dithered (`GIFPalette`); pixels at least half opaque
/// are drawn opaque, the rest transparent. Frames are whole pictures
/// disposed to the background, so transparency never shows the frame
/// before. Times are whole centiseconds, GIF's unit, each frame's start
/// rounded on its own so that delays never drift from the true times; a
/// frame that would start less than 2 centiseconds after the one before is
/// left out (browsers slow any shorter delay to a tenth of a second), its
/// time going to the frame before, so an animation over 50 frames a second
/// keeps its length.
///
/// ```swift
/// let gif = try GIFEncoder(width: 240, height: 240, loopCount: 0)
/// for (k, frame) in frames.enumerated() { try gif.add(frame, startingAt: k * 4) }   // 25 fps
/// let bytes = try gif.finish(endingAt: frames.count * 4)
/// ```
package final class GIFEncoder {
    /// The widest and tallest picture GIF holds.
    package static let maximumSide = 65535

    package let width: Int
    package let height: Int
    /// libimagequant's speed, 1 (best) to 10 (fastest).
    package var speed = 4

    private var bytes: [UInt8] = []
    /// The last frame added, held until the next one says how long it shows.
    private var pending: (start: Int, palette: GIFPalette)?

    /// An encoder of `width` x `height` frames that play `loopCount` times
    /// (0: forever).
    package init(width: Int, height: Int, loopCount: Int = 0) throws(GIFError) {
        guard width > 0, height > 0, width <= Self.maximumSide, height <= Self.maximumSide else {
            throw GIFError("a GIF holds pictures up to \(Self.maximumSide) pixels a side, not \(width)x\(height)")
        }
        self.width = width
        self.height = height
        bytes = Array("GIF89a".utf8)
        bytes += le16(width) + le16(height)
        bytes += [0, 0, 0]  // no global colour table; background 0; square pixels
        if loopCount != 1 {
            // NETSCAPE2.0 counts repeats after the first play; 0 is forever.
            bytes += [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [0x03, 0x01]
            bytes += le16(loopCount == 0 ? 0 : min(65535, loopCount - 1)) + [0x00]
        }
    }

    /// Adds a frame (premultiplied RGBA8 of the encoder's size) that starts
    /// `start` centiseconds after the first.
    package func add(_ image: CGImage, startingAt start: Int) throws(GIFError) {
        guard image.width == width, image.height == height else {
            throw GIFError("a frame of \(image.width)x\(image.height) in a \(width)x\(height) GIF")
        }
        if let pending {
            guard start - pending.start >= 2 else { return }  // too soon: the frame before shows on
            write(pending.palette, delay: start - pending.start)
        }
        let palette = try GIFPalette(premultipliedRGBA: image.pixelBytes, width: width, height: height, speed: speed)
        pending = (start, palette)
    }

    /// Ends the file: the last frame shows until `end` centiseconds.
    package func finish(endingAt end: Int) throws(GIFError) -> [UInt8] {
        guard let pending else { throw GIFError("a GIF needs at least one frame") }
        write(pending.palette, delay: max(2, end - pending.start))
        self.pending = nil
        bytes.append(0x3B)
        return bytes
    }

    private func write(_ palette: GIFPalette, delay: Int) {
        var bits = 1
        while 1 << bits < palette.count { bits += 1 }
        // Graphic control: dispose to the background, the delay, transparency.
        let transparent = palette.transparentIndex
        bytes += [0x21, 0xF9, 0x04, UInt8(2 << 2 | (transparent == nil ? 0 : 1))]
        bytes += le16(min(65535, delay)) + [UInt8(transparent ?? 0), 0x00]
        // The image: the whole screen, its own colour table.
        bytes += [0x2C] + le16(0) + le16(0) + le16(width) + le16(height) + [UInt8(0x80 | (bits - 1))]
        bytes += palette.colors
        bytes += [UInt8](repeating: 0, count: (1 << bits) * 3 - palette.colors.count)
        let minimumCodeSize = max(2, bits)
        bytes.append(UInt8(minimumCodeSize))
        bytes += LZW.compress(palette.indices, minimumCodeSize: minimumCodeSize)
    }

    private func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
}

/// A GIF that cannot be written or read, in words; `isOverLimit` when a
/// file is over the decoding limits rather than damaged.
public struct GIFError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
    public var isOverLimit = false
    public init(_ description: String) { self.description = description }
    init(overLimit description: String) { self.description = description; isOverLimit = true }
}
