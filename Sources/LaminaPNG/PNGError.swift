@_exported import LaminaIO
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why PNG data could not be decoded, encoded, read or written.
public enum PNGError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The data does not start with the 8-byte PNG signature.
    case notPNG
    /// The data ends before the PNG does (inside the signature, inside a chunk,
    /// or before the IEND chunk); the text says where.
    case truncated(String)
    /// The data is a PNG in form but broken inside (bad chunk, bad CRC,
    /// bad compressed data, invalid header...); the text is libpng's or ours.
    case corrupt(String)
    /// The picture has more pixels than the decoder's `maxPixels` limit. Checked
    /// from the header, before any pixel memory is allocated.
    case tooLarge(width: Int, height: Int, maxPixels: Int)
    /// The encoded data is longer than the decoder's `maxBytes` limit.
    case dataTooLarge(byteCount: Int, maxBytes: Int)
    /// The image is wider or taller than PNG allows (2^31 - 1 pixels).
    case tooLargeForPNG(width: Int, height: Int)
    /// A compression level outside 0...9.
    case invalidCompressionLevel(Int)
    /// libdeflate could not allocate its compressor.
    case encoderUnavailable
    /// The compressor failed (out of memory, in practice).
    case encoderFailed(String)
    /// A file could not be read or written (the path, what and why).
    case io(IOError)

    /// What went wrong, in words for a message.
    public var description: String {
        switch self {
        case .notPNG:
            return "not a PNG: the data does not start with the PNG signature"
        case let .truncated(detail):
            return "truncated PNG: \(detail)"
        case let .corrupt(detail):
            return "corrupt PNG: \(detail)"
        case let .tooLarge(width, height, maxPixels):
            return "PNG is \(width)x\(height) pixels, more than the limit of \(maxPixels) pixels"
        case let .dataTooLarge(byteCount, maxBytes):
            return "PNG data is \(byteCount) bytes, more than the limit of \(maxBytes) bytes"
        case let .tooLargeForPNG(width, height):
            return "a \(width)x\(height) image is too large for PNG, whose sides are at most 2^31 - 1 pixels"
        case let .invalidCompressionLevel(level):
            return "PNG compression level \(level) is outside 0...9"
        case .encoderUnavailable:
            return "the PNG encoder could not allocate its compressor (out of memory?)"
        case let .encoderFailed(message):
            return "PNG encoding failed: \(message)"
        case let .io(error):
            return error.description
        }
    }
}
