import Foundation

/// How many copies a repeater makes: the whole part of its `c`, at least
/// 0 and at most a million (the layer budget refuses far fewer), over time.
///
/// Core Animation cannot add layers as time passes, so a keyframed count
/// makes as many copies as it ever reaches, and copy `k` is hidden while
/// the count is `k` or less. The moments the count crosses a whole number
/// are found every tenth of a frame from its first keyframe to its last
/// (fewer, evenly, past `LottieTime.maxSamples`), as other values Core
/// Animation cannot ease are sampled; before the first keyframe and after
/// the last the count is held.
///
/// ```swift
/// // c: 0 at frame 0, 18 at frame 21 → 18 copies; copy 5 is hidden until
/// // the count first reaches 6.
/// let copies = RepeaterCount(property)
/// copies.most          // 18
/// copies.shown(copy: 5) // hold keyframes: false, then true
/// ```
struct RepeaterCount {
    /// The whole count at each sampled frame; one sample when it is fixed.
    private let samples: [(frame: Double, count: Int)]
    /// The most copies shown at any moment.
    let most: Int
    /// The keyframes `shown(copy:)` makes for all the copies together: each
    /// step of the count shows or hides that many copies.
    let keyframeCount: Int

    init(_ property: LottieProperty<Double>) {
        func whole(_ c: Double) -> Int { c.isFinite ? Int(max(0, min(c.rounded(.down), 1e6))) : 0 }
        let frames = property.frames
        guard property.isAnimated, let first = frames.min(), let last = frames.max(), last > first else {
            samples = [(0, whole(property.initial))]
            most = samples[0].count
            keyframeCount = 0
            return
        }
        let step = max(0.1, (last - first) / Double(LottieTime.maxSamples))
        let steps = max(1, Int(((last - first) / step).rounded(.up)))
        samples = (0...steps).map { k in
            let frame = min(last, first + Double(k) * step)
            return (frame, whole(property.value(at: frame)))
        }
        most = samples.map(\.count).max() ?? 0
        keyframeCount = zip(samples, samples.dropFirst()).reduce(2 * most) { $0 + abs($1.1.count - $1.0.count) }
    }

    /// Whether copy `k` shows: hold keyframes where that changes; nil when
    /// it shows throughout.
    func shown(copy k: Int) -> LottieProperty<Bool>? {
        var keys: [LottieProperty<Bool>.Keyframe] = []
        for sample in samples where keys.last?.value != (sample.count > k) {
            keys.append(.init(frame: sample.frame, value: sample.count > k, hold: true, easing: nil))
        }
        guard keys.count > 1 else { return keys.first?.value == false ? .fixed(false) : nil }
        // The last change holds to the last sample, and on after it.
        if let last = samples.last, last.frame > keys[keys.count - 1].frame {
            keys.append(.init(frame: last.frame, value: keys[keys.count - 1].value, hold: true, easing: nil))
        }
        return .keyed(keys)
    }
}
