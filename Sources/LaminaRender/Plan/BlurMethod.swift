import Foundation

/// How a Gaussian blur of a mask is computed, decided once by the plan so
/// that every backend blurs the same way (they used to differ: one
/// integrated the Gaussian over each texel and worked on halved pictures
/// above σ 8, the other point-sampled it and switched to box passes at σ 4).
///
/// A wide blur first halves the picture (each halving exactly by 2, a 2x2
/// box average; an odd side is padded with a transparent texel) as long as
/// at least `minimumHalvedSigma` pixels of deviation would be left on the
/// halved picture, blurs there with a separable kernel, and scales back up
/// bilinearly by exactly the factor it went down by: a Gaussian that wide
/// has nothing left at the frequencies the smaller picture cannot hold, and
/// the work falls by four per halving. The kernel's deviation is what
/// remains once the variance the halvings and the final upscale add is
/// taken off. A narrower kernel on a halved picture
/// would show the box and tent shapes of the halving and the upscale: 1.6
/// to 2.6 levels (of 255) from the exact blur at 4.4 texels left, against
/// at most 0.6 from 6 texels (measured on a square's blur, `EffectsTests`).
///
/// ```swift
/// let method = BlurMethod(sigma: 20)   // 1 halving, then σ ≈ 9.9 on the half picture
/// method.weights                       // [centre, ±1, ±2, ...], summing to 1 over both sides
/// ```
package struct BlurMethod: Hashable, Sendable {
    /// The deviation asked for, in pixels of the picture being blurred.
    public let sigma: Double
    /// How many times the picture is halved before the kernel runs.
    public let halvings: Int
    /// The separable kernel at the halved scale, integrated over each
    /// texel: `weights[0]` at the centre, `weights[k]` at offsets ±k;
    /// `weights[0] + 2·Σ weights[1...]` is 1. Reaches `⌈3σ'⌉` texels.
    public let weights: [Double]

    /// The least deviation, in pixels of the halved picture, that a halving
    /// leaves for the kernel: smaller deviations are blurred at full size.
    public static let minimumHalvedSigma = 6.0

    /// The method for a deviation of `sigma` pixels (0 or less, or not a
    /// number: a copy).
    public init(sigma: Double) {
        guard sigma.isFinite, sigma > 0 else {
            self.sigma = 0; halvings = 0; weights = [1]
            return
        }
        self.sigma = sigma
        var scale = 1.0, halvings = 0, prefilterVariance = 0.0
        while sigma / (2 * scale) >= Self.minimumHalvedSigma, halvings < 30 {
            // A 2x2 box of texels `scale` wide blurs by variance (2 scale)² / 12.
            prefilterVariance += scale * scale / 3
            scale *= 2
            halvings += 1
        }
        self.halvings = halvings
        // Bilinear upsampling is a tent of half-width `scale`.
        let upsampleVariance = halvings > 0 ? scale * scale / 6 : 0
        let remaining = (max(sigma * sigma - prefilterVariance - upsampleVariance, 0)).squareRoot() / scale
        weights = Self.kernel(sigma: remaining)
    }

    /// The Gaussian of deviation `sigma` integrated over each texel, to
    /// `⌈3σ⌉` texels each side, normalised.
    public static func kernel(sigma: Double) -> [Double] {
        guard sigma > 0 else { return [1] }
        let radius = max(1, Int((3 * sigma).rounded(.up)))
        func cumulative(_ x: Double) -> Double { 0.5 * (1 + erf(x / (sigma * 2.0.squareRoot()))) }
        let raw = (0...radius).map { k in cumulative(Double(k) + 0.5) - cumulative(Double(k) - 0.5) }
        let total = raw[0] + 2 * raw[1...].reduce(0, +)
        return raw.map { $0 / total }
    }

    /// The size of the picture after one halving: `ceil(n / 2)`.
    public static func halved(_ n: Int) -> Int { (n + 1) / 2 }
}
