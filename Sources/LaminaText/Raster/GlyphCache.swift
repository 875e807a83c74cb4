import CFreeType

/// A glyph's anti-aliased coverage, as FreeType rendered it.
struct GlyphBitmap {
    var width: Int
    var rows: Int
    /// From the pen position to the bitmap's left column, and from the
    /// baseline up to its top row, in pixels.
    var left: Int
    var top: Int
    /// `rows` rows of `width` coverage values, 0...255, top row first
    /// (empty for a colour glyph).
    var coverage: [UInt8]
    /// A colour glyph (emoji): premultiplied RGBA, `width` x `rows`, drawn
    /// as it is, whatever the text's colour.
    var color: [UInt8]? = nil

    static let empty = GlyphBitmap(width: 0, rows: 0, left: 0, top: 0, coverage: [])

    var byteCount: Int { coverage.count + (color?.count ?? 0) }
}

/// Which bitmap: a face's glyph at a pixel size (26.6 fixed point) with the
/// pen at one of four quarter-pixel offsets, filled, or its outline stroked
/// `strokeWidth` pixels wide (26.6).
struct GlyphKey: Hashable {
    var faceID: Int
    var pixelSize: Int32
    var glyph: UInt32
    var subpixel: UInt8
    var strokeWidth: Int32 = 0
}

/// Glyph bitmaps made by FreeType, kept so repeated frames and repeated
/// letters cost a lookup: the CPU side's glyph atlas.
///
/// Bounded by the bytes of coverage it holds; when full it is emptied
/// (text layers redraw whole, so the next frame refills what it uses).
/// Not thread-safe; `TextRenderer` serialises all use.
final class GlyphCache {
    /// Quarter-pixel pen positions: finer is not visible after filtering,
    /// coarser makes spacing uneven at small sizes.
    static let subpixelSteps = 4
    /// The largest em, in pixels, that glyphs are drawn at; text larger
    /// than this is not drawn (its bitmaps would take hundreds of MB).
    static let maxPixelSize = 4096.0

    private var entries: [GlyphKey: GlyphBitmap] = [:]
    private var bytes = 0
    let byteLimit: Int
    private(set) var hits = 0
    private(set) var misses = 0

    init(byteLimit: Int = 32 << 20) { self.byteLimit = byteLimit }

    var count: Int { entries.count }

    /// The bitmap of `key`'s glyph of `face`; nil when FreeType cannot draw
    /// it (an error, or no outline).
    func bitmap(_ key: GlyphKey, face: FontFace) -> GlyphBitmap? {
        if let hit = entries[key] {
            hits += 1
            return hit
        }
        misses += 1
        guard let bitmap = Self.render(key, face: face) else { return nil }
        let size = bitmap.byteCount + 64
        if size <= byteLimit / 4 {
            if bytes + size > byteLimit { removeAll() }
            entries[key] = bitmap
            bytes += size
        }
        return bitmap
    }

    func removeAll() {
        entries.removeAll(keepingCapacity: true)
        bytes = 0
    }

    /// Loads the outline unhinted (layout uses unhinted advances, and
    /// hinting would fight the subpixel pen), moves it by the subpixel
    /// offset, and renders 8-bit coverage.
    private static func render(_ key: GlyphKey, face: FontFace) -> GlyphBitmap? {
        if face.isColorBitmap { return renderColor(key, face: face) }
        let ft = face.ftFace
        guard FT_Set_Char_Size(ft, 0, FT_F26Dot6(key.pixelSize), 72, 72) == 0,
              FT_Load_Glyph(ft, key.glyph, FT_Int32(FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)) == 0,
              let slot = ft.pointee.glyph,
              slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE
        else { return nil }
        let shift = FT_Pos(Int(key.subpixel) * 64 / subpixelSteps)
        FT_Outline_Translate(&slot.pointee.outline, shift, 0)
        if key.strokeWidth > 0 { return renderStroke(slot, width: key.strokeWidth, library: face.library.handle) }
        guard FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0 else { return nil }
        return bitmap(slot.pointee.bitmap, left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top))
    }

    /// The glyph's outline stroked `width` pixels wide (26.6), half each
    /// side, as Core Graphics strokes a path by default: butt ends, miter
    /// joins up to a miter limit of 10, bevelled past it.
    private static func renderStroke(_ slot: FT_GlyphSlot, width: Int32, library: FT_Library) -> GlyphBitmap? {
        var stroker: FT_Stroker?
        guard FT_Stroker_New(library, &stroker) == 0, let stroker else { return nil }
        defer { FT_Stroker_Done(stroker) }
        FT_Stroker_Set(stroker, FT_Fixed(width / 2), FT_STROKER_LINECAP_BUTT, FT_STROKER_LINEJOIN_MITER_VARIABLE,
                       FT_Fixed(10 << 16))
        var glyph: FT_Glyph?
        guard FT_Get_Glyph(slot, &glyph) == 0 else { return nil }
        // Each call below replaces `glyph` (destroying the one it was given) or leaves it to free.
        defer { if let glyph { FT_Done_Glyph(glyph) } }
        guard FT_Glyph_Stroke(&glyph, stroker, 1) == 0,
              FT_Glyph_To_Bitmap(&glyph, FT_RENDER_MODE_NORMAL, nil, 1) == 0,
              let rendered = glyph, rendered.pointee.format == FT_GLYPH_FORMAT_BITMAP
        else { return nil }
        let bitmapGlyph = UnsafeMutableRawPointer(rendered).assumingMemoryBound(to: FT_BitmapGlyphRec.self)
        return bitmap(bitmapGlyph.pointee.bitmap, left: Int(bitmapGlyph.pointee.left), top: Int(bitmapGlyph.pointee.top))
    }

    /// A FreeType bitmap (grey levels or one bit a pixel) as 8-bit coverage.
    private static func bitmap(_ b: FT_Bitmap, left: Int, top: Int) -> GlyphBitmap? {
        let width = Int(b.width), rows = Int(b.rows), pitch = Int(b.pitch)
        guard width > 0, rows > 0, let buffer = b.buffer else { return .empty }
        var coverage = [UInt8](repeating: 0, count: width * rows)
        for y in 0..<rows {
            // A negative pitch means rows are stored bottom up.
            let row = buffer + (pitch >= 0 ? y * pitch : (rows - 1 - y) * -pitch)
            for x in 0..<width {
                switch Int32(b.pixel_mode) {
                case Int32(FT_PIXEL_MODE_GRAY.rawValue):
                    let levels = max(1, Int(b.num_grays) - 1)
                    coverage[y * width + x] = UInt8(Int(row[x]) * 255 / levels)
                case Int32(FT_PIXEL_MODE_MONO.rawValue):
                    coverage[y * width + x] = row[x >> 3] & (0x80 >> UInt8(x & 7)) != 0 ? 255 : 0
                default:
                    return nil
                }
            }
        }
        return GlyphBitmap(width: width, rows: rows, left: left, top: top, coverage: coverage)
    }

    /// A colour bitmap glyph: the strike nearest above the size (the
    /// largest when none is), its BGRA picture scaled to the size by area
    /// averaging (every source pixel counts for the part of a target pixel
    /// it covers; the buffer is no larger than the strike's picture), or,
    /// above the largest strike, sampled bilinearly; premultiplied RGBA out. The pen's subpixel offset is
    /// not applied: emoji sit on whole pixels.
    private static func renderColor(_ key: GlyphKey, face: FontFace) -> GlyphBitmap? {
        let ft = face.ftFace
        let pixels = Double(key.pixelSize) / 64
        // The smallest strike at least as large as the size, else the largest.
        func cost(_ strike: Int) -> Double { Double(strike) >= pixels ? Double(strike) : 1e9 - Double(strike) }
        guard let strikeIndex = face.strikes.indices.min(by: { cost(face.strikes[$0]) < cost(face.strikes[$1]) }),
            FT_Select_Size(ft, FT_Int(strikeIndex)) == 0,
            FT_Load_Glyph(ft, key.glyph, FT_Int32(FT_LOAD_COLOR)) == 0,
            let slot = ft.pointee.glyph
        else { return nil }
        if slot.pointee.format != FT_GLYPH_FORMAT_BITMAP, FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) != 0 { return nil }
        let b = slot.pointee.bitmap
        let width = Int(b.width), rows = Int(b.rows), pitch = Int(b.pitch)
        guard width > 0, rows > 0, let buffer = b.buffer, Int32(b.pixel_mode) == Int32(FT_PIXEL_MODE_BGRA.rawValue) else {
            return .empty
        }
        let ratio = pixels / Double(face.strikes[strikeIndex])
        let left = Double(slot.pointee.bitmap_left) * ratio, top = Double(slot.pointee.bitmap_top) * ratio
        // The target grid: whole pixels around the scaled picture.
        let x0 = Int(left.rounded(.down)), y0 = Int(top.rounded(.up))
        let outWidth = max(1, Int((left + Double(width) * ratio).rounded(.up)) - x0)
        let outRows = max(1, y0 - Int((top - Double(rows) * ratio).rounded(.down)))
        func source(_ sx: Int, _ sy: Int) -> UnsafeMutablePointer<UInt8> {
            buffer + (pitch >= 0 ? sy * pitch : (rows - 1 - sy) * -pitch) + sx * 4
        }
        if ratio > 1 {
            // Larger than the largest strike: each target pixel samples the
            // picture bilinearly (no buffer larger than the glyph itself).
            var color = [UInt8](repeating: 0, count: outWidth * outRows * 4)
            for ty in 0..<outRows {
                let fy = (Double(ty) + 0.5 - Double(y0) + top) / ratio - 0.5
                let y = Int(fy.rounded(.down)), wy = fy - Double(y)
                for tx in 0..<outWidth {
                    let fx = (Double(tx) + 0.5 + Double(x0) - left) / ratio - 0.5
                    let x = Int(fx.rounded(.down)), wx = fx - Double(x)
                    var sample = (0.0, 0.0, 0.0, 0.0)
                    for (dy, wyk) in [(0, 1 - wy), (1, wy)] where wyk > 0 {
                        for (dx, wxk) in [(0, 1 - wx), (1, wx)] where wxk > 0 {
                            let (px, py) = (x + dx, y + dy)
                            guard px >= 0, px < width, py >= 0, py < rows else { continue }
                            let p = source(px, py), w = wxk * wyk
                            sample.0 += Double(p[2]) * w; sample.1 += Double(p[1]) * w
                            sample.2 += Double(p[0]) * w; sample.3 += Double(p[3]) * w
                        }
                    }
                    let i = (ty * outWidth + tx) * 4
                    color[i] = UInt8(min(255, sample.0.rounded())); color[i + 1] = UInt8(min(255, sample.1.rounded()))
                    color[i + 2] = UInt8(min(255, sample.2.rounded())); color[i + 3] = UInt8(min(255, sample.3.rounded()))
                }
            }
            return GlyphBitmap(width: outWidth, rows: outRows, left: x0, top: y0, coverage: [], color: color)
        }
        var sums = [Double](repeating: 0, count: outWidth * outRows * 4)
        for sy in 0..<rows {
            let row = buffer + (pitch >= 0 ? sy * pitch : (rows - 1 - sy) * -pitch)
            // The source pixel's extent in target pixels (y down from the top).
            let ty0 = Double(y0) - top + Double(sy) * ratio, ty1 = ty0 + ratio
            for sx in 0..<width {
                let blue = Double(row[sx * 4]), green = Double(row[sx * 4 + 1]), red = Double(row[sx * 4 + 2]), alpha = Double(row[sx * 4 + 3])
                guard alpha > 0 else { continue }
                let tx0 = left - Double(x0) + Double(sx) * ratio, tx1 = tx0 + ratio
                for ty in max(0, Int(ty0.rounded(.down)))..<min(outRows, Int(ty1.rounded(.up))) {
                    let fy = min(ty1, Double(ty + 1)) - max(ty0, Double(ty))
                    guard fy > 0 else { continue }
                    for tx in max(0, Int(tx0.rounded(.down)))..<min(outWidth, Int(tx1.rounded(.up))) {
                        let f = fy * (min(tx1, Double(tx + 1)) - max(tx0, Double(tx)))
                        guard f > 0 else { continue }
                        let i = (ty * outWidth + tx) * 4
                        sums[i] += red * f; sums[i + 1] += green * f; sums[i + 2] += blue * f; sums[i + 3] += alpha * f
                    }
                }
            }
        }
        let color = sums.map { UInt8(min(255, max(0, $0.rounded()))) }
        return GlyphBitmap(width: outWidth, rows: outRows, left: x0, top: y0, coverage: [], color: color)
    }
}
