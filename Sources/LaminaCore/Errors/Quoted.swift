import Foundation

/// Short, readable renderings of values in messages: a message quotes at
/// most a prefix of a long value, and numbers print without a
/// trap on infinities.
package enum Quoted {
    /// A number as a person would write it: integral values without a
    /// fraction, others with up to 6 significant digits.
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "NaN" : (value > 0 ? "infinity" : "-infinity") }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(format: "%.6g", value)
    }

    /// `number(_:)` of a `CGFloat`.
    public static func number(_ value: CGFloat) -> String { number(Double(value)) }

    /// `text`, or when it has more than `limit` bytes its first `limit`
    /// Unicode scalars and how long the whole was. Cut by scalars, not
    /// characters: one character can be a letter with 100,000 marks.
    public static func prefix(_ text: String, limit: Int = 64) -> String {
        guard text.utf8.count > limit else { return text }
        var head = String.UnicodeScalarView()
        head.append(contentsOf: text.unicodeScalars.prefix(limit))
        return String(head) + "… (\(text.utf8.count) bytes in all)"
    }
}
