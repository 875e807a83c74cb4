import Foundation

/// A fixed table from names to values, looked up by the bytes of a JSON
/// string as they lie in its document: no string is made and no general
/// hasher runs, which matters for keys read once per layer member.
///
/// ```swift
/// let operations = JSONKeyTable([("translate", 0), ("scale", 1)])
/// operations[member]   // 1 for the key "scale"
/// ```
struct JSONKeyTable<Value>: @unchecked Sendable {
    /// Every name's bytes, one after another.
    private let nameBytes: [UInt8]
    /// Each entry's name: its first byte in `nameBytes` and its length.
    private let nameRanges: [(start: Int, count: Int)]
    private let values: [Value]
    /// Open addressing: each slot holds an entry's number plus one, or 0.
    private let slots: [Int32]
    private let mask: Int

    /// A table of `pairs`; the first of two equal names wins.
    init(_ pairs: [(String, Value)]) {
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
    subscript(bytes: UnsafeBufferPointer<UInt8>) -> Value? {
        var slot = Self.hash(bytes) & mask
        return nameBytes.withUnsafeBufferPointer { names in
            while true {
                let entry = Int(slots[slot])
                guard entry != 0 else { return nil }
                let name = nameRanges[entry - 1]
                if name.count == bytes.count,
                   bytes.isEmpty || memcmp(names.baseAddress! + name.start, bytes.baseAddress!, name.count) == 0 {
                    return values[entry - 1]
                }
                slot = (slot + 1) & mask
            }
        }
    }

    /// The value for a member's key.
    subscript(member: JSONMember) -> Value? {
        member.document.withStringBytes(at: member.keyIndex) { self[$0] }
    }

    /// The value for a string value's text; nil for a value that is not a string.
    subscript(value: JSONValue) -> Value? {
        value.withStringBytes { self[$0] } ?? nil
    }

    /// FNV-1a: a few instructions a byte, and names here are short.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 }
        return Int(truncatingIfNeeded: h ^ (h >> 29))
    }
}
