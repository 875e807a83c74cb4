/// A JSON text `JSONParser` refused: what kind of fault, where (the JSON
/// location of the value being read, and the line and column), and why.
///
/// Readers of formats written in JSON turn it into their own error: the
/// scene format's `SceneError` keeps the kind, the location and the message.
package struct JSONError: Error, Sendable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        /// Not JSON: a stray byte, an unclosed string, a trailing comma...
        case syntax
        /// NaN, Infinity, or a number too large for a double.
        case nonFinite
        /// A key given twice in one object.
        case duplicateKey
        /// Over a limit: nesting, or the document's size.
        case limitExceeded
        /// The reader's `checkpoint` stopped the read (its error is `cause`).
        case interrupted
    }

    package var kind: Kind
    /// The JSON location of the value being read (`$.sublayers[2]`).
    package var location: String
    package var position: SourcePosition?
    package var message: String
    /// What the checkpoint threw, for `interrupted`.
    package var cause: (any Error & Sendable)?

    package init(_ kind: Kind, at location: String, position: SourcePosition? = nil, _ message: String,
                 cause: (any Error & Sendable)? = nil) {
        self.kind = kind; self.location = location; self.position = position; self.message = message; self.cause = cause
    }

    /// `$.a[1] (line 3, column 7): message`.
    package var description: String {
        "\(location)\(position.map { " (\($0))" } ?? ""): \(message)"
    }
}
