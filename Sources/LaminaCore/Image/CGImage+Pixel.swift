import LaminaRaster

extension CGImage {
    /// One RGBA8 pixel as stored in a `CGImage`: colour premultiplied by alpha.
    public struct Pixel: Hashable, Sendable, CustomStringConvertible {
        /// Red, premultiplied by alpha.
        public var red: UInt8
        /// Green, premultiplied by alpha.
        public var green: UInt8
        /// Blue, premultiplied by alpha.
        public var blue: UInt8
        /// Alpha: 0 transparent, 255 opaque.
        public var alpha: UInt8

        /// A pixel from premultiplied components (each colour at most `alpha`
        /// for a valid premultiplied colour).
        public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
            self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
        }

        /// The premultiplied pixel for straight (not premultiplied) components.
        public init(straightRed red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
            self.init(
                red: PremultipliedAlpha.premultiply(red, alpha: alpha),
                green: PremultipliedAlpha.premultiply(green, alpha: alpha),
                blue: PremultipliedAlpha.premultiply(blue, alpha: alpha),
                alpha: alpha)
        }

        public var description: String { "(\(red), \(green), \(blue), \(alpha))" }
    }

    /// The pixel in column `x`, row `y` (row 0 at the top), or `nil` when the
    /// position is outside the image.
    public func pixel(x: Int, y: Int) -> Pixel? {
        guard (0..<width).contains(x), (0..<height).contains(y) else { return nil }
        let i = y * bytesPerRow + x * 4
        return Pixel(red: pixelBytes[i], green: pixelBytes[i + 1], blue: pixelBytes[i + 2], alpha: pixelBytes[i + 3])
    }

    /// An image whose every pixel is `color` (premultiplied components).
    /// - Throws: `CGImageError` when a size is not at least 1 or too large.
    public convenience init(width: Int, height: Int, filledWith color: Pixel) throws {
        guard width >= 1, height >= 1 else { throw CGImageError.invalidSize(width: width, height: height) }
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, count <= Int.max / 4 else { throw CGImageError.sizeOverflow(width: width, height: height) }
        var bytes = [UInt8]()
        bytes.reserveCapacity(count * 4)
        for _ in 0..<count {
            bytes.append(color.red); bytes.append(color.green); bytes.append(color.blue); bytes.append(color.alpha)
        }
        try self.init(width: width, height: height, premultipliedRGBA: bytes)
    }
}
