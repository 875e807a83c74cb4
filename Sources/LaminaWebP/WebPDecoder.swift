import CWebP
import LaminaCore

/// Decodes a WebP picture (lossy or lossless, with or without alpha; an
/// animated one gives its first frame) into a premultiplied `CGImage`.
///
/// The size in its header is checked against `limits` before a pixel is
/// decoded, so a small file that claims a huge picture costs nothing.
///
/// ```swift
/// let image = try WebPDecoder(limits: .init(maxPixels: 16 << 20, maxBytes: 8 << 20)).decode(bytes)
/// ```
public struct WebPDecoder: Sendable {
    /// Resource limits checked before decoding.
    public typealias Limits = ImageDecodingLimits

    public var limits: Limits

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Whether `bytes` start as a WebP file does (`RIFF`, a size, `WEBP`).
    public static func isWebP(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 12 && bytes.starts(with: Array("RIFF".utf8)) && Array(bytes[8..<12]) == Array("WEBP".utf8)
    }

    /// - Throws: `WebPError` for data that is not WebP, is damaged, or is over the limits.
    public func decode(_ bytes: [UInt8]) throws(WebPError) -> CGImage {
        guard bytes.count <= limits.maxBytes else {
            throw WebPError(overLimit: "the WebP file has \(bytes.count) bytes, over the limit of \(limits.maxBytes)")
        }
        var width: Int32 = 0, height: Int32 = 0
        let known = bytes.withUnsafeBufferPointer { WebPGetInfo($0.baseAddress, $0.count, &width, &height) }
        guard known != 0, width > 0, height > 0 else { throw WebPError("not a WebP picture libwebp can read") }
        let (pixels, overflow) = Int(width).multipliedReportingOverflow(by: Int(height))
        guard !overflow, pixels <= limits.maxPixels else {
            throw WebPError(overLimit: "the WebP picture is \(width) x \(height) pixels, over the limit of \(limits.maxPixels)")
        }
        let animation = try WebPAnimation(decoding: bytes)
        guard let first = animation.images.first else { throw WebPError("the WebP file holds no picture") }
        return first
    }
}
