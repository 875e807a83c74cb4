import CDeflate
import LaminaRaster

/// A zlib stream (RFC 1950/1951) of a picture's filtered rows, made for
/// speed, in segments compressed side by side: the PNG encoder's fast
/// preset.
///
/// Pictures repeat themselves in two places above all: the pixel to the
/// left (a flat colour) and the pixel above (a shape's vertical edges, a
/// background). Each position tries those two distances and one more from
/// a hash of its next four bytes (a pattern seen before: the next of a
/// thousand tiles), greedily takes the longest match, and codes literals
/// and matches with a dynamic Huffman code per block, or stores a block
/// when that is smaller.
///
/// The rows are cut into segments by size alone (so the bytes never depend
/// on how busy the machine is); segments are compressed on the idle cores
/// (`RowBands`), each ending byte-aligned with an empty stored block (what
/// zlib's `Z_SYNC_FLUSH` writes, as parallel gzip tools join theirs), and
/// their matches may reach back into the rows before them, which are all
/// filtered first. The Adler-32 of the whole is libdeflate's.
enum ImageDeflate {
    /// Filtered bytes per segment, at most: enough to amortize a block's
    /// header many times over, small enough to share a picture's work.
    static let segmentBytes = 1 << 19
    /// Tokens per deflate block.
    static let blockTokens = 1 << 15

    /// The zlib stream of `data`, rows of `stride` bytes (filter byte included).
    static func zlibStream(_ data: [UInt8], stride: Int) -> [UInt8] {
        let rows = stride > 0 ? data.count / stride : 0
        // By size alone, rounded up to a multiple of four so that two or
        // four cores finish together.
        let bySize = (data.count + segmentBytes - 1) / segmentBytes
        let segments = max(1, min(rows, bySize > 1 ? (bySize + 3) / 4 * 4 : 1))
        // Each segment's blocks, in a pooled buffer of its largest size, and
        // how many bytes of it were written.
        var parts = [([UInt8], Int)](repeating: ([], 0), count: segments)
        data.withUnsafeBufferPointer { buffer in
            parts.withUnsafeMutableBufferPointer { slots in
                // Each segment writes its own slot.
                nonisolated(unsafe) let (input, out) = (buffer, slots)
                RowBands.forEachJob(count: segments) { s in
                    let first = rows * s / segments * stride, last = s == segments - 1 ? data.count : rows * (s + 1) / segments * stride
                    out[s] = SegmentEncoder(data: input, range: first..<last, stride: stride, isLast: s == segments - 1).encode()
                }
            }
        }
        var stream: [UInt8] = [0x78, 0x01]  // deflate, 32 KB window, fastest
        stream.reserveCapacity(parts.reduce(6) { $0 + $1.1 })
        for (buffer, written) in parts {
            stream += buffer[..<written]
            BufferPool.pixels.giveBack(buffer)
        }
        let adler = data.withUnsafeBytes { UInt32(libdeflate_adler32(1, $0.baseAddress, $0.count)) }
        stream += [UInt8(adler >> 24), UInt8(truncatingIfNeeded: adler >> 16), UInt8(truncatingIfNeeded: adler >> 8), UInt8(truncatingIfNeeded: adler)]
        return stream
    }
}

/// One segment's deflate blocks.
private struct SegmentEncoder {
    let data: UnsafeBufferPointer<UInt8>
    let range: Range<Int>
    let stride: Int
    let isLast: Bool

    init(data: UnsafeBufferPointer<UInt8>, range: Range<Int>, stride: Int, isLast: Bool) {
        (self.data, self.range, self.stride, self.isLast) = (data, range, stride, isLast)
    }

    static let window = 32768
    static let hashBits = 15
    static let minimumMatch = 4
    static let maximumMatch = 258

    /// The segment's blocks, in a buffer from `BufferPool.pixels` (for
    /// the caller to give back), and how many of its bytes they take.
    func encode() -> ([UInt8], Int) {
        let n = range.count
        // A block is never larger than stored: its bytes and at most 16 of
        // headers and padding. Each has a full set of tokens (one a byte at
        // least) but the last, so there are at most n / blockTokens + 1.
        let capacity = n + (n / ImageDeflate.blockTokens + 2) * 16 + 64
        // The tokens and the hash table (positions from the segment's start,
        // -1 for none: 4 bytes an entry keeps it in cache), pooled as bytes.
        var tokens = BufferPool.pixels.take(count: ImageDeflate.blockTokens * 4, zeroed: false)
        var table = BufferPool.pixels.take(count: (1 << Self.hashBits) * 4, zeroed: false)
        var out = BufferPool.pixels.take(count: capacity, zeroed: false)
        let written = out.withUnsafeMutableBufferPointer { out in
            var writer = BitWriter(into: out.baseAddress!, capacity: capacity)
            tokens.withUnsafeMutableBytes { tokens in
                table.withUnsafeMutableBytes { table in
                    table.initializeMemory(as: UInt8.self, repeating: 0xFF)  // -1 everywhere
                    compress(into: &writer, tokens: tokens.bindMemory(to: UInt32.self).baseAddress!,
                             table: table.bindMemory(to: Int32.self).baseAddress!)
                }
            }
            if !isLast {
                // An empty stored block: the segment ends on a byte boundary.
                writer.writeStoredHeader(length: 0, final: false)
            }
            writer.alignToByte()
            return writer.count
        }
        BufferPool.pixels.giveBack(tokens)
        BufferPool.pixels.giveBack(table)
        return (out, written)
    }

    private func compress(into writer: inout BitWriter, tokens: UnsafeMutablePointer<UInt32>, table: UnsafeMutablePointer<Int32>) {
        guard let base = data.baseAddress else { return }
        let frequencies = UnsafeMutablePointer<UInt32>.allocate(capacity: Block.frequencyCount)
        defer { frequencies.deallocate() }
        HuffmanScratch.with { scratch in
            compress(into: &writer, tokens: tokens, table: table, base: base, frequencies: frequencies, scratch: scratch)
        }
    }

    private func compress(into writer: inout BitWriter, tokens: UnsafeMutablePointer<UInt32>, table: UnsafeMutablePointer<Int32>,
                          base: UnsafePointer<UInt8>, frequencies: UnsafeMutablePointer<UInt32>, scratch: HuffmanScratch) {
        let end = range.upperBound
        var block = Block(start: range.lowerBound, frequencies: frequencies)
        var i = range.lowerBound
        // The row above, when a match can reach it.
        let above = stride <= Self.window ? stride : 0
        while i < end {
            var bestLength = 0, bestDistance = 0
            if end - i >= Self.minimumMatch {
                let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt32.self)
                let limit = min(Self.maximumMatch, end - i)
                if i >= 4 {
                    bestLength = matchLength(base, i, i - 4, limit: limit, word: word)
                    bestDistance = 4
                }
                if above > 0, i >= above, bestLength < limit {
                    let length = matchLength(base, i, i - above, limit: limit, word: word)
                    if length > bestLength { (bestLength, bestDistance) = (length, above) }
                }
                let h = Int((word &* 0x9E37_79B1) >> UInt32(32 - Self.hashBits))
                let candidate = range.lowerBound + Int(table[h])
                table[h] = Int32(truncatingIfNeeded: i - range.lowerBound)
                // A long match to the left or above is kept without looking further.
                if bestLength < min(limit, 32), candidate >= range.lowerBound, i - candidate <= Self.window, i > candidate {
                    let length = matchLength(base, i, candidate, limit: limit, word: word)
                    if length > bestLength { (bestLength, bestDistance) = (length, i - candidate) }
                }
            }
            if bestLength >= Self.minimumMatch {
                block.addMatch(length: bestLength, distance: bestDistance, tokens: tokens)
                i += bestLength
            } else {
                block.addLiteral(base[i], tokens: tokens)
                i += 1
            }
            if block.tokenCount == ImageDeflate.blockTokens {
                block.write(into: &writer, tokens: tokens, data: base, end: i, final: false, scratch: scratch)
                block = Block(start: i, frequencies: frequencies)
            }
        }
        block.write(into: &writer, tokens: tokens, data: base, end: end, final: isLast, scratch: scratch)
    }

    /// How many bytes at `i` repeat those at `j` (< i), up to `limit`; 0
    /// when the first four differ.
    @inline(__always)
    private func matchLength(_ base: UnsafePointer<UInt8>, _ i: Int, _ j: Int, limit: Int, word: UInt32) -> Int {
        let raw = UnsafeRawPointer(base)
        guard raw.loadUnaligned(fromByteOffset: j, as: UInt32.self) == word else { return 0 }
        var length = 4
        while length + 8 <= limit {
            let a = raw.loadUnaligned(fromByteOffset: i + length, as: UInt64.self)
            let b = raw.loadUnaligned(fromByteOffset: j + length, as: UInt64.self)
            if a != b { return length + (a ^ b).trailingZeroBitCount / 8 }
            length += 8
        }
        while length < limit, base[i + length] == base[j + length] { length += 1 }
        return length
    }
}

/// The tokens of one deflate block and their symbols' frequencies.
private struct Block {
    /// Where the block's bytes start in the data (a stored block copies them).
    let start: Int
    private(set) var tokenCount = 0
    /// The literal/length symbols' counts (286), then the distances' (30),
    /// while the block fills; while it is written, each symbol's code and
    /// length (`write`), until the next block zeroes them.
    private let frequencies: UnsafeMutablePointer<UInt32>
    /// The matches' extra bits, in all.
    private var extraBits = 0

    static let frequencyCount = 286 + 30

    /// An empty block from `start`, counting in `frequencies` (zeroed here).
    init(start: Int, frequencies: UnsafeMutablePointer<UInt32>) {
        self.start = start
        self.frequencies = frequencies
        frequencies.update(repeating: 0, count: Self.frequencyCount)
    }

    // A token is a literal byte, or a match: bit 31 set, length − 3 in bits
    // 16...23, distance − 1 in bits 0...14.
    @inline(__always)
    mutating func addLiteral(_ byte: UInt8, tokens: UnsafeMutablePointer<UInt32>) {
        tokens[tokenCount] = UInt32(byte)
        tokenCount &+= 1
        frequencies[Int(byte)] &+= 1
    }

    @inline(__always)
    mutating func addMatch(length: Int, distance: Int, tokens: UnsafeMutablePointer<UInt32>) {
        tokens[tokenCount] = 1 << 31 | UInt32(length - 3) << 16 | UInt32(distance - 1)
        tokenCount &+= 1
        let l = Deflate.lengthSymbol(length - 3), d = Deflate.distanceSymbol(distance - 1)
        frequencies[Int(l.symbol)] &+= 1
        frequencies[286 + Int(d.symbol)] &+= 1
        extraBits &+= Int(l.extraBits) &+ Int(d.extraBits)
    }

    /// Writes the block, Huffman-coded or stored, whichever is smaller.
    func write(into writer: inout BitWriter, tokens: UnsafeMutablePointer<UInt32>, data: UnsafePointer<UInt8>, end: Int, final: Bool,
               scratch: HuffmanScratch) {
        frequencies[256] = 1  // the end of the block
        let literalCode = HuffmanCode(count: 286, limit: 15, scratch: scratch) { frequencies[$0] }
        let distanceCode = HuffmanCode(count: 30, limit: 15, scratch: scratch) { frequencies[286 + $0] }
        let header = CodeLengthHeader(literals: literalCode, distances: distanceCode, scratch: scratch)

        var bits = 3 + header.bits + extraBits
        for s in 0..<286 { bits += Int(frequencies[s]) * Int(literalCode.length(of: s)) }
        for s in 0..<30 { bits += Int(frequencies[286 + s]) * Int(distanceCode.length(of: s)) }
        let bytes = end - start
        let storedBits = 3 + 7 + (bytes / 65535 + 1) * 40 + bytes * 8
        if bits >= storedBits {
            writeStored(into: &writer, data: data, end: end, final: final)
            return
        }

        writer.write(final ? 1 : 0, 1)
        writer.write(2, 2)  // dynamic Huffman codes
        header.write(into: &writer)
        // Each symbol's code in the low 16 bits and its length above: one
        // load a symbol, from tables the loop reaches without a closure, so
        // the writer's state stays in registers.
        // (The frequencies' room is free again: the table goes there.)
        let literal = frequencies
        let distance = literal + 286
        for s in 0..<286 { literal[s] = UInt32(literalCode.code(of: s)) | UInt32(literalCode.length(of: s)) << 16 }
        for s in 0..<30 { distance[s] = UInt32(distanceCode.code(of: s)) | UInt32(distanceCode.length(of: s)) << 16 }
        var w = writer
        for t in 0..<tokenCount {
            let token = tokens[t]
            if token & (1 << 31) == 0 {
                let c = literal[Int(token)]
                w.write(c & 0xFFFF, Int(c >> 16))
            } else {
                let l = Deflate.lengthSymbol(Int(token >> 16 & 0xFF))
                let c = literal[Int(l.symbol)]
                w.write(c & 0xFFFF | l.extra << (c >> 16), Int(c >> 16) + Int(l.extraBits))
                let d = Deflate.distanceSymbol(Int(token & 0x7FFF))
                let e = distance[Int(d.symbol)]
                w.write(e & 0xFFFF | d.extra << (e >> 16), Int(e >> 16) + Int(d.extraBits))
            }
        }
        let end = literal[256]
        w.write(end & 0xFFFF, Int(end >> 16))
        writer = w
    }

    private func writeStored(into writer: inout BitWriter, data: UnsafePointer<UInt8>, end: Int, final: Bool) {
        var at = start
        repeat {
            let n = min(65535, end - at)
            writer.writeStoredHeader(length: n, final: final && at + n == end)
            writer.writeBytes(data + at, count: n)
            at += n
        } while at < end
    }
}

/// The code lengths of a dynamic block's two codes, as its header writes
/// them: run-length coded with symbols 16 (repeat the last), 17 and 18
/// (runs of zeros), themselves Huffman-coded (RFC 1951, 3.2.7).
private struct CodeLengthHeader {
    private let literalCount: Int, distanceCount: Int
    /// Symbols 0...18 with their extra bits' value, `symbolCount` of them
    /// (at most one per code length).
    private let symbols: InlineArray<316, (symbol: UInt8, extra: UInt8)>
    private let symbolCount: Int
    private let code: HuffmanCode
    private let codeCount: Int
    /// Bits the header takes.
    let bits: Int

    static let order: InlineArray<19, Int> = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    init(literals: HuffmanCode, distances: HuffmanCode, scratch: HuffmanScratch) {
        var literalCount = 286, distanceCount = 30
        while literalCount > 257 && literals.length(of: literalCount - 1) == 0 { literalCount -= 1 }
        while distanceCount > 1 && distances.length(of: distanceCount - 1) == 0 { distanceCount -= 1 }
        (self.literalCount, self.distanceCount) = (literalCount, distanceCount)
        // The literals' lengths, then the distances', as one run.
        let total = literalCount + distanceCount
        var lengths = InlineArray<316, UInt8>(repeating: 0)
        for s in 0..<literalCount { lengths[s] = literals.length(of: s) }
        for s in 0..<distanceCount { lengths[literalCount + s] = distances.length(of: s) }
        var symbols = InlineArray<316, (symbol: UInt8, extra: UInt8)>(repeating: (0, 0))
        var symbolCount = 0
        func add(_ symbol: UInt8, _ extra: UInt8) {
            symbols[symbolCount] = (symbol, extra)
            symbolCount += 1
        }
        var i = 0
        while i < total {
            let l = lengths[i]
            var run = 1
            while i + run < total, lengths[i + run] == l { run += 1 }
            if l == 0 && run >= 3 {
                let n = min(run, 138)
                if n >= 11 { add(18, UInt8(n - 11)) } else { add(17, UInt8(n - 3)) }
                i += n
            } else if l != 0 && run >= 4 {
                add(l, 0)
                let n = min(run - 1, 6)
                add(16, UInt8(n - 3))
                i += 1 + n
            } else {
                add(l, 0)
                i += 1
            }
        }
        var frequencies = InlineArray<19, UInt32>(repeating: 0)
        for k in 0..<symbolCount { frequencies[Int(symbols[k].symbol)] += 1 }
        let code = HuffmanCode(count: 19, limit: 7, scratch: scratch) { frequencies[$0] }
        var codeCount = 19
        while codeCount > 4 && code.length(of: Self.order[codeCount - 1]) == 0 { codeCount -= 1 }
        var bits = 5 + 5 + 4 + 3 * codeCount
        for k in 0..<symbolCount { bits += Int(code.length(of: Int(symbols[k].symbol))) + Self.extraBits(symbols[k].symbol) }
        (self.symbols, self.symbolCount) = (symbols, symbolCount)
        (self.code, self.codeCount) = (code, codeCount)
        self.bits = bits
    }

    func write(into writer: inout BitWriter) {
        writer.write(UInt32(literalCount - 257), 5)
        writer.write(UInt32(distanceCount - 1), 5)
        writer.write(UInt32(codeCount - 4), 4)
        for k in 0..<codeCount { writer.write(UInt32(code.length(of: Self.order[k])), 3) }
        for k in 0..<symbolCount {
            let s = symbols[k]
            writer.write(UInt32(code.code(of: Int(s.symbol))), Int(code.length(of: Int(s.symbol))))
            writer.write(UInt32(s.extra), Self.extraBits(s.symbol))
        }
    }

    /// The extra bits after a code length symbol: 2, 3 and 7 after 16, 17 and 18.
    private static func extraBits(_ symbol: UInt8) -> Int {
        switch symbol {
        case 16: 2
        case 17: 3
        case 18: 7
        default: 0
        }
    }
}

/// Deflate's length and distance symbols (RFC 1951, 3.2.5), computed from
/// the value's bits rather than looked up.
enum Deflate {
    /// The symbol (257...285) for a match length of `x` + 3, its extra
    /// bits and their value.
    @inline(__always)
    static func lengthSymbol(_ x: Int) -> (symbol: UInt16, extraBits: UInt8, extra: UInt32) {
        if x < 8 { return (UInt16(257 + x), 0, 0) }
        if x == 255 { return (285, 0, 0) }
        let k = Int.bitWidth - 1 - x.leadingZeroBitCount  // 3...7
        return (UInt16(257 + 4 * (k - 1) + (x >> (k - 2)) & 3), UInt8(k - 2), UInt32(x & ((1 << (k - 2)) - 1)))
    }

    /// The symbol (0...29) for a distance of `x` + 1, its extra bits and their value.
    @inline(__always)
    static func distanceSymbol(_ x: Int) -> (symbol: UInt16, extraBits: UInt8, extra: UInt32) {
        if x < 4 { return (UInt16(x), 0, 0) }
        let k = Int.bitWidth - 1 - x.leadingZeroBitCount  // 2...14
        return (UInt16(2 * k + (x >> (k - 1)) & 1), UInt8(k - 1), UInt32(x & ((1 << (k - 1)) - 1)))
    }
}
