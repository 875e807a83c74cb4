import Foundation
import LaminaRaster
import LaminaRender

/// The CPU's side of `DrawCommand.filter`: a layer's filters on a whole
/// surface of premultiplied bytes.
enum SurfaceFilters {
    static func apply(_ filter: SurfaceFilter, to source: Pixmap) -> Pixmap {
        switch filter {
        case .blur(let method): blur(source, by: method)
        case .colorMatrix(let matrix): transformed(source, by: matrix)
        }
    }

    /// Every premultiplied channel blurred as `MaskBlur` blurs alpha, by the
    /// same steps GL runs on all four at once (linear in each channel, so
    /// the result stays premultiplied; rounding can leave a colour one above
    /// its alpha, which is clamped).
    static func blur(_ source: Pixmap, by method: BlurMethod) -> Pixmap {
        let n = source.width * source.height
        var data = BufferPool.pixels.take(count: n * 4, zeroed: false)
        for channel in 0..<4 {
            let blurred = MaskBlur.blurred(AlphaPlane(channel: channel, of: source), by: method)
            data.withUnsafeMutableBufferPointer { out in
                blurred.data.withUnsafeBufferPointer { white in
                    for i in 0..<n { out[i * 4 + channel] = white[i * 4] }
                }
            }
            BufferPool.pixels.giveBack(blurred.data)
        }
        data.withUnsafeMutableBufferPointer { out in
            for i in 0..<n {
                let a = out[i * 4 + 3]
                for c in 0..<3 where out[i * 4 + c] > a { out[i * 4 + c] = a }
            }
        }
        return Pixmap(uncheckedWidth: source.width, height: source.height, data: data)
    }

    /// Each pixel's straight colour through `matrix`, clamped, premultiplied
    /// again and rounded to the nearest byte. Pixels alike give the same
    /// result, so a run of one colour is worked out once.
    static func transformed(_ source: Pixmap, by matrix: ColorMatrix) -> Pixmap {
        var out = source
        var lastIn: UInt32 = 0, lastOut: UInt32 = 0, known = false
        out.withUnsafeMutableData { $0.withUnsafeMutableBytes { bytes in
            let words = bytes.bindMemory(to: UInt32.self)
            for i in words.indices {
                let word = words[i]
                if known && word == lastIn { words[i] = lastOut; continue }
                let r = Double(word & 0xFF), g = Double((word >> 8) & 0xFF), b = Double((word >> 16) & 0xFF)
                let a = Double(word >> 24)
                let straight = a > 0 ? SIMD4(r / a, g / a, b / a, a / 255) : SIMD4<Double>(0, 0, 0, 0)
                let v = matrix.apply(straight)
                let alpha = v[3] * 255
                func byte(_ x: Double) -> UInt32 { UInt32(min(255, max(0, (x).rounded()))) }
                let result = byte(v[0] * alpha) | byte(v[1] * alpha) << 8 | byte(v[2] * alpha) << 16 | byte(alpha) << 24
                words[i] = result
                lastIn = word; lastOut = result; known = true
            }
        } }
        return out
    }
}
