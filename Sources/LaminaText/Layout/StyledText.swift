import Foundation
import LaminaCore

/// How one stretch of text looks.
struct TextStyle: Hashable, Sendable {
    /// A family, PostScript name or fontconfig pattern (see `FontRequest`).
    var fontName: String
    /// Points.
    var fontSize: Double
    var color: CGColor
    var isUnderlined = false
    /// Points added after each glyph (tracking), as Core Text's kern
    /// attribute adds them; given at all (0 too), the font's own kerning of
    /// pairs is off, as in Core Text. Nil: the font's kerning, nothing added.
    var kern: Double?
    /// Whether the font's optional ligatures (`liga`, `clig`) are formed.
    var ligatures = true
    /// The glyphs' outline in percent of the size, as Core Text's stroke
    /// width attribute: positive strokes without filling, negative fills
    /// and strokes, 0 only fills.
    var strokeWidth = 0.0
    /// The outline's colour; the text's own when nil.
    var strokeColor: CGColor?

    /// The outline's width in points (0 for none).
    var strokePoints: Double { abs(strokeWidth) * fontSize / 100 }
    /// Whether the glyphs are filled: not when stroked with a positive width.
    var isFilled: Bool { !(strokeWidth > 0) }
}

/// A text layer's string as Unicode scalars, each stretch with its style.
///
/// A plain string has one style: the layer's `font`, `fontSize` and
/// `foregroundColor`. An attributed string's attributes override those per
/// range where given (`TextRunAttribute`), so a run without a colour takes
/// the layer's.
struct StyledText: Hashable, Sendable {
    struct Run: Hashable, Sendable {
        var range: Range<Int>
        var style: TextStyle
    }

    var scalars: [Unicode.Scalar]
    /// Consecutive, covering `scalars`; empty when the text is.
    var runs: [Run]

    init(plain string: String, style: TextStyle) {
        scalars = Array(string.unicodeScalars)
        runs = scalars.isEmpty ? [] : [Run(range: 0..<scalars.count, style: style)]
    }

    /// The text of a layer's `string` value: a `String`, `NSString` or
    /// `NSAttributedString`; nil for anything else, which draws nothing as
    /// in Core Animation.
    init?(_ value: Any?, defaultStyle: TextStyle) {
        switch value {
        case let string as String:
            self.init(plain: string, style: defaultStyle)
        case let string as NSString:
            self.init(plain: String(describing: string), style: defaultStyle)
        case let attributed as NSAttributedString:
            self.init(attributed: attributed, defaultStyle: defaultStyle)
        case let text as AttributedText:
            self.init(runs: text, defaultStyle: defaultStyle)
        default:
            return nil
        }
    }

    private init(runs text: AttributedText, defaultStyle: TextStyle) {
        scalars = []
        runs = []
        for run in text.runs {
            let lower = scalars.count
            scalars.append(contentsOf: run.text.unicodeScalars)
            guard scalars.count > lower else { continue }
            let style = Self.style(run.attributes, over: defaultStyle)
            if let last = runs.last, last.style == style {
                runs[runs.count - 1].range = last.range.lowerBound..<scalars.count
            } else {
                runs.append(Run(range: lower..<scalars.count, style: style))
            }
        }
    }

    private init(attributed: NSAttributedString, defaultStyle: TextStyle) {
        let string = attributed.string
        scalars = Array(string.unicodeScalars)
        // NSAttributedString ranges count UTF-16 units; layout counts scalars.
        var scalarAt = [Int](repeating: 0, count: string.utf16.count + 1)
        var utf16 = 0
        for (i, scalar) in scalars.enumerated() {
            let width = UTF16.width(scalar)
            for k in 0..<width { scalarAt[utf16 + k] = i }
            utf16 += width
        }
        scalarAt[utf16] = scalars.count
        var runs: [Run] = []
        attributed.enumerateAttributes(in: NSRange(location: 0, length: attributed.length)) { attributes, range, _ in
            let lower = scalarAt[min(range.location, utf16)]
            let upper = scalarAt[min(range.location + range.length, utf16)]
            guard lower < upper else { return }
            let style = Self.style(attributes, over: defaultStyle)
            if let last = runs.last, last.style == style, last.range.upperBound == lower {
                runs[runs.count - 1].range = last.range.lowerBound..<upper
            } else {
                runs.append(Run(range: lower..<upper, style: style))
            }
        }
        self.runs = runs
    }

    private static func style(_ attributes: [NSAttributedString.Key: Any], over base: TextStyle) -> TextStyle {
        var style = base
        if let font = attributes[TextRunAttribute.font].flatMap(FontValue.init) {
            style.fontName = font.name
            if let size = font.size { style.fontSize = size }
        }
        if let size = attributes[TextRunAttribute.fontSize].flatMap(Self.number), size > 0, size.isFinite {
            style.fontSize = size
        }
        let color = attributes[TextRunAttribute.foregroundColor] ?? attributes[TextRunAttribute.coreTextForegroundColor]
        if let color = color.flatMap(Self.color) { style.color = color }
        if let kern = (attributes[TextRunAttribute.kern] ?? attributes[TextRunAttribute.coreTextKern]).flatMap(Self.number),
           kern.isFinite {
            // Beyond a few font sizes either way, letters leave the line or pile up: held there.
            style.kern = min(max(kern, -4 * style.fontSize), 4 * style.fontSize)
        }
        if let ligature = (attributes[TextRunAttribute.ligature] ?? attributes[TextRunAttribute.coreTextLigature])
            .flatMap(Self.number) {
            style.ligatures = ligature != 0
        }
        if let underline = attributes[TextRunAttribute.underlineStyle] {
            style.isUnderlined = (Self.number(underline) ?? 0) != 0
        }
        if let width = (attributes[TextRunAttribute.strokeWidth] ?? attributes[TextRunAttribute.coreTextStrokeWidth])
            .flatMap(Self.number), width.isFinite {
            // Past half the size an outline swallows its glyph: held there.
            style.strokeWidth = min(max(width, -50), 50)
        }
        let strokeColor = attributes[TextRunAttribute.strokeColor] ?? attributes[TextRunAttribute.coreTextStrokeColor]
        if let color = strokeColor.flatMap(Self.color) { style.strokeColor = color }
        return style
    }

    static func number(_ value: Any) -> Double? {
        switch value {
        case let v as CGFloat: Double(v)
        case let v as Double: v
        case let v as Float: Double(v)
        case let v as Int: Double(v)
        case let v as Int32: Double(v)
        case let v as Bool: v ? 1 : 0
        case let v as NSNumber: v.doubleValue
        case let v as CTUnderlineStyle: Double(v.rawValue)
        default: nil
        }
    }

    static func color(_ value: Any) -> CGColor? {
        switch value {
        case let c as CGColor: c
        case let c as UIColor: c.cgColor
        default: nil
        }
    }
}

/// A font as a layer's `font` or a run's font attribute gives it: a name
/// (`String`, `NSString`, `CGFont`) or a name and size (`UIFont`, `CTFont`).
struct FontValue {
    var name: String
    var size: Double?

    init?(_ value: Any) {
        switch value {
        case let name as String: self.name = name
        case let name as NSString: self.name = String(describing: name)
        case let font as TextLayerFont:
            name = font.textLayerFontName
            size = font.textLayerFontSize.map(Double.init)
        default: return nil
        }
    }
}
