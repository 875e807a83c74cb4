import LaminaJSON
/// Something in an input that Lamina skipped (in CAML: an emitter, a filter,
/// a script, a private layer class; in Lottie: an effect, an expression) or
/// tolerated as Core Animation does (an empty attribute, a colour component
/// a little outside 0...1). Each kind of thing is reported once, at its first
/// place, with how many times it occurred.
public struct SceneWarning: Sendable, Hashable, CustomStringConvertible {
    /// What Lamina did with it.
    public enum Action: String, Sendable, Hashable {
        /// Not drawn: Lamina does not support it (`--strict` refuses it).
        case skipped
        /// Read as Core Animation reads it, though it is sloppy.
        case tolerated
    }

    /// What Lamina did with it.
    public var action: Action
    /// What was skipped, as the document names it (`<CAEmitterLayer>`, `@filters`, `$.layers[2].ef`).
    public var subject: String
    /// Why, in words.
    public var reason: String
    /// The file it is in.
    public var file: String
    /// Where the first one is.
    public var position: SourcePosition
    /// How many times the document has it.
    public var count: Int

    /// A warning about `subject` at `position` in `file`.
    package init(action: Action, subject: String, reason: String, file: String, position: SourcePosition, count: Int = 1) {
        self.action = action
        self.subject = subject
        self.reason = reason
        self.file = file
        self.position = position
        self.count = count
    }

    /// `main.caml:12:7: skipped <CAEmitterLayer> (3 times): Lamina does not draw particle emitters`.
    public var description: String {
        let times = count > 1 ? " (\(count) times)" : ""
        return "\(file):\(position.line):\(position.column): \(action.rawValue) \(subject)\(times): \(reason)"
    }
}

extension SceneWarning {
    /// `warnings` as lines for a person to read: at most `perReason` of the
    /// warnings that share an action and a reason in one file, each in full
    /// (`description`), then one line for the rest, naming the first of them.
    /// A Lottie file with an expression on 150 properties gets four lines,
    /// not 150; the list itself (the server's answer) keeps them all.
    ///
    /// ```swift
    /// SceneWarning.lines(for: warnings, perReason: 3)
    /// // anim.json:1:120: skipped $.layers[0].ks.p (x): expressions are JavaScript...
    /// // ... two more ...
    /// // anim.json: skipped 147 more the same way, the first $.layers[2].ks.o (x) at 1:960: expressions are JavaScript...
    /// ```
    public static func lines(for warnings: [SceneWarning], perReason: Int = 3) -> [String] {
        struct Reason: Hashable { let action: Action, reason: String, file: String }
        var order: [Reason] = []
        var groups: [Reason: [SceneWarning]] = [:]
        for warning in warnings {
            let reason = Reason(action: warning.action, reason: warning.reason, file: warning.file)
            if groups[reason] == nil { order.append(reason) }
            groups[reason, default: []].append(warning)
        }
        var lines: [String] = []
        for reason in order {
            let group = groups[reason] ?? []
            let limit = max(1, perReason)
            // A single line left over reads better in full than as a summary of one.
            let shown = group.count <= limit + 1 ? group[...] : group.prefix(limit)
            lines += shown.map(\.description)
            let rest = group.dropFirst(shown.count)
            guard let first = rest.first else { continue }
            let times = rest.reduce(0) { $0 + $1.count }
            lines.append("\(reason.file): \(reason.action.rawValue) \(times) more the same way, the first \(first.subject) at \(first.position.line):\(first.position.column): \(reason.reason)")
        }
        return lines
    }
}
