import LaminaJSON
/// Why a scene was refused: one or more issues, each naming the JSON location
/// (`$.sublayers[2].lineCap`), the source position where there is one, and
/// what was expected.
///
/// A refused scene is refused as a whole; nothing of it should be drawn.
/// Issues are in the order of the text. The decoder goes on collecting
/// issues where that is cheap and safe, up to 50; bad JSON and a limit stop
/// it at once, so a syntax error is always the only issue.
public struct SceneError: Error, Sendable, CustomStringConvertible {
    /// What kind of problem an issue is.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The text is not valid JSON.
        case syntax
        /// The same key twice in one object.
        case duplicateKey
        /// A key that the object's type does not have.
        case unknownKey
        /// A name (layer type, enum value, operation) that is not known.
        case unknownName
        /// A value of the wrong JSON type, or an array of the wrong length.
        case wrongType
        /// A required key is absent.
        case missingKey
        /// NaN, an infinity, or a number too large for a double.
        case nonFinite
        /// A number outside the range the key allows (negative sizes too).
        case outOfRange
        /// Two keys that cannot be given together.
        case conflict
        /// A value of the right type that has no meaning (a singular
        /// perspective, an image that is not a PNG, a broken path string).
        case invalidValue
        /// A `format` other than `lamina.scene/1`.
        case unsupportedFormat
        /// The scene is larger than the configured `SceneLimits`.
        case limitExceeded
        /// A file reference where files are not allowed, or a file that
        /// cannot be read.
        case fileAccess
        /// Reading stopped before its end: the reader's `RenderDeadline`
        /// passed, or its owner abandoned the work (a render server whose
        /// request ran out of time). Not a fault of the document's.
        case interrupted
    }

    /// One problem, with where it is and what was expected.
    public struct Issue: Sendable, Hashable, CustomStringConvertible {
        /// What sort of problem it is.
        public var kind: Kind
        /// The JSON location, such as `$.sublayers[2].transform[5]`.
        public var location: String
        /// Where in the text the offending value (or key) starts, when the
        /// problem has a place in the text.
        public var position: SourcePosition?
        /// What is wrong, as a sentence fragment without the location.
        public var message: String

        /// A location or message that quotes a long value (a key of
        /// megabytes) keeps only its first `Issue.maxQuoted` bytes, and says
        /// how long the whole was: an error is read by a person.
        public init(kind: Kind, location: String, position: SourcePosition?, message: String) {
            self.kind = kind
            self.location = Quoted.prefix(location, limit: Self.maxQuoted)
            self.position = position
            self.message = Quoted.prefix(message, limit: Self.maxQuoted)
        }

        /// The longest location or message kept whole, in bytes.
        public static let maxQuoted = 300

        /// `$.path: message (line L, column C)`.
        public var description: String {
            var out = location + ": " + message
            if let position { out += " (\(position))" }
            return out
        }
    }

    /// Every issue found, the first one first. Never empty.
    public let issues: [Issue]

    /// An error with the given issues; `issues` must not be empty (an empty
    /// list gets a placeholder issue so that the error still says something).
    public init(issues: [Issue]) {
        self.issues = issues.isEmpty
            ? [Issue(kind: .invalidValue, location: "$", position: nil, message: "the scene was refused")]
            : issues
    }

    /// An error with one issue.
    public init(_ kind: Kind, at location: String, position: SourcePosition? = nil, _ message: String) {
        self.init(issues: [Issue(kind: kind, location: location, position: position, message: message)])
    }

    /// The first issue.
    public var first: Issue { issues[0] }
    /// The first problem's kind.
    public var kind: Kind { first.kind }
    /// The first problem's JSON path.
    public var location: String { first.location }
    /// The first problem's place in the text, when decoding.
    public var position: SourcePosition? { first.position }
    /// The first problem, in words.
    public var message: String { first.message }
    /// The first problem's line, from 1.
    public var line: Int? { first.position?.line }
    /// The first problem's column, from 1.
    public var column: Int? { first.position?.column }

    /// Every issue, one per line.
    public var description: String {
        issues.map(\.description).joined(separator: "\n")
    }
}

extension RenderDeadline {
    /// `check()` for a reader: past the deadline (or abandoned), the
    /// `interrupted` error at the place the read had reached.
    package func check(at location: @autoclosure () -> String, position: @autoclosure () -> SourcePosition? = nil) throws(SceneError) {
        do {
            try check()
        } catch {
            throw SceneError.interrupted(error, at: location(), position: position())
        }
    }
}

extension SceneError {
    /// The error of a read stopped by its `RenderDeadline`, at the place it had reached.
    public static func interrupted(_ interruption: RenderInterruption, at location: String,
                                   position: SourcePosition? = nil) -> SceneError {
        SceneError(.interrupted, at: location, position: position,
                   interruption == .abandoned ? "reading was abandoned here" : "the deadline passed while reading here")
    }
}

extension SceneError {
    /// A JSON text the parser refused, in the scene format's words: the same
    /// kind, location and message (a read stopped by a `RenderDeadline` is
    /// `interrupted`, as every reader says it).
    package init(_ error: JSONError) {
        if error.kind == .interrupted, let interruption = error.cause as? RenderInterruption {
            self = .interrupted(interruption, at: error.location, position: error.position)
            return
        }
        let kind: Kind = switch error.kind {
        case .syntax: .syntax
        case .nonFinite: .nonFinite
        case .duplicateKey: .duplicateKey
        case .limitExceeded: .limitExceeded
        case .interrupted: .interrupted
        }
        self.init(kind, at: error.location, position: error.position, error.message)
    }
}

extension JSONParser {
    /// Parses a document of a format written in JSON (a scene, a Lottie
    /// animation), refused with a `SceneError`; `deadline` stops the read.
    package static func parse(_ bytes: [UInt8], maxNesting: Int = 512, deadline: RenderDeadline?) throws(SceneError) -> JSONValue {
        do {
            guard let deadline else { return try parse(bytes, maxNesting: maxNesting, checkpoint: nil) }
            return try parse(bytes, maxNesting: maxNesting) { () throws(any Error & Sendable) in try deadline.check() }
        } catch {
            throw SceneError(error)
        }
    }
}
