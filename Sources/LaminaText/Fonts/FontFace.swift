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

    let ftFace: FT_Face
    let hbFont: OpaquePointer
    private let library: FreeTypeLibrary

    init(file: String, index: Int, id: Int, library: FreeTypeLibrary) throws(TextRenderingError) {
        var face: FT_Face?
        let error = FT_New_Face(library.handle, file, index, &face)
        guard error == 0, let face else { throw .freeType("FT_New_Face", error, file) }
        let rec = face.pointee
        guard rec.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0, rec.units_per_EM > 0 else {
            FT_Done_Face(face)
            throw TextRenderingError("the font \(file) has no scalable outlines")
        }
        // HarfBuzz's face takes its own reference to the FreeType face.
        let hbFace = hb_ft_face_create_referenced(face)
        let font = hb_font_create(hbFace)
        hb_face_destroy(hbFace)
        guard let font else {
            FT_Done_Face(face)
            throw TextRenderingError("HarfBuzz could not make a font of \(file)")
        }
        let upem = Int32(rec.units_per_EM)
        hb_font_set_scale(font, upem, upem)

        self.id = id
        self.file = file
        self.index = index
        self.library = library
        ftFace = face
        hbFont = font
        familyName = rec.family_name.map { String(cString: $0) } ?? ""
        unitsPerEm = Double(upem)
        ascender = Double(rec.ascender)
        descender = Double(rec.descender)
        lineGap = max(0, Double(rec.height) - Double(rec.ascender) + Double(rec.descender))
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
