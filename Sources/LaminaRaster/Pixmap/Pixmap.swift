/// A picture in memory: 8-bit RGBA, premultiplied sRGB, rows top to bottom.
///
/// Pixel `(x, y)` occupies bytes `4 * (y * width + x) ..< + 4` of `data` in
/// the order R, G, B, A. Every pixel is a valid premultiplied colour (no
/// channel above alpha); the initialisers check it and the drawing operations
/// keep it, which is what lets the blending loops skip clamping.
///
/// A value type: copies share storage until one is written.
package struct Pixmap: Equatable, Sendable {
    /// The largest width or height a pixmap may have.
    package static let maximumDimension = 1 << 15

    package let width: Int
    package let height: Int
    /// The pixels, `4 * width * height` bytes. Written through `paint`, or
    /// `withUnsafeMutableData` (which forgets `paintedArea`).
    package private(set) var data: [UInt8]

    /// The rectangle anything may have been drawn in since the pixmap was
    /// made transparent: every byte outside it is zero. Nil where that is
    /// not known (a pixmap of given bytes or a colour, or one written
    /// through `withUnsafeMutableData`). A pixmap's buffer given back to the
    /// pool says so (`dirtyRegion`), and the next pixmap made of it clears
    /// that rectangle alone: a frame of an animation whose few shapes sit
    /// in the middle of a wide canvas clears the middle, not the canvas.
    package private(set) var paintedArea: PixelRect?

    /// The bytes of `data` that may not be zero (`paintedArea`'s rows of
    /// it); nil for all of them.
    package var dirtyRegion: DirtyRegion? {
        paintedArea.map { area in
            area.isEmpty ? .none
                : DirtyRegion(start: (area.minY * width + area.minX) * 4, length: area.width * 4, runs: area.height, stride: width * 4)
        }
    }

    /// Pixmaps are equal when their pixels are.
    package static func == (a: Pixmap, b: Pixmap) -> Bool {
        a.width == b.width && a.height == b.height && a.data == b.data
    }

    /// A pixmap filled with `color` (transparent black by default).
    package init(width: Int, height: Int, filledWith color: PremultipliedColor = .clear) throws {
        try Self.checkSize(width, height)
        self.width = width
        self.height = height
        // From the pool: a frame's surfaces are the last frame's, given back.
        data = BufferPool.pixels.take(count: width * height * 4, zeroed: color == .clear)
        paintedArea = color == .clear ? PixelRect(width: 0, height: 0) : nil
        if color != .clear {
            data.withUnsafeMutableBytes { buffer in
                let pixel = UInt32(color.r) | UInt32(color.g) << 8 | UInt32(color.b) << 16 | UInt32(color.a) << 24
                buffer.withMemoryRebound(to: UInt32.self) { $0.update(repeating: UInt32(littleEndian: pixel)) }
            }
        }
    }

    /// A pixmap of the pool's pixels as they are, not cleared: for a target
    /// whose first draw paints every pixel opaque, so that nothing under it
    /// shows. Until then its bytes may be any (the pool also keeps a PNG's
    /// filtered rows), not premultiplied colours: source-over of an opaque
    /// pixel does not read them. Where it was drawn in is not known
    /// (`paintedArea` is nil).
    package init(unclearedWidth width: Int, height: Int) throws {
        try Self.checkSize(width, height)
        self.width = width
        self.height = height
        data = BufferPool.pixels.take(count: width * height * 4, zeroed: false)
        paintedArea = nil
    }

    /// A pixmap over existing premultiplied RGBA bytes.
    ///
    /// Throws if the byte count is not `4 * width * height` or if some pixel
    /// has a colour channel above its alpha (straight-alpha data passed by mistake).
    package init(width: Int, height: Int, premultipliedRGBA data: [UInt8]) throws {
        try Self.checkSize(width, height)
        guard data.count == width * height * 4 else {
            throw RasterError.pixelDataSize(expected: width * height * 4, actual: data.count)
        }
        if let pixel = Self.firstUnpremultipliedPixel(data) {
            throw RasterError.notPremultiplied(x: pixel % width, y: pixel / width)
        }
        self.width = width
        self.height = height
        self.data = data
    }

    /// The index of the first RGBA pixel of `data` with a colour byte above
    /// its alpha, or nil when every pixel is premultiplied.
    ///
    /// Four pixels are checked at once, as one 16-byte vector against their
    /// alphas spread over their bytes (an alpha is never above itself; the
    /// alpha is a word's high byte, little-endian as every target is): an
    /// image is checked every time it becomes a texture, and a card's
    /// 1200 x 630 picture cost 16 M instructions a frame one byte at a time.
    static func firstUnpremultipliedPixel(_ data: [UInt8]) -> Int? {
        let pixels = data.count / 4
        return data.withUnsafeBytes { bytes -> Int? in
            guard let base = bytes.baseAddress else { return nil }
            var p = 0
            // Sixty-four pixels between looks at the lanes (reducing a mask
            // to one answer costs more than comparing).
            while p + 64 <= pixels {
                var above = SIMDMask<SIMD16<Int8>>(repeating: false)
                for group in stride(from: p, to: p + 64, by: 4) {
                    let words = base.loadUnaligned(fromByteOffset: group * 4, as: SIMD4<UInt32>.self)
                    let alphas = (words &>> 24) &* 0x0101_0101
                    above .|= unsafeBitCast(words, to: SIMD16<UInt8>.self) .> unsafeBitCast(alphas, to: SIMD16<UInt8>.self)
                }
                if any(above) { break }
                p += 64
            }
            // The rest, and the run that failed, pixel by pixel.
            while p < pixels {
                let i = p * 4, a = bytes[i + 3]
                if bytes[i] > a || bytes[i + 1] > a || bytes[i + 2] > a { return p }
                p += 1
            }
            return nil
        }
    }

    /// A pixmap of the given size whose bytes the caller fully writes; internal
    /// because the caller must keep the premultiplied invariant.
    package init(uncheckedWidth width: Int, height: Int, data: [UInt8]) {
        self.width = width
        self.height = height
        self.data = data
    }

    /// The whole pixmap as a rectangle at the origin.
    package var bounds: PixelRect { PixelRect(width: width, height: height) }

    /// Calls `body` with the pixels to write as it likes: afterwards where
    /// it was drawn in is no longer known (`paintedArea` is nil).
    package mutating func withUnsafeMutableData<Result>(_ body: (inout [UInt8]) throws -> Result) rethrows -> Result {
        paintedArea = nil
        return try body(&data)
    }

    /// Calls `body` with the pixels as rows, to draw in `area` alone
    /// (`paint`'s way in): it joins `paintedArea`.
    package mutating func withPixelRows(painting area: PixelRect, _ body: (PixelRows) -> Void) {
        if let painted = paintedArea {
            paintedArea = painted.union(area.intersection(bounds))
        }
        let (w, h) = (width, height)
        data.withUnsafeMutableBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            body(PixelRows(base: base, width: w, height: h))
        }
    }

    /// Makes the rows of `spans` transparent, every other row left as it
    /// is: a frame redrawn where it changed (`paint(_:within:)`).
    /// `columns`: where the caller knows their pixels that are not
    /// transparent lie, if it does.
    package mutating func clear(_ spans: RowSpans, columns known: Range<Int>? = nil) {
        // Within the painted columns alone where they are known: every other byte is zero.
        var columns = paintedArea.map { max(0, $0.minX)..<min(width, $0.maxX) } ?? 0..<width
        if let known { columns = columns.clamped(to: known) }
        guard !columns.isEmpty else { return }
        let (rowBytes, h) = (width * 4, height)
        data.withUnsafeMutableBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            for span in spans {
                for y in span.clamped(to: 0..<h) {
                    (base + y * rowBytes + columns.lowerBound * 4).initializeMemory(as: UInt8.self, repeating: 0, count: columns.count * 4)
                }
            }
        }
    }

    /// The colour of pixel `(x, y)`.
    package func pixel(x: Int, y: Int) throws -> PremultipliedColor {
        let i = try byteOffset(x, y)
        return PremultipliedColor(r: data[i], g: data[i + 1], b: data[i + 2], a: data[i + 3])
    }

    /// Replaces pixel `(x, y)` (no blending); it joins `paintedArea`.
    package mutating func setPixel(_ color: PremultipliedColor, x: Int, y: Int) throws {
        let i = try byteOffset(x, y)
        data[i] = color.r; data[i + 1] = color.g; data[i + 2] = color.b; data[i + 3] = color.a
        if let painted = paintedArea { paintedArea = painted.union(PixelRect(x: x, y: y, width: 1, height: 1)) }
    }

    /// Replaces every pixel with `color` (no blending).
    package mutating func fill(_ color: PremultipliedColor) {
        fill(color, in: bounds)
    }

    private func byteOffset(_ x: Int, _ y: Int) throws -> Int {
        guard bounds.contains(x: x, y: y) else {
            throw RasterError.outOfBounds(
                what: "pixel", rect: PixelRect(x: x, y: y, width: 1, height: 1), bounds: bounds)
        }
        return (y * width + x) * 4
    }

    package static func checkSize(_ width: Int, _ height: Int, _ what: String = "pixmap") throws {
        guard (0...maximumDimension).contains(width), (0...maximumDimension).contains(height) else {
            throw RasterError.invalidDimensions(what: what, width: width, height: height)
        }
    }
}
