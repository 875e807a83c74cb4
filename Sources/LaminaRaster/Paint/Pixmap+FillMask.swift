// The solid-colour painting stage: coverage mask × opacity × clip → source-over.

extension Pixmap {
    /// Draws `color` over the pixmap where `mask` covers it (source-over).
    ///
    /// - Parameters:
    ///   - mask: per-pixel coverage, in this pixmap's pixel coordinates.
    ///   - color: the premultiplied colour to paint.
    ///   - alpha: a global opacity, clamped to 0...1.
    ///   - clip: an optional clip mask; pixels outside its bounds are not painted.
    package mutating func fill(
        _ mask: CoverageMask, with color: PremultipliedColor, alpha: Double = 1, clip: CoverageMask? = nil
    ) throws {
        let opacity = try opacityByte(alpha, "fill alpha")
        var area = mask.bounds.intersection(bounds)
        if let clip { area = area.intersection(clip.bounds) }
        guard !area.isEmpty, opacity > 0, color.a > 0 else { return }

        let w = width
        data.withUnsafeMutableBufferPointer { pixels in
            mask.values.withUnsafeBufferPointer { maskValues in
                (clip?.values ?? []).withUnsafeBufferPointer { clipValues in
                    guard let dst = pixels.baseAddress, let cov = maskValues.baseAddress else { return }
                    RowBands.forEach(rows: area.minY..<area.maxY, pixels: area.width * area.height) { band in
                        for y in band {
                            var p = dst + (y * w + area.minX) * 4
                            let m = cov + (y - mask.bounds.minY) * mask.bounds.width + (area.minX - mask.bounds.minX)
                            let c: UnsafePointer<UInt8>? = clip.flatMap { clip in
                                clipValues.baseAddress.map {
                                    $0 + (y - clip.bounds.minY) * clip.bounds.width + (area.minX - clip.bounds.minX)
                                }
                            }
                            for i in 0..<area.width {
                                var k = UInt32(m[i])
                                if let c { k = div255(k &* UInt32(c[i])) }
                                if opacity != 255 { k = div255(k &* opacity) }
                                if k != 0 { blendSourceOver(p, color, coverage: k) }
                                p += 4
                        }
                        }
                    }
                }
            }
        }
    }
}
