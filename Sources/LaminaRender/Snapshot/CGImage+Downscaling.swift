import Foundation
import LaminaCore

extension CGImage {
    /// The image averaged down by a whole factor so that neither side is
    /// over `side` pixels, or the image itself when it already fits.
    ///
    /// Each output pixel is the mean of a `k` x `k` block of premultiplied
    /// pixels (the blocks of the last row and column may be narrower), the
    /// box filter a mipmap level uses: texture sampling then sees what it
    /// would have seen minifying the full image.
    func downscaled(toFit side: Int) -> CGImage {
        guard side > 0, width > side || height > side else { return self }
        let k = (max(width, height) + side - 1) / side
        let w = (width + k - 1) / k, h = (height + k - 1) / k
        var out = [UInt8](repeating: 0, count: w * h * 4)
        pixelBytes.withUnsafeBufferPointer { src in
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
        // Averages of premultiplied pixels are premultiplied: never fails.
        return (try? CGImage(width: w, height: h, premultipliedRGBA: out)) ?? self
    }
}
