/// Premultiplied RGBA8 pixels averaged down by a whole factor, the box
/// filter a mipmap level uses: texture sampling of the result sees what it
/// would have seen minifying the full picture.
package enum BoxDownscale {
    /// `pixels` (`width` x `height`, rows packed) averaged down by the
    /// smallest whole factor `k` that brings both sides to at most `side`:
    /// each output pixel is the mean of a `k` x `k` block (the blocks of the
    /// last row and column may be narrower), rounded to nearest. Nil when
    /// the picture already fits.
    ///
    /// ```swift
    /// let half = BoxDownscale.pixels(bytes, width: 4000, height: 300, toFit: 2000)   // 2000 x 150
    /// ```
    package static func pixels(_ pixels: [UInt8], width: Int, height: Int, toFit side: Int)
        -> (width: Int, height: Int, pixels: [UInt8])? {
        guard side > 0, width > side || height > side, pixels.count >= width * height * 4 else { return nil }
        let k = (max(width, height) + side - 1) / side
        let w = (width + k - 1) / k, h = (height + k - 1) / k
        var out = [UInt8](repeating: 0, count: w * h * 4)
        pixels.withUnsafeBufferPointer { src in
            var sums = [Int](repeating: 0, count: w * 4)
            for oy in 0..<h {
                for i in sums.indices { sums[i] = 0 }
                let y0 = oy * k, y1 = min(height, y0 + k)
                for y in y0..<y1 {
                    let row = y * width * 4
                    for x in 0..<width {
                        let o = (x / k) * 4, s = row + x * 4
                        sums[o] += Int(src[s]); sums[o + 1] += Int(src[s + 1])
                        sums[o + 2] += Int(src[s + 2]); sums[o + 3] += Int(src[s + 3])
                    }
                }
                for ox in 0..<w {
                    let count = (min(width, ox * k + k) - ox * k) * (y1 - y0)
                    for c in 0..<4 {
                        out[(oy * w + ox) * 4 + c] = UInt8((sums[ox * 4 + c] + count / 2) / count)
                    }
                }
            }
        }
        return (w, h, out)
    }
}
