import Testing
import LaminaIO

/// RFC 4231's test cases for HMAC-SHA256, and the encodings of a code.
@Suite struct HMACTests {
    private static func bytes(hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            out.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return out
    }

    @Test(arguments: [
        // Case 1: a 20-byte key.
        ([UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8),
         "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        // Case 2: a key shorter than the code.
        (Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
         "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        // Case 3: 50 bytes of 0xdd under 20 bytes of 0xaa.
        ([UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
         "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        // Case 6: a key longer than a block, hashed first.
        ([UInt8](repeating: 0xaa, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
         "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
    ])
    func rfc4231(key: [UInt8], message: [UInt8], hex: String) {
        let code = HMACSHA256.code(for: message, key: key)
        #expect(code == Self.bytes(hex: hex))
        #expect(code.lowercaseHex == hex)
    }

    @Test func base64URLIsUnpaddedAndURLSafe() {
        #expect(HMACSHA256.base64URL([]) == "")
        #expect(HMACSHA256.base64URL(Array("f".utf8)) == "Zg")
        #expect(HMACSHA256.base64URL(Array("fo".utf8)) == "Zm8")
        #expect(HMACSHA256.base64URL(Array("foo".utf8)) == "Zm9v")
        #expect(HMACSHA256.base64URL([0xfb, 0xff, 0xfe]) == "-__-")
        #expect(HMACSHA256.base64URL([UInt8](repeating: 0, count: 32)).count == 43)
    }

    @Test func constantTimeEquality() {
        #expect(HMACSHA256.constantTimeEqual([1, 2, 3], [1, 2, 3]))
        #expect(!HMACSHA256.constantTimeEqual([1, 2, 3], [1, 2, 4]))
        #expect(!HMACSHA256.constantTimeEqual([1, 2, 3], [1, 2]))
    }
}
