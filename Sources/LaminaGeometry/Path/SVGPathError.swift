import Foundation

/// Why SVG path data could not be read, and where.
public struct SVGPathError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Zero-based offset, in characters, of the first character that could
    /// not be read (the length of the data when it ended too early).
    public let offset: Int
    /// What was expected there and what was found, in words.
    public let message: String

    /// An error at `offset` bytes into the path data.
    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    /// Where (the byte offset) and what.
    public var description: String {
        "invalid SVG path data at character \(offset): \(message)"
    }
}
