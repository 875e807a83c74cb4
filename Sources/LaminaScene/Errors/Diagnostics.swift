import LaminaJSON

/// Collects the warnings of one read (CAML, Lottie), or turns the first
/// skipped thing into an error when strict.
package final class Diagnostics {
    package let strict: Bool
    package private(set) var warnings: [SceneWarning] = []
    /// Where each kind of warning is in `warnings`, so that a document of
    /// many distinct warnings is read in linear time.
    private var indexOfWarning: [WarningKey: Int] = [:]
    /// Places already counted: a property read twice (for a transition's
    /// end values) is one occurrence.
    private var seen: Set<String> = []

    private struct WarningKey: Hashable {
        var action: SceneWarning.Action
        var subject: String
        var file: String
    }

    package init(strict: Bool) {
        self.strict = strict
    }

    /// Notes that `subject` was skipped; with `strict`, refuses the document instead.
    package func skipped(_ subject: String, _ reason: String, file: String, at position: SourcePosition) throws(SceneError) {
        if strict {
            throw SceneError(.invalidValue, at: file, position: position,
                             "\(subject) is not supported: \(reason) (--strict refuses what would be skipped)")
        }
        note(.skipped, subject, reason, file: file, at: position)
    }

    /// Notes that `subject` was read though it is sloppy, as Core Animation reads it.
    package func tolerated(_ subject: String, _ reason: String, file: String, at position: SourcePosition) {
        note(.tolerated, subject, reason, file: file, at: position)
    }

    private func note(_ action: SceneWarning.Action, _ subject: String, _ reason: String, file: String, at position: SourcePosition) {
        guard seen.insert("\(action)|\(subject)|\(file)|\(position.line)|\(position.column)").inserted else { return }
        let key = WarningKey(action: action, subject: subject, file: file)
        if let i = indexOfWarning[key] {
            warnings[i].count += 1
        } else {
            indexOfWarning[key] = warnings.count
            warnings.append(SceneWarning(action: action, subject: subject, reason: reason, file: file, position: position, count: 1))
        }
    }
}
