import Foundation
import LaminaRender

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

    /// The plan's kernel (`BlurMethod.weights`: centre first, then ±k) as
    /// taps that each read between two texels with linear filtering, so one
    /// tap weighs a pair of entries.
    init(weights entries: [Double]) {
        let radius = entries.count - 1
        let entries = entries + [0]
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

    /// The kernel of a Gaussian of `sigma` texels (σ ≤ 0: one tap of weight
    /// 1, a copy).
    init(sigma: Double) {
        self.init(weights: BlurMethod.kernel(sigma: sigma))
    }

    /// Interleaved offset, weight pairs for the `u_taps` uniform.
    var uniformValues: [Float] { taps.flatMap { [$0.offset, $0.weight] } }

    static func == (lhs: GaussianKernel, rhs: GaussianKernel) -> Bool {
        lhs.taps.elementsEqual(rhs.taps) { $0.offset == $1.offset && $0.weight == $1.weight }
    }
}
