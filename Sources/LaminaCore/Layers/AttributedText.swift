import Foundation

/// Text whose runs carry attributes: what a scene's text runs decode to, and
/// what `CATextLayer.string` accepts besides a `String` or an
/// `NSAttributedString`, with the same attribute keys (`TextRunAttribute`).
///
/// Why not `NSAttributedString`: on Linux, swift-corelibs-foundation's
/// `NSAttributedString` never frees the run storage it allocates (about
/// 500 bytes for every one made), so a render server that decodes text
/// scenes all day would grow without bound. Scenes decode to this value
/// type instead; code ported from Apple's systems can keep setting
/// `NSAttributedString`s, which draw the same.
///
/// ```swift
/// layer.string = AttributedText([
///     .init("Hello, "),
///     .init("world", attributes: [TextRunAttribute.foregroundColor: UIColor.red.cgColor]),
/// ])
/// ```
public struct AttributedText: @unchecked Sendable, CustomStringConvertible {
    /// A stretch of text with its attributes. (`@unchecked Sendable`: the
    /// attribute values are the immutable values the keys allow: strings,
    /// numbers, `CGColor`s, fonts.)
    public struct Run: @unchecked Sendable {
        /// The run's characters.
        public var text: String
        /// Its attributes (font, colour, underline...).
        public var attributes: [NSAttributedString.Key: Any]
        /// A run of `text` with `attributes`.
        public init(_ text: String, attributes: [NSAttributedString.Key: Any] = [:]) {
            self.text = text
            self.attributes = attributes
        }
    }

    /// The runs in order; empty runs are allowed and show nothing.
    public var runs: [Run]

    /// Text made of `runs`, in order.
    public init(_ runs: [Run]) { self.runs = runs }

    /// The text of all runs together.
    public var string: String { runs.map(\.text).joined() }

    public var description: String { string }

    /// The same text as an `NSAttributedString`, for code written against
    /// Apple's API (on Linux, each one leaks its run storage: see above).
    public var nsAttributedString: NSAttributedString {
        let text = NSMutableAttributedString(string: "")
        for run in runs { text.append(NSAttributedString(string: run.text, attributes: run.attributes)) }
        return text
    }
}
