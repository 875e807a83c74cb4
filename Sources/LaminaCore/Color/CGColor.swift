import Foundation
import LaminaRaster

/// A colour in the sRGB colour space with straight (not premultiplied)
/// components, like a Core Graphics `CGColor` made by
/// `CGColor(red:green:blue:alpha:)`.
///
/// Core Graphics' `CGColor` is a reference type; Lamina's is an immutable
/// final class too, so that identity-based code ports, but it compares by
/// value. Components are clamped to 0...1 on creation, as Core Graphics
/// clamps device RGB colours when they are drawn; non-finite components
/// become 0.
public final class CGColor: Hashable, Sendable, CustomStringConvertible {
    /// Red, 0...1 (sRGB, straight).
    public let red: CGFloat
    /// Green, 0...1.
    public let green: CGFloat
    /// Blue, 0...1.
    public let blue: CGFloat
    /// Alpha, 0...1.
    public let alpha: CGFloat

    /// An sRGB colour.
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        func clamp(_ v: CGFloat) -> CGFloat { v.isFinite ? min(1, max(0, v)) : 0 }
        self.red = clamp(red)
        self.green = clamp(green)
        self.blue = clamp(blue)
        self.alpha = clamp(alpha)
    }

    /// A grey of the given white level.
    public convenience init(gray: CGFloat, alpha: CGFloat) {
        self.init(red: gray, green: gray, blue: gray, alpha: alpha)
    }

    /// An sRGB colour (`CGColor(srgbRed:green:blue:alpha:)`).
    public convenience init(srgbRed red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// Core Animation's `black` (gray: 0, alpha: 1).
    public static let black = CGColor(gray: 0, alpha: 1)
    /// Core Animation's `white` (gray: 1, alpha: 1).
    public static let white = CGColor(gray: 1, alpha: 1)
    /// Core Animation's `clear` (gray: 0, alpha: 0).
    public static let clear = CGColor(gray: 0, alpha: 0)

    /// The components `[red, green, blue, alpha]`.
    public var components: [CGFloat]? { [red, green, blue, alpha] }

    /// Four: red, green, blue and alpha.
    public var numberOfComponents: Int { 4 }

    /// The same colour with another alpha (`copy(alpha:)`).
    public func copy(alpha: CGFloat) -> CGColor {
        CGColor(red: red, green: green, blue: blue, alpha: alpha)
    }

    public static func == (l: CGColor, r: CGColor) -> Bool {
        l.red == r.red && l.green == r.green && l.blue == r.blue && l.alpha == r.alpha
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(red); hasher.combine(green); hasher.combine(blue); hasher.combine(alpha)
    }

    public var description: String { "CGColor(red: \(red), green: \(green), blue: \(blue), alpha: \(alpha))" }
}

// A `CGColor` as the renderers' colours (LaminaRaster's colour file).
extension RGBA {
    /// The straight components of `color`.
    package init(_ color: CGColor) {
        self.init(red: Double(color.red), green: Double(color.green), blue: Double(color.blue), alpha: Double(color.alpha))
    }
}

extension PremultipliedColor {
    /// `color` premultiplied and rounded to bytes.
    package init(_ color: CGColor) { self.init(RGBA(color)) }
}
