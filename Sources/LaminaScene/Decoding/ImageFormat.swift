import LaminaGIF
import LaminaJPEG
import LaminaWebP

/// The kinds of picture Lamina reads, told apart by their first bytes (what
/// a file is, whatever its name or a URI's media type says): the one place
/// the scene format, CAML bundles and Lottie files decide how to decode one.
///
/// ```swift
/// ImageFormat(of: bytes)?.mediaType   // "image/webp"
/// ```
package enum ImageFormat: String, Sendable {
    case png, jpeg, webp, gif

    /// The format `bytes` start as; nil for anything else (HEIC...).
    package init?(of bytes: [UInt8]) {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { self = .png }
        else if JPEGDecoder.isJPEG(bytes) { self = .jpeg }
        else if WebPDecoder.isWebP(bytes) { self = .webp }
        else if GIFDecoder.isGIF(bytes) { self = .gif }
        else { return nil }
    }

    /// Its media type, as a data URI names it (`image/png`).
    package var mediaType: String { "image/\(rawValue)" }
}
