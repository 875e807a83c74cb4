/// Why a `CGImage` could not be made from the given size and bytes.
public enum CGImageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Width or height is zero or negative.
    case invalidSize(width: Int, height: Int)
    /// The byte size of the picture does not fit in an `Int`.
    case sizeOverflow(width: Int, height: Int)
    /// `bytesPerRow` is smaller than `width * 4`.
    case invalidBytesPerRow(bytesPerRow: Int, minimum: Int)
    /// The byte buffer is not `bytesPerRow * height` long.
    case byteCountMismatch(expected: Int, actual: Int)

    public var description: String {
        switch self {
        case let .invalidSize(width, height):
            return "CGImage size \(width)x\(height) is invalid: width and height must be at least 1"
        case let .sizeOverflow(width, height):
            return "CGImage size \(width)x\(height) is too large: its byte count overflows"
        case let .invalidBytesPerRow(bytesPerRow, minimum):
            return "CGImage bytesPerRow \(bytesPerRow) is smaller than width * 4 = \(minimum)"
        case let .byteCountMismatch(expected, actual):
            return "CGImage needs \(expected) bytes (bytesPerRow * height) but was given \(actual)"
        }
    }
}
