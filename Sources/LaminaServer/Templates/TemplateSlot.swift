import Foundation
import Lamina
import LaminaJSON

/// One named, typed blank of a template that a link fills
/// (`/t/card.png?title=Hello`): what kind of value it takes, what bounds it,
/// and which layer properties it sets.
///
/// Declared in the template's `NAME.slots.json`:
///
/// ```json
/// "title":  {"type": "text", "layer": "title", "key": "string", "default": "Lamina", "maxLength": 80},
/// "accent": {"type": "color", "targets": [{"layer": "banner", "key": "backgroundColor"},
///                                        {"layer": "rule", "key": "backgroundColor"}]},
/// "score":  {"type": "number", "layer": "bar", "key": "opacity", "min": 0, "max": 1},
/// "avatar": {"type": "image", "layer": "avatar", "key": "contents", "allow": ["https://images.example.com/", "data:"]}
/// ```
///
/// A value is checked against the slot (kind, length, range, allow-list)
/// and then read as the scene format reads that property, so `#ff8800`
/// means in a slot what it means in a scene.
struct TemplateSlot: Sendable {
    enum Kind: String, Sendable, CaseIterable {
        /// A string of at most `maxLength` characters.
        case text
        /// A colour as the scene format writes one: `#rgb`, `#rrggbb`,
        /// `#rrggbbaa` (the `#` may be left out in a link) or `clear`.
        case color
        /// A finite number within `min...max`.
        case number
        /// An image: a URL starting with one of `allow`'s prefixes, fetched
        /// by the server, or a `data:` URI where `allow` has `"data:"`.
        case image
    }

    /// A layer property the slot sets: `key` of every layer named `layer`.
    struct Target: Sendable, Equatable {
        var layer: String
        var key: String
    }

    var name: String
    var kind: Kind
    var targets: [Target]
    /// The value when a link leaves the slot out; nil: a link must fill it.
    var defaultValue: String?
    /// Text: the most characters (default 200).
    var maxLength = 200
    /// Number: the range (default any finite number).
    var range: ClosedRange<Double> = -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude
    /// Image: the URL prefixes accepted, and `"data:"` for data URIs.
    var allow: [String] = []

    /// A slot value that does not fit: answered 422 with the slot's name.
    struct Misfit: Error, Sendable {
        var slot: String
        var message: String
    }

    /// What a link's value becomes before the scene format reads it: a
    /// value to set, or an image to fetch first.
    enum Checked: Sendable {
        case value(JSONValue)
        case fetch(URL)
    }

    /// Checks `text` against the slot.
    func check(_ text: String) throws(Misfit) -> Checked {
        switch kind {
        case .text:
            guard text.count <= maxLength else {
                throw misfit("is \(text.count) characters long, over the \(maxLength) this slot takes")
            }
            return .value(.string(text))
        case .color:
            let hexDigits = text.allSatisfy(\.isHexDigit) && [3, 6, 8].contains(text.count)
            let spelled = hexDigits ? "#" + text : text
            guard spelled == "clear" || (spelled.hasPrefix("#") && spelled.dropFirst().allSatisfy(\.isHexDigit)
                                         && [3, 6, 8].contains(spelled.count - 1)) else {
                throw misfit("must be a colour (rrggbb or rrggbbaa in hexadecimal, with or without #, or clear), got \(Quoted.prefix(text, limit: 40))")
            }
            return .value(.string(spelled))
        case .number:
            guard let number = Double(text), number.isFinite else {
                throw misfit("must be a number, got \(Quoted.prefix(text, limit: 40))")
            }
            guard range.contains(number) else {
                throw misfit("must be within \(Self.format(range.lowerBound))...\(Self.format(range.upperBound)), got \(Self.format(number))")
            }
            return .value(.number(number))
        case .image:
            if text.hasPrefix("data:") {
                guard allow.contains("data:") else {
                    throw misfit("takes image URLs only (starting \(allow.map { Quoted.prefix($0, limit: 60) }.joined(separator: " or "))), not data URIs")
                }
                return .value(.string(text))
            }
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil,
                  let prefix = allow.first(where: { $0 != "data:" && text.hasPrefix($0) }) else {
                let allowed = allow.filter { $0 != "data:" }
                throw misfit(allowed.isEmpty
                             ? "takes data URIs only, got \(Quoted.prefix(text, limit: 60))"
                             : "must be a URL starting \(allowed.map { Quoted.prefix($0, limit: 60) }.joined(separator: " or ")), got \(Quoted.prefix(text, limit: 60))")
            }
            // A prefix that ends inside the host ("https://a.example") would
            // let "https://a.example.evil.net/" in: the host must end where
            // the prefix's does, or the prefix must go past it.
            guard Self.prefixBoundsHost(prefix, of: url) else {
                throw misfit("must be a URL starting \(Quoted.prefix(prefix, limit: 60)) on that host, got \(Quoted.prefix(text, limit: 60))")
            }
            return .fetch(url)
        }
    }

    private func misfit(_ message: String) -> Misfit {
        Misfit(slot: name, message: "\(name) \(message)")
    }

    private static func format(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
    }

    /// Whether `prefix` covers the whole host of `url` (it reaches the
    /// character after the authority: `/`, `?`, or the end).
    static func prefixBoundsHost(_ prefix: String, of url: URL) -> Bool {
        guard let schemeEnd = prefix.range(of: "://") else { return false }
        let afterScheme = prefix[schemeEnd.upperBound...]
        return afterScheme.contains("/") || afterScheme.contains("?") || url.absoluteString.count == prefix.count
            || ["/", "?", "#"].contains(url.absoluteString.dropFirst(prefix.count).first.map(String.init) ?? "")
    }
}
