import LaminaCore

/// A premultiplied RGBA8 colour as text paints it.
struct PaintColor {
    var red, green, blue, alpha: Int

    init(_ color: TextColor) {
        func unit(_ v: Double) -> Double { v.isFinite ? min(1, max(0, v)) : 0 }
        let a = unit(color.alpha)
        red = Int((unit(color.red) * a * 255).rounded())
        green = Int((unit(color.green) * a * 255).rounded())
        blue = Int((unit(color.blue) * a * 255).rounded())
        alpha = Int((a * 255).rounded())
    }

    /// A pixel that is already premultiplied RGBA (a colour glyph's).
    init(premultiplied p: UnsafeBufferPointer<UInt8>, at i: Int) {
        (red, green, blue, alpha) = (Int(p[i]), Int(p[i + 1]), Int(p[i + 2]), Int(p[i + 3]))
    }
}

/// The backing image of a text layer while glyphs are composited into it:
/// premultiplied RGBA8, row 0 at the top, starting transparent.
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
    mutating func draw(_ glyph: GlyphBitmap, x: Int, y: Int, color: PaintColor) {
        let x0 = max(0, x), x1 = min(width, x + glyph.width)
        let y0 = max(0, y), y1 = min(height, y + glyph.rows)
        guard x0 < x1, y0 < y1 else { return }
        let w = width
        if let color = glyph.color {
            // A colour glyph: its own premultiplied pixels, at full coverage.
            color.withUnsafeBufferPointer { source in
                pixels.withUnsafeMutableBufferPointer { px in
                    for py in y0..<y1 {
                        for pxX in x0..<x1 {
                            let s = ((py - y) * glyph.width + pxX - x) * 4
                            if source[s + 3] != 0 {
                                Self.blend(px, (py * w + pxX) * 4, PaintColor(premultiplied: source, at: s), coverage: 255)
                            }
                        }
                    }
                }
            }
            return
        }
        glyph.coverage.withUnsafeBufferPointer { coverage in
            pixels.withUnsafeMutableBufferPointer { px in
                for py in y0..<y1 {
                    let source = (py - y) * glyph.width - x
                    for pxX in x0..<x1 {
                        let c = Int(coverage[source + pxX])
                        if c != 0 { Self.blend(px, (py * w + pxX) * 4, color, coverage: c) }
                    }
                }
            }
        }
    }

    /// Paints the rectangle `x0..<x1` × `y0..<y1` (pixels, fractional) in
    /// `color`, edge pixels by the fraction of them covered.
    mutating func fill(x0: Double, x1: Double, y0: Double, y1: Double, color: PaintColor) {
        // Saturating: an underline a scene places at 1e300 is simply off the image.
        let left = max(0, Int(saturating: x0.rounded(.down))), right = min(width, Int(saturating: x1.rounded(.up)))
        let top = max(0, Int(saturating: y0.rounded(.down))), bottom = min(height, Int(saturating: y1.rounded(.up)))
        guard left < right, top < bottom else { return }
        let w = width
        pixels.withUnsafeMutableBufferPointer { px in
            for py in top..<bottom {
                let fy = min(y1, Double(py + 1)) - max(y0, Double(py))
                for pxX in left..<right {
                    let fx = min(x1, Double(pxX + 1)) - max(x0, Double(pxX))
                    let c = Int((fx * fy * 255).rounded())
                    if c > 0 { Self.blend(px, (py * w + pxX) * 4, color, coverage: c) }
                }
            }
        }
    }

    /// Source-over of `color` at `coverage` (0...255) onto the pixel at `i`.
    private static func blend(_ px: UnsafeMutableBufferPointer<UInt8>, _ i: Int, _ color: PaintColor, coverage c: Int) {
        let sa = (color.alpha * c + 127) / 255
        let keep = 255 - sa
        px[i] = UInt8(min(255, (color.red * c + 127) / 255 + (Int(px[i]) * keep + 127) / 255))
        px[i + 1] = UInt8(min(255, (color.green * c + 127) / 255 + (Int(px[i + 1]) * keep + 127) / 255))
        px[i + 2] = UInt8(min(255, (color.blue * c + 127) / 255 + (Int(px[i + 2]) * keep + 127) / 255))
        px[i + 3] = UInt8(min(255, sa + (Int(px[i + 3]) * keep + 127) / 255))
    }

    func makeImage() throws -> CGImage {
        try CGImage(width: width, height: height, premultipliedRGBA: pixels)
    }
}
