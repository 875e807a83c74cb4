import CFreeType

/// A glyph as HarfBuzz placed it, in points (offsets with y up).
struct ShapedGlyph {
    var glyph: UInt32
    /// The paragraph-relative index of the first scalar it draws.
    var cluster: Int
    var advance: Double
    var offsetX: Double
    var offsetY: Double
}

/// A stretch of a paragraph with one style, face, level and script, shaped
/// by HarfBuzz.
final class ShapedRun {
    /// Paragraph-relative scalar indices.
    let range: Range<Int>
    let style: TextStyle
    let face: FontFace
    /// Bidi embedding level: odd reads right to left.
    let level: UInt8
    /// In HarfBuzz's output order, which is visual (left to right) order.
    let glyphs: [ShapedGlyph]

    var isRightToLeft: Bool { level & 1 == 1 }

    /// The indices of the glyphs that draw the scalars `range`. HarfBuzz
    /// keeps clusters monotonic (ascending, or descending in right-to-left
    /// runs), so they are one stretch, found by binary search.
    func glyphIndices(for range: Range<Int>) -> Range<Int> {
        let rtl = isRightToLeft
        // The first glyph at or past `bound` in visual order.
        func firstIndex(reaching bound: Int) -> Int {
            var low = 0, high = glyphs.count
            while low < high {
                let mid = (low + high) / 2
                let past = rtl ? glyphs[mid].cluster < bound : glyphs[mid].cluster >= bound
                if past { high = mid } else { low = mid + 1 }
            }
            return low
        }
        let a = firstIndex(reaching: rtl ? range.upperBound : range.lowerBound)
        let b = firstIndex(reaching: rtl ? range.lowerBound : range.upperBound)
        return a..<max(a, b)
    }

    /// Shapes `range` of `text` (the whole paragraph, as UTF-32, so HarfBuzz
    /// sees the context around the run: Arabic joining across a style
    /// change, for one).
    init(text: [UInt32], range: Range<Int>, style: TextStyle, face: FontFace, level: UInt8, script: hb_script_t) {
        self.range = range
        self.style = style
        self.face = face
        self.level = level
        let buffer = hb_buffer_create()
        defer { hb_buffer_destroy(buffer) }
        hb_buffer_add_utf32(buffer, text, Int32(text.count), UInt32(range.lowerBound), Int32(range.count))
        hb_buffer_set_direction(buffer, level & 1 == 1 ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        hb_buffer_set_script(buffer, script)
        hb_buffer_guess_segment_properties(buffer)
        let features = Self.features(for: style)
        hb_shape(face.hbFont, buffer, features, UInt32(features.count))

        var count: UInt32 = 0
        let scale = face.scale(forSize: style.fontSize)
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
              let positions = hb_buffer_get_glyph_positions(buffer, &count)
        else {
            glyphs = []
            return
        }
        glyphs = (0..<Int(count)).map { i in
            ShapedGlyph(
                glyph: infos[i].codepoint, cluster: Int(infos[i].cluster),
                advance: Double(positions[i].x_advance) * scale + (style.kern ?? 0),
                offsetX: Double(positions[i].x_offset) * scale, offsetY: Double(positions[i].y_offset) * scale)
        }
    }

    /// The OpenType features a style turns off, over the whole run: pair
    /// kerning where a kern is given (Core Text's rule), optional ligatures
    /// where they are not wanted.
    private static func features(for style: TextStyle) -> [hb_feature_t] {
        var off: [String] = []
        if style.kern != nil { off.append("kern") }
        if !style.ligatures { off += ["liga", "clig"] }
        return off.map { tag in
            let code = tag.utf8.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            return hb_feature_t(tag: code, value: 0, start: 0, end: UInt32.max)
        }
    }
}
