/// Which installed families draw a font name: Lamina's own table, the same
/// on every machine, consulted before fontconfig's best guess.
///
/// fontconfig's answer to "Helvetica" depends on what else is installed
/// (with Debian's `fonts-urw-base35` it is Nimbus Sans, without it Liberation
/// Sans), so a scene would draw differently on a laptop and in a container.
/// Here fontconfig only finds files: a name is looked up in this table, and
/// its families are taken by their exact names, in order.
///
/// | names | preferred | fallback |
/// |---|---|---|
/// | Helvetica, Helvetica Neue, Arial, Apple's system fonts (`.SFUI…`, `system-ui`, San Francisco, SF Pro), Lucida Grande, Verdana, `sans-serif` | Liberation Sans, Arimo | DejaVu Sans |
/// | Times, Times New Roman, Georgia, New York, `serif` | Liberation Serif, Tinos | DejaVu Serif |
/// | Courier, Courier New, Menlo, Monaco, SF Mono, `monospace` | Liberation Mono, Cousine | DejaVu Sans Mono |
/// | Apple Color Emoji, Segoe UI Emoji, `emoji` | Noto Color Emoji | Noto Emoji, Symbola |
/// | PingFang, Hiragino Sans, Heiti, Apple SD Gothic Neo, Microsoft YaHei | Noto Sans CJK SC, WenQuanYi Micro Hei | Droid Sans Fallback |
///
/// Liberation and its Croscore twins (Arimo, Tinos, Cousine) have the
/// metrics of Arial/Helvetica, Times and Courier, so text wraps where it
/// would on Apple's systems. A name not in the table is a family of its
/// own (a registered or installed font), then the sans row.
///
/// After a name's families, characters they lack come from `coverage`, a
/// fixed list by script (Arabic, Hebrew, CJK, emoji...), and only then from
/// fontconfig's sorted list (which can differ by machine: it is the last
/// resort for characters none of the listed families has).
package enum FontTable {
    /// One row: the names that mean it, lowercased without spaces, and the
    /// families that draw it.
    public struct Row: Sendable, Hashable {
        /// What the row stands for: `sans-serif`, `serif` or `monospace`.
        public var generic: String
        /// The names people use, as they spell them.
        public var names: [String]
        /// Families with the right metrics, best first.
        public var preferred: [String]
        /// Families used when none of `preferred` is installed (then the
        /// renderer warns once, naming the one it used).
        public var fallback: [String]
    }

    /// The table: every name Lamina knows, and the families it is drawn with (docs/fonts.md).
    public static let rows: [Row] = [
        Row(generic: "sans-serif",
            names: ["Helvetica", "Helvetica Neue", "Arial", "ArialMT", "system", "system-ui", "-apple-system",
                    ".SFUI", ".SFUIText", ".SFUIDisplay", ".AppleSystemUIFont", "San Francisco", "SF Pro",
                    "SF Pro Text", "SF Pro Display", "Lucida Grande", "Verdana", "Tahoma", "sans-serif", "sans"],
            preferred: ["Liberation Sans", "Arimo"], fallback: ["DejaVu Sans"]),
        Row(generic: "serif",
            names: ["Times", "Times New Roman", "TimesNewRomanPSMT", "Times Roman", "Georgia", "New York",
                    "Palatino", "serif"],
            preferred: ["Liberation Serif", "Tinos"], fallback: ["DejaVu Serif"]),
        Row(generic: "monospace",
            names: ["Courier", "Courier New", "CourierNewPSMT", "Menlo", "Monaco", "SF Mono", "monospace", "mono"],
            preferred: ["Liberation Mono", "Cousine"], fallback: ["DejaVu Sans Mono"]),
        Row(generic: "emoji",
            names: ["Apple Color Emoji", ".AppleColorEmojiUI", "Segoe UI Emoji", "Noto Color Emoji", "emoji"],
            preferred: ["Noto Color Emoji"], fallback: ["Noto Emoji", "Symbola"]),
        Row(generic: "cjk",
            names: ["PingFang SC", "PingFang TC", "PingFang HK", "Hiragino Sans", "Hiragino Kaku Gothic ProN",
                    "Heiti SC", "Heiti TC", "Apple SD Gothic Neo", "Microsoft YaHei", "Noto Sans CJK SC"],
            preferred: ["Noto Sans CJK SC", "WenQuanYi Micro Hei"], fallback: ["Droid Sans Fallback"]),
    ]

    /// Families for characters a name's own families lack, by script, in
    /// this order: wide Latin/Greek/Cyrillic and symbols, Arabic, Hebrew,
    /// Devanagari, Thai, CJK, emoji.
    public static let coverage: [String] = [
        "DejaVu Sans", "Noto Sans", "Noto Sans Symbols", "Noto Sans Symbols 2", "Noto Sans Math",
        "Noto Sans Arabic", "Noto Naskh Arabic", "DejaVu Sans Mono",
        "Noto Sans Hebrew", "Noto Sans Devanagari", "Noto Sans Thai",
        "Noto Sans CJK SC", "Noto Sans CJK JP", "Noto Sans CJK KR", "Noto Sans CJK TC", "WenQuanYi Micro Hei",
        "Droid Sans Fallback", "Noto Color Emoji", "Noto Emoji", "Symbola",
    ]

    /// The row for a family name (any case, spaces ignored), or nil.
    public static func row(for family: String) -> Row? {
        let key = self.key(family)
        return rows.first { $0.names.contains { self.key($0) == key } }
    }

    /// The row a name outside the table falls back to: sans-serif, as Core
    /// Animation's default font (Helvetica) is.
    public static var defaultRow: Row { rows[0] }

    static func key(_ name: String) -> String {
        String(name.lowercased().filter { $0 != " " })
    }
}
