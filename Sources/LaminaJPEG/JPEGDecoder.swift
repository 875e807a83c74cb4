import CTurboJPEG
import LaminaCore

/// Why a JPEG cannot be decoded.
public struct JPEGError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// Not a JPEG, or damaged.
        case invalid
        /// Over the decoder's limits (bytes, or pixels as its header declares them).
        case tooLarge
    }

    public var kind: Kind
    public var description: String
}

/// JPEG images, decoded by libjpeg-turbo into opaque RGBA, turned upright
/// as their EXIF orientation says (as Core Animation shows a photo).
///
/// The header's size is checked against the limits before a pixel is
/// decoded (a 30-byte file can declare 65,535 x 65,535 pixels), and a
/// progressive JPEG may have at most 500 scans (libjpeg-turbo's limit,
/// `TJFLAG_LIMITSCANS`: one of many scans costs a whole pass each).
///
/// ```swift
/// let image = try JPEGDecoder(limits: .init(maxPixels: 16 << 20, maxBytes: 8 << 20)).decode(bytes)
/// ```
public struct JPEGDecoder: Sendable {
    /// Resource limits checked before decoding.
    public typealias Limits = ImageDecodingLimits

    public var limits: Limits

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Whether `bytes` start as a JPEG does (SOI, then a marker).
    public static func isJPEG(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: [0xFF, 0xD8, 0xFF])
    }

    /// The picture in `bytes`, upright.
    public func decode(_ bytes: [UInt8]) throws(JPEGError) -> CGImage {
        guard bytes.count <= limits.maxBytes else {
            throw JPEGError(kind: .tooLarge, description: "the JPEG has \(bytes.count) bytes, over the limit of \(limits.maxBytes)")
        }
        guard Self.isJPEG(bytes) else { throw JPEGError(kind: .invalid, description: "not a JPEG (no start-of-image marker)") }
        guard let handle = tjInitDecompress() else {
            throw JPEGError(kind: .invalid, description: "libjpeg-turbo could not start")
        }
        defer { tjDestroy(handle) }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let header = bytes.withUnsafeBufferPointer {
            tjDecompressHeader3(handle, $0.baseAddress, UInt(bytes.count), &width, &height, &subsampling, &colorspace)
        }
        guard header == 0 else { throw Self.error(handle, "its header cannot be read") }
        guard width > 0, height > 0 else { throw JPEGError(kind: .invalid, description: "the JPEG declares no pixels") }
        let (pixels, overflow) = Int(width).multipliedReportingOverflow(by: Int(height))
        guard !overflow, pixels <= limits.maxPixels else {
            throw JPEGError(kind: .tooLarge, description: "the JPEG has \(width) x \(height) pixels, over the limit of \(limits.maxPixels)")
        }
        var rgba = [UInt8](repeating: 0, count: pixels * 4)
        let flags = Int32(TJFLAG_ACCURATEDCT | TJFLAG_LIMITSCANS | TJFLAG_STOPONWARNING)
        let status = bytes.withUnsafeBufferPointer { source in
            rgba.withUnsafeMutableBufferPointer { target in
                tjDecompress2(handle, source.baseAddress, UInt(bytes.count), target.baseAddress,
                              width, 0, height, Int32(TJPF_RGBA.rawValue), flags)
            }
        }
        guard status == 0 else { throw Self.error(handle, "its image data is damaged") }
        let (w, h, upright) = ExifOrientation(jpeg: bytes).apply(to: rgba, width: Int(width), height: Int(height))
        do {
            return try CGImage(width: w, height: h, straightRGBA: upright)
        } catch {
            throw JPEGError(kind: .invalid, description: "the decoded picture cannot be kept: \(error)")
        }
    }

    private static func error(_ handle: tjhandle, _ what: String) -> JPEGError {
        let message = tjGetErrorStr2(handle).map { String(cString: $0) } ?? "unknown error"
        return JPEGError(kind: .invalid, description: "not a readable JPEG: \(what) (\(message))")
    }
}

/// A JPEG's EXIF orientation (1...8, 1 when it has none) and how to turn
/// its pixels upright.
struct ExifOrientation: Equatable {
    var value: Int

    init(value: Int) { self.value = (1...8).contains(value) ? value : 1 }

    /// The orientation tag (0x0112) of IFD0 in the JPEG's APP1 Exif segment.
    /// Everything is bounds-checked: a damaged segment is orientation 1.
    init(jpeg b: [UInt8]) {
        self.init(value: Self.read(b) ?? 1)
    }

    private static func read(_ b: [UInt8]) -> Int? {
        var i = 2
        // Markers up to the start of scan; only APP1 "Exif\0\0" matters.
        while i + 4 <= b.count, b[i] == 0xFF {
            let marker = b[i + 1]
            if marker == 0xDA || marker == 0xD9 { return nil }
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length >= 2, i + 2 + length <= b.count else { return nil }
            let segment = (i + 4)..<(i + 2 + length)
            if marker == 0xE1, segment.count >= 14, Array(b[segment.lowerBound..<(segment.lowerBound + 6)]) == [0x45, 0x78, 0x69, 0x66, 0, 0] {
                return orientation(in: Array(b[(segment.lowerBound + 6)..<segment.upperBound]))
            }
            i += 2 + length
        }
        return nil
    }

    /// IFD0's orientation in a TIFF structure.
    private static func orientation(in t: [UInt8]) -> Int? {
        guard t.count >= 8 else { return nil }
        let little: Bool
        switch (t[0], t[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= t.count else { return nil }
            return little ? Int(t[at]) | Int(t[at + 1]) << 8 : Int(t[at]) << 8 | Int(t[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let a = u16(at), let b = u16(at + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard let ifd = u32(4), let count = u16(ifd) else { return nil }
        for k in 0..<min(count, 512) {
            let entry = ifd + 2 + 12 * k
            guard let tag = u16(entry) else { return nil }
            if tag == 0x0112 { return u16(entry + 8) }
        }
        return nil
    }

    /// The pixels turned upright: the width, height and RGBA bytes.
    func apply(to pixels: [UInt8], width: Int, height: Int) -> (Int, Int, [UInt8]) {
        guard value != 1 else { return (width, height, pixels) }
        let transposed = value >= 5
        let (w, h) = transposed ? (height, width) : (width, height)
        var out = [UInt8](repeating: 0, count: pixels.count)
        for y in 0..<h {
            for x in 0..<w {
                // Where the upright pixel (x, y) is stored.
                let (sx, sy): (Int, Int) = switch value {
                case 2: (width - 1 - x, y)
                case 3: (width - 1 - x, height - 1 - y)
                case 4: (x, height - 1 - y)
                case 5: (y, x)
                case 6: (y, height - 1 - x)
                case 7: (width - 1 - y, height - 1 - x)
                default: (width - 1 - y, x)  // 8
                }
                let s = (sy * width + sx) * 4, d = (y * w + x) * 4
                out[d] = pixels[s]; out[d + 1] = pixels[s + 1]; out[d + 2] = pixels[s + 2]; out[d + 3] = pixels[s + 3]
            }
        }
        return (w, h, out)
    }
}
