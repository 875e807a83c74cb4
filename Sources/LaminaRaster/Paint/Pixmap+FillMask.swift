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
        if let fill = try MaskFill(mask, color: color, alpha: alpha, clip: clip, within: bounds) { paint(fill) }
    }
}

/// A solid colour painted through a coverage mask (and a clip mask), faded
/// by an opacity: a path's fill or stroke.
package struct MaskFill: RowPaint {
    private let mask: CoverageMask
    private let clip: CoverageMask?
    private let color: PremultipliedColor
    private let opacity: UInt32
    /// The pixels painted: the mask's, within the target and the clip.
    package let area: PixelRect

    /// The fill of `mask` with `color` in a target of `bounds`; nil when it
    /// paints nothing. `alpha` is clamped to 0...1.
    package init?(_ mask: CoverageMask, color: PremultipliedColor, alpha: Double = 1, clip: CoverageMask? = nil,
                  within bounds: PixelRect) throws {
        let opacity = try opacityByte(alpha, "fill alpha")
        var area = mask.bounds.intersection(bounds)
        if let clip { area = area.intersection(clip.bounds) }
        guard !area.isEmpty, opacity > 0, color.a > 0 else { return nil }
        (self.mask, self.clip, self.color, self.opacity, self.area) = (mask, clip, color, opacity, area)
    }


    /// Gives its coverage back to the pool (once painted), when the
    /// rasterizer made it for this fill alone; a mask held elsewhere too
    /// (a repeated shape's) is left alone.
    package consuming func recycle() { mask.recycle() }
    package var pixels: Int { area.width * area.height }

    package func paint(_ band: Range<Int>, of target: PixelRows) {
        let (mask, clip, color, opacity, area) = (mask, clip, color, opacity, area)
        mask.values.withUnsafeBufferPointer { maskValues in
            (clip?.values ?? []).withUnsafeBufferPointer { clipValues in
                guard let cov = maskValues.baseAddress else { return }
                if clip == nil, opacity == 255 {
                    // A path's fill or stroke: the mask alone scales the colour.
                    let word = pixelWord(UInt32(color.r), UInt32(color.g), UInt32(color.b), UInt32(color.a))
                    for y in band {
                        let m = cov + (y - mask.bounds.minY) * mask.bounds.width + (area.minX - mask.bounds.minX)
                        blendSolid(word, coverage: m, count: area.width, into: target.pixel(x: area.minX, y: y))
                    }
                    return
                }
                for y in band {
                    var p = target.pixel(x: area.minX, y: y).assumingMemoryBound(to: UInt8.self)
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
