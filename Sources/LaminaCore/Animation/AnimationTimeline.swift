import Foundation

/// The times at which an animated layer tree is sampled for a sequence of
/// frames, and how long each frame shows.
///
/// Frame `i` is the tree at `start + i / framesPerSecond` seconds (Core
/// Animation's media time), for every `i` whose time falls before `end`:
/// the frames cover `[start, end)`, so two sequences end to end repeat no
/// frame. Each frame shows for `1 / framesPerSecond` seconds; formats whose
/// delays are whole milliseconds get delays whose sum never drifts from the
/// true times (each frame ends at the millisecond nearest its true end).
///
/// ```swift
/// let timeline = try AnimationTimeline(start: 0, end: 1, framesPerSecond: 30)
/// timeline.count          // 30
/// timeline.time(ofFrame: 3)   // 0.1
/// ```
public struct AnimationTimeline: Hashable, Sendable {
    /// The media time of the first frame.
    public let start: CFTimeInterval
    /// The media time the sequence ends at (no frame starts there).
    public let end: CFTimeInterval
    /// Frames per second.
    public let framesPerSecond: Double
    /// The number of frames: the `i >= 0` with `start + i / fps < end`, at
    /// least one.
    public let count: Int

    /// The most frames a timeline may have.
    public static let maximumFrames = 1_000_000

    /// - Throws: `AnimationTimelineError` when a number is not finite, the
    ///   rate is not positive, the end is not after the start, or there would
    ///   be more than `maximumFrames` frames.
    public init(start: CFTimeInterval, end: CFTimeInterval, framesPerSecond: Double) throws(AnimationTimelineError) {
        // At least a frame every 1000 s: a frame's delay must fit the formats'
        // fields (WebP's 24-bit milliseconds) and its arithmetic an Int.
        guard framesPerSecond.isFinite, framesPerSecond >= 0.001, framesPerSecond <= 1000 else {
            throw AnimationTimelineError("the frame rate must be a number from 0.001 to 1000, got \(Quoted.number(framesPerSecond))")
        }
        guard start.isFinite, end.isFinite else {
            throw AnimationTimelineError("the start and end must be finite times, got \(Quoted.number(start)) and \(Quoted.number(end))")
        }
        guard end > start else {
            throw AnimationTimelineError("the end (\(Quoted.number(end)) s) must come after the start (\(Quoted.number(start)) s)")
        }
        // Frames i with i < (end - start) * fps; a product a rounding error
        // above a whole number does not add a frame.
        let exact = (end - start) * framesPerSecond
        let whole = exact.rounded()
        let frames = abs(exact - whole) < 1e-9 * max(1, whole) ? whole : exact.rounded(.up)
        guard frames <= Double(Self.maximumFrames) else {
            throw AnimationTimelineError("\(Quoted.number(frames)) frames is more than the \(Self.maximumFrames) a sequence may have")
        }
        self.start = start
        self.end = end
        self.framesPerSecond = framesPerSecond
        count = max(1, Int(frames))
    }

    /// The media time of frame `index`.
    public func time(ofFrame index: Int) -> CFTimeInterval {
        start + Double(index) / framesPerSecond
    }

    /// Frame `index`'s delay in whole milliseconds: the distance between
    /// the milliseconds nearest its start and its end, so that the delays of
    /// frames `0..<k` add up to `k / fps` seconds within half a millisecond.
    public func delayInMilliseconds(ofFrame index: Int) -> Int {
        let startMs = (Double(index) * 1000 / framesPerSecond).rounded()
        let endMs = (Double(index + 1) * 1000 / framesPerSecond).rounded()
        return Int(endMs - startMs)
    }

    /// When frame `index` starts, in whole centiseconds after the first
    /// (GIF's unit), each start rounded on its own so that no delay drifts:
    /// frame `count` is the end of the last.
    public func centiseconds(atFrame index: Int) -> Int {
        Int((Double(index) * 100 / framesPerSecond).rounded())
    }

    /// Frame `index`'s delay as a fraction of a second that fits 16-bit
    /// numerator and denominator (APNG's `delay_num/delay_den`): exactly
    /// `1/fps` for a whole rate, else whole milliseconds as above.
    public func delayFraction(ofFrame index: Int) -> (numerator: UInt16, denominator: UInt16) {
        if framesPerSecond == framesPerSecond.rounded(), framesPerSecond <= 65535 {
            return (1, UInt16(framesPerSecond))
        }
        let milliseconds = delayInMilliseconds(ofFrame: index)
        // Over 65.535 s a frame's delay is whole seconds (up to 1000).
        return milliseconds <= 65535 ? (UInt16(milliseconds), 1000) : (UInt16(clamping: (milliseconds + 500) / 1000), 1)
    }
}

/// A timeline that cannot be made, in words for the person who asked.
public struct AnimationTimelineError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
    /// The scene location of what caused it (`$.sublayers[2].animations[0]`), when one thing did.
    public var path: String?
    /// An error that says `description`, caused at `path`.
    public init(_ description: String, path: String? = nil) {
        self.description = description
        self.path = path
    }
}

extension CALayer {
    /// When the last animation of this tree (the layer, its mask and every
    /// sublayer) stops changing, in media time: the end of the latest
    /// active interval, repeat counts, autoreversing, speed and begin times
    /// included. Nil when no layer has an animation.
    /// - Throws: `AnimationTimelineError` naming the layer and the key when
    ///   an animation never ends (an infinite repeat count), as the sequence
    ///   then needs a length given.
    public func animationsEnd() throws(AnimationTimelineError) -> CFTimeInterval? {
        var latest: CFTimeInterval?
        try collectAnimationsEnd(into: &latest, path: "$")
        return latest
    }

    private func collectAnimationsEnd(into latest: inout CFTimeInterval?, path: String) throws(AnimationTimelineError) {
        for (index, entry) in animationEntries.enumerated() {
            guard let interval = AnimationTimingModel(entry.animation).activeInterval else { continue }
            guard interval.end.isFinite else {
                let name = entry.key.map { "'\($0)'" } ?? "number \(index)"
                throw AnimationTimelineError("the animation \(name) of the layer at \(path) never ends; give the sequence a length",
                                             path: path + ".animations[\(index)]")
            }
            latest = max(latest ?? interval.end, interval.end)
        }
        try maskStorage?.collectAnimationsEnd(into: &latest, path: path + ".mask")
        for (i, sublayer) in sublayerStorage.enumerated() {
            try sublayer.collectAnimationsEnd(into: &latest, path: path + ".sublayers[\(i)]")
        }
    }
}
