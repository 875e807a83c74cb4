import Foundation
import LaminaCore

/// Where a text layer's glyphs go: lines from the top of the bounds down, in
/// points, with y growing down and x from the bounds' left edge.
package struct TextLayout: Sendable {
    /// The size laid out in: the layer's bounds.
    public var size: CGSize
    /// The lines shown, top to bottom: with truncation, those that fit the
    /// height (at least one); without, every line.
    public var lines: [TextLine]
}

/// One line of laid-out text.
package struct TextLine: Sendable {
    /// The characters shown, in logical (reading) order, with an ellipsis
    /// where the line was truncated and without trailing spaces.
    public var text: String
    /// The left end of the line's baseline.
    public var origin: CGPoint
    /// The advance width of the line (stretched when justified).
    public var width: Double
    /// Above the baseline, below it, and the gap below that, in points: the
    /// largest of the faces on the line. Lines are `ascent + descent +
    /// leading` apart.
    public var ascent: Double
    /// Below the baseline, in points.
    public var descent: Double
    /// The gap below the descent, in points.
    public var leading: Double
    /// Whether the line's paragraph reads right to left.
    public var isRightToLeft: Bool
    /// Whether an ellipsis stands for text left out.
    public var isTruncated: Bool
    /// The glyphs, left to right.
    public var glyphs: [TextGlyph]
    /// Underlines, in the colour of their text.
    public var underlines: [TextUnderline]

    /// Where the line's glyphs end on the right.
    public var maxX: Double { Double(origin.x) + width }
}

/// One positioned glyph.
package struct TextGlyph: Sendable {
    /// The glyph's index in its face.
    public var glyphID: UInt32
    /// The pen position on the baseline, HarfBuzz's offsets applied.
    public var position: CGPoint
    /// The pen's advance to the next glyph.
    public var advance: Double
    /// The first Unicode scalar of the characters the glyph draws, counted
    /// from the start of the whole string (the ellipsis of a truncated line
    /// has the index of the first character it stands for).
    public var sourceIndex: Int
    /// Whether the glyph is the truncation ellipsis.
    public var isEllipsis: Bool
    /// The face's family name and file, and the size in points.
    public var fontFamily: String
    /// The face's font file.
    public var fontFile: String
    /// The size in points.
    public var fontSize: Double
    /// The colour, straight sRGB.
    public var color: CGColor
    /// Whether the glyph is filled (not when only its outline is drawn).
    public var isFilled = true
    /// The width of its outline in points, 0 for none, and the outline's
    /// colour (Core Text's stroke attributes).
    public var strokeWidth = 0.0
    public var strokeColor: CGColor? = nil

    /// Identifies the face within the renderer that laid it out.
    let faceID: Int
}

/// An underline: a band across `minX..<maxX` centred `position` below the
/// baseline at `baseline`, `thickness` points thick.
package struct TextUnderline: Sendable {
    /// Where the band starts, in points.
    public var minX: Double
    /// Where the band ends.
    public var maxX: Double
    /// The baseline it hangs from.
    public var baseline: Double
    /// How far below the baseline its middle is.
    public var position: Double
    /// How thick, in points.
    public var thickness: Double
    /// The colour, straight sRGB.
    public var color: CGColor
}
