import LaminaScene

/// Something in a CAML document that Lamina does not draw and skipped: an
/// emitter, a filter, a script, a private layer class, an attribute without
/// a meaning here. Each kind of thing is reported once, at its first place,
/// with how many times it occurred.
public struct CAMLWarning: Sendable, Hashable, CustomStringConvertible {
    /// What was skipped, as the document names it (`<CAEmitterLayer>`, `@filters`).
    public var subject: String
    /// Why, in words.
    public var reason: String
    /// The file it is in.
    public var file: String
    /// Where the first one is.
    public var position: SourcePosition
    /// How many times the document has it.
    public var count: Int

    /// `main.caml:12:7: skipped <CAEmitterLayer> (3 times): Lamina does not draw particle emitters`.
    public var description: String {
        let times = count > 1 ? " (\(count) times)" : ""
        return "\(file):\(position.line):\(position.column): skipped \(subject)\(times): \(reason)"
    }
}

/// Collects warnings, or turns the first into an error when strict.
final class Diagnostics {
    let strict: Bool
    private(set) var warnings: [CAMLWarning] = []
    /// Places already counted: a property read twice (for a transition's
    /// end values) is one occurrence.
    private var seen: Set<String> = []

    init(strict: Bool) {
        self.strict = strict
    }

    /// Notes that `subject` was skipped; with `strict`, refuses the document instead.
    func skipped(_ subject: String, _ reason: String, file: String, at position: SourcePosition) throws(SceneError) {
        if strict {
            throw SceneError(.invalidValue, at: file, position: position,
                             "\(subject) is not supported: \(reason) (--strict refuses what would be skipped)")
        }
        guard seen.insert("\(subject)|\(file)|\(position.line)|\(position.column)").inserted else { return }
        if let i = warnings.firstIndex(where: { $0.subject == subject && $0.file == file }) {
            warnings[i].count += 1
        } else {
            warnings.append(CAMLWarning(subject: subject, reason: reason, file: file, position: position, count: 1))
        }
    }
}
