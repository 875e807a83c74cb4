/// Conversions between straight and premultiplied 8-bit alpha, correctly
/// rounded, shared by `CGImage` and the PNG codec.
///
/// `premultiply` is `round(c * a / 255)` and `unpremultiply` is
/// `min(255, round(p * 255 / a))` (`0` when `a == 0`). Together they make
/// premultiplied → straight → premultiplied exact for every valid
/// premultiplied component (`p <= a`): the straight value is off from
/// `p * 255 / a` by at most 1/2, which becomes at most `a / 510 < 1/2` after
/// multiplying back by `a / 255`, so rounding lands on `p` again. The other
/// way, straight → premultiplied → straight, loses precision whenever
/// `a < 255` (at `a == 1` every colour becomes 0 or 255); that loss is
/// inherent to 8-bit premultiplied storage.
package enum PremultipliedAlpha {
    /// `component * alpha / 255`, rounded to nearest.
    @inlinable
    public static func premultiply(_ component: UInt8, alpha: UInt8) -> UInt8 {
        // `x / 255` never has a fractional part of exactly 1/2 (255 is odd), so
        // adding 127 and truncating rounds to nearest.
        UInt8(truncatingIfNeeded: (UInt32(component) * UInt32(alpha) + 127) / 255)
    }

    /// `component * 255 / alpha`, rounded to nearest (halves up) and clamped to
    /// 255; `0` when `alpha` is 0. Components above alpha are not valid
    /// premultiplied colour and clamp to 255.
    public static func unpremultiply(_ component: UInt8, alpha: UInt8) -> UInt8 {
        unpremultiplyTable[Int(alpha) << 8 | Int(component)]
    }

    /// Premultiplies RGBA pixels in place (every fourth byte is alpha).
    public static func premultiplyRGBA(_ pixels: UnsafeMutableRawBufferPointer) {
        var i = 0
        while i + 3 < pixels.count {
            let a = pixels[i + 3]
            if a != 255 {
                pixels[i] = premultiply(pixels[i], alpha: a)
                pixels[i + 1] = premultiply(pixels[i + 1], alpha: a)
                pixels[i + 2] = premultiply(pixels[i + 2], alpha: a)
            }
            i += 4
        }
    }

    /// Writes the straight (un-premultiplied) form of the premultiplied RGBA
    /// pixels in `source` to `destination`, which must be at least as long.
    public static func unpremultiplyRGBA(
        _ source: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer
    ) {
        let count = min(source.count, destination.count) & ~3
        guard count > 0, let from = source.baseAddress, let to = destination.baseAddress else { return }
        unpremultiplyTable.withUnsafeBufferPointer { table in
            var i = 0
            while i < count {
                let pixel = from.loadUnaligned(fromByteOffset: i, as: UInt32.self)
                let a = UInt8(truncatingIfNeeded: pixel >> 24)
                if a == 255 {
                    // Opaque (most of most pictures): the pixel as it is, in one store.
                    to.storeBytes(of: pixel, toByteOffset: i, as: UInt32.self)
                    i += 4
                    continue
                } else {
                    let row = Int(a) << 8
                    destination[i] = table[row | Int(source[i])]
                    destination[i + 1] = table[row | Int(source[i + 1])]
                    destination[i + 2] = table[row | Int(source[i + 2])]
                }
                destination[i + 3] = a
                i += 4
            }
        }
    }

    /// `unpremultiply` for every (alpha, component) pair, indexed by
    /// `alpha << 8 | component`: a division per component is several times
    /// slower than this 64 KiB lookup when encoding large pictures.
    private static let unpremultiplyTable: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256 * 256)
        for alpha in 1...255 {
            for component in 0...255 {
                let value = (component * 255 + alpha / 2) / alpha
                table[alpha << 8 | component] = UInt8(min(value, 255))
            }
        }
        return table
    }()
}
