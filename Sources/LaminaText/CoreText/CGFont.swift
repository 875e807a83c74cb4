import Foundation
import LaminaCore

/// A font face without a size, as Core Graphics' `CGFont`: what the book's
/// `CGFontCreateWithFontName` hands to a text layer, whose `fontSize` then
/// gives the size. Lamina keeps the name and finds the face when text is
/// drawn. Immutable, so `Sendable`.
public final class CGFont: Hashable, CustomStringConvertible, Sendable {
    /// The name the font was made with: a family, PostScript name or
    /// fontconfig pattern.
    public let name: String

    /// The font named `name`; nil for an empty name.
    public init?(_ name: String) {
        guard !name.trimmingWhitespace.isEmpty else { return nil }
        self.name = name
    }

    /// The PostScript name, as far as Lamina knows it: the name given.
    public var postScriptName: String? { name }

    /// Fonts of the same name are the same font.
    public static func == (lhs: CGFont, rhs: CGFont) -> Bool { lhs.name == rhs.name }
    /// Hashes the name.
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
    /// "CGFont(name)".
    public var description: String { "CGFont(\(name))" }
}

extension CGFont: TextLayerFont {
    /// The name a text layer resolves.
    public var textLayerFontName: String { name }
    /// Nil: a face without a size.
    public var textLayerFontSize: CGFloat? { nil }
}
