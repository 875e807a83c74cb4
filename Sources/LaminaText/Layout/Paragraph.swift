import CFreeType

/// One paragraph of a text layer: split into runs of one style, face,
/// direction and script, and shaped. Line breaking measures it; lines are
/// cut from its runs.
///
/// The paragraph is shaped once, whole; a line shows the glyphs of its
/// range. Breaks fall at spaces and cluster boundaries, where that gives
/// what shaping the line alone would.
struct Paragraph {
    /// Where the paragraph lies in the whole text, in scalars.
    let start: Int
    let scalars: [Unicode.Scalar]
    /// The style of each scalar.
    let styles: [TextStyle]
    /// 0 left-to-right, 1 right-to-left.
    let baseLevel: UInt8
    /// Logical order, covering the paragraph.
    let runs: [ShapedRun]
    /// The face and style whose metrics an empty paragraph takes.
    let emptyFace: FontFace
    let emptyStyle: TextStyle
    /// Whether a line may start before scalar `i` (0...count): a grapheme
    /// cluster that HarfBuzz did not merge with the one before.
    let isClusterStart: [Bool]
    /// Cumulative advances: the width of scalars `a..<b` on one line is
    /// `prefix[b] - prefix[a]`.
    private let prefix: [Double]

    var count: Int { scalars.count }
    var isRightToLeft: Bool { baseLevel & 1 == 1 }

    /// Lays out `scalars` (the paragraph at `start` of the whole text), the
    /// scalar at `i` styled `styles[i]`. `level` forces one embedding level
    /// for all of it (the ellipsis takes its line's).
    init(
        scalars: [Unicode.Scalar], styles: [TextStyle], start: Int, fonts: FontSystem, emptyStyle: TextStyle,
        level forcedLevel: UInt8? = nil
    ) throws(TextRenderingError) {
        self.start = start
        self.scalars = scalars
        self.styles = styles
        self.emptyStyle = emptyStyle
        emptyFace = try fonts.primaryFace(fontName: emptyStyle.fontName)
        let n = scalars.count
        let bidi = Bidi.levels(of: scalars)
        baseLevel = forcedLevel ?? bidi.paragraph
        let levels = forcedLevel.map { [UInt8](repeating: $0, count: n) } ?? bidi.levels
        let scripts = Self.scripts(of: scalars)

        // One face per grapheme cluster, chosen by fallback.
        var faces = [FontFace?](repeating: nil, count: n)
        var graphemeStart = [Bool](repeating: false, count: n + 1)
        graphemeStart[n] = true
        var i = 0
        for character in String(String.UnicodeScalarView(scalars)) {
            let length = character.unicodeScalars.count
            let face = try fonts.face(for: character.unicodeScalars, fontName: styles[i].fontName)
            graphemeStart[i] = true
            for k in i..<min(n, i + length) { faces[k] = face }
            i += length
        }

        // Runs: maximal stretches of equal style, face, level and script,
        // and of at most `maxMarksInRow` combining marks in a row.
        let utf32 = scalars.map(\.value)
        let marksStartRun = Self.markRunStarts(scalars)
        var runs: [ShapedRun] = []
        var runStart = 0
        for k in 0..<n {
            let next = k + 1
            let breaks = next == n || styles[next] != styles[runStart] || faces[next] !== faces[runStart]
                || levels[next] != levels[runStart] || scripts[next] != scripts[runStart] || marksStartRun[next]
            guard breaks, let face = faces[runStart] else { continue }
            runs.append(ShapedRun(
                text: utf32, range: runStart..<next, style: styles[runStart], face: face,
                level: levels[runStart], script: scripts[runStart]))
            runStart = next
        }
        self.runs = runs

        // Advances per scalar (a cluster's glyphs count at its first scalar)
        // and the cluster boundaries HarfBuzz kept.
        var advance = [Double](repeating: 0, count: n)
        var shapingStart = [Bool](repeating: false, count: n + 1)
        shapingStart[n] = true
        for run in runs {
            shapingStart[run.range.lowerBound] = true
            for glyph in run.glyphs where glyph.cluster < n {
                advance[glyph.cluster] += glyph.advance
                shapingStart[glyph.cluster] = true
            }
        }
        var prefix = [Double](repeating: 0, count: n + 1)
        for k in 0..<n { prefix[k + 1] = prefix[k] + advance[k] }
        self.prefix = prefix
        isClusterStart = (0...n).map { graphemeStart[$0] && shapingStart[$0] }
    }

    func style(at i: Int) -> TextStyle { styles[i] }

    /// The runs that share scalars with `range`, in order (binary search:
    /// runs are sorted and cover the paragraph).
    func runs(overlapping range: Range<Int>) -> ArraySlice<ShapedRun> {
        guard !range.isEmpty else { return [] }
        var low = 0, high = runs.count
        while low < high {
            let mid = (low + high) / 2
            if runs[mid].range.upperBound > range.lowerBound { high = mid } else { low = mid + 1 }
        }
        var end = low
        while end < runs.count, runs[end].range.lowerBound < range.upperBound { end += 1 }
        return runs[low..<end]
    }

    /// The width of scalars `range` set on one line.
    func width(_ range: Range<Int>) -> Double { prefix[range.upperBound] - prefix[range.lowerBound] }

    /// `range` without the spaces at its end.
    func trimmingTrailingSpaces(_ range: Range<Int>) -> Range<Int> {
        var end = range.upperBound
        while end > range.lowerBound, scalars[end - 1].isBreakingSpace { end -= 1 }
        return range.lowerBound..<end
    }

    /// `range` without the spaces at its start.
    func trimmingLeadingSpaces(_ range: Range<Int>) -> Range<Int> {
        var start = range.lowerBound
        while start < range.upperBound, scalars[start].isBreakingSpace { start += 1 }
        return start..<range.upperBound
    }

    /// The script of each scalar: characters common to scripts (spaces,
    /// punctuation, digits) and combining marks take the script before them,
    /// or after them at the start, so runs split only where scripts change.
    /// The most combining marks (non-starters) in a row shaped together.
    /// HarfBuzz attaches each mark by searching back over the marks before
    /// it, so one letter with 100,000 marks cost 22 seconds to shape. Unicode's
    /// Stream-Safe Text Format draws the line at 30, which no real text
    /// reaches; past it, marks are shaped in runs of their own.
    static let maxMarksInRow = 30

    /// For each scalar (and the end), whether it starts a new run because
    /// `maxMarksInRow` marks come right before it.
    static func markRunStarts(_ scalars: [Unicode.Scalar]) -> [Bool] {
        var starts = [Bool](repeating: false, count: scalars.count + 1)
        var inRow = 0
        for (i, scalar) in scalars.enumerated() {
            guard scalar.properties.canonicalCombiningClass.rawValue != 0 else { inRow = 0; continue }
            if inRow == maxMarksInRow { starts[i] = true; inRow = 0 }
            inRow += 1
        }
        return starts
    }

    private static func scripts(of scalars: [Unicode.Scalar]) -> [hb_script_t] {
        let funcs = hb_unicode_funcs_get_default()
        let raw = scalars.map { hb_unicode_script(funcs, $0.value) }
        func isReal(_ s: hb_script_t) -> Bool {
            s != HB_SCRIPT_COMMON && s != HB_SCRIPT_INHERITED && s != HB_SCRIPT_UNKNOWN
        }
        var current = raw.first(where: isReal) ?? HB_SCRIPT_COMMON
        return raw.map { s in
            if isReal(s) { current = s }
            return current
        }
    }
}

extension Unicode.Scalar {
    /// Spaces a line may break after (not the no-break spaces).
    var isBreakingSpace: Bool {
        switch value {
        case 0x20, 0x09, 0x1680, 0x2000...0x2006, 0x2008...0x200A, 0x205F, 0x3000: true
        default: false
        }
    }
}
