import Foundation
import LaminaCore

/// A trim as a `CAShapeLayer`'s `strokeStart` and `strokeEnd`, computed as
/// lottie-ios's Core Animation engine computes them.
///
/// Core Animation wants `0 ≤ strokeStart ≤ strokeEnd ≤ 1`; Lottie's start
/// and end may cross, and its offset (a turn is the whole path) may carry
/// the window past either end of the path. So:
/// - a start at or above its end at every keyframe is the same window the
///   other way round; start and end that cross are taken, at each sampled
///   frame, as the smaller and the larger;
/// - the offset is added to both; where the window reaches below 0 or above
///   100, the path is drawn `copies` times over, one copy after the other,
///   the window moved up by whole copies until it starts at or above 0 and
///   divided by the count.
struct LottieTrimWindow {
    /// Percent of one copy of the path.
    var start: LottieProperty<Double>
    var end: LottieProperty<Double>
    /// How many times over the path is drawn (1 to 16).
    var copies: Int

    /// The most copies: a window further on than that is drawn at its end.
    static let copyLimit = 16

    init(_ trim: LottieTrim) {
        var start = trim.start ?? .fixed(0), end = trim.end ?? .fixed(100)
        let keyFrames = Set(start.frames + end.frames).sorted()
        let frames = keyFrames.isEmpty ? [0] : keyFrames
        if frames.allSatisfy({ start.value(at: $0) <= end.value(at: $0) }) {
            // As written.
        } else if frames.allSatisfy({ start.value(at: $0) >= end.value(at: $0) }) {
            swap(&start, &end)
        } else {
            let (s, e) = (start, end)
            start = .sampled(at: [s.frames, e.frames]) { min(s.value(at: $0), e.value(at: $0)) }
            end = .sampled(at: [s.frames, e.frames]) { max(s.value(at: $0), e.value(at: $0)) }
        }
        guard let offset = trim.offset, offset.isAnimated || offset.initial != 0 else {
            self.init(start: start, end: end, copies: 1)
            return
        }
        let (s, e) = (start, end)
        let frameLists = [s.frames, e.frames, offset.frames]
        var turnedStart = LottieProperty<Double>.sampled(at: frameLists) { s.value(at: $0) + offset.value(at: $0) / 360 * 100 }
        var turnedEnd = LottieProperty<Double>.sampled(at: frameLists) { e.value(at: $0) + offset.value(at: $0) / 360 * 100 }
        func values(_ p: LottieProperty<Double>) -> [Double] {
            let all: [Double] = if case .keyed(let keys) = p { keys.map(\.value) } else { [p.initial] }
            return all.filter(\.isFinite)
        }
        let below = max(0, -((values(turnedStart).min() ?? 0) / 100).rounded(.down))
        let above = ((values(turnedEnd).max() ?? 100) / 100).rounded(.up)
        let shiftCopies = min(below, Double(Self.copyLimit))
        if shiftCopies > 0 {
            turnedStart = turnedStart.map { $0 + shiftCopies * 100 }
            turnedEnd = turnedEnd.map { $0 + shiftCopies * 100 }
        }
        let copies = Int(min(max(1, above + shiftCopies), Double(Self.copyLimit)))
        self.init(start: turnedStart, end: turnedEnd, copies: copies)
    }

    private init(start: LottieProperty<Double>, end: LottieProperty<Double>, copies: Int) {
        self.start = start
        self.end = end
        self.copies = copies
    }

    /// `path` drawn `copies` times over, one after the other.
    func repeated(_ path: PathData) -> PathData {
        guard copies > 1 else { return path }
        var out = PathData()
        for _ in 0..<copies { out.append(path) }
        return out
    }

    /// Sets (and animates) the layer's `strokeStart` and `strokeEnd`.
    func apply(to layer: CAShapeLayer, time: LottieTime) {
        let copies = Double(self.copies)
        func fraction(_ percent: Double) -> CGFloat { CGFloat(min(max(percent / 100 / copies, 0), 1)) }
        // Where start still passes end, Core Animation draws nothing.
        LottieAnimator.apply(start, to: layer, keyPath: "strokeStart", time: time) { fraction($0) }
        LottieAnimator.apply(end, to: layer, keyPath: "strokeEnd", time: time) { fraction($0) }
    }
}
