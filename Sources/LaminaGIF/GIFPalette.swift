import CImageQuant
import LaminaRaster

/// One picture as at most 256 colours: libimagequant's palette (chosen for
/// the picture, in a perceptual colour space) and each pixel's index into
/// it, dithered. GIF keeps one transparent colour and no partial alpha, so
/// a pixel at least half opaque is drawn opaque in its own colour and the
/// rest are the one transparent entry.
struct GIFPalette {
    /// RGB triples, `count` of them.
    var colors: [UInt8]
    var count: Int
    /// The entry that is transparent, if the picture has transparent pixels.
    var transparentIndex: Int?
    /// One index a pixel, rows top first.
    var indices: [UInt8]

    /// Quantizes premultiplied RGBA8 pixels (`width` x `height`).
    /// - Throws: `GIFError` when libimagequant cannot.
    init(premultipliedRGBA pixels: [UInt8], width: Int, height: Int, speed: Int) throws(GIFError) {
        // Straight colour, alpha made binary: what a GIF can show.
        var straight = [UInt8](repeating: 0, count: pixels.count)
        pixels.withUnsafeBytes { source in
            straight.withUnsafeMutableBytes { PremultipliedAlpha.unpremultiplyRGBA(source, into: $0) }
        }
        var i = 0
        while i + 3 < straight.count {
            if straight[i + 3] < 128 {
                straight[i] = 0; straight[i + 1] = 0; straight[i + 2] = 0; straight[i + 3] = 0
            } else {
                straight[i + 3] = 255
            }
            i += 4
        }
        guard let attributes = liq_attr_create() else { throw GIFError("libimagequant could not start") }
        defer { liq_attr_destroy(attributes) }
        liq_set_max_colors(attributes, 256)
        liq_set_speed(attributes, Int32(max(1, min(10, speed))))
        var result: OpaquePointer?
        let made: (liq_error, [UInt8]) = straight.withUnsafeBytes { bitmap in
            guard let image = liq_image_create_rgba(attributes, bitmap.baseAddress!, Int32(width), Int32(height), 0) else {
                return (LIQ_OUT_OF_MEMORY, [])
            }
            defer { liq_image_destroy(image) }
            let status = liq_image_quantize(image, attributes, &result)
            guard status == LIQ_OK, let result else { return (status, []) }
            liq_set_dithering_level(result, 1.0)
            var out = [UInt8](repeating: 0, count: width * height)
            let written = out.withUnsafeMutableBytes { liq_write_remapped_image(result, image, $0.baseAddress!, $0.count) }
            return (written, out)
        }
        guard made.0 == LIQ_OK, let result else { throw GIFError("libimagequant could not choose a palette (error \(made.0.rawValue))") }
        defer { liq_result_destroy(result) }
        indices = made.1
        let palette = liq_get_palette(result)!.pointee
        count = max(1, Int(palette.count))
        colors = [UInt8](repeating: 0, count: count * 3)
        transparentIndex = nil
        withUnsafeBytes(of: palette.entries) { raw in
            let entries = raw.bindMemory(to: liq_color.self)
            for k in 0..<Int(palette.count) {
                let c = entries[k]
                colors[k * 3] = c.r; colors[k * 3 + 1] = c.g; colors[k * 3 + 2] = c.b
                if c.a < 128, transparentIndex == nil { transparentIndex = k }
            }
        }
    }
}
