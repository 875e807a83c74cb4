import CDeflate

/// A gzip file (RFC 1952) inflated whole, within a limit: the size its
/// trailer declares is checked before anything is inflated, and the data
/// must inflate to exactly that size, so a gzip bomb is refused at once
/// and a lying trailer cannot grow the buffer.
///
/// ```swift
/// let json = try Gzip.inflate(sticker, maxBytes: 8 << 20)  // a .tgs: gzipped Lottie
/// ```
package enum Gzip {
    /// Why a gzip file was refused, in words for a message.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package var message: String
        /// Refused for a limit, not for being damaged.
        package var isOverLimit = false
        package var description: String { message }
    }

    /// Whether `bytes` start as gzip data does.
    package static func isGzip(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: [0x1F, 0x8B])
    }

    package static func inflate(_ bytes: [UInt8], maxBytes: Int) throws(Failure) -> [UInt8] {
        guard isGzip(bytes), bytes.count >= 18 else { throw Failure(message: "not gzip data") }
        // The trailer's ISIZE: the inflated size modulo 2^32 (exact below 4 GiB).
        let n = bytes.count
        let declared = Int(bytes[n - 4]) | Int(bytes[n - 3]) << 8 | Int(bytes[n - 2]) << 16 | Int(bytes[n - 1]) << 24
        guard declared <= maxBytes else {
            throw Failure(message: "the gzip data inflates to \(declared) bytes, over the limit of \(maxBytes)", isOverLimit: true)
        }
        guard let decompressor = libdeflate_alloc_decompressor() else { throw Failure(message: "out of memory for inflating") }
        defer { libdeflate_free_decompressor(decompressor) }
        var produced = 0
        var result = LIBDEFLATE_BAD_DATA
        let output = [UInt8](unsafeUninitializedCapacity: declared) { buffer, count in
            result = bytes.withUnsafeBytes { source in
                libdeflate_gzip_decompress(decompressor, source.baseAddress, source.count, buffer.baseAddress, declared, &produced)
            }
            count = result == LIBDEFLATE_SUCCESS ? produced : 0
        }
        switch result {
        case LIBDEFLATE_SUCCESS where produced == declared: return output
        case LIBDEFLATE_INSUFFICIENT_SPACE:
            throw Failure(message: "the gzip data inflates to more than the \(declared) bytes its trailer declares")
        default:
            throw Failure(message: "the gzip data is damaged: it does not inflate, or not to the size its trailer declares")
        }
    }
}
