import Foundation

/// A colour as UIKit names it, so that the book's `[UIColor redColor].CGColor`
/// reads `UIColor.red.cgColor`. It wraps an sRGB `CGColor`.
///
/// Like Lamina's `UIView`, it is not tied to the main actor: Lamina renders
/// on servers, where there is no main run loop to protect. It is immutable
/// and therefore `Sendable`; a subclass must stay immutable too.
open class UIColor: Hashable, CustomStringConvertible, @unchecked Sendable {
    /// The Core Graphics colour.
    public let cgColor: CGColor

    /// A colour from a `CGColor`.
    public init(cgColor: CGColor) {
        self.cgColor = cgColor
    }

    /// An sRGB colour; components are clamped to 0...1.
    public convenience init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(cgColor: CGColor(red: red, green: green, blue: blue, alpha: alpha))
    }

    /// A grey of the given white level.
    public convenience init(white: CGFloat, alpha: CGFloat) {
        self.init(cgColor: CGColor(gray: white, alpha: alpha))
    }

    /// A colour from hue, saturation and brightness (HSB), each 0...1.
    public convenience init(hue: CGFloat, saturation: CGFloat, brightness: CGFloat, alpha: CGFloat) {
        // A non-finite hue is red's (0), as no sector can hold it.
        let h = hue.isFinite ? (hue - hue.rounded(.down)) * 6 : 0
        let s = min(1, max(0, saturation)), v = min(1, max(0, brightness))
        let sector = Int(h) % 6
        let f = h - CGFloat(Int(h))
        let p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f))
        let (r, g, b): (CGFloat, CGFloat, CGFloat) = switch sector {
        case 0: (v, t, p)
        case 1: (q, v, p)
        case 2: (p, v, t)
        case 3: (p, q, v)
        case 4: (t, p, v)
        default: (v, p, q)
        }
        self.init(red: r, green: g, blue: b, alpha: alpha)
    }

    /// The same colour with another alpha.
    public func withAlphaComponent(_ alpha: CGFloat) -> UIColor {
        UIColor(cgColor: cgColor.copy(alpha: alpha))
    }

    /// Reads the sRGB components; always succeeds.
    @discardableResult
    public func getRed(
        _ red: inout CGFloat, green: inout CGFloat, blue: inout CGFloat, alpha: inout CGFloat
    ) -> Bool {
        red = cgColor.red; green = cgColor.green; blue = cgColor.blue; alpha = cgColor.alpha
        return true
    }

    public static func == (lhs: UIColor, rhs: UIColor) -> Bool { lhs.cgColor == rhs.cgColor }

    public func hash(into hasher: inout Hasher) { hasher.combine(cgColor) }

    public var description: String { "UIColor(\(cgColor.red), \(cgColor.green), \(cgColor.blue), \(cgColor.alpha))" }

    // MARK: UIKit's named colours (the values UIKit documents)

    /// UIKit's black: white: 0, alpha: 1.
    open class var black: UIColor { UIColor(white: 0, alpha: 1) }
    /// UIKit's darkGray: white: 1.0 / 3.0, alpha: 1.
    open class var darkGray: UIColor { UIColor(white: 1.0 / 3.0, alpha: 1) }
    /// UIKit's lightGray: white: 2.0 / 3.0, alpha: 1.
    open class var lightGray: UIColor { UIColor(white: 2.0 / 3.0, alpha: 1) }
    /// UIKit's white: white: 1, alpha: 1.
    open class var white: UIColor { UIColor(white: 1, alpha: 1) }
    /// UIKit's gray: white: 0.5, alpha: 1.
    open class var gray: UIColor { UIColor(white: 0.5, alpha: 1) }
    /// UIKit's red: red: 1, green: 0, blue: 0, alpha: 1.
    open class var red: UIColor { UIColor(red: 1, green: 0, blue: 0, alpha: 1) }
    /// UIKit's green: red: 0, green: 1, blue: 0, alpha: 1.
    open class var green: UIColor { UIColor(red: 0, green: 1, blue: 0, alpha: 1) }
    /// UIKit's blue: red: 0, green: 0, blue: 1, alpha: 1.
    open class var blue: UIColor { UIColor(red: 0, green: 0, blue: 1, alpha: 1) }
    /// UIKit's cyan: red: 0, green: 1, blue: 1, alpha: 1.
    open class var cyan: UIColor { UIColor(red: 0, green: 1, blue: 1, alpha: 1) }
    /// UIKit's yellow: red: 1, green: 1, blue: 0, alpha: 1.
    open class var yellow: UIColor { UIColor(red: 1, green: 1, blue: 0, alpha: 1) }
    /// UIKit's magenta: red: 1, green: 0, blue: 1, alpha: 1.
    open class var magenta: UIColor { UIColor(red: 1, green: 0, blue: 1, alpha: 1) }
    /// UIKit's orange: red: 1, green: 0.5, blue: 0, alpha: 1.
    open class var orange: UIColor { UIColor(red: 1, green: 0.5, blue: 0, alpha: 1) }
    /// UIKit's purple: red: 0.5, green: 0, blue: 0.5, alpha: 1.
    open class var purple: UIColor { UIColor(red: 0.5, green: 0, blue: 0.5, alpha: 1) }
    /// UIKit's brown: red: 0.6, green: 0.4, blue: 0.2, alpha: 1.
    open class var brown: UIColor { UIColor(red: 0.6, green: 0.4, blue: 0.2, alpha: 1) }
    /// UIKit's clear: white: 0, alpha: 0.
    open class var clear: UIColor { UIColor(white: 0, alpha: 0) }
}
