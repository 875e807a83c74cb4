/// Fonts by name, with fallback: fontconfig's chains and the faces opened
/// from them, both cached for the life of the renderer.
///
/// Not thread-safe; `TextRenderer` serialises all use.
final class FontSystem {
    private let library: FreeTypeLibrary
    private let database: FontDatabase
    private var chains: [String: FontChain] = [:]
    /// Open faces by "file#index"; nil records a face that failed to open,
    /// so it is not tried again.
    private var facesByFile: [String: FontFace?] = [:]
    private(set) var facesByID: [Int: FontFace] = [:]

    init() throws(TextRenderingError) {
        library = try FreeTypeLibrary()
        database = try FontDatabase()
    }

    /// The number of faces opened so far.
    var openFaceCount: Int { facesByID.count }

    /// The fallback chain for a font name.
    func chain(named name: String) -> FontChain {
        if let chain = chains[name] { return chain }
        let chain = database.chain(for: FontRequest(name: name))
        chains[name] = chain
        return chain
    }

    /// The face that draws a grapheme cluster in font `name`: the first face
    /// of the chain that has all its scalars (default-ignorable ones, such
    /// as joiners and variation selectors, need not be present), else the
    /// first that has its first scalar, else the first face that opens
    /// (which draws the missing glyph box).
    func face(for cluster: some Collection<Unicode.Scalar>, fontName name: String) throws(TextRenderingError) -> FontFace {
        let chain = chain(named: name)
        let needed = cluster.filter { !$0.properties.isDefaultIgnorableCodePoint }
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
