import Foundation
import LaminaIO

/// A digest of a JSON document's meaning, not its spelling: whitespace, the
/// order of an object's keys, escapes and the way a number is written
/// (`1`, `1.0`, `1e0`) do not change it. Two scene documents with the same
/// fingerprint decode to the same scene, so a render server can name a
/// picture by it (its ETag and cache key).
///
/// The document is written out in a canonical binary form, then hashed in
/// one go: each value as a type tag and its content; strings, arrays and
/// objects carry their length first (8 bytes, little-endian), so no two
/// documents share an encoding; an object's members go in the order of
/// their keys' UTF-8 bytes; a number is its 8 bytes (-0 written as 0).
package enum JSONFingerprint {
    package static func digest(of value: JSONValue) -> SHA256.Digest {
        var writer = Writer(document: value.document)
        writer.bytes.reserveCapacity(value.document.text.count + 256)
        writer.append(value.index)
        return SHA256.hash(writer.bytes)
    }

    private struct Writer {
        let document: JSONDocument
        var bytes: [UInt8] = []
        /// Keys of the objects being written, sorted in place, innermost last.
        var keys: [Int] = []

        init(document: JSONDocument) { self.document = document }

        mutating func append(_ index: Int) {
            let node = document.nodes[index]
            switch node.tag {
            case .null: bytes.append(UInt8(ascii: "n"))
            case .false: bytes.append(UInt8(ascii: "f"))
            case .true: bytes.append(UInt8(ascii: "t"))
            case .number:
                // -0 and 0 are the same number to the scene format.
                let n = Double(bitPattern: node.payload)
                bytes.append(UInt8(ascii: "#"))
                appendLittleEndian((n == 0 ? 0 : n).bitPattern)
            case .string:
                appendString(index)
            case .array:
                bytes.append(UInt8(ascii: "["))
                appendLittleEndian(UInt64(node.count))
                for k in node.start..<(node.start + node.count) { append(Int(document.children[k])) }
            case .object:
                bytes.append(UInt8(ascii: "{"))
                appendLittleEndian(UInt64(node.count))
                let first = keys.count
                for k in node.start..<(node.start + node.count) { keys.append(Int(document.children[k])) }
                let document = document
                keys[first...].sort { a, b in
                    document.withStringBytes(at: a) { x in document.withStringBytes(at: b) { y in x.lexicographicallyPrecedes(y) } }
                }
                for k in first..<(first + node.count) {
                    let key = keys[k]
                    appendString(key)
                    append(key + 1)
                }
                keys.removeLast(node.count)
            }
        }

        private mutating func appendString(_ index: Int) {
            bytes.append(UInt8(ascii: "\""))
            let node = document.nodes[index]
            appendLittleEndian(UInt64(node.count))
            let document = document
            document.withStringBytes(at: index) { bytes.append(contentsOf: $0) }
        }

        private mutating func appendLittleEndian(_ v: UInt64) {
            withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
        }
    }
}
