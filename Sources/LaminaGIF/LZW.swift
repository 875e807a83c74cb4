/// GIF's variable-length LZW (GIF89a, appendix F), both ways: codes from
/// `minimumCodeSize + 1` bits up to 12, least significant bit first, a clear
/// code when the table is full, packed into sub-blocks of at most 255 bytes.
enum LZW {
    /// `indices` (each below `1 << minimumCodeSize`) compressed, as the
    /// sub-blocks that follow an image's code size byte, terminator included.
    static func compress(_ indices: [UInt8], minimumCodeSize: Int) -> [UInt8] {
        var out = BitWriter()
        let clear = 1 << minimumCodeSize, end = clear + 1
        let initialBits = minimumCodeSize + 1
        var bits = initialBits, maxCode = (1 << bits) - 1
        var next = clear + 2
        // Open addressing on (pixel, prefix): 8,192 slots for at most 4,096 codes.
        var keys = [Int32](repeating: -1, count: 8192)
        var codes = [UInt16](repeating: 0, count: 8192)
        var clearing = false

        func emit(_ code: Int) {
            out.write(code, bits: bits)
            if clearing {
                bits = initialBits; maxCode = (1 << bits) - 1; clearing = false
            } else if next > maxCode, bits < 12 {
                bits += 1
                maxCode = bits == 12 ? 4096 : (1 << bits) - 1
            }
        }

        emit(clear)
        guard var prefix = indices.first.map(Int.init) else {
            emit(end)
            return out.subBlocks()
        }
        for k in 1..<indices.count {
            let pixel = Int(indices[k])
            let key = Int32(pixel << 12 | prefix)
            var slot = ((pixel << 5) ^ prefix) & 8191
            var found = false
            while keys[slot] != -1 {
                if keys[slot] == key { prefix = Int(codes[slot]); found = true; break }
                slot = (slot + 1) & 8191
            }
            if found { continue }
            emit(prefix)
            prefix = pixel
            if next < 4096 {
                keys[slot] = key; codes[slot] = UInt16(next); next += 1
            } else {
                for s in keys.indices { keys[s] = -1 }
                next = clear + 2
                clearing = true
                emit(clear)
            }
        }
        emit(prefix)
        emit(end)
        return out.subBlocks()
    }
}

extension LZW {
    /// `data` (sub-blocks already joined) decoded into exactly `count`
    /// indices: a short image is padded with index 0, as browsers draw it;
    /// codes past the image are not read.
    static func decompress(_ data: [UInt8], minimumCodeSize: Int, count: Int) throws(GIFError) -> [UInt8] {
        let clear = 1 << minimumCodeSize, end = clear + 1
        var out = [UInt8](repeating: 0, count: count)
        var written = 0
        // Each code's string: its prefix code and last byte, its first byte and length.
        var prefix = [Int](repeating: -1, count: 4096), suffix = [UInt8](repeating: 0, count: 4096)
        var first = [UInt8](repeating: 0, count: 4096), length = [Int](repeating: 1, count: 4096)
        for c in 0..<clear { suffix[c] = UInt8(truncatingIfNeeded: c); first[c] = suffix[c] }
        var next = clear + 2, bits = minimumCodeSize + 1
        var previous = -1
        var buffer = 0, held = 0, at = 0

        /// Writes `code`'s string after what is written, cut at `count`.
        func emit(_ code: Int) {
            let n = length[code]
            var position = written + n - 1, c = code
            while c >= 0 {
                if position < count { out[position] = suffix[c] }
                c = prefix[c]
                position -= 1
            }
            written = min(count, written + n)
        }

        while written < count {
            while held < bits, at < data.count { buffer |= Int(data[at]) << held; held += 8; at += 1 }
            if held < bits { break }
            let code = buffer & ((1 << bits) - 1)
            buffer >>= bits; held -= bits
            if code == clear {
                next = clear + 2; bits = minimumCodeSize + 1; previous = -1
                continue
            }
            if code == end { break }
            guard previous >= 0 else {
                guard code < clear else { throw GIFError("an LZW code (\(code)) before any was defined") }
                emit(code)
                previous = code
                continue
            }
            guard code <= next, code != clear, code != end else {
                throw GIFError("an LZW code (\(code)) that was never defined")
            }
            if next < 4096 {
                // The new string: the previous one and the first byte of this one
                // (of the previous one, when this code is the one being defined).
                prefix[next] = previous
                suffix[next] = code == next ? first[previous] : first[code]
                first[next] = first[previous]
                length[next] = length[previous] + 1
                next += 1
            } else if code == next {
                throw GIFError("an LZW code (\(code)) past a full table")
            }
            emit(code)
            if next == 1 << bits, bits < 12 { bits += 1 }
            previous = code
        }
        return out
    }
}

/// Bits packed least significant first.
private struct BitWriter {
    var bytes: [UInt8] = []
    var buffer = 0, count = 0

    mutating func write(_ code: Int, bits: Int) {
        buffer |= code << count
        count += bits
        while count >= 8 {
            bytes.append(UInt8(buffer & 0xFF))
            buffer >>= 8; count -= 8
        }
    }

    /// The bytes (the last partial byte included) as sub-blocks, then the
    /// zero-length terminator.
    mutating func subBlocks() -> [UInt8] {
        if count > 0 { bytes.append(UInt8(buffer & 0xFF)); buffer = 0; count = 0 }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 255 + 2)
        var start = 0
        while start < bytes.count {
            let n = min(255, bytes.count - start)
            out.append(UInt8(n))
            out.append(contentsOf: bytes[start..<start + n])
            start += n
        }
        out.append(0)
        return out
    }
}
