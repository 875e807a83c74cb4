// Rectangle operations on pixmaps. Reading a rectangle demands it lie inside
// (asking for pixels that do not exist is a caller's mistake); writing clips,
// as drawing does, so that placing a picture partly off-target just works.

extension Pixmap {
    /// Replaces the pixels of `rect` (clipped to the pixmap) with `color`.
    package mutating func fill(_ color: PremultipliedColor, in rect: PixelRect) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        let w = width
        withUnsafeMutableData { $0.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for y in area.minY..<area.maxY {
                var p = base + (y * w + area.minX) * 4
                for _ in 0..<area.width {
                    p[0] = color.r; p[1] = color.g; p[2] = color.b; p[3] = color.a
                    p += 4
                }
            }
        } }
    }

    /// A copy of the pixels in `rect`, which must lie inside the pixmap.
    package func cropped(to rect: PixelRect) throws -> Pixmap {
        guard rect.width >= 0, rect.height >= 0, bounds.contains(rect) else {
            throw RasterError.outOfBounds(what: "crop", rect: rect, bounds: bounds)
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(rect.width * rect.height * 4)
        for y in rect.minY..<rect.maxY where !rect.isEmpty {
            let start = (y * width + rect.minX) * 4
            bytes.append(contentsOf: data[start..<start + rect.width * 4])
        }
        return Pixmap(uncheckedWidth: rect.width, height: rect.height, data: bytes)
    }

    /// Replaces the pixels under `source` placed with its top-left corner at
    /// `(x, y)`; the parts outside this pixmap are dropped. No blending.
    package mutating func replacePixels(with source: Pixmap, atX x: Int, y: Int) {
        let placed = PixelRect(x: x, y: y, width: source.width, height: source.height)
        let area = placed.intersection(bounds)
        guard !area.isEmpty else { return }
        let w = width
        withUnsafeMutableData { $0.withUnsafeMutableBufferPointer { dst in
            source.data.withUnsafeBufferPointer { src in
                guard let d = dst.baseAddress, let s = src.baseAddress else { return }
                for row in area.minY..<area.maxY {
                    let from = s + ((row - y) * source.width + (area.minX - x)) * 4
                    let to = d + (row * w + area.minX) * 4
                    to.update(from: from, count: area.width * 4)
                }
            }
        } }
    }

    /// Draws `source` over this pixmap (source-over) with its top-left corner
    /// at `(x, y)` and the given opacity (clamped to 0...1); with `within`,
    /// only the pixels of that rectangle.
    package mutating func composite(_ source: Pixmap, atX x: Int, y: Int, alpha: Double = 1, within: PixelRect? = nil) throws {
        if let op = try PixmapComposite(source, atX: x, y: y, alpha: alpha, within: within.map { $0.intersection(bounds) } ?? bounds) {
            paint(op)
        }
    }

    /// Source-over of `color` through the alpha of `mask` placed with its
    /// top-left corner at `(x, y)`, faded by `alpha`: what compositing
    /// `mask.tinted(with: color)` gives, byte for byte, without making it
    /// (a shadow is its blurred mask in the shadow's colour); with `within`,
    /// only the pixels of that rectangle.
    package mutating func compositeTinted(_ color: PremultipliedColor, through mask: Pixmap, atX x: Int, y: Int,
                                          alpha: Double = 1, within: PixelRect? = nil) throws {
        if let op = try TintedComposite(color, through: mask, atX: x, y: y, alpha: alpha,
                                        within: within.map { $0.intersection(bounds) } ?? bounds) {
            paint(op)
        }
    }
}

/// A pixmap drawn source-over, texel for pixel, faded by an opacity: an
/// offscreen surface or an image landing on whole pixels.
package struct PixmapComposite: RowPaint {
    private let source: Pixmap
    private let x: Int, y: Int
    private let opacity: UInt32
    package let area: PixelRect

    /// `source` with its top-left corner at `(x, y)`, faded by `alpha`
    /// (clamped to 0...1), painting the pixels of `area` only (within the
    /// target); nil when it paints nothing.
    package init?(_ source: Pixmap, atX x: Int, y: Int, alpha: Double = 1, within area: PixelRect) throws {
        let k = try opacityByte(alpha, "composite alpha")
        let area = PixelRect(x: x, y: y, width: source.width, height: source.height).intersection(area)
        guard !area.isEmpty, k > 0 else { return nil }
        (self.source, self.x, self.y, self.opacity, self.area) = (source, x, y, k, area)
    }

    package var pixels: Int { area.width * area.height }

    package func paint(_ band: Range<Int>, of target: PixelRows) {
        let (area, k, x, y, sourceWidth) = (area, opacity, x, y, source.width)
        source.data.withUnsafeBytes { src in
            guard let s = src.baseAddress else { return }
            for row in band {
                let from = s + ((row - y) * sourceWidth + (area.minX - x)) * 4
                let to = target.pixel(x: area.minX, y: row)
                // Wrapping offsets: the area lies inside both buffers.
                let end = area.width &* 4
                var offset = 0
                // Four pixels at a time, then the rest one by one.
                if k == 255 {
                    while offset &+ 16 <= end {
                        blendWords(to + offset, from.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt32>.self))
                        offset &+= 16
                    }
                    while offset < end {
                        blendWord(to + offset, from.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
                        offset &+= 4
                    }
                } else {
                    let fade = SIMD4<UInt32>(repeating: k)
                    while offset &+ 16 <= end {
                        let pixels = from.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt32>.self)
                        blendWords(to + offset, scaled(pixels, by: fade))
                        offset &+= 16
                    }
                    while offset < end {
                        let pixel = from.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                        if pixel != 0 { blendWord(to + offset, scaled(pixel, by: k)) }
                        offset &+= 4
                    }
                }
            }
        }
    }
}

/// A pixmap composited as `PixmapComposite` does, each pixel first scaled by
/// the alpha of the pixel of `mask` at the same place (by 255 minus it when
/// `inverted`): a masked layer's surface drawn back through its mask's, in
/// one pass, with the same bytes as masking a copy and compositing it.
package struct MaskedComposite: RowPaint {
    private let source: Pixmap
    private let mask: Pixmap
    private let inverted: Bool
    private let x: Int, y: Int
    private let opacity: UInt32
    package let area: PixelRect

    /// `source` through `mask` (of the same size), its top-left corner at
    /// `(x, y)`, faded by `alpha`, painting the pixels of `area` only; nil
    /// when it paints nothing or the two sizes differ.
    package init?(_ source: Pixmap, through mask: Pixmap, inverted: Bool, atX x: Int, y: Int, alpha: Double = 1,
                  within area: PixelRect) throws {
        let k = try opacityByte(alpha, "composite alpha")
        let area = PixelRect(x: x, y: y, width: source.width, height: source.height).intersection(area)
        guard !area.isEmpty, k > 0, mask.width == source.width, mask.height == source.height else { return nil }
        (self.source, self.mask, self.inverted, self.x, self.y, self.opacity, self.area) = (source, mask, inverted, x, y, k, area)
    }

    package var pixels: Int { area.width * area.height }

    package func paint(_ band: Range<Int>, of target: PixelRows) {
        let (area, k, x, y, sourceWidth, inverted) = (area, opacity, x, y, source.width, inverted)
        source.data.withUnsafeBytes { src in
            mask.data.withUnsafeBytes { msk in
                guard let s = src.baseAddress, let m = msk.baseAddress else { return }
                let fade = SIMD4<UInt32>(repeating: k)
                for row in band {
                    let start = ((row - y) * sourceWidth + (area.minX - x)) * 4
                    let from = s + start, through = m + start
                    let to = target.pixel(x: area.minX, y: row)
                    let end = area.width &* 4
                    var offset = 0
                    @inline(__always) func cover(_ at: Int) -> UInt32 {
                        let a = UInt32(through.load(fromByteOffset: at &+ 3, as: UInt8.self))
                        return inverted ? 255 &- a : a
                    }
                    // Four pixels at a time (the mask's four alphas read as
                    // one vector; where all four are whole, scaling by them
                    // would return the pixels as they are), then the rest
                    // one by one.
                    while offset &+ 16 <= end {
                        let alphas = through.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt32>.self) &>> 24
                        let covers = inverted ? 255 &- alphas : alphas
                        if covers != .zero {
                            var pixels = from.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt32>.self)
                            if covers != SIMD4(repeating: 255) { pixels = scaled(pixels, by: covers) }
                            if k != 255 { pixels = scaled(pixels, by: fade) }
                            blendWords(to + offset, pixels)
                        }
                        offset &+= 16
                    }
                    while offset < end {
                        let c = cover(offset)
                        if c != 0 {
                            var pixel = from.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                            if c != 255 { pixel = scaled(pixel, by: c) }
                            if k != 255 { pixel = scaled(pixel, by: k) }
                            blendWord(to + offset, pixel)
                        }
                        offset &+= 4
                    }
                }
            }
        }
    }
}

/// A colour painted through a pixmap's alpha, texel for pixel, faded by an
/// opacity: a blurred shadow mask in the shadow's colour.
package struct TintedComposite: RowPaint {
    private let mask: Pixmap
    private let x: Int, y: Int
    package let area: PixelRect
    /// The pixel each mask value gives, tinted then faded as a tinted copy
    /// composited at the opacity would be: 256 words, looked up per pixel.
    private let shades: [UInt32]

    /// `color` through the alpha of `mask` placed with its top-left corner at
    /// `(x, y)`, faded by `alpha` (clamped to 0...1), painting the pixels of
    /// `area` only (within the target); nil when it paints nothing.
    package init?(_ color: PremultipliedColor, through mask: Pixmap, atX x: Int, y: Int, alpha: Double = 1,
                  within area: PixelRect) throws {
        let k = try opacityByte(alpha, "composite alpha")
        let area = PixelRect(x: x, y: y, width: mask.width, height: mask.height).intersection(area)
        guard !area.isEmpty, k > 0 else { return nil }
        let word = pixelWord(UInt32(color.r), UInt32(color.g), UInt32(color.b), UInt32(color.a))
        shades = (0...255).map { (coverage: UInt32) -> UInt32 in
            let tinted = scaled(word, by: coverage)
            return k == 255 ? tinted : scaled(tinted, by: k)
        }
        (self.mask, self.x, self.y, self.area) = (mask, x, y, area)
    }

    package var pixels: Int { area.width * area.height }

    package func paint(_ band: Range<Int>, of target: PixelRows) {
        let (area, x, y, maskWidth) = (area, x, y, mask.width)
        mask.data.withUnsafeBytes { src in
            shades.withUnsafeBufferPointer { shades in
                guard let s = src.baseAddress, let shades = shades.baseAddress else { return }
                for row in band {
                    let from = s + ((row - y) * maskWidth + (area.minX - x)) * 4 + 3
                    let to = target.pixel(x: area.minX, y: row)
                    // Wrapping offsets: the area lies inside both buffers.
                    var offset = 0
                    let end = area.width &* 4
                    while offset < end {
                        let coverage = from.load(fromByteOffset: offset, as: UInt8.self)
                        if coverage != 0 { blendWord(to + offset, shades[Int(coverage)]) }
                        offset &+= 4
                    }
                }
            }
        }
    }
}
