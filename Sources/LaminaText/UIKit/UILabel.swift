import Foundation
import LaminaCore

/// How a label lines up its text (UIKit's `NSTextAlignment`, with iOS's raw
/// values).
public enum NSTextAlignment: Int, Sendable, CaseIterable {
    case left = 0
    case center = 1
    case right = 2
    /// Lines stretched to both edges, except the last.
    case justified = 3
    /// The script's own alignment: left for left-to-right text.
    case natural = 4
}

/// A minimal UIKit label: the properties that the book's `LayerLabel`
/// (listing 6.4) subclasses, with UIKit's defaults.
///
/// Lamina's label keeps these properties but does not draw them itself: its
/// layer is a plain `CALayer`, as `UIView`'s is. To show the text, back the
/// label with a `CATextLayer` (`layerClass`) and override the setters to
/// forward each value to it, which is what `LayerLabel` does. It lives in
/// LaminaText rather than beside `UIView` because its `font` is a `UIFont`.
open class UILabel: UIView {
    /// The text. Default nil.
    open var text: String?

    /// The colour of the text. Default black (the iOS of the book; later
    /// versions use the dynamic `label` colour).
    open var textColor: UIColor = .black

    /// The font. Default the system font at 17 points, UIKit's label size.
    open var font: UIFont = .systemFont(ofSize: 17)

    /// How lines are aligned. Default `.natural`.
    open var textAlignment: NSTextAlignment = .natural

    /// The most lines to show; 0 for as many as needed. Default 1.
    open var numberOfLines = 1
}
