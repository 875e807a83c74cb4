import Foundation
import LaminaCore

/// Lays out styled text in a layer's bounds: paragraphs, lines (wrapped or
/// not), truncation of the last visible line, alignment, and the vertical
/// stacking of lines from the top.
struct TextLayoutEngine {
    let fonts: FontSystem

    func layout(_ text: StyledText, defaultStyle: TextStyle, _ parameters: LayoutParameters) throws(TextRenderingError) -> TextLayout {
        let paragraphs = try self.paragraphs(of: text, defaultStyle: defaultStyle)
        var drafts: [LineDraft] = []
        for (index, p) in paragraphs.enumerated() {
            let ranges = parameters.isWrapped ? LineBreaker.lines(of: p, width: parameters.width) : [0..<p.count]
            for (k, range) in ranges.enumerated() {
                drafts.append(LineDraft(
                    paragraph: index, range: range, isLastOfParagraph: k == ranges.count - 1,
                    metrics: LineMetrics(p, p.trimmingTrailingSpaces(range))))
            }
        }
        let baselines = Self.baselines(drafts.map(\.metrics))

        // With truncation, the lines that fit the height are shown (at least
        // one), and the last of them is shortened when text does not fit.
        var shown = drafts.count
        var truncateLast = false
        if parameters.truncation != .none, !drafts.isEmpty {
            shown = max(1, zip(drafts, baselines).prefix { $0.metrics.descent + $1 <= parameters.height + 1e-6 }.count)
            let d = drafts[shown - 1]
            let p = paragraphs[d.paragraph]
            let rest = p.trimmingTrailingSpaces(d.range.lowerBound..<p.count)
            truncateLast = p.width(rest) > parameters.width + 1e-6
        }

        var lines: [TextLine] = []
        for k in 0..<shown {
            let d = drafts[k]
            let p = paragraphs[d.paragraph]
            var segments = [Segment.text(p.trimmingTrailingSpaces(d.range))]
            if k == shown - 1, truncateLast {
                segments = try truncated(p, d.range.lowerBound..<p.count, mode: parameters.truncation, width: parameters.width)
            }
            lines.append(LineBuilder(
                paragraph: p, segments: segments, baseline: baselines[k], metrics: d.metrics,
                mayJustify: !d.isLastOfParagraph && !(k == shown - 1 && truncateLast), parameters: parameters
            ).line())
        }
        return TextLayout(size: CGSize(width: parameters.width, height: parameters.height), lines: lines)
    }

    /// The text split at paragraph separators (line feed, carriage return
    /// with or without a line feed, U+0085, U+2028, U+2029), each shaped.
    private func paragraphs(of text: StyledText, defaultStyle: TextStyle) throws(TextRenderingError) -> [Paragraph] {
        let s = text.scalars
        var styles = [TextStyle](repeating: defaultStyle, count: s.count)
        for run in text.runs { for i in run.range { styles[i] = run.style } }
        var result: [Paragraph] = []
        var start = 0
        var i = 0
        while i <= s.count {
            guard i == s.count || s[i].isParagraphSeparator else { i += 1; continue }
            // An empty paragraph's line takes the metrics of its separator's
            // style (or of the text before it).
            let emptyStyle = start < s.count ? styles[start] : (s.isEmpty ? defaultStyle : styles[s.count - 1])
            result.append(try Paragraph(
                scalars: Array(s[start..<i]), styles: Array(styles[start..<i]), start: start, fonts: fonts,
                emptyStyle: emptyStyle))
            if i < s.count, s[i] == "\r", i + 1 < s.count, s[i + 1] == "\n" { i += 1 }
            i += 1
            start = i
        }
        return result
    }

    /// Baselines from the top: the first line's ascent down, then each line
    /// `descent + leading` of the line above plus its own ascent further.
    private static func baselines(_ metrics: [LineMetrics]) -> [Double] {
        var result: [Double] = []
        var y = 0.0
        for (k, m) in metrics.enumerated() {
            if k > 0 { y += metrics[k - 1].descent + metrics[k - 1].leading }
            y += m.ascent
            result.append(y)
        }
        return result
    }

    /// The segments of a line showing `source` shortened to `width` by an
    /// ellipsis at its start, middle or end. Characters go whole (grapheme
    /// clusters), spaces next to the ellipsis go too; when not even the
    /// ellipsis fits, the ellipsis alone is shown.
    private func truncated(
        _ p: Paragraph, _ source: Range<Int>, mode: CATextLayerTruncationMode, width: Double
    ) throws(TextRenderingError) -> [Segment] {
        let source = p.trimmingTrailingSpaces(source)
        let styleIndex = mode == .start ? max(source.lowerBound, source.upperBound - 1) : source.lowerBound
        let style = styleIndex < p.count ? p.style(at: styleIndex) : p.emptyStyle
        let mark = try makeEllipsis(style: style, level: p.baseLevel)
        func ellipsis(at index: Int) -> Segment { .ellipsis(mark, standingFor: p.start + index) }
        let available = width - mark.width(0..<mark.count) + 1e-6
        let boundaries = source.filter { p.isClusterStart[$0] } + [source.upperBound]

        func longestPrefix(from start: Int, budget: Double) -> Range<Int> {
            var best = start..<start
            for b in boundaries where b > start {
                let r = p.trimmingTrailingSpaces(start..<b)
                guard p.width(r) <= budget else { break }
                best = r
            }
            return best
        }
        func longestSuffix(notBefore floor: Int, budget: Double) -> Range<Int> {
            var best = source.upperBound..<source.upperBound
            for b in boundaries.reversed() where b < source.upperBound && b >= floor {
                let r = p.trimmingLeadingSpaces(b..<source.upperBound)
                guard p.width(r) <= budget else { break }
                best = r
            }
            return best
        }

        switch mode {
        case .start:
            let kept = longestSuffix(notBefore: source.lowerBound, budget: available)
            return [ellipsis(at: source.lowerBound), .text(kept)]
        case .middle:
            let head = longestPrefix(from: source.lowerBound, budget: available / 2)
            let tail = longestSuffix(notBefore: head.upperBound, budget: available - p.width(head))
            return [.text(head), ellipsis(at: head.upperBound), .text(tail)]
        default:
            let kept = longestPrefix(from: source.lowerBound, budget: available)
            return [.text(kept), ellipsis(at: kept.upperBound)]
        }
    }

    /// "…" in `style`, or "..." when no installed font has U+2026.
    private func makeEllipsis(style: TextStyle, level: UInt8) throws(TextRenderingError) -> Paragraph {
        let chain = fonts.chain(named: style.fontName)
        let ellipsis: Unicode.Scalar = "\u{2026}"
        let hasEllipsis = chain.candidates.indices.contains { chain.candidate($0, covers: [ellipsis]) }
        let scalars: [Unicode.Scalar] = hasEllipsis ? [ellipsis] : [".", ".", "."]
        return try Paragraph(
            scalars: scalars, styles: Array(repeating: style, count: scalars.count), start: 0, fonts: fonts,
            emptyStyle: style, level: level)
    }
}

/// A line before it is placed: its paragraph, its range there (trailing
/// spaces included) and its height.
struct LineDraft {
    var paragraph: Int
    var range: Range<Int>
    var isLastOfParagraph: Bool
    var metrics: LineMetrics
}

/// What a line shows, in logical order: stretches of its paragraph and the
/// truncation ellipsis, which stands for the text from a scalar index of
/// the whole text on.
enum Segment {
    case text(Range<Int>)
    case ellipsis(Paragraph, standingFor: Int)
}

/// A line's height: the largest ascent, descent and leading of the faces
/// on it, in points.
struct LineMetrics {
    var ascent = 0.0
    var descent = 0.0
    var leading = 0.0

    /// The metrics of `range` of `p`; those of the paragraph's empty style
    /// when the range is empty.
    init(_ p: Paragraph, _ range: Range<Int>) {
        var any = false
        for run in p.runs(overlapping: range) {
            include(run.face, size: run.style.fontSize)
            any = true
        }
        if !any { include(p.emptyFace, size: p.emptyStyle.fontSize) }
    }

    init() {}

    mutating func include(_ face: FontFace, size: Double) {
        let k = face.scale(forSize: size)
        ascent = max(ascent, face.ascender * k)
        descent = max(descent, -face.descender * k)
        leading = max(leading, face.lineGap * k)
    }
}

extension Unicode.Scalar {
    var isParagraphSeparator: Bool {
        switch value {
        case 0x0A, 0x0D, 0x85, 0x2028, 0x2029: true
        default: false
        }
    }
}
