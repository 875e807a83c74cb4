/// What an encoded picture (PNG, JPEG, WebP) may hold before a decoder
/// refuses it unread: its bytes, and the pixels its header declares,
/// checked before any pixel memory is allocated. Each decoder's `Limits`.
///
/// ```swift
/// let image = try PNGDecoder(limits: .init(maxPixels: 16 << 20, maxBytes: 8 << 20)).decode(data)
/// ```
public struct ImageDecodingLimits: Sendable, Equatable {
    /// The most pixels (`width * height`) a picture may declare.
    public var maxPixels: Int
    /// The most bytes of encoded data accepted (memory or file).
    public var maxBytes: Int

    /// Limits of `maxPixels` pixels and `maxBytes` bytes of file.
    public init(maxPixels: Int = 64 << 20, maxBytes: Int = 256 << 20) {
        self.maxPixels = maxPixels
        self.maxBytes = maxBytes
    }

    /// 64 Mi pixels (8192 x 8192, 256 MiB decoded) and 256 MiB of data.
    public static let `default` = ImageDecodingLimits()
}
