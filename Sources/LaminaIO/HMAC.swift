/// HMAC-SHA256 (RFC 2104 over FIPS 180-4): what signs the render server's
/// links (`/t/...?sig=`) and its webhook deliveries (`Lamina-Signature`).
///
/// ```swift
/// let code = HMACSHA256.code(for: Array("/t/card.png?title=Hi".utf8), key: Array("secret".utf8))
/// HMACSHA256.base64URL(code)  // 43 characters, unpadded
/// ```
package enum HMACSHA256 {
    private static let blockSize = 64

    /// The 32-byte authentication code of `message` under `key` (a key
    /// longer than a block is hashed first, as RFC 2104 says).
    package static func code(for message: some Sequence<UInt8>, key: [UInt8]) -> [UInt8] {
        var block = key.count > blockSize ? SHA256.hash(key).bytes : key
        block += [UInt8](repeating: 0, count: blockSize - block.count)
        var inner = SHA256()
        inner.update(block.map { $0 ^ 0x36 })
        inner.update(message)
        var outer = SHA256()
        outer.update(block.map { $0 ^ 0x5c })
        outer.update(inner.finalize().bytes)
        return outer.finalize().bytes
    }

    /// Whether two codes are equal, in a time that does not depend on
    /// where they first differ (a signature check must not tell a stranger
    /// how many of its first bytes were right).
    package static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        return difference == 0
    }

    /// base64url without padding (RFC 4648 §5): how a code travels in a URL.
    package static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var chunk = UInt32(bytes[index]) << 16
            if count > 1 { chunk |= UInt32(bytes[index + 1]) << 8 }
            if count > 2 { chunk |= UInt32(bytes[index + 2]) }
            for position in 0...count {
                out.append(alphabet[Int((chunk >> (18 - 6 * UInt32(position))) & 63)])
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
