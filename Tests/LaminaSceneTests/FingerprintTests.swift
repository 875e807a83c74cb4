import Foundation
import Testing
import LaminaIO
@testable import LaminaScene
import LaminaJSON

/// The fingerprint names a scene's meaning: a render server's ETag and cache
/// key. Spelling must not change it; any change of value must.
@Suite struct FingerprintTests {
    private func fingerprint(_ text: String) throws -> String {
        try SceneDecoder().decodeWithFingerprint(Array(text.utf8)).fingerprint.hex
    }

    @Test func spellingDoesNotChangeIt() throws {
        let a = try fingerprint(#"{"width": 10, "height": 20, "sublayers": [{"bounds": [0, 0, 4, 4], "opacity": 0.5}]}"#)
        let b = try fingerprint("{\"sublayers\":[{\"opacity\":5e-1,\"bounds\":[0,0.0,4,4]}],\n  \"height\":20,\"width\":1.0e1}")
        let c = try fingerprint(#"{"width": 10, "height": 20, "sublayers": [{"bounds": [0, -0, 4, 4], "opacity": 0.5}]}"#)
        #expect(a == b)
        #expect(a == c)
        // A string written with escapes is the same string.
        #expect(try fingerprint(#"{"width": 10, "height": 20, "name": "\u0041b"}"#)
            == fingerprint(#"{"width": 10, "height": 20, "name": "Ab"}"#))
    }

    @Test func valuesChangeIt() throws {
        let base = try fingerprint(#"{"width": 10, "height": 20, "sublayers": [{"opacity": 0.5}]}"#)
        for changed in [
            #"{"width": 10, "height": 21, "sublayers": [{"opacity": 0.5}]}"#,
            #"{"width": 10, "height": 20, "sublayers": [{"opacity": 0.25}]}"#,
            #"{"width": 10, "height": 20, "sublayers": [{"opacity": 0.5}, {}]}"#,
            #"{"width": 10, "height": 20, "sublayers": [{"opacity": 0.5, "hidden": false}]}"#,
            #"{"width": 10, "height": 20, "sublayers": [{"opacity": 0.5}], "name": ""}"#,
        ] {
            #expect(try fingerprint(changed) != base, "\(changed)")
        }
    }

    /// An array's bounds are part of the encoding: moving a value from one
    /// array to the next changes the digest.
    @Test func nestingChangesIt() throws {
        #expect(try fingerprint(#"{"width": 1, "height": 1, "name": "ab", "sublayers": [{"name": "c"}, {}]}"#)
            != fingerprint(#"{"width": 1, "height": 1, "name": "a", "sublayers": [{"name": "bc"}, {}]}"#))
    }

    /// The fingerprint is the SHA-256 of the canonical form its comment
    /// defines, here written value by value through `JSONValue` and hashed
    /// in pieces: the fast writer gives the same digest, for the bench
    /// scenes and for escaped, unicode, empty and nested values. (So an
    /// ETag does not change with the way it is computed.)
    @Test func isTheDigestOfTheCanonicalForm() throws {
        var texts = [
            #"{"a": [], "b": {}, "c": "", "d": null, "e": true, "f": false, "g": -0, "h": [[1, [2]], {"z": 1, "y": {"x": "\u00e9\n"}}]}"#,
            #"{"ba": 1, "b": 2, "a\u0000": 3, "\u00e9": 4, "ab": 5, "": 6}"#,
        ]
        for name in ["card-1200x630", "tiles-1000-layers", "shapes-200-stars"] {
            let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../../shared/bench/\(name).json").standardizedFileURL
            if let data = try? Data(contentsOf: url) { texts.append(String(decoding: data, as: UTF8.self)) }
        }
        for text in texts {
            let value = try JSONParser.parse(Array(text.utf8))
            var hash = SHA256()
            Self.addCanonical(value, to: &hash)
            #expect(JSONFingerprint.digest(of: value) == hash.finalize(), "\(text.prefix(60))")
        }
    }

    private static func addCanonical(_ value: JSONValue, to hash: inout SHA256) {
        func count(_ n: Int) { hash.update((0..<8).map { UInt8(truncatingIfNeeded: UInt64(n) >> ($0 * 8)) }) }
        func string(_ s: String) {
            hash.update(CollectionOfOne(UInt8(ascii: "\"")))
            count(s.utf8.count)
            hash.update(s.utf8)
        }
        switch value.kind {
        case .null: hash.update(CollectionOfOne(UInt8(ascii: "n")))
        case .bool(let b): hash.update(CollectionOfOne(UInt8(ascii: b ? "t" : "f")))
        case .number(let n):
            let bits = (n == 0 ? 0 : n).bitPattern
            hash.update(CollectionOfOne(UInt8(ascii: "#")))
            hash.update((0..<8).map { UInt8(truncatingIfNeeded: bits >> ($0 * 8)) })
        case .string(let s): string(s)
        case .array(let elements):
            hash.update(CollectionOfOne(UInt8(ascii: "[")))
            count(elements.count)
            for element in elements { addCanonical(element, to: &hash) }
        case .object(let object):
            hash.update(CollectionOfOne(UInt8(ascii: "{")))
            count(object.count)
            for member in object.members.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
                string(member.key)
                addCanonical(member.value, to: &hash)
            }
        }
    }
}
