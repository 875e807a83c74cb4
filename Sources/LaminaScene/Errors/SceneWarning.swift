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
