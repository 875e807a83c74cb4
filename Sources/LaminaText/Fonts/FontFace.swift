import CFreeType

/// An open font face: FreeType for outlines, HarfBuzz for shaping, and the
/// metrics that layout needs, in font units.
///
/// HarfBuzz shapes at a scale of one unit per font unit, so advances are
/// exact and independent of the pixel size; layout multiplies them by
/// `size / unitsPerEm`. Only `TextRenderer` touches a face, under its lock.
final class FontFace: @unchecked Sendable {
    /// Distinguishes faces in cache keys.
    let id: Int
    let file: String
    let index: Int
    let familyName: String
    let unitsPerEm: Double
    /// Above the baseline (positive), below it (negative), and the gap
    /// between lines, in font units: hhea's (or OS/2's) line metrics.
    let ascender: Double
    let descender: Double
    let lineGap: Double
    /// The centre of the underline below the baseline (negative) and its
    /// thickness, in font units.
    let underlinePosition: Double
    let underlineThickness: Double
    /// A colour bitmap font (CBDT, such as Noto Color Emoji): glyphs are
    /// pictures at fixed sizes (`strikes`, in pixels per em), scaled to the
    /// size drawn, not outlines.
    let isColorBitmap: Bool
    let strikes: [Int]

    let ftFace: FT_Face
    let hbFont: OpaquePointer
    /// The library the face was opened from (its stroker is made there too).
    let library: FreeTypeLibrary

    init(file: String, index: Int, id: Int, library: FreeTypeLibrary) throws(TextRenderingError) {
        var face: FT_Face?
        let error = FT_New_Face(library.handle, file, index, &face)
        guard error == 0, let face else { throw .freeType("FT_New_Face", error, file) }
        let rec = face.pointee
        let color = rec.face_flags & FT_Long(FT_FACE_FLAG_COLOR) != 0 && rec.face_flags & FT_Long(FT_FACE_FLAG_FIXED_SIZES) != 0
        guard rec.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0 || color else {
            FT_Done_Face(face)
            throw TextRenderingError("the font \(file) has no scalable outlines")
        }
        isColorBitmap = rec.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) == 0 && color
        strikes = (0..<Int(rec.num_fixed_sizes)).map { Int(rec.available_sizes[$0].y_ppem / 64) }
        // HarfBuzz's face takes its own reference to the FreeType face.
        let hbFace = hb_ft_face_create_referenced(face)
        // A bitmap-only font has no em in FreeType's eyes (0); its head
        // table, which HarfBuzz reads, has one.
        let upem = rec.units_per_EM > 0 ? Int32(rec.units_per_EM) : Int32(hb_face_get_upem(hbFace))
        let font = hb_font_create(hbFace)
        hb_face_destroy(hbFace)
        guard let font, upem > 0 else {
            if let font { hb_font_destroy(font) }
            FT_Done_Face(face)
            throw TextRenderingError("HarfBuzz could not make a font of \(file)")
        }
        hb_font_set_scale(font, upem, upem)
        // Line metrics: FreeType's, or HarfBuzz's (hhea/OS2) for a bitmap font.
        var extents = hb_font_extents_t()
        let useHarfBuzzExtents = rec.units_per_EM == 0 && hb_font_get_h_extents(font, &extents) != 0

        self.id = id
        self.file = file
        self.index = index
        self.library = library
        ftFace = face
        hbFont = font
        familyName = rec.family_name.map { String(cString: $0) } ?? ""
        unitsPerEm = Double(upem)
        if useHarfBuzzExtents {
            ascender = Double(extents.ascender)
            descender = Double(extents.descender)
            lineGap = max(0, Double(extents.line_gap))
        } else {
            ascender = Double(rec.ascender)
            descender = Double(rec.descender)
            lineGap = max(0, Double(rec.height) - Double(rec.ascender) + Double(rec.descender))
        }
        // Fonts without a post table report 0; fall back to common values.
        underlinePosition = rec.underline_position != 0 ? Double(rec.underline_position) : -0.1 * Double(upem)
        underlineThickness = rec.underline_thickness > 0 ? Double(rec.underline_thickness) : 0.05 * Double(upem)
    }

    deinit {
        hb_font_destroy(hbFont)
        FT_Done_Face(ftFace)
    }

    /// Whether the face maps `scalar` to a glyph of its own.
    func hasGlyph(for scalar: Unicode.Scalar) -> Bool {
        FT_Get_Char_Index(ftFace, FT_ULong(scalar.value)) != 0
    }

    /// Points per font unit at `size` points.
    func scale(forSize size: Double) -> Double { size / unitsPerEm }
}
