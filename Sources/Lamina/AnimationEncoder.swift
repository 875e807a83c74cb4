import Foundation
import LaminaCore
import LaminaGIF
import LaminaIO
import LaminaPNG
import LaminaWebP

/// One animated file made from a timeline's frames, given in order: an
/// animated PNG, an animated WebP, an animated GIF, or an H.264 MP4.
///
/// The one place that knows how each format carries a frame's time, so
/// `lamina frames`, the render server and a Swift program make the same
/// bytes from the same frames: APNG delays are exact fractions of a second,
/// WebP delays are milliseconds whose rounding is carried from frame to
/// frame (so they add up to the true times), GIF starts are whole
/// centiseconds each rounded on its own (`GIFEncoder`), and an MP4 plays at the
/// timeline's rate. Frames are encoded as they are added; the encoder never
/// holds pictures, only the compressed file (ffmpeg holds what x264 looks
/// ahead over).
///
/// ```swift
/// let timeline = try AnimationTimeline(start: 0, end: 3, framesPerSecond: 30)
/// let encoder = try AnimationEncoder(.webp, width: 600, height: 400, timeline: timeline)
/// try FrameRenderer(timeline: timeline, makeScene: { scene }).render { _, image in try encoder.add(image) }
/// let bytes = try encoder.finish()
/// ```
public final class AnimationEncoder {
    /// A format of animated file.
    public enum Format: String, Sendable, CaseIterable {
        case apng, webp, gif, mp4

        /// The media type a server answers with.
        public var mediaType: String {
            switch self {
            case .apng: "image/apng"
            case .webp: "image/webp"
            case .gif: "image/gif"
            case .mp4: "video/mp4"
            }
        }

        /// Whether this machine can write the format: MP4 needs the
        /// `ffmpeg` program.
        public var isAvailable: Bool { self != .mp4 || VideoEncoder.ffmpeg != nil }

        /// The longest side a picture of the format may have: WebP's 14-bit
        /// sizes, the largest H.264 level's frame.
        public var maximumSide: Int {
            switch self {
            case .apng: Int(Int32.max)
            case .webp: 16383
            case .gif: GIFEncoder.maximumSide
            case .mp4: 8192
            }
        }

        /// The format in words: "an animated GIF".
        public var name: String {
            switch self {
            case .apng: "an animated PNG"
            case .webp: "an animated WebP"
            case .gif: "an animated GIF"
            case .mp4: "an MP4 (H.264)"
            }
        }

        /// Refuses, in words, a size the format cannot hold: checked before
        /// any frame is drawn.
        public func check(width: Int, height: Int) throws(AnimationEncoderError) {
            guard width > 0, height > 0, width <= maximumSide, height <= maximumSide else {
                throw AnimationEncoderError("\(name) holds pictures up to \(maximumSide) pixels a side, not \(width)x\(height)")
            }
        }
    }

    /// How the file plays.
    public struct Options: Sendable {
        /// How many times an animated PNG, WebP or GIF plays; 0 is forever.
        /// (An MP4 plays once; a player loops it.)
        public var loopCount = 0
        /// WebP: lossy at this quality, 0...100; nil is lossless.
        /// MP4: unused (x264's visually lossless rate, CRF 18).
        public var quality: Double?
        /// The compression of an animated PNG's frames.
        public var png = PNGEncoder.Options.fast

        /// Options with their defaults: play forever, lossless WebP, fast PNG compression.
        public init(loopCount: Int = 0, quality: Double? = nil, png: PNGEncoder.Options = .fast) {
            self.loopCount = loopCount
            self.quality = quality
            self.png = png
        }
    }

    /// The file format frames are encoded in.
    public let format: Format
    /// The frames expected: how many, and how long each shows.
    public let timeline: AnimationTimeline
    /// Frames added so far.
    public private(set) var frameCount = 0

    private var apng: APNGEncoder?
    private let webp: WebPAnimationEncoder?
    private let gif: GIFEncoder?
    private let video: VideoEncoder?
    /// Where ffmpeg writes the MP4 before `finish` reads it.
    private let videoPath: String?

    /// An encoder for `timeline`'s frames in `format`.
    /// - Parameters:
    ///   - format: animated PNG, WebP, GIF or MP4.
    ///   - width: each frame's width in pixels.
    ///   - height: each frame's height in pixels.
    ///   - timeline: the frames' times: how many, and how long each shows.
    ///   - options: the loop count, the WebP quality, the PNG compression.
    ///   - temporaryDirectory: where ffmpeg writes an MP4 before
    ///     `finish` reads it back (and removes it).
    /// - Throws: `PNGError`, `WebPError`, `GIFError` or `VideoError` when the format
    ///   cannot hold a `width` x `height` picture, or (MP4) ffmpeg is
    ///   missing or cannot start.
    public init(_ format: Format, width: Int, height: Int, timeline: AnimationTimeline, options: Options = .init(),
                temporaryDirectory: String = NSTemporaryDirectory()) throws {
        try format.check(width: width, height: height)
        self.format = format
        self.timeline = timeline
        switch format {
        case .apng:
            apng = try APNGEncoder(width: width, height: height, frameCount: timeline.count,
                                   loopCount: options.loopCount, options: options.png)
            (webp, gif, video, videoPath) = (nil, nil, nil, nil)
        case .webp:
            webp = try WebPAnimationEncoder(width: width, height: height, loopCount: options.loopCount, quality: options.quality)
            (gif, video, videoPath) = (nil, nil, nil)
        case .gif:
            gif = try GIFEncoder(width: width, height: height, loopCount: options.loopCount)
            (webp, video, videoPath) = (nil, nil, nil)
        case .mp4:
            let path = temporaryDirectory + "/lamina-video-\(String(UInt64.random(in: 0...UInt64.max), radix: 36)).mp4"
            video = try VideoEncoder(path: path, width: width, height: height, framesPerSecond: timeline.framesPerSecond)
            (webp, gif, videoPath) = (nil, nil, path)
        }
    }

    deinit {
        if let videoPath { unlink(videoPath) }
    }

    /// Encodes the next frame, shown for its share of the timeline.
    /// - Throws: the format's error for a frame of another size, or one
    ///   frame more than the timeline has.
    public func add(_ image: CGImage) throws {
        guard frameCount < timeline.count else {
            throw AnimationEncoderError("frame \(frameCount) is one more than the timeline's \(timeline.count)")
        }
        let index = frameCount
        if apng != nil { try apng!.add(image, delay: timeline.delayFraction(ofFrame: index)) }
        try webp?.add(image, durationMilliseconds: timeline.delayInMilliseconds(ofFrame: index))
        try gif?.add(image, startingAt: timeline.centiseconds(atFrame: index))
        try video?.add(image)
        frameCount += 1
    }

    /// Ends the file and returns its bytes.
    /// - Throws: `AnimationEncoderError` when frames are missing; the
    ///   format's error when it cannot be finished.
    public func finish() throws -> [UInt8] {
        guard frameCount == timeline.count else {
            throw AnimationEncoderError("\(frameCount) frames were added of the timeline's \(timeline.count)")
        }
        if apng != nil { return try apng!.finish() }
        if let webp { return try webp.finish() }
        if let gif { return try gif.finish(endingAt: timeline.centiseconds(atFrame: timeline.count)) }
        guard let video, let videoPath else { return [] }
        try video.finish()
        defer { unlink(videoPath) }
        return try FileIO.readFile(atPath: videoPath, maxBytes: Int.max)
    }

    /// Ends the file and writes it at `path` (replacing it at once, so a
    /// reader never sees half a file).
    public func finish(writingTo path: String) throws {
        try FileIO.writeFileAtomically(try finish(), toPath: path)
    }
}

/// Frames that do not make the timeline's file.
public struct AnimationEncoderError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, in words for a message.
    public var description: String
    /// An error that says `description`.
    public init(_ description: String) { self.description = description }
}
