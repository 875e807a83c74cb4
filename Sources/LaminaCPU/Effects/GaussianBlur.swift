import Foundation

/// A separable Gaussian blur, as used for layer shadows.
///
/// The kernel has standard deviation `sigma` pixels and reaches `ceil(3·sigma)`
/// pixels each side (covering 99.7% of the weight; the weights are normalised
/// to sum to one, so the blur preserves the total of every channel).
struct GaussianBlur: Sendable {
    /// Standard deviation in pixels.
    let sigma: Double
    /// How far the kernel reaches each side, in pixels: `ceil(3·sigma)`.
    let radius: Int
    /// The `2·radius + 1` normalised weights, centre in the middle.
    let weights: [Float]

    /// A blur of standard deviation `sigma` pixels (0 leaves pictures unchanged).
    init(sigma: Double) throws {
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

    /// Which channels a blur reads and writes.
    enum Channels: Sendable {
        /// All four (premultiplied colour and alpha).
        case rgba
        /// Only alpha, and every channel of the result is the blurred alpha
        /// (white): for coverage masks such as a shadow's shape, a quarter of
        /// the work of `rgba` and the same result on a white mask.
        case alphaAsWhite
    }

    /// `pixmap` blurred, grown by `radius` pixels on every side so that nothing
    /// spreads off the edge: pixel (x, y) of the input lands at
    /// (x + radius, y + radius). Pixels beyond the input count as transparent.
    func apply(to pixmap: Pixmap, channels: Channels = .rgba) throws -> Pixmap {
        let r = radius
        try Pixmap.checkSize(pixmap.width + 2 * r, pixmap.height + 2 * r, "blurred pixmap")
        guard r > 0 else { return channels == .rgba ? pixmap : Self.white(pixmap) }
        switch (channels, sigma >= Self.boxApproximationSigma) {
        case (.rgba, false): return direct(pixmap, RGBALayout.self)
        case (.alphaAsWhite, false): return direct(pixmap, AlphaLayout.self)
        case (.rgba, true): return boxApproximation(of: pixmap, RGBALayout.self)
        case (.alphaAsWhite, true): return boxApproximation(of: pixmap, AlphaLayout.self)
        }
    }

    /// The pixmap with every channel set to its alpha.
    private static func white(_ pixmap: Pixmap) -> Pixmap {
        var data = pixmap.data
        for i in stride(from: 0, to: data.count, by: 4) {
            data[i] = data[i + 3]; data[i + 1] = data[i + 3]; data[i + 2] = data[i + 3]
        }
        return Pixmap(uncheckedWidth: pixmap.width, height: pixmap.height, data: data)
    }

    /// The Gaussian kernel applied directly (small sigmas), in `L`'s channels.
    private func direct<L: BlurLayout>(_ pixmap: Pixmap, _: L.Type) -> Pixmap {
        let r = radius, n = L.count
        let outWidth = pixmap.width + 2 * r, outHeight = pixmap.height + 2 * r
        let inWidth = pixmap.width, inHeight = pixmap.height
        let taps = weights.count

        // Horizontal pass into floats: `inHeight` rows of `outWidth` pixels.
        var horizontal = [Float](repeating: 0, count: outWidth * inHeight * n)
        horizontal.withUnsafeMutableBufferPointer { tmpBuffer in
            pixmap.data.withUnsafeBufferPointer { srcBuffer in
                weights.withUnsafeBufferPointer { kernel in
                    guard let tmp = tmpBuffer.baseAddress, let src = srcBuffer.baseAddress,
                        let k = kernel.baseAddress
                    else { return }
                    for y in 0..<inHeight {
                        let srcRow = src + y * inWidth * 4, tmpRow = tmp + y * outWidth * n
                        // Scatter each input pixel over the outputs it reaches:
                        // input x reaches outputs x ... x + 2r.
                        for x in 0..<inWidth {
                            let s = srcRow + x * 4
                            if s[3] == 0 { continue }  // premultiplied: all channels are 0
                            let c = L.load(s)
                            var t = tmpRow + x * n
                            for i in 0..<taps {
                                let wt = k[i]
                                for j in 0..<n { t[j] += c[j] * wt }
                                t += n
                            }
                        }
                    }
                }
            }
        }

        // Vertical pass, same scatter order, one output row at a time.
        var out = [UInt8](repeating: 0, count: outWidth * outHeight * 4)
        out.withUnsafeMutableBufferPointer { outBuffer in
            horizontal.withUnsafeBufferPointer { tmpBuffer in
                weights.withUnsafeBufferPointer { kernel in
                    guard let dst = outBuffer.baseAddress, let tmp = tmpBuffer.baseAddress,
                        let k = kernel.baseAddress
                    else { return }
                    let rowFloats = outWidth * n
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
                            let o = dst + y * outWidth * 4
                            for x in 0..<outWidth { L.store(acc + x * n, into: o + x * 4) }
                        }
                    }
                }
            }
        }
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

    /// The blur as three box passes per axis over a float copy (in `L`'s
    /// channels) grown by `radius` (the boxes reach at most that far in all).
    private func boxApproximation<L: BlurLayout>(of pixmap: Pixmap, _: L.Type) -> Pixmap {
        let r = radius, n = L.count
        let w = pixmap.width + 2 * r, h = pixmap.height + 2 * r
        let boxRadii = Self.boxWidths(sigma: sigma).map { ($0 - 1) / 2 }
        var buffer = [Float](repeating: 0, count: w * h * n)
        var other = [Float](repeating: 0, count: w * h * n)
        var line = [Float](repeating: 0, count: w * n)
        buffer.withUnsafeMutableBufferPointer { bufferPointer in
          other.withUnsafeMutableBufferPointer { otherPointer in
            line.withUnsafeMutableBufferPointer { linePointer in
                guard let b = bufferPointer.baseAddress, let o = otherPointer.baseAddress,
                      let scratch = linePointer.baseAddress else { return }
                pixmap.data.withUnsafeBufferPointer { source in
                    guard let src = source.baseAddress else { return }
                    for y in 0..<pixmap.height {
                        let from = src + y * pixmap.width * 4, to = b + ((y + r) * w + r) * n
                        for x in 0..<pixmap.width {
                            let c = L.load(from + x * 4)
                            for j in 0..<n { to[x * n + j] = c[j] }
                        }
                    }
                }
                // Rows that hold content, then every column.
                for y in r..<(r + pixmap.height) {
                    for boxRadius in boxRadii {
                        Self.boxPass(b + y * w * n, count: w, stride: n, radius: boxRadius, scratch: scratch, L.self)
                    }
                }
                // Columns a whole row at a time (running sums of every column
                // at once, from one plane into the other): rows stream through
                // the cache, where walking down one column touches a new cache
                // line per pixel.
                var (from, to) = (b, o)
                for boxRadius in boxRadii {
                    Self.verticalBoxPass(from, into: to, rowFloats: w * n, rows: h, radius: boxRadius, sum: scratch)
                    swap(&from, &to)
                }
                if from != b { b.update(from: from, count: w * h * n) }
            }
          }
        }
        var out = [UInt8](repeating: 0, count: w * h * 4)
        buffer.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                guard let from = source.baseAddress, let to = target.baseAddress else { return }
                for i in 0..<(w * h) { L.store(from + i * n, into: to + i * 4) }
            }
        }
        return Pixmap(uncheckedWidth: w, height: h, data: out)
    }

    /// One box blur of `radius` down every column of a plane of `rows` rows
    /// of `rowFloats` floats, from `source` into `target`, with transparent
    /// rows beyond its ends. `sum` holds a row of running sums.
    private static func verticalBoxPass(_ source: UnsafeMutablePointer<Float>, into target: UnsafeMutablePointer<Float>,
                                        rowFloats: Int, rows: Int, radius: Int, sum: UnsafeMutablePointer<Float>) {
        guard radius > 0 else {
            target.update(from: source, count: rowFloats * rows)
            return
        }
        let scale = 1 / Float(2 * radius + 1)
        sum.update(repeating: 0, count: rowFloats)
        for y in 0..<min(radius, rows) {
            let row = source + y * rowFloats
            for i in 0..<rowFloats { sum[i] += row[i] }
        }
        for y in 0..<rows {
            let enter = y + radius, leave = y - radius - 1
            if enter < rows {
                let row = source + enter * rowFloats
                for i in 0..<rowFloats { sum[i] += row[i] }
            }
            if leave >= 0 {
                let row = source + leave * rowFloats
                for i in 0..<rowFloats { sum[i] -= row[i] }
            }
            let out = target + y * rowFloats
            for i in 0..<rowFloats { out[i] = sum[i] * scale }
        }
    }

    /// One box blur of `radius` along a line of `count` pixels of `L`'s
    /// channels, `stride` floats apart, in place, with transparent pixels
    /// beyond its ends: a running sum, so the cost does not depend on the radius.
    private static func boxPass<L: BlurLayout>(_ p: UnsafeMutablePointer<Float>, count: Int, stride: Int, radius: Int,
                                               scratch: UnsafeMutablePointer<Float>, _: L.Type) {
        guard radius > 0 else { return }
        let n = L.count
        for i in 0..<count {
            let q = p + i * stride, s = scratch + i * n
            for j in 0..<n { s[j] = q[j] }
        }
        let scale = 1 / Float(2 * radius + 1)
        var sum = SIMD4<Float>.zero
        for i in 0..<min(radius, count) {
            let s = scratch + i * n
            for j in 0..<n { sum[j] += s[j] }
        }
        for i in 0..<count {
            let enter = i + radius, leave = i - radius - 1
            if enter < count {
                let s = scratch + enter * n
                for j in 0..<n { sum[j] += s[j] }
            }
            if leave >= 0 {
                let s = scratch + leave * n
                for j in 0..<n { sum[j] -= s[j] }
            }
            let q = p + i * stride
            for j in 0..<n { q[j] = sum[j] * scale }
        }
    }
}

/// How a blur holds a pixel in floats: all four channels, or alpha alone.
/// A type, not a value, so each layout gets its own specialised loops.
private protocol BlurLayout {
    /// Floats per pixel.
    static var count: Int { get }
    /// The floats of the RGBA8 pixel at `pixel` (the first `count` lanes).
    static func load(_ pixel: UnsafePointer<UInt8>) -> SIMD4<Float>
    /// Rounds `count` floats back to an RGBA8 premultiplied pixel.
    static func store(_ floats: UnsafePointer<Float>, into pixel: UnsafeMutablePointer<UInt8>)
}

private enum RGBALayout: BlurLayout {
    static var count: Int { 4 }

    @inline(__always)
    static func load(_ pixel: UnsafePointer<UInt8>) -> SIMD4<Float> {
        SIMD4(Float(pixel[0]), Float(pixel[1]), Float(pixel[2]), Float(pixel[3]))
    }

    /// Same weights on every channel keep colour ≤ alpha before rounding, but
    /// running sums can leave a colour a rounding error above its alpha:
    /// clamp, so the result stays premultiplied.
    @inline(__always)
    static func store(_ floats: UnsafePointer<Float>, into pixel: UnsafeMutablePointer<UInt8>) {
        let a = UInt8(min(max(floats[3] + 0.5, 0), 255))
        for c in 0..<3 { pixel[c] = min(a, UInt8(min(max(floats[c] + 0.5, 0), 255))) }
        pixel[3] = a
    }
}

private enum AlphaLayout: BlurLayout {
    static var count: Int { 1 }

    @inline(__always)
    static func load(_ pixel: UnsafePointer<UInt8>) -> SIMD4<Float> {
        SIMD4(Float(pixel[3]), 0, 0, 0)
    }

    @inline(__always)
    static func store(_ floats: UnsafePointer<Float>, into pixel: UnsafeMutablePointer<UInt8>) {
        let a = UInt8(min(max(floats[0] + 0.5, 0), 255))
        pixel[0] = a; pixel[1] = a; pixel[2] = a; pixel[3] = a
    }
}
