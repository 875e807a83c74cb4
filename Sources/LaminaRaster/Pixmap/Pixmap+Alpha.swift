// Alpha-only operations: shadows are a tinted, blurred alpha; masks multiply
// by another picture's alpha.

extension Pixmap {
    /// Every pixel replaced by `color` scaled by the pixel's alpha: the
    /// picture's silhouette in one colour, as a shadow is.
    package func tinted(with color: PremultipliedColor) -> Pixmap {
        var result = self
        let (r, g, b, a) = (UInt32(color.r), UInt32(color.g), UInt32(color.b), UInt32(color.a))
        let pixels = width * height
        result.withUnsafeMutableData { $0.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var p = base
            for _ in 0..<pixels {
                let alpha = UInt32(p[3])
                p[0] = UInt8(truncatingIfNeeded: div255(r &* alpha))
                p[1] = UInt8(truncatingIfNeeded: div255(g &* alpha))
                p[2] = UInt8(truncatingIfNeeded: div255(b &* alpha))
                p[3] = UInt8(truncatingIfNeeded: div255(a &* alpha))
                p += 4
            }
        } }
        return result
    }

    /// Multiplies every pixel by the alpha of `mask` placed with its top-left
    /// corner at `(x, y)`; where the mask does not reach, pixels become
    /// transparent, as outside a Core Animation `mask` layer. `inverted`:
    /// by one minus the mask's alpha, and pixels the mask does not reach stay.
    package mutating func multiplyAlpha(by mask: Pixmap, atX x: Int, y: Int, inverted: Bool = false) {
        let overlap = PixelRect(x: x, y: y, width: mask.width, height: mask.height).intersection(bounds)
        let (w, h) = (width, height)
        withUnsafeMutableData { $0.withUnsafeMutableBufferPointer { buffer in
            mask.data.withUnsafeBufferPointer { maskBuffer in
                guard let base = buffer.baseAddress else { return }
                for row in 0..<h {
                    let p = base + row * w * 4
                    guard let m = maskBuffer.baseAddress, row >= overlap.minY, row < overlap.maxY else {
                        if !inverted { p.update(repeating: 0, count: w * 4) }
                        continue
                    }
                    if !inverted {
                        p.update(repeating: 0, count: overlap.minX * 4)
                        (p + overlap.maxX * 4).update(repeating: 0, count: (w - overlap.maxX) * 4)
                    }
                    let maskRow = m + ((row - y) * mask.width + (overlap.minX - x)) * 4
                    for i in 0..<overlap.width {
                        let alpha = UInt32(maskRow[i * 4 + 3])
                        let k = inverted ? 255 - alpha : alpha
                        let q = p + (overlap.minX + i) * 4
                        if k == 255 { continue }
                        q[0] = UInt8(truncatingIfNeeded: div255(UInt32(q[0]) &* k))
                        q[1] = UInt8(truncatingIfNeeded: div255(UInt32(q[1]) &* k))
                        q[2] = UInt8(truncatingIfNeeded: div255(UInt32(q[2]) &* k))
                        q[3] = UInt8(truncatingIfNeeded: div255(UInt32(q[3]) &* k))
                    }
                }
            }
        } }
    }
}
