import Foundation

/// The taps of one direction of a separable Gaussian blur, using linear
/// texture filtering to read two kernel entries with one tap.
///
/// Entry k (k texels from the centre) weighs the integral of the Gaussian
/// over that texel, Φ((k + ½)/σ) − Φ((k − ½)/σ), which stays right for
/// small σ where sampling the density would not. The kernel reaches
/// ⌈3σ⌉ texels each side and is normalized to sum to 1.
struct GaussianKernel: Equatable {
    /// (offset in texels, weight) pairs, symmetric about 0.
    let taps: [(offset: Float, weight: Float)]

    /// The most taps `blur.frag` takes (its MAX_TAPS).
    static let maximumTaps = 128
    /// The largest σ whose kernel fits in `maximumTaps`: radius ⌈3σ⌉ ≤ 126.
    static let maximumSigma = 42.0

    /// The kernel for `sigma` texels; σ ≤ 0 gives one tap of weight 1 (a copy).
    init(sigma: Double) {
        guard sigma > 0 else {
            taps = [(0, 1)]
            return
        }
        let radius = max(1, Int((3 * sigma).rounded(.up)))
        func cumulative(_ x: Double) -> Double { 0.5 * (1 + erf(x / (sigma * 2.0.squareRoot()))) }
        var entries = (0...radius + 1).map { k -> Double in
            k > radius ? 0 : cumulative(Double(k) + 0.5) - cumulative(Double(k) - 0.5)
        }
        let total = entries[0] + 2 * entries[1...radius].reduce(0, +)
        entries = entries.map { $0 / total }

        var result: [(Float, Float)] = [(0, Float(entries[0]))]
        var k = 1
        while k <= radius {
            let weight = entries[k] + entries[k + 1]
            let offset = (Double(k) * entries[k] + Double(k + 1) * entries[k + 1]) / weight
            result.append((Float(offset), Float(weight)))
            result.append((Float(-offset), Float(weight)))
            k += 2
        }
        taps = result
    }

    /// Interleaved offset, weight pairs for the `u_taps` uniform.
    var uniformValues: [Float] { taps.flatMap { [$0.offset, $0.weight] } }

    static func == (lhs: GaussianKernel, rhs: GaussianKernel) -> Bool {
        lhs.taps.elementsEqual(rhs.taps) { $0.offset == $1.offset && $0.weight == $1.weight }
    }
}
