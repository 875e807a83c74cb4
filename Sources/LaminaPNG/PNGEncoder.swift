import CPNG
import Foundation

/// Encodes a `CGImage` as an 8-bit RGBA PNG with straight (not premultiplied)
/// alpha, which is what PNG stores, plus an `sRGB` chunk.
///
/// Colour is un-premultiplied with `PremultipliedAlpha.unpremultiply`, so a
/// decode by `PNGDecoder` gives back exactly the same pixels for every valid
/// premultiplied pixel (each component at most alpha; see `PremultipliedAlpha`
/// for why). A component above its alpha is clamped to 255 straight, and a
/// pixel with alpha 0 is written as transparent black.
///
/// The rows are filtered here (`PNGWriter`) and compressed at level 1 by
/// Lamina's own deflate for pictures (`ImageDeflate`: matches to the pixel
/// to the left and above, segments on idle cores), at other levels by
/// libdeflate, whose failures (in practice only running out of memory: a
/// `CGImage` is always a valid 8-bit RGBA picture and the sides are checked
/// against PNG's limit here) are return values, thrown as `PNGError` for
/// this picture.
public struct PNGEncoder: Sendable {
    /// The per-row filter applied before compression. Filters turn
    /// smooth areas into runs of small numbers that compress better.
    public enum Filter: Sendable, Equatable, CaseIterable {
        /// No filtering: fastest, larger for gradients and photos.
        case none
        /// Difference with the pixel to the left.
        case sub
        /// Difference with the pixel above.
        case up
        /// Difference with the mean of left and above.
        case average
        /// Paeth predictor of left, above and above-left.
        case paeth
        /// The best of all five filters for each row (libpng's heuristic): smallest
        /// files, slowest.
        case adaptive
    }

    /// How hard to compress.
    public struct Options: Sendable, Equatable {
        /// 0 (store) to 9 (smallest, slowest): level 1 is `ImageDeflate`,
        /// made for speed on pictures; the others are libdeflate's levels.
        public var compressionLevel: Int
        /// The row filter.
        public var filter: Filter

        /// Options of a `compressionLevel` (0...9) and a row filter.
        public init(compressionLevel: Int, filter: Filter) {
            self.compressionLevel = compressionLevel
            self.filter = filter
        }

        /// For serving many pictures: `ImageDeflate` (level 1), no filter.
        /// Chosen by measurement on the three bench pictures
        /// (docs/benchmarks.md): encoding the card, the tiles and the stars
        /// took 2.9, 4.8 and 7.9 ms and 170, 376 and 633 KB, against 3.3,
        /// 7.1 and 10.3 ms and 178, 510 and 837 KB with the Up filter, and
        /// 4.4, 6.7 and 10.7 ms and 206, 379 and 581 KB with libdeflate's
        /// level 1 (flat colours repeat the pixel to the left or above,
        /// which the matches find without a filter).
        public static let fast = Options(compressionLevel: 1, filter: .none)
        /// Level 6 with adaptive filtering, like most tools.
        public static let balanced = Options(compressionLevel: 6, filter: .adaptive)
        /// Level 9 with adaptive filtering: for assets written once.
        public static let smallest = Options(compressionLevel: 9, filter: .adaptive)
    }

    /// How hard to compress.
    public var options: Options

    /// An encoder with `options`.
    public init(options: Options = .fast) {
        self.options = options
    }

    /// The PNG encoding of `image`.
    /// - Throws: `PNGError.invalidCompressionLevel`, `.tooLargeForPNG`, or
    ///   `.encoderUnavailable` or `.encoderFailed` when libdeflate cannot allocate what it needs.
    public func encode(_ image: CGImage) throws -> [UInt8] {
        guard (0...9).contains(options.compressionLevel) else {
            throw PNGError.invalidCompressionLevel(options.compressionLevel)
        }
        let pngMaxSide = 0x7FFF_FFFF
        guard image.width <= pngMaxSide, image.height <= pngMaxSide else {
            throw PNGError.tooLargeForPNG(width: image.width, height: image.height)
        }
        return try PNGWriter(options: options).encode(image)
    }

    /// Encodes `image` and writes it to `path` atomically: `path` never holds
    /// a partly written file, it keeps its old content until the new file is
    /// complete and flushed (temporary file in the same directory + rename).
    /// - Throws: as `encode(_:)`, and `PNGError.io` naming `path`.
    public func write(_ image: CGImage, toFile path: String) throws {
        let bytes = try encode(image)
        do {
            try FileIO.writeFileAtomically(bytes, toPath: path)
        } catch {
            throw PNGError.io(error)
        }
    }
}

extension CGImage {
    /// The image encoded as PNG (see `PNGEncoder`), by default with `.fast`.
    /// - Throws: `PNGError`.
    public func pngData(options: PNGEncoder.Options = .fast) throws -> Data {
        Data(try PNGEncoder(options: options).encode(self))
    }

    /// Writes the image as a PNG file at `path`, atomically (see
    /// `PNGEncoder.write(_:toFile:)`).
    /// - Throws: `PNGError`.
    public func writePNG(toFile path: String, options: PNGEncoder.Options = .fast) throws {
        try PNGEncoder(options: options).write(self, toFile: path)
    }
}
