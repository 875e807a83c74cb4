import LaminaRaster
import CPNG
import Foundation

/// Decodes any PNG into a `CGImage` (8-bit premultiplied sRGB RGBA).
///
/// Every PNG form is accepted: bit depths 1, 2, 4, 8 and 16; greyscale, grey
/// with alpha, RGB, RGBA and palette images, with `tRNS` transparency; Adam7
/// interlacing. Low bit depths are scaled by bit replication (a 2-bit grey 1 is
/// 85), 16-bit samples are rounded to 8 bits. A 16-bit PNG with no `gAMA` or
/// `sRGB` chunk is taken as sRGB (as browsers do, rather than libpng's default
/// of linear); a PNG whose `gAMA` differs from sRGB's is converted to sRGB.
///
/// Errors never crash and never hang: truncated data, bad CRCs, broken
/// compressed data and random bytes all end as a thrown `PNGError`. libpng
/// itself refuses widths or heights over 1,000,000 pixels.
///
/// Why libpng's simplified `png_image` API: libpng reports errors by
/// `longjmp` back to a `setjmp` in its caller, and a `longjmp` across Swift
/// frames is undefined behaviour (it skips releases and `defer`s). The
/// simplified API does its `setjmp` inside libpng (`png_safe_execute`) and
/// reports failure as a return code plus a message in the `png_image` struct,
/// so no Swift frame is ever jumped over. It also does every colour-type and
/// bit-depth conversion we need in one call.
public struct PNGDecoder: Sendable {
    /// Resource limits checked before decoding.
    public typealias Limits = ImageDecodingLimits

    /// What a file may hold before it is refused unread.
    public var limits: Limits

    /// A decoder with `limits`.
    public init(limits: Limits = .default) {
        self.limits = limits
    }

    /// Decodes PNG data held in memory (`[UInt8]`, `Data`, ...).
    /// - Throws: `PNGError`.
    public func decode(_ data: some ContiguousBytes) throws -> CGImage {
        try data.withUnsafeBytes { try decode(buffer: $0) }
    }

    /// Reads and decodes the PNG file at `path`.
    /// - Throws: `PNGError.io` naming the path when the file cannot be read,
    ///   `PNGError.dataTooLarge` when it is over `limits.maxBytes`, else as
    ///   `decode(_:)`.
    public func decode(contentsOfFile path: String) throws -> CGImage {
        let bytes: [UInt8]
        do {
            bytes = try FileIO.readFile(atPath: path, maxBytes: limits.maxBytes)
        } catch {
            throw PNGError.io(error)
        }
        return try decode(bytes)
    }

    private func decode(buffer: UnsafeRawBufferPointer) throws -> CGImage {
        guard buffer.count <= limits.maxBytes else {
            throw PNGError.dataTooLarge(byteCount: buffer.count, maxBytes: limits.maxBytes)
        }
        let header = try PNGChunkScanner.scan(buffer)
        let pixels = UInt64(header.width) * UInt64(header.height)
        guard pixels <= UInt64(max(limits.maxPixels, 0)) else {
            throw PNGError.tooLarge(
                width: Int(header.width), height: Int(header.height), maxPixels: limits.maxPixels)
        }
        if header.bitDepth == 16 && header.isInterlaced {
            let rgba = try Interlaced16BitDecoding.decode(buffer, width: Int(header.width), height: Int(header.height))
            return try CGImage(width: Int(header.width), height: Int(header.height), premultipliedRGBA: rgba)
        }
        guard let base = buffer.baseAddress else { throw PNGError.notPNG }  // unreachable: scan saw 8+ bytes

        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        // Frees libpng's state on every path; a no-op once libpng freed it.
        defer { png_image_free(&image) }

        guard png_image_begin_read_from_memory(&image, base, buffer.count) != 0 else {
            throw PNGError.corrupt(libpngMessage(of: image))
        }
        let hasAlpha = image.format & PNG_FORMAT_FLAG_ALPHA != 0  // alpha channel or tRNS
        let width = Int(image.width), height = Int(image.height)
        image.format = PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA  // PNG_FORMAT_RGBA
        image.flags |= png_uint_32(PNG_IMAGE_FLAG_16BIT_sRGB)

        // libpng caps each side at 1,000,000, so the stride fits png_int_32.
        let stride = width * 4
        let rgba = try [UInt8](unsafeUninitializedCapacity: stride * height) { buffer, count in
            guard png_image_finish_read(&image, nil, buffer.baseAddress, png_int_32(stride), nil) != 0 else {
                count = 0
                throw PNGError.corrupt(libpngMessage(of: image))
            }
            // libpng delivers straight alpha for 8-bit sRGB output.
            if hasAlpha {
                PremultipliedAlpha.premultiplyRGBA(UnsafeMutableRawBufferPointer(buffer))
            }
            count = stride * height
        }
        return try CGImage(width: width, height: height, premultipliedRGBA: rgba)
    }
}
