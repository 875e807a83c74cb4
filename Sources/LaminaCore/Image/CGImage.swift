import Foundation
import LaminaRaster

/// An immutable bitmap picture, like Core Graphics' `CGImage`.
///
/// Lamina keeps one pixel format so that every backend and codec agrees on it:
/// 8 bits per component, RGBA order, colour premultiplied by alpha
/// (`alphaInfo == .premultipliedLast`), sRGB, rows from top to bottom,
/// `bytesPerRow == width * 4` with no padding. Like Core Graphics' `CGImage` it
/// is a reference type that never changes once made, so it is shared freely
/// between layers and threads.
///
/// Premultiplied storage means a valid pixel has each colour component at most
/// its alpha. The initialisers do not check this (checking costs a pass over
/// the pixels); code that needs straight colour (PNG encoding) clamps
/// components above alpha, see `PremultipliedAlpha`.
public final class CGImage: Sendable {
    /// Width in pixels, at least 1.
    public let width: Int
    /// Height in pixels, at least 1.
    public let height: Int
    /// The pixels: `height` rows of `width` RGBA8 premultiplied pixels, top row
    /// first, `bytesPerRow` bytes apart.
    public let pixelBytes: [UInt8]

    /// Bytes from the start of one row to the start of the next: `width * 4`.
    public var bytesPerRow: Int { width * 4 }
    /// Bits in one colour or alpha component: 8.
    public var bitsPerComponent: Int { 8 }
    /// Bits in one pixel: 32.
    public var bitsPerPixel: Int { 32 }
    /// Alpha is the last component and colour is premultiplied by it.
    public var alphaInfo: CGImageAlphaInfo { .premultipliedLast }

    /// An image holding `bytes`, RGBA8 pixels already premultiplied by alpha,
    /// rows top to bottom and `bytesPerRow` apart (default `width * 4`).
    ///
    /// Rows wider than `width * 4` are repacked without their padding.
    /// - Throws: `CGImageError` when a size is not at least 1, when
    ///   `bytesPerRow` is less than `width * 4`, when the byte count overflows,
    ///   or when `bytes.count != bytesPerRow * height`.
    public convenience init(
        width: Int, height: Int, bytesPerRow: Int? = nil, premultipliedRGBA bytes: [UInt8]
    ) throws {
        let packed = try Self.packed(bytes, width: width, height: height, bytesPerRow: bytesPerRow)
        self.init(width: width, height: height, packedPixels: packed)
    }

    /// An image from straight (not premultiplied) RGBA8 pixels, rows top to
    /// bottom and `bytesPerRow` apart (default `width * 4`). Colour is
    /// premultiplied with correct rounding (`PremultipliedAlpha.premultiply`).
    /// - Throws: `CGImageError`, as `init(width:height:bytesPerRow:premultipliedRGBA:)`.
    public convenience init(width: Int, height: Int, bytesPerRow: Int? = nil, straightRGBA bytes: [UInt8]) throws {
        var packed = try Self.packed(bytes, width: width, height: height, bytesPerRow: bytesPerRow)
        packed.withUnsafeMutableBytes { PremultipliedAlpha.premultiplyRGBA($0) }
        self.init(width: width, height: height, packedPixels: packed)
    }

    /// The one place that stores pixels; callers have checked that `pixels`
    /// holds exactly `width * height` packed pixels.
    private init(width: Int, height: Int, packedPixels pixels: [UInt8], pooled: Bool = false, dirty: DirtyRegion? = nil) {
        self.width = width
        self.height = height
        self.pixelBytes = pixels
        self.isPooled = pooled
        pooledDirty = dirty
    }

    /// Whether `pixelBytes` goes back to `BufferPool.pixels` when the image
    /// is freed (a renderer's output, whose buffer the next frame reuses).
    private let isPooled: Bool
    /// A pooled image's bytes that may not be zero; nil for any.
    private let pooledDirty: DirtyRegion?

    /// An image over a renderer's output pixels, which go back to
    /// `BufferPool.pixels` when the image is freed, for the next frame to
    /// draw into. The caller has checked the size and gives up the buffer.
    /// `dirty`: the bytes that may not be zero (nil: any), given back with
    /// them (`BufferPool.giveBack(_:dirty:)`).
    package convenience init(width: Int, height: Int, pooledPremultipliedRGBA pixels: [UInt8], dirty: DirtyRegion? = nil) {
        precondition(width >= 1 && height >= 1 && pixels.count == width * height * 4, "a pooled image's pixels must fit its size")
        self.init(width: width, height: height, packedPixels: pixels, pooled: true, dirty: dirty)
    }

    deinit {
        if isPooled { BufferPool.pixels.giveBack(pixelBytes, dirty: pooledDirty) }
    }

    /// Calls `body` with the pixel bytes (see `pixelBytes`).
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try pixelBytes.withUnsafeBytes(body)
    }

    /// Checks a size, row pitch and byte count, and returns the pixels without
    /// row padding (the same array, without copying, when there is none).
    private static func packed(_ bytes: [UInt8], width: Int, height: Int, bytesPerRow: Int?) throws -> [UInt8] {
        guard width >= 1, height >= 1 else {
            throw CGImageError.invalidSize(width: width, height: height)
        }
        let (packedBytesPerRow, rowOverflow) = width.multipliedReportingOverflow(by: 4)
        guard !rowOverflow else { throw CGImageError.sizeOverflow(width: width, height: height) }
        let sourceBytesPerRow = bytesPerRow ?? packedBytesPerRow
        guard sourceBytesPerRow >= packedBytesPerRow else {
            throw CGImageError.invalidBytesPerRow(bytesPerRow: sourceBytesPerRow, minimum: packedBytesPerRow)
        }
        let (byteCount, overflow) = sourceBytesPerRow.multipliedReportingOverflow(by: height)
        guard !overflow else { throw CGImageError.sizeOverflow(width: width, height: height) }
        guard bytes.count == byteCount else {
            throw CGImageError.byteCountMismatch(expected: byteCount, actual: bytes.count)
        }
        if sourceBytesPerRow == packedBytesPerRow { return bytes }
        var packed = [UInt8]()
        packed.reserveCapacity(packedBytesPerRow * height)
        for row in 0..<height {
            let start = row * sourceBytesPerRow
            packed.append(contentsOf: bytes[start..<start + packedBytesPerRow])
        }
        return packed
    }
}

extension CGImage: Equatable {
    /// Two images are equal when they have the same size and the same pixels.
    public static func == (lhs: CGImage, rhs: CGImage) -> Bool {
        lhs === rhs || (lhs.width == rhs.width && lhs.height == rhs.height && lhs.pixelBytes == rhs.pixelBytes)
    }
}

extension CGImage: CustomStringConvertible {
    public var description: String { "CGImage(\(width)x\(height), RGBA8 premultiplied)" }
}
