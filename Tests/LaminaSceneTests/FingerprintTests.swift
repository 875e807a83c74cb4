import Foundation
import Testing
@testable import LaminaScene

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
}
