/// Why text could not be laid out or drawn.
public struct TextRenderingError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, with the call or file involved.
    public let message: String

    init(_ message: String) { self.message = message }

    static func freeType(_ call: String, _ code: Int32, _ detail: String = "") -> TextRenderingError {
        TextRenderingError("FreeType's \(call) failed with error \(code)\(detail.isEmpty ? "" : " (\(detail))")")
    }

    /// "text: " and what went wrong.
    public var description: String { "text: " + message }
}
