import CLaminaPNGWrite
import CPNG

/// One use of libpng's row-by-row writer, producing PNG bytes in memory.
///
/// libpng reports errors by `longjmp` to a `setjmp` in its caller, which Swift
/// cannot arm; `lamina_png_write_rgba` (C, in CLaminaPNGWrite) arms it and
/// returns the error as a code, so a libpng failure is a thrown
/// `PNGError.encoderFailed` for this picture, never the end of the process.
/// Its callbacks into Swift (rows in, bytes out) cannot fail, so no jump ever
/// crosses a Swift frame.
final class LibPNGWriter {
    private let options: lamina_png_write_options
    /// Where the encoded bytes are appended.
    private var output: [UInt8] = []
    /// The picture being encoded, and where its rows are un-premultiplied.
    private var image: CGImage?

    /// zlib's strategy codes (zlib.h is not imported; these values are fixed
    /// by zlib's ABI).
    private enum ZlibStrategy: Int32 {
        case `default` = 0  // Z_DEFAULT_STRATEGY
        case filtered = 1  // Z_FILTERED
        case runLength = 3  // Z_RLE
    }

    init(options: PNGEncoder.Options) {
        let strategy: ZlibStrategy
        switch options.strategy {
        case .automatic: strategy = options.filter == .none ? .default : .filtered  // libpng's own rule
        case .runLength: strategy = .runLength
        }
        self.options = lamina_png_write_options(
            compression_level: Int32(options.compressionLevel), strategy: strategy.rawValue,
            filters: Self.filterMask(options.filter), srgb_intent: Int32(PNG_sRGB_INTENT_PERCEPTUAL))
    }

    /// Encodes `image` (call once).
    /// - Throws: `PNGError.encoderFailed` with libpng's message.
    func write(_ image: CGImage) throws -> [UInt8] {
        self.image = image
        defer { self.image = nil }
        var message = [CChar](repeating: 0, count: 256)
        let status = message.withUnsafeMutableBufferPointer { message in
            lamina_png_write_rgba(
                UInt32(image.width), UInt32(image.height), options, writeRow, appendBytes,
                Unmanaged.passUnretained(self).toOpaque(), message.baseAddress, message.count)
        }
        guard status == 0 else {
            throw PNGError.encoderFailed(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return output
    }

    fileprivate func fillRow(_ y: Int, into row: UnsafeMutablePointer<UInt8>) {
        guard let image else { return }
        image.withUnsafeBytes { pixels in
            let source = UnsafeRawBufferPointer(rebasing: pixels[(y * image.bytesPerRow)...].prefix(image.width * 4))
            PremultipliedAlpha.unpremultiplyRGBA(source, into: UnsafeMutableRawBufferPointer(start: row, count: image.width * 4))
        }
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

/// The C writer's row source: straight-alpha RGBA of row `y`.
private func writeRow(_ context: UnsafeMutableRawPointer?, _ y: UInt32, _ row: UnsafeMutablePointer<UInt8>?) {
    guard let context, let row else { return }
    Unmanaged<LibPNGWriter>.fromOpaque(context).takeUnretainedValue().fillRow(Int(y), into: row)
}

/// The C writer's sink: appends to the writer's output.
private func appendBytes(_ context: UnsafeMutableRawPointer?, _ bytes: UnsafePointer<UInt8>?, _ count: Int) {
    guard let context, let bytes else { return }
    Unmanaged<LibPNGWriter>.fromOpaque(context).takeUnretainedValue().append(UnsafeRawBufferPointer(start: bytes, count: count))
}
