import LaminaCore
import LaminaRaster

/// The backing image of a text layer while glyphs are composited into it:
/// premultiplied RGBA8, row 0 at the top, starting transparent. Glyphs blend
/// with LaminaRaster's one source-over (`blendSourceOver`), so text rounds
/// as every other draw does.
struct TextCanvas {
    let width: Int
    let height: Int
    private var pixels: [UInt8]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 4)
    }

    /// Paints `glyph` in `color`, its top-left pixel at (`x`, `y`); what
    /// falls outside the canvas is clipped.
    mutating func draw(_ glyph: GlyphBitmap, x: Int, y: Int, color: PremultipliedColor) {
        let x0 = max(0, x), x1 = min(width, x + glyph.width)
        let y0 = max(0, y), y1 = min(height, y + glyph.rows)
        guard x0 < x1, y0 < y1 else { return }
        let w = width
        if let color = glyph.color {
            // A colour glyph: its own premultiplied pixels, at full coverage.
            color.withUnsafeBufferPointer { source in
                pixels.withUnsafeMutableBufferPointer { px in
                    guard let base = px.baseAddress else { return }
                    for py in y0..<y1 {
                        for pxX in x0..<x1 {
                            let s = ((py - y) * glyph.width + pxX - x) * 4
                            if source[s + 3] != 0 {
                                let pixel = PremultipliedColor(r: source[s], g: source[s + 1], b: source[s + 2], a: source[s + 3])
                                blendSourceOver(base + (py * w + pxX) * 4, pixel, coverage: 255)
                            }
                        }
                    }
                }
            }
            return
        }
        glyph.coverage.withUnsafeBufferPointer { coverage in
            pixels.withUnsafeMutableBufferPointer { px in
                guard let base = px.baseAddress else { return }
                for py in y0..<y1 {
                    let source = (py - y) * glyph.width - x
                    for pxX in x0..<x1 {
                        let c = UInt32(coverage[source + pxX])
                        if c != 0 { blendSourceOver(base + (py * w + pxX) * 4, color, coverage: c) }
                    }
                }
            }
        }
    }

    /// Paints the rectangle `x0..<x1` × `y0..<y1` (pixels, fractional) in
    /// `color`, edge pixels by the fraction of them covered.
    mutating func fill(x0: Double, x1: Double, y0: Double, y1: Double, color: PremultipliedColor) {
        // Saturating: an underline a scene places at 1e300 is simply off the image.
        let left = max(0, Int(saturating: x0.rounded(.down))), right = min(width, Int(saturating: x1.rounded(.up)))
        let top = max(0, Int(saturating: y0.rounded(.down))), bottom = min(height, Int(saturating: y1.rounded(.up)))
        guard left < right, top < bottom else { return }
        let w = width
        pixels.withUnsafeMutableBufferPointer { px in
            guard let base = px.baseAddress else { return }
            for py in top..<bottom {
                let fy = min(y1, Double(py + 1)) - max(y0, Double(py))
                for pxX in left..<right {
                    let fx = min(x1, Double(pxX + 1)) - max(x0, Double(pxX))
                    let c = UInt32((fx * fy * 255).rounded())
                    if c > 0 { blendSourceOver(base + (py * w + pxX) * 4, color, coverage: c) }
                }
            }
        }
    }

    func makeImage() throws -> CGImage {
        try CGImage(width: width, height: height, premultipliedRGBA: pixels)
    }
}
