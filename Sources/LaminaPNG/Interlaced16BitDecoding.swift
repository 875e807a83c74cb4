import LaminaRaster
import CPNG
import Foundation

/// Decodes 16-bit Adam7-interlaced PNGs, which libpng's simplified API gets
/// wrong when asked for 8-bit output.
///
/// The bug (https://github.com/pnggroup/libpng/issues/853): the fix for
/// CVE-2025-65018 (libpng 1.6.51, and backported to Debian's 1.6.39-2+deb12u1)
/// reads interlaced 16-bit images through one scratch row that is copied whole
/// into the output after every row of every pass, so later passes overwrite
/// earlier ones with stale pixels; about half the pixels come out wrong. Only
/// libpng's 16-bit ("linear") output reads these files correctly, and it
/// differs from the 8-bit output in two ways that this type undoes:
///
/// - It converts samples to linear light using the file's gamma. libpng gets a
///   copy of the data without the colour-space chunks (gAMA, sRGB, iCCP,
///   cHRM), so samples come out as stored, and a gAMA that differs from sRGB is
///   applied here by libpng's 8-bit rule and exponent, computed exactly where
///   libpng's tables may be off by up to 2 (libpng itself ignores ICC profiles
///   and chromaticities when it converts to sRGB).
/// - It premultiplies colour by alpha at 16 bits. Dividing back is exact for
///   opaque and fully transparent pixels; a translucent pixel may differ by 1
///   from what the 8-bit path would give.
///
/// The workaround stays correct when libpng is fixed, so it is used for every
/// 16-bit interlaced PNG rather than for known-bad libpng versions.
enum Interlaced16BitDecoding {
    /// The premultiplied RGBA8 pixels of `data`, which `PNGChunkScanner`
    /// accepted and whose IHDR says 16 bits and Adam7.
    /// - Throws: `PNGError.corrupt` with libpng's message.
    static func decode(_ data: UnsafeRawBufferPointer, width: Int, height: Int) throws -> [UInt8] {
        let (plainData, fileGamma) = try withoutColorSpaceChunks(data)
        let samples = try readLinear(plainData, width: width, height: height)
        let toByte = SampleConversion(fileGamma: fileGamma)

        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        for i in stride(from: 0, to: samples.count, by: 4) {
            let alpha = UInt32(samples[i + 3])
            guard alpha != 0 else { continue }  // transparent black, already zero
            let alpha8 = UInt8((alpha + 128) / 257)
            for channel in 0..<3 {
                let premultiplied = UInt32(samples[i + channel])
                // Undo libpng's round(c * a / 65535), rounding to nearest.
                let straight = alpha == 65_535 ? premultiplied : min(65_535, (premultiplied * 65_535 + alpha / 2) / alpha)
                rgba[i + channel] = PremultipliedAlpha.premultiply(toByte(UInt16(straight)), alpha: alpha8)
            }
            rgba[i + 3] = alpha8
        }
        return rgba
    }

    /// libpng's 16-bit RGBA output: samples as stored (no colour-space chunks
    /// are left to convert from), colour premultiplied by alpha, native byte order.
    private static func readLinear(_ data: [UInt8], width: Int, height: Int) throws -> [UInt16] {
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        defer { png_image_free(&image) }
        try data.withUnsafeBytes { bytes in
            guard png_image_begin_read_from_memory(&image, bytes.baseAddress, bytes.count) != 0 else {
                throw PNGError.corrupt(libpngMessage(of: image))
            }
        }
        // Without PNG_IMAGE_FLAG_16BIT_sRGB and without gAMA/sRGB, libpng takes
        // the samples as linear already and leaves them alone.
        image.format = PNG_FORMAT_FLAG_LINEAR | PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA
        let stride = width * 4  // in 16-bit components
        return try [UInt16](unsafeUninitializedCapacity: stride * height) { buffer, count in
            guard png_image_finish_read(&image, nil, buffer.baseAddress, png_int_32(stride), nil) != 0 else {
                count = 0
                throw PNGError.corrupt(libpngMessage(of: image))
            }
            count = stride * height
        }
    }

    /// A copy of `data` without gAMA, sRGB, iCCP and cHRM, and the gamma that
    /// libpng's 8-bit path would have used (nil: sRGB).
    private static func withoutColorSpaceChunks(_ data: UnsafeRawBufferPointer) throws -> ([UInt8], Double?) {
        let dropped: [PNGChunkScanner.ChunkType] = [.init("gAMA"), .init("sRGB"), .init("iCCP"), .init("cHRM")]
        var copy = Array(data.prefix(PNGChunkScanner.signature.count))
        var gamma: Double?
        var hasSRGB = false
        try PNGChunkScanner.forEachChunk(in: data) { type, body in
            if type == .init("sRGB") { hasSRGB = true }
            if type == .init("gAMA"), body.count == 4 {
                let value = PNGChunkScanner.readUInt32(data, at: body.lowerBound)
                // libpng ignores values outside this range as invalid.
                if (16...625_000_000).contains(value) { gamma = Double(value) / 100_000 }
            }
            if !dropped.contains(type) {
                copy.append(contentsOf: data[(body.lowerBound - 8)..<(body.upperBound + 4)])
            }
        }
        return (copy, hasSRGB ? nil : gamma)
    }

    /// 16-bit straight sample to 8 bits, with gamma correction when the file's
    /// gamma differs from sRGB's by more than libpng's 5% threshold.
    private struct SampleConversion {
        private var table: [UInt8]?

        init(fileGamma: Double?) {
            // libpng's 8-bit sRGB output has a screen gamma of 2.2.
            guard let fileGamma, abs(fileGamma * 2.2 - 1) > 0.05 else { return }
            let exponent = 1 / (fileGamma * 2.2)
            table = (0...65_535).map { UInt8((255 * pow(Double($0) / 65_535, exponent)).rounded()) }
        }

        func callAsFunction(_ sample: UInt16) -> UInt8 {
            if let table { return table[Int(sample)] }
            return UInt8((UInt32(sample) + 128) / 257)  // round(sample / 257)
        }
    }
}

/// libpng's error text from a `png_image`'s fixed `message` buffer.
func libpngMessage(of image: png_image) -> String {
    let text = withUnsafeBytes(of: image.message) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
    return text.isEmpty ? "libpng failed without a message" : text
}
