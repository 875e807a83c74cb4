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
        if sigma >= Self.boxApproximationSigma { return boxApproximation(of: pixmap) }
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

    /// From this sigma on, three box blurs stand in for the Gaussian: the
    /// direct kernel costs 6·sigma taps per pixel and pass, the boxes a
    /// constant, and by the central limit theorem three boxes of the right
    /// widths differ from the Gaussian by under 3% of its peak (Kovesi, "Fast
    /// almost-Gaussian filtering", 2010), well below what a shadow shows.
    static let boxApproximationSigma = 4.0

    /// The widths (odd) of three boxes whose combined variance is sigma².
    static func boxWidths(sigma: Double, count n: Int = 3) -> [Int] {
        let ideal = (12 * sigma * sigma / Double(n) + 1).squareRoot()
        var lower = Int(ideal.rounded(.down))
        if lower % 2 == 0 { lower -= 1 }
        let l = Double(lower)
        let m = ((12 * sigma * sigma - Double(n) * l * l - 4 * Double(n) * l - 3 * Double(n)) / (-4 * l - 4)).rounded()
        return (0..<n).map { $0 < Int(m) ? lower : lower + 2 }
    }

    /// The blur as three box passes per axis over a float copy grown by
    /// `radius` (the boxes reach at most that far in all).
    private func boxApproximation(of pixmap: Pixmap) -> Pixmap {
        let r = radius
        let w = pixmap.width + 2 * r, h = pixmap.height + 2 * r
        let boxRadii = Self.boxWidths(sigma: sigma).map { ($0 - 1) / 2 }
        var buffer = [Float](repeating: 0, count: w * h * 4)
        var line = [Float](repeating: 0, count: max(w, h) * 4)
        buffer.withUnsafeMutableBufferPointer { bufferPointer in
            line.withUnsafeMutableBufferPointer { linePointer in
                guard let b = bufferPointer.baseAddress, let scratch = linePointer.baseAddress else { return }
                pixmap.data.withUnsafeBufferPointer { source in
                    guard let src = source.baseAddress else { return }
                    for y in 0..<pixmap.height {
                        let from = src + y * pixmap.width * 4, to = b + ((y + r) * w + r) * 4
                        for i in 0..<(pixmap.width * 4) { to[i] = Float(from[i]) }
                    }
                }
                // Rows that hold content, then every column.
                for y in r..<(r + pixmap.height) {
                    for boxRadius in boxRadii {
                        Self.boxPass(b + y * w * 4, count: w, stride: 4, radius: boxRadius, scratch: scratch)
                    }
                }
                for x in 0..<w {
                    for boxRadius in boxRadii {
                        Self.boxPass(b + x * 4, count: h, stride: w * 4, radius: boxRadius, scratch: scratch)
                    }
                }
            }
        }
        // Running sums can leave a colour a rounding error above its alpha:
        // clamp, so the result stays premultiplied.
        var out = [UInt8](repeating: 0, count: w * h * 4)
        for i in stride(from: 0, to: out.count, by: 4) {
            let a = UInt8(min(max(buffer[i + 3] + 0.5, 0), 255))
            for c in 0..<3 { out[i + c] = min(a, UInt8(min(max(buffer[i + c] + 0.5, 0), 255))) }
            out[i + 3] = a
        }
        return Pixmap(uncheckedWidth: w, height: h, data: out)
    }

    /// One box blur of `radius` along a line of `count` RGBA float pixels
    /// `stride` floats apart, in place, with transparent pixels beyond its
    /// ends: a running sum, so the cost does not depend on the radius.
    private static func boxPass(_ p: UnsafeMutablePointer<Float>, count: Int, stride: Int, radius: Int, scratch: UnsafeMutablePointer<Float>) {
        guard radius > 0 else { return }
        for i in 0..<count {
            let q = p + i * stride, s = scratch + i * 4
            s[0] = q[0]; s[1] = q[1]; s[2] = q[2]; s[3] = q[3]
        }
        let scale = 1 / Float(2 * radius + 1)
        var a0: Float = 0, a1: Float = 0, a2: Float = 0, a3: Float = 0
        for i in 0..<min(radius, count) {
            let s = scratch + i * 4
            a0 += s[0]; a1 += s[1]; a2 += s[2]; a3 += s[3]
        }
        for i in 0..<count {
            let enter = i + radius, leave = i - radius - 1
            if enter < count {
                let s = scratch + enter * 4
                a0 += s[0]; a1 += s[1]; a2 += s[2]; a3 += s[3]
            }
            if leave >= 0 {
                let s = scratch + leave * 4
                a0 -= s[0]; a1 -= s[1]; a2 -= s[2]; a3 -= s[3]
            }
            let q = p + i * stride
            q[0] = a0 * scale; q[1] = a1 * scale; q[2] = a2 * scale; q[3] = a3 * scale
        }
    }
}
