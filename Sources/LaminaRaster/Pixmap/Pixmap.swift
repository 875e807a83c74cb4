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
    /// The pixels, `4 * width * height` bytes.
    package var data: [UInt8]

    /// A pixmap filled with `color` (transparent black by default).
    package init(width: Int, height: Int, filledWith color: PremultipliedColor = .clear) throws {
        try Self.checkSize(width, height)
        self.width = width
        self.height = height
        // From the pool: a frame's surfaces are the last frame's, given back.
        data = BufferPool.pixels.take(count: width * height * 4, zeroed: color == .clear)
        if color != .clear {
            data.withUnsafeMutableBytes { buffer in
                let pixel = UInt32(color.r) | UInt32(color.g) << 8 | UInt32(color.b) << 16 | UInt32(color.a) << 24
                buffer.withMemoryRebound(to: UInt32.self) { $0.update(repeating: UInt32(littleEndian: pixel)) }
            }
        }
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
        var i = 0
        while i < data.count {
            let a = data[i + 3]
            if data[i] > a || data[i + 1] > a || data[i + 2] > a {
                let pixel = i / 4
                throw RasterError.notPremultiplied(x: pixel % width, y: pixel / width)
            }
            i += 4
        }
        self.width = width
        self.height = height
        self.data = data
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

    /// The colour of pixel `(x, y)`.
    package func pixel(x: Int, y: Int) throws -> PremultipliedColor {
        let i = try byteOffset(x, y)
        return PremultipliedColor(r: data[i], g: data[i + 1], b: data[i + 2], a: data[i + 3])
    }

    /// Replaces pixel `(x, y)` (no blending).
    package mutating func setPixel(_ color: PremultipliedColor, x: Int, y: Int) throws {
        let i = try byteOffset(x, y)
        data[i] = color.r; data[i + 1] = color.g; data[i + 2] = color.b; data[i + 3] = color.a
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
