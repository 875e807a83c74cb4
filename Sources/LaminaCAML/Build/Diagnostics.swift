import LaminaScene

/// Something in a CAML document that Lamina skipped (an emitter, a filter,
/// a script, a private layer class, an attribute without a meaning here) or
/// tolerated as Core Animation does (an empty attribute, a colour component
/// a little outside 0...1). Each kind of thing is reported once, at its first
/// place, with how many times it occurred.
public struct CAMLWarning: Sendable, Hashable, CustomStringConvertible {
    /// What Lamina did with it.
    public enum Action: String, Sendable, Hashable {
        /// Not drawn: Lamina does not support it (`--strict` refuses it).
        case skipped
        /// Read as Core Animation reads it, though it is sloppy.
        case tolerated
    }

    /// What Lamina did with it.
    public var action: Action
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
        return "\(file):\(position.line):\(position.column): \(action.rawValue) \(subject)\(times): \(reason)"
    }
}

/// Collects warnings, or turns the first into an error when strict.
final class Diagnostics {
    let strict: Bool
    private(set) var warnings: [CAMLWarning] = []
    /// Where each kind of warning is in `warnings`, so that a document of
    /// many distinct warnings is read in linear time.
    private var indexOfWarning: [WarningKey: Int] = [:]
    /// Places already counted: a property read twice (for a transition's
    /// end values) is one occurrence.
    private var seen: Set<String> = []

    private struct WarningKey: Hashable {
        var action: CAMLWarning.Action
        var subject: String
        var file: String
    }

    init(strict: Bool) {
        self.strict = strict
    }

    /// Notes that `subject` was skipped; with `strict`, refuses the document instead.
    func skipped(_ subject: String, _ reason: String, file: String, at position: SourcePosition) throws(SceneError) {
        if strict {
            throw SceneError(.invalidValue, at: file, position: position,
                             "\(subject) is not supported: \(reason) (--strict refuses what would be skipped)")
        }
        note(.skipped, subject, reason, file: file, at: position)
    }

    /// Notes that `subject` was read though it is sloppy, as Core Animation reads it.
    func tolerated(_ subject: String, _ reason: String, file: String, at position: SourcePosition) {
        note(.tolerated, subject, reason, file: file, at: position)
    }

    private func note(_ action: CAMLWarning.Action, _ subject: String, _ reason: String, file: String, at position: SourcePosition) {
        guard seen.insert("\(action)|\(subject)|\(file)|\(position.line)|\(position.column)").inserted else { return }
        let key = WarningKey(action: action, subject: subject, file: file)
        if let i = indexOfWarning[key] {
            warnings[i].count += 1
        } else {
            indexOfWarning[key] = warnings.count
            warnings.append(CAMLWarning(action: action, subject: subject, reason: reason, file: file, position: position, count: 1))
        }
    }
}
