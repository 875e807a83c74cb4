import Foundation

/// A separable Gaussian blur, as used for layer shadows.
///
/// The kernel has standard deviation `sigma` pixels and reaches `ceil(3·sigma)`
/// pixels each side (covering 99.7% of the weight; the weights are normalised
/// to sum to one, so the blur preserves the total of every channel).
public struct GaussianBlur: Sendable {
    /// Standard deviation in pixels.
    public let sigma: Double
    /// How far the kernel reaches each side, in pixels: `ceil(3·sigma)`.
    public let radius: Int
    /// The `2·radius + 1` normalised weights, centre in the middle.
    let weights: [Float]

    /// A blur of standard deviation `sigma` pixels (0 leaves pictures unchanged).
    public init(sigma: Double) throws {
        guard sigma.isFinite, sigma >= 0 else {
            throw CPURenderError.invalidArgument(what: "blur sigma", reason: "must be finite and ≥ 0 (got \(sigma))")
        }
        let r = (3 * sigma).rounded(.up)
        guard r <= Double(Pixmap.maximumDimension) else {
            throw CPURenderError.invalidArgument(what: "blur sigma", reason: "\(sigma) needs a kernel wider than any pixmap")
        }
        self.sigma = sigma
        radius = Int(r)
        guard radius > 0 else {
            weights = [1]
            return
        }
        // The centre is 1 outright: for a vanishing sigma, 0/0 would make it NaN.
        let raw = (-radius...radius).map { i in i == 0 ? 1 : exp(-Double(i * i) / (2 * sigma * sigma)) }
        let total = raw.reduce(0, +)
        weights = raw.map { Float($0 / total) }
    }

    /// `pixmap` blurred, grown by `radius` pixels on every side so that nothing
    /// spreads off the edge: pixel (x, y) of the input lands at
    /// (x + radius, y + radius). Pixels beyond the input count as transparent.
    public func apply(to pixmap: Pixmap) throws -> Pixmap {
        let r = radius
        let outWidth = pixmap.width + 2 * r, outHeight = pixmap.height + 2 * r
        try Pixmap.checkSize(outWidth, outHeight, "blurred pixmap")
        guard r > 0 else { return pixmap }
        let inWidth = pixmap.width, inHeight = pixmap.height
        let taps = weights.count

        // Horizontal pass into floats: `inHeight` rows of `outWidth` pixels.
        var horizontal = [Float](repeating: 0, count: outWidth * inHeight * 4)
        horizontal.withUnsafeMutableBufferPointer { tmpBuffer in
            pixmap.data.withUnsafeBufferPointer { srcBuffer in
                weights.withUnsafeBufferPointer { kernel in
                    guard let tmp = tmpBuffer.baseAddress, let src = srcBuffer.baseAddress,
                        let k = kernel.baseAddress
                    else { return }
                    for y in 0..<inHeight {
                        let srcRow = src + y * inWidth * 4, tmpRow = tmp + y * outWidth * 4
                        // Scatter each input pixel over the outputs it reaches:
                        // input x reaches outputs x ... x + 2r.
                        for x in 0..<inWidth {
                            let s = srcRow + x * 4
                            if s[3] == 0 { continue }  // premultiplied: all channels are 0
                            let c0 = Float(s[0]), c1 = Float(s[1]), c2 = Float(s[2]), c3 = Float(s[3])
                            var t = tmpRow + x * 4
                            for i in 0..<taps {
                                let wt = k[i]
                                t[0] += c0 * wt; t[1] += c1 * wt; t[2] += c2 * wt; t[3] += c3 * wt
                                t += 4
                            }
                        }
                    }
                }
            }
        }

        // Vertical pass into bytes, same scatter order, one output row at a time.
        var out = [UInt8](repeating: 0, count: outWidth * outHeight * 4)
        out.withUnsafeMutableBufferPointer { outBuffer in
            horizontal.withUnsafeBufferPointer { tmpBuffer in
                weights.withUnsafeBufferPointer { kernel in
                    guard let dst = outBuffer.baseAddress, let tmp = tmpBuffer.baseAddress,
                        let k = kernel.baseAddress
                    else { return }
                    let rowFloats = outWidth * 4
                    var sum = [Float](repeating: 0, count: rowFloats)
                    sum.withUnsafeMutableBufferPointer { sumBuffer in
                        guard let acc = sumBuffer.baseAddress else { return }
                        for y in 0..<outHeight {
                            acc.update(repeating: 0, count: rowFloats)
                            // Output row y gathers input rows y − 2r + i for tap i.
                            for i in 0..<taps {
                                let sy = y - 2 * r + i
                                if sy < 0 || sy >= inHeight { continue }
                                let wt = k[i], row = tmp + sy * rowFloats
                                for j in 0..<rowFloats { acc[j] += row[j] * wt }
                            }
                            let o = dst + y * rowFloats
                            for j in 0..<rowFloats {
                                o[j] = UInt8(min(max(acc[j] + 0.5, 0), 255))
                            }
                        }
                    }
                }
            }
        }
        // Same weights on every channel keep colour ≤ alpha before rounding,
        // and rounding is monotonic, so the result is still premultiplied.
        return Pixmap(uncheckedWidth: outWidth, height: outHeight, data: out)
    }
}
