/// Walks the chunk framing of PNG data before libpng sees it.
///
/// libpng reports running out of data as an ordinary error with a terse
/// message; walking the framing first (signature, then length + type + data +
/// CRC for each chunk up to IEND; cheap, no CRC or content checks, no
/// allocation) lets the decoder say precisely that and where the data is
/// truncated, and read IHDR so that size limits apply before libpng allocates
/// anything. Everything else (CRCs, chunk order, compressed data) is libpng's
/// to check.
enum PNGChunkScanner {
    /// The 8 bytes every PNG starts with.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// What IHDR declares (not yet checked by libpng).
    struct Header: Equatable {
        var width: UInt32
        var height: UInt32
        var bitDepth: UInt8
        var colorType: UInt8
        var isInterlaced: Bool
    }

    /// A chunk's four-byte type as a big-endian integer, e.g. `"IHDR"`.
    struct ChunkType: Equatable {
        var rawValue: UInt32

        init(_ name: StaticString) {
            rawValue = name.withUTF8Buffer { $0.reduce(0) { $0 << 8 | UInt32($1) } }
        }

        init(rawValue: UInt32) {
            self.rawValue = rawValue
        }

        static let ihdr = ChunkType("IHDR")
        static let iend = ChunkType("IEND")
        static let idat = ChunkType("IDAT")

        /// The type as text when it is four ASCII letters (as PNG requires),
        /// else as hex, so that error messages never carry control bytes.
        var name: String {
            let bytes = (0..<4).map { UInt8(truncatingIfNeeded: rawValue >> (24 - 8 * $0)) }
            if bytes.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) {
                return String(decoding: bytes, as: UTF8.self)
            }
            let hex = String(rawValue, radix: 16)
            return "0x" + String(repeating: "0", count: 8 - hex.count) + hex
        }
    }

    /// Checks the signature and chunk framing of `data` and returns IHDR's fields.
    /// - Throws: `PNGError.notPNG`, `.truncated` or `.corrupt`.
    static func scan(_ data: UnsafeRawBufferPointer) throws -> Header {
        var header: Header?
        try forEachChunk(in: data) { type, body in
            if header == nil {
                guard type == .ihdr, body.count == 13 else {
                    throw PNGError.corrupt(
                        "the first chunk is '\(type.name)' of \(body.count) bytes, not the 13-byte IHDR")
                }
                header = Header(
                    width: readUInt32(data, at: body.lowerBound),
                    height: readUInt32(data, at: body.lowerBound + 4),
                    bitDepth: data[body.lowerBound + 8],
                    colorType: data[body.lowerBound + 9],
                    isInterlaced: data[body.lowerBound + 12] != 0)
            }
        }
        // forEachChunk saw at least IHDR and IEND, or threw.
        guard let header else { throw PNGError.corrupt("no IHDR chunk") }
        return header
    }

    /// Calls `visit` with the type and data range of each chunk, up to and
    /// including IEND.
    /// - Throws: `PNGError.notPNG`, `.truncated` or `.corrupt` when the framing
    ///   is broken, and whatever `visit` throws.
    static func forEachChunk(
        in data: UnsafeRawBufferPointer, _ visit: (ChunkType, Range<Int>) throws -> Void
    ) throws {
        guard data.count >= signature.count else {
            if data.elementsEqual(signature.prefix(data.count)) {
                throw PNGError.truncated("the data ends after \(data.count) bytes, inside the 8-byte signature")
            }
            throw PNGError.notPNG
        }
        guard data.prefix(signature.count).elementsEqual(signature) else { throw PNGError.notPNG }

        var offset = signature.count
        while true {
            let remaining = data.count - offset
            guard remaining >= 8 else {
                if remaining == 0 {
                    throw PNGError.truncated("the data ends after \(data.count) bytes, before the IEND chunk")
                }
                throw PNGError.truncated(
                    "the data ends after \(data.count) bytes, inside the length and type of the chunk at byte \(offset)")
            }
            let length = readUInt32(data, at: offset)
            let type = ChunkType(rawValue: readUInt32(data, at: offset + 4))
            // PNG limits chunk lengths to 2^31 - 1.
            guard length <= 0x7FFF_FFFF else {
                throw PNGError.corrupt("chunk '\(type.name)' at byte \(offset) declares length \(length), over 2^31 - 1")
            }
            let chunkSize = 12 + Int(length)  // length, type, data, CRC
            guard remaining >= chunkSize else {
                throw PNGError.truncated(
                    "chunk '\(type.name)' at byte \(offset) needs \(chunkSize) bytes but only \(remaining) remain")
            }
            try visit(type, (offset + 8)..<(offset + 8 + Int(length)))
            if type == .iend { return }
            offset += chunkSize
        }
    }

    static func readUInt32(_ data: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        data[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }
}
