import Foundation
import LaminaRaster
import LaminaRender

/// A mask's alpha blurred by the plan's `BlurMethod`, in white: the CPU's
/// side of `DrawCommand.blurMask`. One channel, in floats.
///
/// The steps are the method's, in the order GL runs them: halve by exactly 2
/// (each texel the mean of a 2x2 box; an odd side padded with transparent
/// texels), blur along rows then columns with the kernel (nothing beyond the
/// picture), scale back up bilinearly by exactly the factor it went down by.
enum MaskBlur {
    static func apply(_ method: BlurMethod, to source: Pixmap) throws -> Pixmap {
        blurred(AlphaPlane(channel: 3, of: source), by: method)
    }

    /// `plane` blurred by `method`, at its own size, as a white mask (every
    /// byte of a pixel the blurred value). The plane's floats go back to the pool.
    static func blurred(_ source: AlphaPlane, by method: BlurMethod) -> Pixmap {
        let width = source.width, height = source.height
        // Every plane's floats come from the pool and go back to it.
        var plane = source
        defer { BufferPool.floats.giveBack(plane.values) }
        guard width > 0, height > 0, method.sigma > 0 else { return plane.whitePixmap() }
        var scale = 1
        for _ in 0..<method.halvings where plane.width > 1 || plane.height > 1 {
            let half = plane.halved()
            BufferPool.floats.giveBack(plane.values)
            plane = half
            scale *= 2
        }
        plane.convolve(with: method.weights.map(Float.init))
        return scale > 1 ? plane.upscaledWhitePixmap(by: scale, toWidth: width, height: height) : plane.whitePixmap()
    }
}

/// One channel of floats, 0...255, rows top to bottom.
struct AlphaPlane {
    var width: Int
    var height: Int
    var values: [Float]

    init(width: Int, height: Int, values: [Float]) {
        self.width = width; self.height = height; self.values = values
    }

    /// One channel of `pixmap` (0 red ... 3 alpha, premultiplied bytes).
    init(channel: Int, of pixmap: Pixmap) {
        let n = pixmap.width * pixmap.height
        width = pixmap.width; height = pixmap.height
        values = BufferPool.floats.take(count: n, zeroed: false)
        values.withUnsafeMutableBufferPointer { out in
            pixmap.data.withUnsafeBufferPointer { src in
                for i in 0..<n { out[i] = Float(src[i * 4 + channel]) }
            }
        }
    }

    /// Every channel the rounded alpha (a white mask, premultiplied).
    func whitePixmap() -> Pixmap {
        var data = BufferPool.pixels.take(count: width * height * 4, zeroed: false)
        data.withUnsafeMutableBytes { out in
            for i in 0..<(width * height) {
                out.storeBytes(of: Self.whitePixel(values[i]), toByteOffset: i * 4, as: UInt32.self)
            }
        }
        return Pixmap(uncheckedWidth: width, height: height, data: data)
    }

    /// The white premultiplied pixel of alpha `value` (0...255, rounded
    /// half up): `UInt8(min(255, max(0, value + 0.5)))` in every byte.
    ///
    /// Written without a float-to-integer conversion, whose range checks
    /// kept loops of it from being vectorized: adding 2²³ to a float in
    /// 0...255 leaves it rounded to the nearest integer (ties to even) in
    /// its low mantissa bits, one less when that rounded up is the floor.
    /// The same byte for every float (`EffectsTests.whitePixelsRoundAsBefore`).
    @inline(__always)
    static func whitePixel(_ value: Float) -> UInt32 {
        var y = value + 0.5
        y = y >= 0 ? y : 0  // as max(0, y), NaN included
        y = y < 255 ? y : 255  // as min(255, y)
        let magic: Float = 8_388_608
        let nearest = (y + magic) - magic
        let floor = nearest > y ? nearest - 1 : nearest
        let byte = (floor + magic).bitPattern & 0xFF
        return byte | byte << 8 | byte << 16 | byte << 24
    }

    /// Half the size (rounded up), each value the mean of the 2x2 block it
    /// covers; beyond the plane counts as 0 (an odd side's padding).
    func halved() -> AlphaPlane {
        let w = BlurMethod.halved(width), h = BlurMethod.halved(height)
        var out = BufferPool.floats.take(count: w * h, zeroed: false)
        values.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    let y0 = 2 * y, y1 = 2 * y + 1
                    for x in 0..<w {
                        let x0 = 2 * x, x1 = 2 * x + 1
                        var sum = src[y0 * width + x0]
                        if x1 < width { sum += src[y0 * width + x1] }
                        if y1 < height {
                            sum += src[y1 * width + x0]
                            if x1 < width { sum += src[y1 * width + x1] }
                        }
                        dst[y * w + x] = sum * 0.25
                    }
                }
            }
        }
        return AlphaPlane(width: w, height: h, values: out)
    }

    /// `newWidth` x `newHeight` bilinear samples of this plane scaled up by
    /// `scale` as a white mask: pixel `x` reads the plane at `(x + ½) / scale − ½`,
    /// clamped to the edge texels, as a texture is read, and every channel
    /// is that value rounded, as `whitePixmap` rounds.
    func upscaledWhitePixmap(by scale: Int, toWidth newWidth: Int, height newHeight: Int) -> Pixmap {
        let (columns, rows) = (Self.taps(newWidth, from: width, scale: scale), Self.taps(newHeight, from: height, scale: scale))
        var data = BufferPool.pixels.take(count: newWidth * newHeight * 4, zeroed: false)
        // A plane row read across at every output column is the same for
        // the `scale` output rows that fall between the same two plane
        // rows, so each is read across once and kept (two at a time) rather
        // than once per output row: the same sums, so the same bytes.
        var across = BufferPool.floats.take(count: 2 * newWidth, zeroed: false)
        values.withUnsafeBufferPointer { src in
            across.withUnsafeMutableBufferPointer { lines in
                let slots = (lines.baseAddress!, lines.baseAddress! + newWidth)
                var held = (-1, -1)
                func readAcross(_ row: Int, into line: UnsafeMutablePointer<Float>) {
                    let base = row * width
                    for (x, (c0, c1, tx)) in columns.enumerated() {
                        line[x] = src[base + c0] + (src[base + c1] - src[base + c0]) * tx
                    }
                }
                /// Plane row `row` read across, in a slot that does not hold `keep`.
                func line(_ row: Int, keeping keep: Int) -> UnsafeMutablePointer<Float> {
                    if held.0 == row { return slots.0 }
                    if held.1 == row { return slots.1 }
                    if held.0 != keep {
                        readAcross(row, into: slots.0)
                        held.0 = row
                        return slots.0
                    }
                    readAcross(row, into: slots.1)
                    held.1 = row
                    return slots.1
                }
                data.withUnsafeMutableBytes { out in
                    for (y, (r0, r1, ty)) in rows.enumerated() {
                        let top = line(r0, keeping: r1), bottom = line(r1, keeping: r0)
                        let pixels = out.baseAddress! + y * newWidth * 4
                        for x in 0..<newWidth {
                            pixels.storeBytes(of: Self.whitePixel(top[x] + (bottom[x] - top[x]) * ty), toByteOffset: x * 4, as: UInt32.self)
                        }
                    }
                }
            }
        }
        BufferPool.floats.giveBack(across)
        return Pixmap(uncheckedWidth: newWidth, height: newHeight, data: data)
    }

    /// For each of `n` output pixels, the two source texels (clamped to the
    /// `m` there are) and the weight of the second, at `(i + ½) / scale − ½`.
    private static func taps(_ n: Int, from m: Int, scale: Int) -> [(Int, Int, Float)] {
        (0..<n).map { i in
            let s = (Double(i) + 0.5) / Double(scale) - 0.5
            let lower = Int(s.rounded(.down)), t = Float(s - Double(lower))
            return (min(max(lower, 0), m - 1), min(max(lower + 1, 0), m - 1), t)
        }
    }

    /// The separable kernel (`weights[k]` at ±k) along rows, then columns;
    /// beyond the plane counts as 0.
    mutating func convolve(with weights: [Float]) {
        guard weights.count > 1 else { return }
        var scratch = BufferPool.floats.take(count: values.count, zeroed: false)
        Self.pass(from: values, into: &scratch, count: width, lines: height, step: 1, lineStride: width, weights: weights)
        Self.pass(from: scratch, into: &values, count: height, lines: width, step: width, lineStride: 1, weights: weights)
        BufferPool.floats.giveBack(scratch)
    }

    /// One direction: each of `lines` lines of `count` values, `step` apart.
    /// Gathers, so each output is written once; rows go line by line in
    /// memory order, columns are walked a whole row of lines at a time.
    private static func pass(from source: [Float], into target: inout [Float], count: Int, lines: Int,
                             step: Int, lineStride: Int, weights: [Float]) {
        let r = weights.count - 1
        source.withUnsafeBufferPointer { src in
            target.withUnsafeMutableBufferPointer { dst in
                weights.withUnsafeBufferPointer { w in
                    if step == 1 {
                        // Each row copied between r zeros on either side: the
                        // kernel then needs no bounds, and eight outputs are
                        // summed at once. A missing neighbour adds 0, which
                        // leaves every sum bit for bit as skipping it would.
                        let lanes = 8
                        let padded = count + 2 * r + lanes
                        RowBands.forEach(rows: 0..<lines, pixels: lines * count) { band in
                        var line = [Float](repeating: 0, count: padded)
                        line.withUnsafeMutableBufferPointer { row in
                            guard let p = row.baseAddress else { return }
                            let raw = UnsafeRawPointer(p)
                            for l in band {
                                let base = l * lineStride
                                (p + r).update(from: src.baseAddress! + base, count: count)
                                var i = 0
                                while i + lanes <= count {
                                    var sum = raw.loadUnaligned(fromByteOffset: (i + r) * 4, as: SIMD8<Float>.self) * w[0]
                                    for k in stride(from: 1, through: r, by: 1) {
                                        let left = raw.loadUnaligned(fromByteOffset: (i + r - k) * 4, as: SIMD8<Float>.self)
                                        let right = raw.loadUnaligned(fromByteOffset: (i + r + k) * 4, as: SIMD8<Float>.self)
                                        sum += (left + right) * w[k]
                                    }
                                    UnsafeMutableRawPointer(dst.baseAddress! + base + i).storeBytes(of: sum, as: SIMD8<Float>.self)
                                    i += lanes
                                }
                                while i < count {
                                    var sum = p[i + r] * w[0]
                                    for k in stride(from: 1, through: r, by: 1) {
                                        sum += (p[i + r - k] + p[i + r + k]) * w[k]
                                    }
                                    dst[base + i] = sum
                                    i += 1
                                }
                            }
                        }
                        }
                    } else {
                        // Columns: output row i gathers rows i ± k, for every
                        // column at once (contiguous, vectorisable).
                        RowBands.forEach(rows: 0..<count, pixels: lines * count) { band in
                        for i in band {
                            let out = i * step
                            for x in 0..<lines { dst[out + x] = src[out + x] * w[0] }
                            if r == 0 { continue }
                            for k in 1...r {
                                let wk = w[k]
                                if i - k >= 0 {
                                    let row = (i - k) * step
                                    for x in 0..<lines { dst[out + x] += src[row + x] * wk }
                                }
                                if i + k < count {
                                    let row = (i + k) * step
                                    for x in 0..<lines { dst[out + x] += src[row + x] * wk }
                                }
                            }
                        }
                        }
                    }
                }
            }
        }
    }
}
