/// A font name, as given to `CATextLayer.font` or a run's font attribute,
/// turned into what fontconfig should look for.
///
/// Three spellings are understood:
/// - a fontconfig pattern, recognised by a `:` (`"DejaVu Sans:bold"`,
///   `"Liberation Serif:style=Italic"`), passed to fontconfig as is;
/// - a PostScript name with a style suffix (`"Helvetica-Bold"`,
///   `"Arial-BoldItalicMT"`, `"HelveticaNeue-Light"`), split into a family
///   (camel case spaced out as well) and a weight and slant;
/// - anything else, a family name.
///
/// Which installed families draw the family is `FontTable`'s business.
struct FontRequest: Hashable, Sendable {
    /// A fontconfig pattern to parse, when the name was one.
    var pattern: String?
    /// Families in order of preference.
    var families: [String] = []
    /// fontconfig weight (`FC_WEIGHT_*`) and slant (`FC_SLANT_*`), when the
    /// name said.
    var weight: Int32?
    var slant: Int32?

    /// Core Animation's default font.
    static let defaultName = "Helvetica"

    init(name: String) {
        let trimmed = name.trimmingWhitespace
        if trimmed.contains(":") {
            pattern = trimmed
            return
        }
        var family = trimmed.isEmpty ? Self.defaultName : trimmed
        if let dash = family.lastIndex(of: "-"), let style = Self.style(String(family[family.index(after: dash)...])) {
            family = String(family[..<dash])
            weight = style.weight
            slant = style.slant
        }
        families = [family]
        let spaced = Self.spacingOutCamelCase(family)
        if spaced != family { families.append(spaced) }
    }

    /// fontconfig's weights and slants (fontconfig.h) for the words of a
    /// PostScript style suffix; nil when the suffix is not a style.
    private static func style(_ suffix: String) -> (weight: Int32?, slant: Int32?)? {
        var rest = suffix.lowercased()
        for vendor in ["mt", "ps"] where rest.hasSuffix(vendor) && rest.count > vendor.count {
            rest.removeLast(vendor.count)
        }
        let words: [(String, Int32?, Int32?)] = [
            ("ultralight", 40, nil), ("extralight", 40, nil), ("semibold", 180, nil), ("demibold", 180, nil),
            ("extrabold", 205, nil), ("ultrabold", 205, nil), ("bold", 200, nil), ("medium", 100, nil),
            ("light", 50, nil), ("thin", 0, nil), ("heavy", 210, nil), ("black", 210, nil),
            ("regular", nil, nil), ("roman", nil, nil), ("book", nil, nil),
            ("italic", nil, 100), ("oblique", nil, 110),
        ]
        var weight: Int32?, slant: Int32?
        var matchedAny = false
        while !rest.isEmpty {
            guard let (word, w, s) = words.first(where: { rest.hasPrefix($0.0) }) else { return nil }
            rest.removeFirst(word.count)
            weight = w ?? weight
            slant = s ?? slant
            matchedAny = true
        }
        return matchedAny ? (weight, slant) : nil
    }

    /// "HelveticaNeue" → "Helvetica Neue".
    private static func spacingOutCamelCase(_ name: String) -> String {
        var out = ""
        var previous: Character?
        for c in name {
            if let p = previous, p.isLowercase, c.isUppercase { out.append(" ") }
            out.append(c)
            previous = c
        }
        return out
    }
}

extension String {
    var trimmingWhitespace: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
