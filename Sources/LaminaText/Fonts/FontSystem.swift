/// Fonts by name, with fallback: the chains `FontTable` and the registered
/// fonts make of fontconfig's files, and the faces opened from them, both
/// cached for the life of the renderer.
///
/// Not thread-safe; `TextRenderer` serialises all use.
final class FontSystem {
    private let library: FreeTypeLibrary
    private let database: FontDatabase
    private var chains: [String: FontChain] = [:]
    /// The bytes of `chains`' names (its values are a few candidates each).
    private var chainNameBytes = 0
    /// What `chains` holds at most before it starts again: names come from
    /// scenes (strangers', on a server).
    static let chainLimit = (count: 4096, nameBytes: 256 << 10)
    /// Open faces by "file#index"; nil records a face that failed to open,
    /// so it is not tried again.
    private var facesByFile: [String: FontFace?] = [:]
    private(set) var facesByID: [Int: FontFace] = [:]
    /// How many of `FontRegistry`'s files the database has.
    private var registeredCount = 0

    /// - Parameter configurationFile: a fontconfig configuration to use
    ///   instead of the machine's (tests use a private one).
    init(configurationFile: String? = nil) throws(TextRenderingError) {
        library = try FreeTypeLibrary()
        database = try FontDatabase(configurationFile: configurationFile)
    }

    /// The bytes of the font names whose chains are kept.
    var cachedChainNameBytes: Int { chainNameBytes }

    /// The number of faces opened so far.
    var openFaceCount: Int { facesByID.count }

    /// The fallback chain for a font name (see `FontTable`).
    func chain(named name: String) -> FontChain {
        let registered = FontRegistry.files
        if registered.count != registeredCount {
            database.addFonts(Array(registered[registeredCount...]))
            registeredCount = registered.count
            chains = [:]
        }
        if let chain = chains[name] { return chain }
        // Names come from scenes (strangers', on a server): the cache is
        // bounded in names and in their bytes, and starts again when full.
        if chains.count >= Self.chainLimit.count || chainNameBytes + name.utf8.count > Self.chainLimit.nameBytes {
            chains = [:]
            chainNameBytes = 0
            database.forgetFamilies()
        }
        let chain = resolve(name)
        if name.utf8.count <= Self.chainLimit.nameBytes {
            chains[name] = chain
            chainNameBytes += name.utf8.count
        }
        if let substitution = chain.substitution { FontWarnings.report(substitution) }
        return chain
    }

    /// Registered fonts by PostScript name, then by family; else the name's
    /// row of the table (or the family as installed, then the sans row);
    /// then the coverage families; last, fontconfig's own guess.
    private func resolve(_ name: String) -> FontChain {
        let request = FontRequest(name: name)
        if request.pattern != nil {
            // A fontconfig pattern asks for fontconfig's own answer.
            return FontChain(candidates: database.fontconfigGuess(for: request))
        }
        var chain: [FontCandidate] = []
        var seen: Set<String> = []
        func add(_ candidate: FontCandidate?) {
            guard let candidate, seen.insert(candidate.key).inserted else { return }
            chain.append(candidate)
        }
        /// The face of `family` closest to the request's weight and slant.
        func best(_ family: String, registeredOnly: Bool = false) -> FontCandidate? {
            database.faces(inFamily: family)
                .filter { !registeredOnly || database.registeredFiles.contains($0.file) }
                .min { ($0.distance(weight: request.weight, slant: request.slant), $0.file, $0.index)
                    < ($1.distance(weight: request.weight, slant: request.slant), $1.file, $1.index) }
        }
        add(database.registeredFace(postScriptName: name.trimmingWhitespace))
        for family in request.families { add(best(family, registeredOnly: true)) }
        let row = request.families.lazy.compactMap(FontTable.row(for:)).first
        let table = row ?? FontTable.defaultRow
        var substitution: FontSubstitution?
        if chain.isEmpty {
            if row == nil {
                for family in request.families { add(best(family)) }
            }
            let ownFound = !chain.isEmpty
            let before = chain.count
            for family in table.preferred { add(best(family)) }
            let preferredFound = chain.count > before
            if !ownFound && !preferredFound {
                for family in table.fallback { add(best(family)) }
            }
            if !ownFound && (row == nil || !preferredFound) {
                let missing = (row == nil ? Array(request.families.prefix(1)) : []) + (preferredFound ? [] : table.preferred)
                substitution = FontSubstitution(requested: name, missing: missing, used: nil)
            }
        } else {
            // A registered font first; the table's families draw what it lacks.
            for family in table.preferred { add(best(family)) }
        }
        for family in FontTable.coverage { add(best(family)) }
        for candidate in database.fontconfigGuess(for: request) { add(candidate) }
        substitution?.used = chain.first?.families.first
        return FontChain(candidates: chain, substitution: substitution)
    }

    /// The family and file that draw Latin text in font `name` (what
    /// `lamina info --fonts` lists); nil when no font is installed.
    func resolvedFile(fontName name: String) -> (family: String, file: String)? {
        guard let face = try? primaryFace(fontName: name) else { return nil }
        return (face.familyName, face.file)
    }

    /// The face that draws a grapheme cluster in font `name`: the first face
    /// of the chain that has all its scalars (default-ignorable ones, such
    /// as joiners and variation selectors, need not be present), else the
    /// first that has its first scalar, else the first face that opens
    /// (which draws the missing glyph box).
    func face(for cluster: some Collection<Unicode.Scalar>, fontName name: String) throws(TextRenderingError) -> FontFace {
        let chain = chain(named: name)
        let needed = cluster.filter { !$0.properties.isDefaultIgnorableCodePoint }
        // An emoji shown as a picture (emoji presentation by default, or
        // asked for with VS16) comes from the emoji row first, as browsers
        // do: a text font that happens to have the character draws it in
        // outline otherwise.
        if Self.wantsEmojiPresentation(cluster), name != "emoji" {
            let emoji = self.chain(named: "emoji")
            for i in emoji.candidates.indices where emoji.candidate(i, covers: needed) {
                if let face = face(emoji.candidates[i]) { return face }
            }
        }
        let first = needed.first.map { [$0] } ?? []
        for wanted in [needed, first] where !wanted.isEmpty {
            for i in chain.candidates.indices where chain.candidate(i, covers: wanted) {
                if let face = face(chain.candidates[i]) { return face }
            }
        }
        for candidate in chain.candidates {
            if let face = face(candidate) { return face }
        }
        throw TextRenderingError("no usable font was found for \"\(name)\" (is fontconfig configured and a font installed?)")
    }

    /// Whether a grapheme cluster is an emoji shown as a picture: one with
    /// VS16 (U+FE0F), a flag (regional indicators), or one whose first
    /// character is shown as emoji by default (and no VS15, U+FE0E).
    static func wantsEmojiPresentation(_ cluster: some Collection<Unicode.Scalar>) -> Bool {
        guard let first = cluster.first else { return false }
        if cluster.contains("\u{FE0F}") { return true }
        if cluster.contains("\u{FE0E}") { return false }
        return first.properties.isEmojiPresentation || (0x1F1E6...0x1F1FF).contains(first.value)
    }

    /// The primary face of font `name`: the one whose metrics an empty line
    /// takes.
    func primaryFace(fontName name: String) throws(TextRenderingError) -> FontFace {
        try face(for: [Unicode.Scalar(" ")], fontName: name)
    }

    private func face(_ candidate: FontCandidate) -> FontFace? {
        let key = "\(candidate.file)#\(candidate.index)"
        if let known = facesByFile[key] { return known }
        let face = try? FontFace(file: candidate.file, index: candidate.index, id: facesByID.count + 1, library: library)
        facesByFile[key] = face
        if let face { facesByID[face.id] = face }
        return face
    }
}
