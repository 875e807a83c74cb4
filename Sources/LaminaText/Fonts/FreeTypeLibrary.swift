import CFreeType

/// One FreeType library instance. Faces opened from it keep it alive, so it
/// is released after the last of them.
///
/// FreeType handles are not thread-safe; `TextRenderer` serialises all use.
final class FreeTypeLibrary {
    let handle: FT_Library

    init() throws(TextRenderingError) {
        var library: FT_Library?
        let error = FT_Init_FreeType(&library)
        guard error == 0, let library else { throw .freeType("FT_Init_FreeType", error) }
        handle = library
    }

    deinit { FT_Done_FreeType(handle) }
}
