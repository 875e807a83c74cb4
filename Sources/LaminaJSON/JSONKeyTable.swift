import Foundation

/// A fixed table from names to values, looked up by the bytes of a JSON
/// string as they lie in its document: no string is made and no general
/// hasher runs, which matters for keys read once per layer member.
///
/// ```swift
/// let operations = JSONKeyTable([("translate", 0), ("scale", 1)])
/// operations[member]   // 1 for the key "scale"
/// ```
package struct JSONKeyTable<Value>: @unchecked Sendable {
    /// Every name's bytes, one after another.
    private let nameBytes: [UInt8]
    /// Each entry's name: its first byte in `nameBytes` and its length.
    private let nameRanges: [(start: Int, count: Int)]
    private let values: [Value]
    /// Open addressing: each slot holds an entry's number plus one, or 0.
    private let slots: [Int32]
    private let mask: Int

    /// A table of `pairs`; the first of two equal names wins.
    package init(_ pairs: [(String, Value)]) {
        var nameBytes: [UInt8] = []
        var nameRanges: [(start: Int, count: Int)] = []
        var values: [Value] = []
        var size = 8
        while size < pairs.count * 2 { size *= 2 }
        var slots = [Int32](repeating: 0, count: size)
        for (name, value) in pairs {
            let bytes = Array(name.utf8)
            var slot = bytes.withUnsafeBufferPointer(Self.hash) & (size - 1)
            var taken = false
            while slots[slot] != 0 {
                let other = nameRanges[Int(slots[slot]) - 1]
                if nameBytes[other.start..<(other.start + other.count)].elementsEqual(bytes) { taken = true; break }
                slot = (slot + 1) & (size - 1)
            }
            guard !taken else { continue }
            nameRanges.append((nameBytes.count, bytes.count))
            nameBytes += bytes
            values.append(value)
            slots[slot] = Int32(values.count)
        }
        self.nameBytes = nameBytes
        self.nameRanges = nameRanges
        self.values = values
        self.slots = slots
        self.mask = size - 1
    }

    /// The value for the name spelled by `bytes`.
    package subscript(bytes: UnsafeBufferPointer<UInt8>) -> Value? {
        var slot = Self.hash(bytes) & mask
        return nameBytes.withUnsafeBufferPointer { names in
            while true {
                let entry = Int(slots[slot])
                guard entry != 0 else { return nil }
                let name = nameRanges[entry - 1]
                if name.count == bytes.count,
                   Self.equal(UnsafeRawPointer(names.baseAddress! + name.start), UnsafeRawPointer(bytes.baseAddress), name.count) {
                    return values[entry - 1]
                }
                slot = (slot + 1) & mask
            }
        }
    }

    /// Whether `count` bytes at `a` and `b` are equal. Names of 8 to 16
    /// bytes, most keys, are two overlapping words each.
    @inline(__always)
    private static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer?, _ count: Int) -> Bool {
        guard count > 0, let b else { return true }
        if count >= 8 && count <= 16 {
            return a.loadUnaligned(as: UInt64.self) == b.loadUnaligned(as: UInt64.self)
                && a.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                    == b.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        }
        return memcmp(a, b, count) == 0
    }

    /// The value for a member's key.
    package subscript(member: JSONMember) -> Value? {
        member.document.withStringBytes(at: member.keyIndex) { self[$0] }
    }

    /// The value for a string value's text; nil for a value that is not a string.
    package subscript(value: JSONValue) -> Value? {
        value.withStringBytes { self[$0] } ?? nil
    }

    /// A name's length with its first and last eight bytes (which cover
    /// names up to 16 bytes, most keys), mixed by one multiplication;
    /// FNV-1a over the bytes of shorter names.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let count = bytes.count
        var h: UInt64
        if count >= 8, let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            let first = raw.loadUnaligned(as: UInt64.self)
            let last = raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            h = (first ^ (last << 32 | last >> 32) ^ UInt64(count)) &* 0x9E37_79B9_7F4A_7C15
        } else {
            h = 0xCBF2_9CE4_8422_2325
            for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 }
        }
        return Int(truncatingIfNeeded: h ^ (h >> 29))
    }
}
