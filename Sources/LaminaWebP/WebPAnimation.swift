import CWebP
import Foundation
import LaminaCore
import LaminaRaster

/// Animated WebP through libwebp's animation encoder: lossless by default
/// (every pixel as drawn), lossy with a quality. Frames are added one at a
/// time, each with how long it shows in whole milliseconds (WebP's unit);
/// libwebp keeps only what it needs to compare a frame with the one before.
///
/// ```swift
/// let webp = try WebPAnimationEncoder(width: 600, height: 400)
/// for (image, ms) in frames { try webp.add(image, durationMilliseconds: ms) }
/// let bytes = try webp.finish()
/// ```
public final class WebPAnimationEncoder {
    /// Every frame's width in pixels.
    public let width: Int
    /// Every frame's height in pixels.
    public let height: Int
    private let encoder: OpaquePointer
    private var config = WebPConfig()
    private var timestamp = 0
    private var frames = 0

    /// - Parameters:
    ///   - loopCount: how many times it plays; 0 is forever.
    ///   - quality: nil for lossless; 0...100 for lossy.
    /// - Throws: `WebPError` for a size WebP cannot hold (16383 a side) or a
    ///   quality out of range.
    public init(width: Int, height: Int, loopCount: Int = 0, quality: Double? = nil) throws(WebPError) {
        guard (1...16383).contains(width), (1...16383).contains(height) else {
            throw WebPError("a \(width)x\(height) picture is larger than WebP allows (16383 pixels a side)")
        }
        if let quality, !(quality >= 0 && quality <= 100) {
            throw WebPError("the quality must be 0 to 100, got \(Quoted.number(quality))")
        }
        var options = WebPAnimEncoderOptions()
        guard lamina_webp_anim_encoder_options_init(&options) != 0 else { throw WebPError("libwebp's version does not match its headers") }
        options.anim_params.loop_count = Int32(clamping: max(0, loopCount))
        options.allow_mixed = 0
        guard lamina_webp_config_init(&config) != 0 else { throw WebPError("libwebp's version does not match its headers") }
        if let quality {
            config.lossless = 0
            config.quality = Float(quality)
        } else {
            config.lossless = 1
            config.quality = 75  // lossless: the effort spent
        }
        config.method = 4
        guard let made = lamina_webp_anim_encoder_new(Int32(width), Int32(height), &options) else {
            throw WebPError("libwebp could not start an animation encoder")
        }
        self.width = width
        self.height = height
        encoder = made
    }

    deinit { WebPAnimEncoderDelete(encoder) }

    /// Adds the next frame, shown for `durationMilliseconds`.
    /// - Throws: `WebPError` for a frame of another size or one libwebp refuses.
    public func add(_ image: CGImage, durationMilliseconds: Int) throws(WebPError) {
        guard image.width == width, image.height == height else {
            throw WebPError("frame \(frames) is \(image.width)x\(image.height), not \(width)x\(height)")
        }
        var picture = WebPPicture()
        guard lamina_webp_picture_init(&picture) != 0 else { throw WebPError("libwebp's version does not match its headers") }
        defer { WebPPictureFree(&picture) }
        picture.width = Int32(width)
        picture.height = Int32(height)
        picture.use_argb = 1
        // WebP stores straight alpha.
        var straight = [UInt8](repeating: 0, count: image.pixelBytes.count)
        image.pixelBytes.withUnsafeBytes { source in
            straight.withUnsafeMutableBytes { PremultipliedAlpha.unpremultiplyRGBA(source, into: $0) }
        }
        let imported = straight.withUnsafeBufferPointer { WebPPictureImportRGBA(&picture, $0.baseAddress, Int32(width * 4)) }
        guard imported != 0 else { throw WebPError("libwebp could not take frame \(frames) (out of memory?)") }
        guard WebPAnimEncoderAdd(encoder, &picture, Int32(clamping: timestamp), &config) != 0 else {
            throw WebPError("libwebp refused frame \(frames): \(Self.message(encoder))")
        }
        timestamp += max(1, durationMilliseconds)
        frames += 1
    }

    /// The whole file.
    public func finish() throws(WebPError) -> [UInt8] {
        // The end of the last frame.
        guard WebPAnimEncoderAdd(encoder, nil, Int32(clamping: timestamp), nil) != 0 else {
            throw WebPError("libwebp could not end the animation: \(Self.message(encoder))")
        }
        var data = WebPData()
        guard WebPAnimEncoderAssemble(encoder, &data) != 0, let bytes = data.bytes else {
            throw WebPError("libwebp could not assemble the animation: \(Self.message(encoder))")
        }
        defer { WebPFree(UnsafeMutableRawPointer(mutating: bytes)) }
        return Array(UnsafeBufferPointer(start: bytes, count: data.size))
    }

    private static func message(_ encoder: OpaquePointer) -> String {
        WebPAnimEncoderGetError(encoder).map { String(cString: $0) } ?? "no reason given"
    }
}

/// The frames of an animated WebP, decoded: premultiplied pictures of the
/// whole canvas and when each starts, in milliseconds.
public struct WebPAnimation {
    /// The frames, premultiplied, each the whole canvas.
    public var images: [CGImage] = []
    /// When each frame starts, in milliseconds.
    public var timestamps: [Int] = []
    /// How many times it plays; 0 for ever.
    public var loopCount = 0

    /// - Throws: `WebPError` when the data is not an animated WebP libwebp reads.
    public init(decoding bytes: [UInt8]) throws(WebPError) {
        var options = WebPAnimDecoderOptions()
        guard lamina_webp_anim_decoder_options_init(&options) != 0 else { throw WebPError("libwebp's version does not match its headers") }
        options.color_mode = MODE_rgbA  // premultiplied, as CGImage holds
        options.use_threads = 0
        var failure: WebPError?
        bytes.withUnsafeBufferPointer { buffer in
            var data = WebPData(bytes: buffer.baseAddress, size: buffer.count)
            guard let decoder = lamina_webp_anim_decoder_new(&data, &options) else {
                failure = WebPError("not an animated WebP libwebp can read")
                return
            }
            defer { WebPAnimDecoderDelete(decoder) }
            var info = WebPAnimInfo()
            guard WebPAnimDecoderGetInfo(decoder, &info) != 0 else { failure = WebPError("no animation header"); return }
            loopCount = Int(info.loop_count)
            let (w, h) = (Int(info.canvas_width), Int(info.canvas_height))
            while WebPAnimDecoderHasMoreFrames(decoder) != 0 {
                var pixels: UnsafeMutablePointer<UInt8>?
                var time: Int32 = 0
                guard WebPAnimDecoderGetNext(decoder, &pixels, &time) != 0, let pixels else {
                    failure = WebPError("frame \(images.count) cannot be decoded")
                    return
                }
                let copy = Array(UnsafeBufferPointer(start: pixels, count: w * h * 4))
                guard let image = try? CGImage(width: w, height: h, premultipliedRGBA: copy) else {
                    failure = WebPError("frame \(images.count) is not a valid picture")
                    return
                }
                images.append(image)
                timestamps.append(Int(time))
            }
        }
        if let failure { throw failure }
    }
}

/// WebP could not be written or read, in words for a person.
public struct WebPError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, in words for a message.
    public var description: String
    /// The file was refused for a limit (its bytes or its picture's size), not for being damaged.
    public var isOverLimit = false
    /// An error that says `description`.
    public init(_ description: String) { self.description = description }
    /// An error for a file over a limit.
    init(overLimit description: String) {
        self.description = description
        isOverLimit = true
    }
}
