import Foundation
import LaminaCore

// Core Text's names for the attributes of an attributed string, so that the
// book's listing 6.3 reads as on iOS:
//
//     let attributes: [NSAttributedString.Key: Any] = [
//         NSAttributedString.Key(kCTForegroundColorAttributeName as String): UIColor.red.cgColor,
//         NSAttributedString.Key(kCTUnderlineStyleAttributeName as String): CTUnderlineStyle.single.rawValue,
//         NSAttributedString.Key(kCTFontAttributeName as String): fontRef,
//     ]
//
// They are the raw names of LaminaCore's `TextRunAttribute`.

/// The run's font: a `CTFont` (`UIFont`), `CGFont` or font name.
public let kCTFontAttributeName: String = TextRunAttribute.font.rawValue
/// The run's colour, a `CGColor`.
public let kCTForegroundColorAttributeName: String = TextRunAttribute.coreTextForegroundColor.rawValue
/// The run's underline, a `CTUnderlineStyle` raw value (0 for none).
public let kCTUnderlineStyleAttributeName: String = TextRunAttribute.underlineStyle.rawValue
/// Points added after each character of the run, a number; any value, 0
/// included, turns the font's own kerning of pairs off for the run.
public let kCTKernAttributeName: String = TextRunAttribute.coreTextKern.rawValue
/// 0 for no optional ligatures in the run, 1 (the default) for the font's own.
public let kCTLigatureAttributeName: String = TextRunAttribute.coreTextLigature.rawValue
/// The width of the glyphs' outline in percent of the font size, a number:
/// positive draws the outline alone, negative fills the glyphs and draws it on top.
public let kCTStrokeWidthAttributeName: String = TextRunAttribute.coreTextStrokeWidth.rawValue
/// The outline's colour, a `CGColor` (the run's colour when absent).
public let kCTStrokeColorAttributeName: String = TextRunAttribute.coreTextStrokeColor.rawValue

/// Core Text's underline styles; Lamina draws any style but `none` as a
/// single line.
public struct CTUnderlineStyle: OptionSet, Hashable, Sendable {
    /// Core Text's value for the style.
    public let rawValue: Int32
    /// The style of Core Text's value `rawValue`.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// No underline.
    public static let none = CTUnderlineStyle([])
    /// One thin line.
    public static let single = CTUnderlineStyle(rawValue: 0x01)
    /// One thick line.
    public static let thick = CTUnderlineStyle(rawValue: 0x02)
    /// Two lines.
    public static let double = CTUnderlineStyle(rawValue: 0x09)
}
