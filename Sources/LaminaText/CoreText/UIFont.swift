import Foundation
import LaminaCore

/// A font as UIKit names it: a name and a size in points, so that the book's
/// `label.font = [UIFont systemFontOfSize:15]` reads
/// `UIFont.systemFont(ofSize: 15)`.
///
/// The name is looked up when text is drawn (see `TextRenderer`): a family,
/// a PostScript name such as `"Helvetica-Bold"`, or a fontconfig pattern.
/// As Core Text's `CTFont` and `UIFont` are one type on iOS, `CTFont` is
/// this class too, and a text layer's `font` (or a run's font attribute)
/// may hold one. Immutable, so `Sendable`.
public final class UIFont: Hashable, CustomStringConvertible, Sendable {
    /// The name the font was made with.
    public let fontName: String
    /// The size in points.
    public let pointSize: CGFloat

    /// A font named `fontName` (a family, PostScript name or fontconfig
    /// pattern) at `size` points; nil for an empty name or a size that is
    /// not positive and finite.
    public init?(name fontName: String, size: CGFloat) {
        guard !fontName.trimmingWhitespace.isEmpty, size > 0, size.isFinite else { return nil }
        self.fontName = fontName
        pointSize = size
    }

    private init(validName: String, size: CGFloat) {
        fontName = validName
        pointSize = size > 0 && size.isFinite ? size : 12
    }

    /// The system font: Helvetica, as on the iOS of the book, which Lamina
    /// draws with a metric-compatible sans (see `FontRequest`).
    public static func systemFont(ofSize size: CGFloat) -> UIFont {
        UIFont(validName: "Helvetica", size: size)
    }

    /// The bold system font.
    public static func boldSystemFont(ofSize size: CGFloat) -> UIFont {
        UIFont(validName: "Helvetica-Bold", size: size)
    }

    /// The italic system font.
    public static func italicSystemFont(ofSize size: CGFloat) -> UIFont {
        UIFont(validName: "Helvetica-Oblique", size: size)
    }

    /// The same face at another size (sizes that are not positive and
    /// finite give 12 points).
    public func withSize(_ size: CGFloat) -> UIFont {
        UIFont(validName: fontName, size: size)
    }

    /// The family part of the name: a PostScript name's style suffix and a
    /// pattern's properties left out.
    public var familyName: String {
        let request = FontRequest(name: fontName)
        return request.families.first ?? String(fontName.prefix { $0 != ":" })
    }

    /// Fonts of the same name and size are the same font.
    public static func == (lhs: UIFont, rhs: UIFont) -> Bool {
        lhs.fontName == rhs.fontName && lhs.pointSize == rhs.pointSize
    }

    /// Hashes the name and size.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(fontName)
        hasher.combine(pointSize)
    }

    /// "UIFont(name, size pt)".
    public var description: String { "UIFont(\(fontName), \(pointSize) pt)" }
}

/// Core Text's font, one type with `UIFont` as on iOS.
public typealias CTFont = UIFont

/// `CTFontCreateWithName`: the font `name` at `size` points (12 when `size`
/// is 0, as Core Text does); `matrix` is accepted for the listing's sake and
/// must be nil. An empty name gives Core Animation's default, Helvetica.
public func CTFontCreateWithName(_ name: String, _ size: CGFloat, _ matrix: UnsafePointer<CGAffineTransform>?) -> CTFont {
    let size = size > 0 && size.isFinite ? size : 12
    return UIFont(name: name, size: size) ?? UIFont.systemFont(ofSize: size)
}

extension UIFont: TextLayerFont {
    /// The name a text layer resolves.
    public var textLayerFontName: String { fontName }
    /// The size a text layer draws at.
    public var textLayerFontSize: CGFloat? { pointSize }
}
