import LaminaIO

/// A digest of a JSON document's meaning, not its spelling: whitespace, the
/// order of an object's keys, escapes and the way a number is written
/// (`1`, `1.0`, `1e0`) do not change it. Two scene documents with the same
/// fingerprint decode to the same scene, so a render server can name a
/// picture by it (its ETag and cache key).
enum JSONFingerprint {
    static func digest(of value: JSONValue) -> SHA256.Digest {
        var hash = SHA256()
        add(value, to: &hash)
        return hash.finalize()
    }

    /// Each value as a type tag and its content; strings, arrays and objects
    /// carry their length first, so no two documents share an encoding.
    private static func add(_ value: JSONValue, to hash: inout SHA256) {
        switch value.kind {
        case .null: hash.update(CollectionOfOne(UInt8(ascii: "n")))
        case .bool(let b): hash.update(CollectionOfOne(UInt8(ascii: b ? "t" : "f")))
        case .number(let n):
            // -0 and 0 are the same number to the scene format.
            let bits = (n == 0 ? 0 : n).bitPattern
            hash.update(CollectionOfOne(UInt8(ascii: "#")))
            hash.update((0..<8).map { UInt8(truncatingIfNeeded: bits >> ($0 * 8)) })
        case .string(let s):
            addString(s, to: &hash)
        case .array(let elements):
            hash.update(CollectionOfOne(UInt8(ascii: "[")))
            addCount(elements.count, to: &hash)
            for element in elements { add(element, to: &hash) }
        case .object(let object):
            hash.update(CollectionOfOne(UInt8(ascii: "{")))
            addCount(object.count, to: &hash)
            for member in object.members.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
                addString(member.key, to: &hash)
                add(member.value, to: &hash)
            }
        }
    }

    private static func addString(_ s: String, to hash: inout SHA256) {
        hash.update(CollectionOfOne(UInt8(ascii: "\"")))
        addCount(s.utf8.count, to: &hash)
        hash.update(s.utf8)
    }

    private static func addCount(_ count: Int, to hash: inout SHA256) {
        hash.update((0..<8).map { UInt8(truncatingIfNeeded: UInt64(count) >> ($0 * 8)) })
    }
}
