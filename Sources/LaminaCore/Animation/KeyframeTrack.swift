import Foundation

/// The values of a keyframe animation laid out on the 0...1 progress of one
/// simple iteration, ready to be sampled.
///
/// A class, made once per animation and read by every frame that samples
/// it (from several threads at once): handing it out is one reference, not
/// a copy of its eight arrays. Nothing changes it once made.
final class KeyframeTrack: @unchecked Sendable {
    let values: [AnimatableValue]
    /// One key time per value (for discrete mode possibly one more), 0...1,
    /// non-decreasing.
    let keyTimes: [Double]
    let mode: CAAnimationCalculationMode
    /// Per-segment pacing (not used by the paced modes).
    let timingFunctions: [CAMediaTimingFunction]
    /// Kochanek-Bartels shape per value, for the cubic modes.
    let tension: [Double], continuity: [Double], bias: [Double]
    /// For an animation along a path: per segment, the control points
    /// between its ends (none for a line, one for a quadratic, two for a cubic).
    let curves: [[CGPoint]]
    /// Whether the animation's first value is a `Float` (its numbers are
    /// then boxed as `Float`s: `CAPropertyAnimation.templateIsFloat`).
    let templateIsFloat: Bool
    /// `mode` told once: a mode is a string, and `value(at:)` asked it
    /// twice a sample.
    private let isDiscrete: Bool, isCubic: Bool
    /// Per value, a transform's decomposition (nil for other values, and
    /// for a transform that has none): made once, where interpolating
    /// two transforms decomposed both at every sample.
    private let decomposed: [DecomposedTransform?]

    init(
        values: [AnimatableValue], templateIsFloat: Bool = false, keyTimes: [Double]?, mode: CAAnimationCalculationMode,
        timingFunctions: [CAMediaTimingFunction], tension: [Double], continuity: [Double], bias: [Double],
        curves: [[CGPoint]] = []
    ) {
        self.curves = curves
        self.templateIsFloat = templateIsFloat
        self.values = values
        self.mode = mode
        isDiscrete = mode == .discrete
        let bools = values.compactMap { if case .opaque(let value) = $0 { value as? Bool } else { nil } }
        self.bools = isDiscrete && bools.count == values.count ? bools : nil
        isCubic = mode.isCubic
        decomposed = values.contains { if case .transform = $0 { true } else { false } }
            ? values.map { if case let .transform(t) = $0 { DecomposedTransform(t) } else { nil } }
            : []
        self.timingFunctions = mode.isPaced ? [] : timingFunctions
        self.tension = tension
        self.continuity = continuity
        self.bias = bias
        let n = values.count
        if mode.isPaced {
            self.keyTimes = Self.pacedKeyTimes(values)
        } else if let keyTimes, Self.keyTimesProblem(keyTimes, valueCount: n, mode: mode) == nil {
            self.keyTimes = keyTimes
        } else if mode == .discrete {
            // Each value shown for an equal share of the duration.
            self.keyTimes = (0..<n).map { Double($0) / Double(max(n, 1)) }
        } else {
            self.keyTimes = Self.evenKeyTimes(n)
        }
    }

    /// Where every value is a `Bool` of discrete keyframes, the values
    /// unboxed (`CAKeyframeAnimation.discreteBool(atTime:)`); nil otherwise.
    let bools: [Bool]?

    /// The value a discrete track shows at `progress`: the last whose key
    /// time is not after it. Nil for one value held alone, which is not
    /// played, as Core Animation does not play it (Apple's pictures of
    /// lottie-ios's lone held keyframes show the layer's own value there).
    func discreteIndex(at progress: Double) -> Int? {
        let n = values.count
        guard n > 1 else { return nil }
        return keyTimes.prefix(n).lastIndex { $0 <= progress } ?? 0
    }

    /// The value at `progress` (0...1, after the animation's own timing function).
    func value(at progress: Double) -> AnimatableValue? {
        let n = values.count
        guard n > 0 else { return nil }
        if isDiscrete {
            guard let index = discreteIndex(at: progress) else { return nil }
            return values[index]
        }
        guard n > 1 else { return values[0] }
        if progress <= keyTimes[0] { return values[0] }
        if progress >= keyTimes[n - 1] { return values[n - 1] }
        let i = min(keyTimes.lastIndex { $0 <= progress } ?? 0, n - 2)
        let span = keyTimes[i + 1] - keyTimes[i]
        var s = span > 0 ? (progress - keyTimes[i]) / span : 1
        if i < timingFunctions.count { s = timingFunctions[i].solve(forInput: s) }
        if i < curves.count, !curves[i].isEmpty,
           let p0 = values[i].asPoint, let p1 = values[i + 1].asPoint {
            // Along the path's curve, at its parameter (Apple's pictures of
            // lottie-ios's curved motion match this, not constant speed).
            let c = curves[i]
            let p = c.count == 1 ? Bezier.point(p0, c[0], p1, at: s) : Bezier.point(p0, c[0], c[1], p1, at: s)
            return .point(p)
        }
        if isCubic, let v = cubicValue(segment: i, s: s) { return v }
        if s != 0, s != 1, i + 1 < decomposed.count, let from = decomposed[i], let to = decomposed[i + 1] {
            // As `TransformInterpolation.interpolate`, with the ends decomposed once.
            return .transform(from.interpolated(to: to, fraction: s).transform)
        }
        // The two values lent where they lie (read out of the list, each
        // was copied and destroyed again at every sample).
        return values.withUnsafeBufferPointer { $0[i].interpolated(to: $0[i + 1], fraction: s) }
    }

    /// The Kochanek-Bartels spline on segment `i` at parameter `s`, as a
    /// weighted sum of the four neighbouring values (the ends repeat), or nil
    /// for values that have no weighted sum (transforms): those fall back to
    /// linear.
    private func cubicValue(segment i: Int, s: Double) -> AnimatableValue? {
        let n = values.count
        func point(_ j: Int) -> AnimatableValue { values[min(max(j, 0), n - 1)] }
        func shape(_ list: [Double], _ j: Int) -> Double { j < list.count ? list[j] : 0 }
        func interval(_ j: Int) -> Double {  // key-time length of segment j, ends repeated
            let j = min(max(j, 0), n - 2)
            return keyTimes[j + 1] - keyTimes[j]
        }
        // Outgoing tangent at i: a·(P[i] - P[i-1]) + b·(P[i+1] - P[i]).
        let (t0, c0, b0) = (shape(tension, i), shape(continuity, i), shape(bias, i))
        let a = (1 - t0) * (1 + b0) * (1 + c0) / 2, b = (1 - t0) * (1 - b0) * (1 - c0) / 2
        // Incoming tangent at i+1: c·(P[i+1] - P[i]) + d·(P[i+2] - P[i+1]).
        let (t1, c1, b1) = (shape(tension, i + 1), shape(continuity, i + 1), shape(bias, i + 1))
        let c = (1 - t1) * (1 + b1) * (1 - c1) / 2, d = (1 - t1) * (1 - b1) * (1 + c1) / 2
        // Scale tangents for unevenly spaced key times, so that the speed
        // does not jump where two segments of different lengths meet.
        let (before, here, after) = (interval(i - 1), interval(i), interval(i + 1))
        let outScale = before + here > 0 ? 2 * here / (before + here) : 1
        let inScale = here + after > 0 ? 2 * here / (here + after) : 1
        // Cubic Hermite basis.
        let s2 = s * s, s3 = s2 * s
        let h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s
        let h01 = -2 * s3 + 3 * s2, h11 = s3 - s2
        let m0 = h10 * outScale, m1 = h11 * inScale
        let terms: [(AnimatableValue, Double)] = [
            (point(i - 1), -m0 * a),
            (point(i), h00 + m0 * (a - b) - m1 * c),
            (point(i + 1), h01 + m0 * b + m1 * (c - d)),
            (point(i + 2), m1 * d),
        ]
        return AnimatableValue.linearCombination(terms)
    }

    static func evenKeyTimes(_ n: Int) -> [Double] {
        n > 1 ? (0..<n).map { Double($0) / Double(n - 1) } : [0]
    }

    /// Key times proportional to the distance travelled, so that the value
    /// changes at a constant rate; even when the distances are unknown or 0.
    static func pacedKeyTimes(_ values: [AnimatableValue]) -> [Double] {
        guard values.count > 1 else { return evenKeyTimes(values.count) }
        var cumulative = [0.0]
        for (a, b) in zip(values, values.dropFirst()) {
            guard let d = a.distance(to: b), d.isFinite else { return evenKeyTimes(values.count) }
            cumulative.append(cumulative[cumulative.count - 1] + d)
        }
        guard let total = cumulative.last, total > 0 else { return evenKeyTimes(values.count) }
        return cumulative.map { $0 / total }
    }

    /// Why `keyTimes` cannot be used with `valueCount` values, or nil.
    static func keyTimesProblem(_ keyTimes: [Double], valueCount n: Int, mode: CAAnimationCalculationMode)
        -> AnimationValidationError?
    {
        let counts = mode == .discrete ? [n, n + 1] : [n]
        guard counts.contains(keyTimes.count) else {
            let expected = counts.map(String.init).joined(separator: " or ")
            return AnimationValidationError(
                property: "keyTimes", problem: "needs \(expected) entries for \(n) values, got \(keyTimes.count)")
        }
        for (i, t) in keyTimes.enumerated() {
            guard t >= 0 && t <= 1 else {
                return AnimationValidationError(property: "keyTimes[\(i)]", problem: "must be in 0...1, got \(t)")
            }
            if i > 0 && t < keyTimes[i - 1] {
                return AnimationValidationError(
                    property: "keyTimes[\(i)]",
                    problem: "must not be less than keyTimes[\(i - 1)] (\(keyTimes[i - 1])), got \(t)")
            }
        }
        return nil
    }
}
