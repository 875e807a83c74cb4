import Testing
import LaminaIO

/// FIPS 180-4's examples and the block boundaries where padding changes.
@Suite struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func knownDigests(message: String, hex: String) {
        #expect(SHA256.hash(Array(message.utf8)).hex == hex)
    }

    @Test func aMillionAs() {
        var hash = SHA256()
        for _ in 0..<1000 { hash.update([UInt8](repeating: UInt8(ascii: "a"), count: 1000)) }
        #expect(hash.finalize().hex == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Lengths around 55, 56 and 64 bytes, where the length no longer fits
    /// the last block: hashing in pieces gives the same digest as in one go.
    @Test func piecesAndPaddingBoundaries() {
        for length in [55, 56, 57, 63, 64, 65, 119, 120, 128] {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            var pieces = SHA256()
            pieces.update(bytes.prefix(length / 3))
            pieces.update(bytes.dropFirst(length / 3))
            #expect(pieces.finalize() == SHA256.hash(bytes))
        }
    }

    /// Contiguous bytes (hashed where they lie, a block at a time) and a
    /// sequence read byte by byte give the same digest, in pieces of every
    /// size around a block.
    @Test func contiguousAndByteByByteAgree() {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 3) }
        for piece in [1, 3, 63, 64, 65, 200] {
            var contiguous = SHA256(), sequence = SHA256()
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + piece)
                contiguous.update(bytes[start..<end])
                sequence.update(bytes[start..<end].lazy.map { $0 })
                start = end
            }
            let expected = SHA256.hash(bytes)
            #expect(contiguous.finalize() == expected, "pieces of \(piece)")
            #expect(sequence.finalize() == expected, "pieces of \(piece), byte by byte")
        }
    }

    /// The processor's SHA instructions and the rounds written in Swift
    /// give the same digests, for messages of every length around the
    /// blocks and hashed in pieces (skipped where the processor has none).
    @Test(.enabled(if: SHA256.hardwareAvailable, "this processor has no SHA instructions"))
    func hardwareAndSoftwareAgree() {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        let bytes = (0..<5000).map { _ -> UInt8 in
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: seed >> 56)
        }
        for length in Array(0..<200) + [255, 256, 257, 1000, 4095, 5000] {
            var hardware = SHA256(hardware: true), software = SHA256(hardware: false)
            hardware.update(bytes[..<length])
            software.update(bytes[..<length])
            #expect(hardware.finalize() == software.finalize(), "\(length) bytes")
        }
        var pieces = SHA256(hardware: true)
        for start in stride(from: 0, to: 5000, by: 333) { pieces.update(bytes[start..<min(5000, start + 333)]) }
        #expect(pieces.finalize() == { var s = SHA256(hardware: false); s.update(bytes); return s.finalize() }())
    }

    @Test func fieldsAreSeparated() {
        var a = SHA256(), b = SHA256()
        a.update(field: "ab"); a.update(field: "c")
        b.update(field: "a"); b.update(field: "bc")
        #expect(a.finalize() != b.finalize())
    }
}
