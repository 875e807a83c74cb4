import Foundation
import LaminaCore

/// Places one line's glyphs: its pieces in visual order (bidi), aligned in
/// the width, justified by widening spaces, with underlines.
struct LineBuilder {
    let paragraph: Paragraph
    let segments: [Segment]
    let baseline: Double
    let metrics: LineMetrics
    /// Whether justified alignment may stretch the line (not the last line
    /// of a paragraph, nor a truncated one).
    let mayJustify: Bool
    let parameters: LayoutParameters

    /// A stretch of one shaped run on the line.
    private struct Piece {
        var run: ShapedRun
        /// Indices into `scalars`.
        var range: Range<Int>
        /// The run's glyphs that draw `range`.
        var glyphs: Range<Int>
        /// The index in the whole text of `scalars[0]`, or of the text an
        /// ellipsis stands for.
        var start: Int
        var isEllipsis: Bool
        /// The scalars of the run's paragraph (or of the ellipsis).
        var scalars: [Unicode.Scalar]

        /// Spaces that justification may widen (the ellipsis has none).
        var stretchableSpaces: Int {
            isEllipsis ? 0 : range.reduce(0) { $0 + (scalars[$1].isBreakingSpace ? 1 : 0) }
        }
    }

    func line() -> TextLine {
        let pieces = self.pieces()
        let order = Bidi.visualOrder(pieces.map(\.run.level))
        let naturalWidth = pieces.reduce(0.0) { sum, piece in
            sum + piece.run.glyphs[piece.glyphs].reduce(0.0) { $0 + $1.advance }
        }

        // Alignment; justification widens the line's spaces to fill it.
        let natural: CATextLayerAlignmentMode = paragraph.isRightToLeft ? .right : .left
        var alignment = parameters.alignment == .natural ? natural : parameters.alignment
        var extraPerSpace = 0.0
        var width = naturalWidth
        if alignment == .justified {
            let spaces = pieces.reduce(0) { $0 + $1.stretchableSpaces }
            if mayJustify, spaces > 0, naturalWidth < parameters.width {
                extraPerSpace = (parameters.width - naturalWidth) / Double(spaces)
                width = parameters.width
            } else {
                alignment = natural
            }
        }
        let x0: Double = switch alignment {
        case .right: parameters.width - width
        case .center: (parameters.width - width) / 2
        default: 0
        }

        var glyphs: [TextGlyph] = []
        var underlines: [TextUnderline] = []
        var x = x0
        for index in order {
            let piece = pieces[index]
            let style = piece.run.style
            let face = piece.run.face
            let color = style.color
            let runStartX = x
            for g in piece.run.glyphs[piece.glyphs] {
                var advance = g.advance
                if !piece.isEllipsis, piece.scalars[g.cluster].isBreakingSpace { advance += extraPerSpace }
                glyphs.append(TextGlyph(
                    glyphID: g.glyph, position: CGPoint(x: x + g.offsetX, y: baseline - g.offsetY), advance: advance,
                    sourceIndex: piece.start + (piece.isEllipsis ? 0 : g.cluster), isEllipsis: piece.isEllipsis, fontFamily: face.familyName,
                    fontFile: face.file, fontSize: style.fontSize, color: color, isFilled: style.isFilled,
                    strokeWidth: style.strokePoints, strokeColor: style.strokePoints > 0 ? style.strokeColor ?? color : nil,
                    faceID: face.id))
                x += advance
            }
            if style.isUnderlined, x > runStartX {
                let k = face.scale(forSize: style.fontSize)
                underlines.append(TextUnderline(
                    minX: runStartX, maxX: x, baseline: baseline, position: -face.underlinePosition * k,
                    thickness: face.underlineThickness * k, color: color))
            }
        }

        var lineMetrics = metrics
        for piece in pieces { lineMetrics.include(piece.run.face, size: piece.run.style.fontSize) }
        return TextLine(
            text: text(), origin: CGPoint(x: x0, y: baseline), width: width, ascent: lineMetrics.ascent,
            descent: lineMetrics.descent, leading: lineMetrics.leading, isRightToLeft: paragraph.isRightToLeft,
            isTruncated: segments.contains { if case .ellipsis = $0 { true } else { false } },
            glyphs: glyphs, underlines: Self.merged(underlines))
    }

    /// The runs' stretches that the segments cover, in logical order.
    private func pieces() -> [Piece] {
        var pieces: [Piece] = []
        for segment in segments {
            switch segment {
            case .text(let range):
                for run in paragraph.runs(overlapping: range) {
                    let overlap = max(run.range.lowerBound, range.lowerBound)..<min(run.range.upperBound, range.upperBound)
                    pieces.append(Piece(run: run, range: overlap, glyphs: run.glyphIndices(for: overlap),
                                        start: paragraph.start, isEllipsis: false, scalars: paragraph.scalars))
                }
            case .ellipsis(let ellipsis, let index):
                for run in ellipsis.runs {
                    pieces.append(Piece(run: run, range: run.range, glyphs: run.glyphs.indices, start: index,
                                        isEllipsis: true, scalars: ellipsis.scalars))
                }
            }
        }
        return pieces
    }

    private func text() -> String {
        var scalars = String.UnicodeScalarView()
        for segment in segments {
            switch segment {
            case .text(let range): scalars.append(contentsOf: paragraph.scalars[range])
            case .ellipsis(let e, _): scalars.append(contentsOf: e.scalars)
            }
        }
        return String(scalars)
    }

    /// Underlines that touch and look alike drawn as one.
    private static func merged(_ underlines: [TextUnderline]) -> [TextUnderline] {
        var result: [TextUnderline] = []
        for u in underlines {
            if var last = result.last, abs(last.maxX - u.minX) < 1e-9, last.color == u.color,
               last.position == u.position, last.thickness == u.thickness {
                last.maxX = u.maxX
                result[result.count - 1] = last
            } else {
                result.append(u)
            }
        }
        return result
    }
}
