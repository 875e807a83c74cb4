import CPNG

/// One use of libpng's row-by-row writer, producing PNG bytes in memory.
/// See `PNGEncoder` for why calling it without `setjmp` is safe.
final class LibPNGWriter {
    private var png: png_structp?
    private var info: png_infop?
    /// Where libpng's write callback appends the encoded bytes.
    private var output: [UInt8] = []

    /// zlib's strategy codes (zlib.h is not imported; these values are fixed
    /// by zlib's ABI).
    private enum ZlibStrategy: Int32 {
        case `default` = 0  // Z_DEFAULT_STRATEGY
        case filtered = 1  // Z_FILTERED
        case runLength = 3  // Z_RLE
    }

    /// Creates libpng's state and sets the compression options.
    /// - Throws: `PNGError.encoderUnavailable` when libpng returns no state.
    init(options: PNGEncoder.Options) throws {
        png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nil, libpngError, libpngWarning)
        guard let png else { throw PNGError.encoderUnavailable }
        info = png_create_info_struct(png)
        guard info != nil else { throw PNGError.encoderUnavailable }  // deinit frees `png`

        png_set_write_fn(png, Unmanaged.passUnretained(self).toOpaque(), libpngWrite, libpngFlush)
        // libpng's default limit of 1,000,000 pixels per side is a decoding
        // safeguard; PNG itself allows 2^31 - 1.
        png_set_user_limits(png, 0x7FFF_FFFF, 0x7FFF_FFFF)
        png_set_compression_level(png, Int32(options.compressionLevel))
        png_set_filter(png, Int32(PNG_FILTER_TYPE_BASE), Self.filterMask(options.filter))
        let strategy: ZlibStrategy
        switch options.strategy {
        case .automatic: strategy = options.filter == .none ? .default : .filtered  // libpng's own rule
        case .runLength: strategy = .runLength
        }
        png_set_compression_strategy(png, strategy.rawValue)
    }

    deinit {
        png_destroy_write_struct(&png, &info)
    }

    /// Encodes `image` (call once).
    func write(_ image: CGImage) -> [UInt8] {
        png_set_IHDR(
            png, info, png_uint_32(image.width), png_uint_32(image.height), 8, PNG_COLOR_TYPE_RGB_ALPHA,
            PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE)
        png_set_sRGB(png, info, PNG_sRGB_INTENT_PERCEPTUAL)
        png_write_info(png, info)

        var row = [UInt8](repeating: 0, count: image.bytesPerRow)
        image.withUnsafeBytes { pixels in
            row.withUnsafeMutableBytes { row in
                for y in 0..<image.height {
                    let source = UnsafeRawBufferPointer(rebasing: pixels[(y * image.bytesPerRow)...].prefix(image.bytesPerRow))
                    PremultipliedAlpha.unpremultiplyRGBA(source, into: row)
                    png_write_row(png, row.baseAddress?.assumingMemoryBound(to: png_byte.self))
                }
            }
        }
        png_write_end(png, nil)
        return output
    }

    fileprivate func append(_ bytes: UnsafeRawBufferPointer) {
        output.append(contentsOf: bytes)
    }

    private static func filterMask(_ filter: PNGEncoder.Filter) -> Int32 {
        switch filter {
        case .none: return PNG_FILTER_NONE
        case .sub: return PNG_FILTER_SUB
        case .up: return PNG_FILTER_UP
        case .average: return PNG_FILTER_AVG
        case .paeth: return PNG_FILTER_PAETH
        case .adaptive: return PNG_FILTER_NONE | PNG_FILTER_SUB | PNG_FILTER_UP | PNG_FILTER_AVG | PNG_FILTER_PAETH
        }
    }
}

/// libpng's output callback: appends to the writer named by the io pointer.
private func libpngWrite(_ png: png_structp?, _ data: png_bytep?, _ length: Int) {
    guard let pointer = png_get_io_ptr(png), let data else { return }
    let writer = Unmanaged<LibPNGWriter>.fromOpaque(pointer).takeUnretainedValue()
    writer.append(UnsafeRawBufferPointer(start: data, count: length))
}

/// Nothing to flush: the output is memory.
private func libpngFlush(_ png: png_structp?) {}

/// Warnings (none are expected from writing a valid RGBA picture) are dropped
/// rather than printed on the server's stderr.
private func libpngWarning(_ png: png_structp?, _ message: png_const_charp?) {}

/// Reached only if libpng or zlib runs out of memory (see `PNGEncoder`). It
/// must not return into libpng, and must not `longjmp`, so it stops the
/// process with libpng's message.
private func libpngError(_ png: png_structp?, _ message: png_const_charp?) {
    fatalError("libpng failed while encoding: \(message.map { String(cString: $0) } ?? "no message")")
}
