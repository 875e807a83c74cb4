import Foundation
import LaminaCore
import LaminaRaster

/// Draws a `TextLayout` into a backing image: each glyph's cached bitmap at
/// its pen position (to a quarter pixel across, whole pixels down, all of a
/// line on one pixel row), then the underlines.
struct LayoutRasterizer {
    /// The largest backing image drawn, per side and in all: as large as a
    /// GL texture may be, and 256 MB of pixels.
    static let maxSide = 16384
    static let maxPixels = 1 << 26

    let glyphs: GlyphCache
    let faces: [Int: FontFace]

    /// The image of `layout` at `scale` pixels per point:
    /// `ceil(size * scale)` pixels, transparent where there is no text; nil
    /// when that is empty or nothing is drawn.
    /// - Throws: `TextRenderingError` when the image would be too large.
    func image(of layout: TextLayout, scale: Double) throws(TextRenderingError) -> CGImage? {
        let w = (Double(layout.size.width) * scale).rounded(.up), h = (Double(layout.size.height) * scale).rounded(.up)
        guard w >= 1, h >= 1, scale > 0, scale.isFinite else { return nil }
        guard w <= Double(Self.maxSide), h <= Double(Self.maxSide), w * h <= Double(Self.maxPixels) else {
            throw TextRenderingError(
                "a text layer's backing image of \(Quoted.number(w)) x \(Quoted.number(h)) pixels is too large "
                    + "(at most \(Self.maxSide) a side and \(Self.maxPixels) pixels)")
        }
        guard layout.lines.contains(where: { !$0.glyphs.isEmpty || !$0.underlines.isEmpty }) else { return nil }
        var canvas = TextCanvas(width: Int(w), height: Int(h))
        for line in layout.lines {
            let baseline = (Double(line.origin.y) * scale).rounded()
            // Lines wholly above or below the image draw nothing.
            guard baseline + line.descent * scale + 1 >= 0, baseline - line.ascent * scale - 1 <= h else { continue }
            for glyph in line.glyphs {
                draw(glyph, lineBaseline: Double(line.origin.y), pixelBaseline: baseline, scale: scale, on: &canvas)
            }
            for u in line.underlines {
                let center = (u.baseline + u.position) * scale
                let thickness = max(1, u.thickness * scale)
                canvas.fill(x0: u.minX * scale, x1: u.maxX * scale, y0: center - thickness / 2,
                            y1: center + thickness / 2, color: PremultipliedColor(u.color))
            }
        }
        do {
            return try canvas.makeImage()
        } catch {
            throw TextRenderingError("the text image could not be made: \(error)")
        }
    }

    private func draw(_ glyph: TextGlyph, lineBaseline: Double, pixelBaseline: Double, scale: Double,
                      on canvas: inout TextCanvas) {
        let pixelSize = glyph.fontSize * scale
        // Below 1/64 pixel FreeType has no size to draw at; above the cap the
        // bitmaps would be huge.
        guard let face = faces[glyph.faceID], pixelSize >= 1.0 / 64, pixelSize <= GlyphCache.maxPixelSize else { return }
        let steps = GlyphCache.subpixelSteps
        let x = Double(glyph.position.x) * scale
        guard x.isFinite else { return }
        var whole = x.rounded(.down)
        var step = Int(saturating: ((x - whole) * Double(steps)).rounded())
        if step == steps { whole += 1; step = 0 }
        var key = GlyphKey(faceID: face.id, pixelSize: Int32((pixelSize * 64).rounded()), glyph: glyph.glyphID,
                           subpixel: UInt8(step))
        // Mark offsets move a glyph off its line's baseline.
        let y = pixelBaseline + ((Double(glyph.position.y) - lineBaseline) * scale).rounded()
        // A glyph far off the image (a pen position of 1e300) draws nothing.
        guard abs(whole) < 1e9, abs(y) < 1e9 else { return }
        // Filled, then its outline on top (Core Text's order for a negative stroke width).
        if glyph.isFilled || face.isColorBitmap, let bitmap = glyphs.bitmap(key, face: face), bitmap.width > 0 {
            canvas.draw(bitmap, x: Int(whole) + bitmap.left, y: Int(y) - bitmap.top, color: PremultipliedColor(glyph.color))
        }
        let strokePixels = min(glyph.strokeWidth * scale, GlyphCache.maxPixelSize)
        if let strokeColor = glyph.strokeColor, strokePixels * 64 >= 1, !face.isColorBitmap {
            key.strokeWidth = Int32((strokePixels * 64).rounded())
            if let outline = glyphs.bitmap(key, face: face), outline.width > 0 {
                canvas.draw(outline, x: Int(whole) + outline.left, y: Int(y) - outline.top, color: PremultipliedColor(strokeColor))
            }
        }
    }
}
