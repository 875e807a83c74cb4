import CDeflate

/// The framing every PNG writer here shares (`PNGWriter`, `APNGEncoder`): the
/// signature, and chunks as length, type, data and the CRC-32 of type and
/// data (libdeflate's, the same checksum as zlib's `crc32`).
enum PNGChunk {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Appends one chunk to `out`.
    static func append(_ type: String, _ data: some Collection<UInt8>, to out: inout [UInt8]) {
        out += bigEndian(UInt32(data.count))
        let start = out.count
        out += type.utf8
        out += data
        let crc = out[start...].withUnsafeBytes { libdeflate_crc32(0, $0.baseAddress, $0.count) }
        out += bigEndian(crc)
    }

    static func bigEndian(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)]
    }

    static func bigEndian(_ v: UInt16) -> [UInt8] {
        [UInt8(v >> 8), UInt8(truncatingIfNeeded: v)]
    }
}
