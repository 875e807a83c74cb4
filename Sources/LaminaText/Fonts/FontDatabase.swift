import CFreeType

/// One face that fontconfig knows: where it is, which characters it has,
/// and its names and style.
final class FontCandidate {
    let file: String
    let index: Int
    /// fontconfig's `FcCharSet`, owned here.
    let charset: OpaquePointer
    /// Every family name the face gives (`DejaVu Sans`, `DejaVu Sans Condensed`).
    let families: [String]
    let postScriptName: String?
    /// fontconfig's weight (`FC_WEIGHT_REGULAR` is 80), slant (0 roman) and
    /// width (100 normal).
    let weight: Int32
    let slant: Int32
    let width: Int32

    init(file: String, index: Int, charset: OpaquePointer, families: [String], postScriptName: String?,
         weight: Int32, slant: Int32, width: Int32) {
        self.file = file
        self.index = index
        self.charset = charset
        self.families = families
        self.postScriptName = postScriptName
        self.weight = weight
        self.slant = slant
        self.width = width
    }

    deinit { FcCharSetDestroy(charset) }

    var key: String { "\(file)#\(index)" }

    /// How far the face is from a weight and slant: a wrong slant costs
    /// more than any weight, a condensed or expanded width more than a
    /// step of weight.
    func distance(weight wanted: Int32?, slant wantedSlant: Int32?) -> Int {
        let w = abs(Int(weight) - Int(wanted ?? 80))
        let s = (slant == 0) == ((wantedSlant ?? 0) == 0) ? 0 : 10_000
        return s + w + 2 * abs(Int(width) - 100)
    }
}

/// The faces to try for one font name, best first. The first face that has
/// a character draws it.
final class FontChain {
    let candidates: [FontCandidate]
    /// When the name's preferred families are all missing: what was drawn
    /// instead (for the warning).
    let substitution: FontSubstitution?

    init(candidates: [FontCandidate], substitution: FontSubstitution? = nil) {
        self.candidates = candidates
        self.substitution = substitution
    }

    /// Whether candidate `i` has a glyph for every scalar.
    func candidate(_ i: Int, covers scalars: some Sequence<Unicode.Scalar>) -> Bool {
        scalars.allSatisfy { FcCharSetHasChar(candidates[i].charset, $0.value) != 0 }
    }
}

/// fontconfig's configuration and font list, loaded once, asked only to
/// find files: every face of a family by its exact name (`faces(inFamily:)`),
/// and, as the last resort for characters no listed family has, its own
/// sorted guess (`fontconfigGuess`).
final class FontDatabase {
    private let config: OpaquePointer
    /// Faces by family key, as looked up: emptied with `FontSystem`'s chains
    /// (`forgetFamilies`), so that names a scene makes up are not kept for good.
    private var families: [String: [FontCandidate]] = [:]
    private var familyKeyBytes = 0
    /// Files added with `addFonts`, which resolve before the table.
    private(set) var registeredFiles: Set<String> = []

    /// - Parameter configurationFile: a fontconfig configuration to load
    ///   instead of the machine's (`FONTCONFIG_FILE` does the same for the
    ///   whole process).
    init(configurationFile: String? = nil) throws(TextRenderingError) {
        if let configurationFile {
            guard let config = FcConfigCreate() else { throw TextRenderingError("fontconfig could not start") }
            guard FcConfigParseAndLoad(config, configurationFile, FcTrue) == FcTrue, FcConfigBuildFonts(config) == FcTrue else {
                FcConfigDestroy(config)
                throw TextRenderingError("fontconfig could not load the configuration \(configurationFile)")
            }
            self.config = config
        } else {
            guard let config = FcInitLoadConfigAndFonts() else {
                throw TextRenderingError("fontconfig could not load its configuration and fonts")
            }
            self.config = config
        }
    }

    deinit { FcConfigDestroy(config) }

    /// Adds font files (registered by the application, which has checked
    /// that FreeType reads them) to what this database finds.
    func addFonts(_ files: [String]) {
        for file in files where !registeredFiles.contains(file) && FcConfigAppFontAddFile(config, file) == FcTrue {
            registeredFiles.insert(file)
        }
        forgetFamilies()
    }

    /// Forgets the families looked up so far (they are looked up again as needed).
    func forgetFamilies() {
        families = [:]
        familyKeyBytes = 0
    }

    /// Every scalable face whose family (any of its names) is `family`,
    /// exactly but in any case, in a fixed order.
    func faces(inFamily family: String) -> [FontCandidate] {
        let key = FontTable.key(family)
        if let known = families[key] { return known }
        var found: [FontCandidate] = []
        if let pattern = FcPatternCreate() {
            FcPatternAddString(pattern, FC_FAMILY, family)
            found = list(pattern)
            FcPatternDestroy(pattern)
        }
        // fontconfig compares family names ignoring case and spaces already;
        // keep only faces that really carry the name.
        found = found.filter { $0.families.contains { FontTable.key($0) == key } }
        // One made-up name can list many families: bounded here too.
        if families.count >= 8192 || familyKeyBytes + key.utf8.count > 256 << 10 { forgetFamilies() }
        families[key] = found
        familyKeyBytes += key.utf8.count
        return found
    }

    /// The registered face whose PostScript name is `name` (`MyFont-Bold`).
    func registeredFace(postScriptName name: String) -> FontCandidate? {
        guard !registeredFiles.isEmpty, let pattern = FcPatternCreate() else { return nil }
        defer { FcPatternDestroy(pattern) }
        FcPatternAddString(pattern, FC_POSTSCRIPT_NAME, name)
        return list(pattern).first { registeredFiles.contains($0.file) && $0.postScriptName == name }
    }

    /// fontconfig's own sorted list for a request, its substitutions
    /// included: what differs between machines, so only the last resort.
    func fontconfigGuess(for request: FontRequest) -> [FontCandidate] {
        guard let pattern = makePattern(request) else { return [] }
        defer { FcPatternDestroy(pattern) }
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let set = FcFontSort(config, pattern, FcTrue, nil, &result) else { return [] }
        defer { FcFontSetDestroy(set) }
        let fonts = set.pointee
        return (0..<Int(fonts.nfont)).compactMap { fonts.fonts[$0].flatMap(Self.candidate) }
    }

    private func list(_ pattern: OpaquePointer) -> [FontCandidate] {
        guard let objects = FcObjectSetCreate() else { return [] }
        defer { FcObjectSetDestroy(objects) }
        for object in [FC_FILE, FC_INDEX, FC_CHARSET, FC_FAMILY, FC_POSTSCRIPT_NAME, FC_WEIGHT, FC_SLANT, FC_WIDTH, FC_SCALABLE,
                       FC_FONTFORMAT] {
            FcObjectSetAdd(objects, object)
        }
        guard let set = FcFontList(config, pattern, objects) else { return [] }
        defer { FcFontSetDestroy(set) }
        let fonts = set.pointee
        return (0..<Int(fonts.nfont)).compactMap { fonts.fonts[$0].flatMap(Self.candidate) }
            .sorted { ($0.file, $0.index) < ($1.file, $1.index) }
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
        // HarfBuzz shapes from a font's sfnt tables (cmap, GSUB, hmtx): a
        // Type 1 or PCF file has none, and every character would shape to
        // the missing glyph and draw nothing. fontconfig calls an OpenType
        // file "TrueType" or "CFF" by its outlines.
        var format: UnsafeMutablePointer<FcChar8>?
        if FcPatternGetString(font, FC_FONTFORMAT, 0, &format) == FcResultMatch, let format,
           !["TrueType", "CFF"].contains(String(cString: format)) { return nil }
        if FcPatternGetInteger(font, FC_INDEX, 0, &index) != FcResultMatch { index = 0 }
        var families: [String] = []
        var n: Int32 = 0
        var name: UnsafeMutablePointer<FcChar8>?
        while FcPatternGetString(font, FC_FAMILY, n, &name) == FcResultMatch, let name {
            families.append(String(cString: name))
            n += 1
        }
        var postScript: UnsafeMutablePointer<FcChar8>?
        let postScriptName = FcPatternGetString(font, FC_POSTSCRIPT_NAME, 0, &postScript) == FcResultMatch
            ? postScript.map { String(cString: $0) } : nil
        func integer(_ object: String, _ fallback: Int32) -> Int32 {
            var value: Int32 = 0
            if FcPatternGetInteger(font, object, 0, &value) == FcResultMatch { return value }
            var double = 0.0
            if FcPatternGetDouble(font, object, 0, &double) == FcResultMatch { return Int32(double) }
            return fallback
        }
        guard let copy = FcCharSetCopy(charset) else { return nil }
        return FontCandidate(file: String(cString: file), index: Int(index), charset: copy, families: families,
                             postScriptName: postScriptName, weight: integer(FC_WEIGHT, 80),
                             slant: integer(FC_SLANT, 0), width: integer(FC_WIDTH, 100))
    }
}
