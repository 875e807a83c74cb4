import CFreeType

/// One face that fontconfig offers: where it is and which characters it has.
struct FontCandidate {
    let file: String
    let index: Int
    /// fontconfig's `FcCharSet`, owned by the `FontChain`.
    let charset: OpaquePointer
}

/// The faces to try for one font name, best first: fontconfig's sorted list
/// for the request, trimmed to the faces that add characters. The first face
/// that has a character draws it.
final class FontChain {
    let candidates: [FontCandidate]

    init(candidates: [FontCandidate]) { self.candidates = candidates }

    deinit {
        for candidate in candidates { FcCharSetDestroy(candidate.charset) }
    }

    /// Whether candidate `i` has a glyph for every scalar.
    func candidate(_ i: Int, covers scalars: some Sequence<Unicode.Scalar>) -> Bool {
        scalars.allSatisfy { FcCharSetHasChar(candidates[i].charset, $0.value) != 0 }
    }
}

/// fontconfig's configuration and font list, loaded once.
final class FontDatabase {
    private let config: OpaquePointer

    init() throws(TextRenderingError) {
        guard let config = FcInitLoadConfigAndFonts() else {
            throw TextRenderingError("fontconfig could not load its configuration and fonts")
        }
        self.config = config
    }

    deinit { FcConfigDestroy(config) }

    /// The faces for `request`, best first; empty when no font is installed.
    func chain(for request: FontRequest) -> FontChain {
        guard let pattern = makePattern(request) else { return FontChain(candidates: []) }
        defer { FcPatternDestroy(pattern) }
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let set = FcFontSort(config, pattern, FcTrue, nil, &result) else { return FontChain(candidates: []) }
        defer { FcFontSetDestroy(set) }
        var candidates: [FontCandidate] = []
        let fonts = set.pointee
        for i in 0..<Int(fonts.nfont) {
            guard let font = fonts.fonts[i], let candidate = Self.candidate(font) else { continue }
            candidates.append(candidate)
        }
        return FontChain(candidates: candidates)
    }

    private func makePattern(_ request: FontRequest) -> OpaquePointer? {
        // A pattern that fontconfig cannot parse is taken as a family name.
        if let text = request.pattern, let parsed = FcNameParse(text) { return parsed }
        guard let pattern = FcPatternCreate() else { return nil }
        for family in request.pattern.map({ [$0] }) ?? request.families {
            FcPatternAddString(pattern, FC_FAMILY, family)
        }
        if let weight = request.weight { FcPatternAddInteger(pattern, FC_WEIGHT, weight) }
        if let slant = request.slant { FcPatternAddInteger(pattern, FC_SLANT, slant) }
        return pattern
    }

    private static func candidate(_ font: OpaquePointer) -> FontCandidate? {
        var file: UnsafeMutablePointer<FcChar8>?
        var index: Int32 = 0
        var charset: OpaquePointer?
        var scalable: FcBool = FcTrue
        guard FcPatternGetString(font, FC_FILE, 0, &file) == FcResultMatch, let file,
              FcPatternGetCharSet(font, FC_CHARSET, 0, &charset) == FcResultMatch, let charset
        else { return nil }
        if FcPatternGetBool(font, FC_SCALABLE, 0, &scalable) == FcResultMatch, scalable == FcFalse { return nil }
        if FcPatternGetInteger(font, FC_INDEX, 0, &index) != FcResultMatch { index = 0 }
        guard let copy = FcCharSetCopy(charset) else { return nil }
        return FontCandidate(file: String(cString: file), index: Int(index), charset: copy)
    }
}
