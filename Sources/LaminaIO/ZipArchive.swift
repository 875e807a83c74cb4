import CDeflate

/// A zip archive read from memory by a reader that trusts nothing in it.
///
/// Every offset and size is checked against the archive's real length
/// before it is used: the end-of-central-directory record (and its ZIP64
/// form), every central-directory header and every local header. Entries
/// are inflated by libdeflate in one call into a buffer of the size the
/// central directory declares (which the caller has bounded first), so an
/// inflation can neither outgrow its buffer nor loop: it costs time linear
/// in its input and output, and data that does not inflate to exactly the
/// declared size, or whose CRC-32 differs, is refused.
///
/// ```swift
/// let archive = try ZipArchive(bytes)
/// for entry in archive.entries where entry.kind == .file {
///     guard entry.uncompressedSize <= 1 << 20 else { continue }
///     let data = try archive.contents(of: entry)
/// }
/// ```
package struct ZipArchive: Sendable {
    /// One entry of the central directory.
    package struct Entry: Sendable, Hashable {
        package enum Kind: Sendable, Hashable {
            case file, directory, symbolicLink
        }

        /// The path as stored (`/`-separated; a folder's ends with `/`).
        package var path: String
        package var kind: Kind
        /// The size it inflates to, as declared (checked when inflated).
        package var uncompressedSize: Int
        package var compressedSize: Int
        fileprivate var method: UInt16
        fileprivate var crc32: UInt32
        fileprivate var localHeaderOffset: Int
    }

    /// Why an archive, or an entry of it, cannot be read.
    package struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        package var message: String
        /// Refused for a limit the caller set (`maximumEntries`), not for damage.
        package var isOverLimit: Bool
        package var description: String { message }
        init(_ message: String, isOverLimit: Bool = false) {
            self.message = message
            self.isOverLimit = isOverLimit
        }
    }

    private let bytes: [UInt8]
    /// The entries in central-directory order.
    package let entries: [Entry]

    /// Reads the central directory of `bytes`; refuses more than `maximumEntries`.
    package init(_ bytes: [UInt8], maximumEntries: Int = 65_535) throws(Failure) {
        self.bytes = bytes
        let end = try Self.endOfCentralDirectory(in: bytes)
        guard end.entryCount <= maximumEntries else {
            throw Failure("the archive has \(end.entryCount) entries, over the limit of \(maximumEntries)", isOverLimit: true)
        }
        var entries: [Entry] = []
        entries.reserveCapacity(end.entryCount)
        var at = end.directoryOffset
        let directoryEnd = end.directoryOffset + end.directorySize
        for k in 0..<end.entryCount {
            guard at + 46 <= directoryEnd, Self.u32(bytes, at) == 0x0201_4B50 else {
                throw Failure("the central directory's entry \(k + 1) is damaged (no header at byte \(at))")
            }
            let madeBy = Self.u16(bytes, at + 4)
            let flags = Self.u16(bytes, at + 8)
            let method = Self.u16(bytes, at + 10)
            let crc = Self.u32(bytes, at + 16)
            var compressed = Int(Self.u32(bytes, at + 20))
            var uncompressed = Int(Self.u32(bytes, at + 24))
            let nameLength = Int(Self.u16(bytes, at + 28))
            let extraLength = Int(Self.u16(bytes, at + 30))
            let commentLength = Int(Self.u16(bytes, at + 32))
            let attributes = Self.u32(bytes, at + 38)
            var localOffset = Int(Self.u32(bytes, at + 42))
            let next = at + 46 + nameLength + extraLength + commentLength
            guard next <= directoryEnd else {
                throw Failure("the central directory's entry \(k + 1) runs past the directory's end")
            }
            let nameBytes = bytes[(at + 46)..<(at + 46 + nameLength)]
            // ZIP64: sizes and offset that do not fit 32 bits are in extra field 0x0001, in this order.
            if compressed == 0xFFFF_FFFF || uncompressed == 0xFFFF_FFFF || localOffset == 0xFFFF_FFFF {
                var fields = try Self.zip64Fields(bytes, from: at + 46 + nameLength, count: extraLength)
                if uncompressed == 0xFFFF_FFFF { uncompressed = try fields.next("uncompressed size") }
                if compressed == 0xFFFF_FFFF { compressed = try fields.next("compressed size") }
                if localOffset == 0xFFFF_FFFF { localOffset = try fields.next("local header offset") }
            }
            guard flags & 0x0001 == 0 else { throw Failure("entry \(k + 1) is encrypted; encrypted archives are refused") }
            guard let path = String(validating: nameBytes, as: UTF8.self) ?? Self.latin1(nameBytes) else {
                throw Failure("entry \(k + 1) has no readable name")
            }
            // Unix hosts (3) keep the file's mode in the high half of the external attributes.
            let unixMode = madeBy >> 8 == 3 ? attributes >> 16 : 0
            let kind: Entry.Kind = if unixMode & 0o170000 == 0o120000 {
                .symbolicLink
            } else if path.hasSuffix("/") || (unixMode & 0o170000 == 0o040000) {
                .directory
            } else {
                .file
            }
            guard localOffset < end.directoryOffset else {
                throw Failure("entry '\(path)' starts at byte \(localOffset), inside or past the central directory")
            }
            entries.append(Entry(path: path, kind: kind, uncompressedSize: uncompressed, compressedSize: compressed,
                                 method: method, crc32: crc, localHeaderOffset: localOffset))
            at = next
        }
        self.entries = entries
    }

    /// The inflated bytes of `entry` (a file), checked against its declared
    /// size and CRC-32. Bound `entry.uncompressedSize` before calling: it is
    /// the size of the buffer inflated into.
    package func contents(of entry: Entry) throws(Failure) -> [UInt8] {
        let at = entry.localHeaderOffset
        guard at + 30 <= bytes.count, Self.u32(bytes, at) == 0x0403_4B50 else {
            throw Failure("'\(entry.path)' has no local header at byte \(at)")
        }
        let start = at + 30 + Int(Self.u16(bytes, at + 26)) + Int(Self.u16(bytes, at + 28))
        guard start <= bytes.count, entry.compressedSize <= bytes.count - start else {
            throw Failure("'\(entry.path)' claims \(entry.compressedSize) bytes of data past the archive's end")
        }
        let input = start..<(start + entry.compressedSize)
        let output: [UInt8]
        switch entry.method {
        case 0:
            guard entry.compressedSize == entry.uncompressedSize else {
                throw Failure("'\(entry.path)' is stored with \(entry.compressedSize) bytes but declares \(entry.uncompressedSize)")
            }
            output = Array(bytes[input])
        case 8:
            output = try inflate(input, to: entry.uncompressedSize, path: entry.path)
        default:
            throw Failure("'\(entry.path)' uses compression method \(entry.method); only stored (0) and deflate (8) are read")
        }
        let crc = output.withUnsafeBytes { UInt32(libdeflate_crc32(0, $0.baseAddress, $0.count)) }
        guard crc == entry.crc32 else { throw Failure("'\(entry.path)' is damaged: its CRC-32 does not match") }
        return output
    }

    private func inflate(_ input: Range<Int>, to size: Int, path: String) throws(Failure) -> [UInt8] {
        guard let decompressor = libdeflate_alloc_decompressor() else { throw Failure("out of memory for inflating '\(path)'") }
        defer { libdeflate_free_decompressor(decompressor) }
        var produced = 0
        var result = LIBDEFLATE_BAD_DATA
        let output = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            result = bytes.withUnsafeBytes { source in
                libdeflate_deflate_decompress(decompressor, source.baseAddress! + input.lowerBound, input.count,
                                              buffer.baseAddress, size, &produced)
            }
            count = result == LIBDEFLATE_SUCCESS ? produced : 0
        }
        switch result {
        case LIBDEFLATE_SUCCESS where produced == size: return output
        case LIBDEFLATE_SUCCESS, LIBDEFLATE_SHORT_OUTPUT:
            throw Failure("'\(path)' inflates to fewer bytes than the \(size) it declares")
        case LIBDEFLATE_INSUFFICIENT_SPACE:
            throw Failure("'\(path)' inflates to more bytes than the \(size) it declares")
        default:
            throw Failure("'\(path)' is damaged: its deflate data does not inflate")
        }
    }

    // MARK: The end of the central directory

    private struct End {
        var entryCount: Int
        var directoryOffset: Int
        var directorySize: Int
    }

    /// The last end-of-central-directory record (within the last 64 KiB, as
    /// its comment is at most 65,535 bytes), or its ZIP64 form, with the
    /// directory it names checked to lie before it.
    private static func endOfCentralDirectory(in bytes: [UInt8]) throws(Failure) -> End {
        guard bytes.count >= 22 else { throw Failure("not a zip archive (\(bytes.count) bytes, too short)") }
        let lowest = max(0, bytes.count - 22 - 65_535)
        var at = bytes.count - 22
        while at >= lowest, u32(bytes, at) != 0x0605_4B50 { at -= 1 }
        guard at >= lowest else { throw Failure("not a zip archive (no end-of-central-directory record)") }
        guard u16(bytes, at + 4) == 0, u16(bytes, at + 6) == 0 else {
            throw Failure("archives split over several disks are refused")
        }
        var end = End(entryCount: Int(u16(bytes, at + 10)), directoryOffset: Int(u32(bytes, at + 16)),
                      directorySize: Int(u32(bytes, at + 12)))
        var recordStart = at
        if end.entryCount == 0xFFFF || end.directoryOffset == 0xFFFF_FFFF || end.directorySize == 0xFFFF_FFFF {
            // The ZIP64 locator sits just before, and names the ZIP64 record.
            guard at >= 20 + 56, u32(bytes, at - 20) == 0x0706_4B50 else {
                throw Failure("the end-of-central-directory record's counts are out of range and no ZIP64 record follows")
            }
            let record = u64(bytes, at - 20 + 8)
            guard record <= UInt64(at - 20 - 56), u32(bytes, Int(record)) == 0x0606_4B50 else {
                throw Failure("the ZIP64 end-of-central-directory record is not where its locator says")
            }
            let r = Int(record)
            guard u64(bytes, r + 32) <= UInt64(Int.max), u64(bytes, r + 40) <= UInt64(Int.max), u64(bytes, r + 48) <= UInt64(Int.max) else {
                throw Failure("the ZIP64 record's sizes are out of range")
            }
            end = End(entryCount: Int(u64(bytes, r + 32)), directoryOffset: Int(u64(bytes, r + 48)),
                      directorySize: Int(u64(bytes, r + 40)))
            recordStart = r
        }
        guard end.directoryOffset <= recordStart, end.directorySize <= recordStart - end.directoryOffset else {
            throw Failure("the central directory (\(end.directorySize) bytes at byte \(end.directoryOffset)) does not lie within the archive")
        }
        // Each entry's header is at least 46 bytes: a count the directory cannot hold is a lie.
        guard end.entryCount <= end.directorySize / 46 else {
            throw Failure("the archive claims \(end.entryCount) entries, more than its central directory can hold")
        }
        return end
    }

    // MARK: Bytes

    /// The 64-bit values of a ZIP64 extra field (id 0x0001), in order.
    private struct Zip64Fields {
        var values: [Int]
        var next = 0
        mutating func next(_ what: String) throws(Failure) -> Int {
            guard next < values.count else { throw Failure("the ZIP64 extra field lacks the \(what)") }
            defer { next += 1 }
            return values[next]
        }
    }

    private static func zip64Fields(_ bytes: [UInt8], from start: Int, count: Int) throws(Failure) -> Zip64Fields {
        var at = start
        while at + 4 <= start + count {
            let id = u16(bytes, at), size = Int(u16(bytes, at + 2))
            guard at + 4 + size <= start + count else { break }
            if id == 0x0001 {
                var values: [Int] = []
                var v = at + 4
                while v + 8 <= at + 4 + size {
                    let value = u64(bytes, v)
                    guard value <= UInt64(Int.max) else { throw Failure("a ZIP64 size is out of range") }
                    values.append(Int(value))
                    v += 8
                }
                return Zip64Fields(values: values)
            }
            at += 4 + size
        }
        throw Failure("an entry's sizes are out of range and it has no ZIP64 extra field")
    }

    /// Names written in the archive's original code page: bytes as Latin-1.
    private static func latin1(_ bytes: ArraySlice<UInt8>) -> String? {
        String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }

    private static func u16(_ b: [UInt8], _ i: Int) -> UInt16 { UInt16(b[i]) | UInt16(b[i + 1]) << 8 }
    private static func u32(_ b: [UInt8], _ i: Int) -> UInt32 { UInt32(u16(b, i)) | UInt32(u16(b, i + 2)) << 16 }
    private static func u64(_ b: [UInt8], _ i: Int) -> UInt64 { UInt64(u32(b, i)) | UInt64(u32(b, i + 4)) << 32 }
}
