/// SHA-256 (FIPS 180-4), for naming content: the render server's ETags and
/// cache keys are digests of what a picture depends on.
///
/// ```swift
/// var hash = SHA256()
/// hash.update(Array("abc".utf8))
/// hash.finalize().hex  // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
/// ```
public struct SHA256: Sendable {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19)
    /// Bytes not yet making a whole 64-byte block.
    private var pending: [UInt8] = []
    private var byteCount: UInt64 = 0

    /// A hash of nothing yet: feed it with `update`.
    public init() {
        pending.reserveCapacity(64)
    }

    /// Adds bytes to the message. Contiguous bytes (an array, a buffer)
    /// are hashed 64 at a time where they lie; other sequences byte by byte.
    public mutating func update(_ bytes: some Sequence<UInt8>) {
        if bytes.withContiguousStorageIfAvailable({ update(contiguous: UnsafeRawBufferPointer($0)) }) != nil { return }
        for byte in bytes {
            pending.append(byte)
            byteCount &+= 1
            if pending.count == 64 {
                pending.withUnsafeBytes { compress($0.baseAddress!) }
                pending.removeAll(keepingCapacity: true)
            }
        }
    }

    private mutating func update(contiguous bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        byteCount &+= UInt64(bytes.count)
        var offset = 0
        if !pending.isEmpty {
            let taken = min(64 - pending.count, bytes.count)
            pending.append(contentsOf: UnsafeRawBufferPointer(start: base, count: taken))
            offset = taken
            guard pending.count == 64 else { return }
            pending.withUnsafeBytes { compress($0.baseAddress!) }
            pending.removeAll(keepingCapacity: true)
        }
        while bytes.count - offset >= 64 {
            compress(base + offset)
            offset += 64
        }
        pending.append(contentsOf: UnsafeRawBufferPointer(start: base + offset, count: bytes.count - offset))
    }

    /// Adds a string's UTF-8 bytes, then a 0 byte so that ("ab", "c") and
    /// ("a", "bc") hash differently.
    public mutating func update(field: String) {
        update(field.utf8)
        update(CollectionOfOne(0))
    }

    /// The digest of everything added (the hash is spent).
    public consuming func finalize() -> Digest {
        let bitCount = byteCount &* 8
        update(CollectionOfOne(0x80))
        while pending.count != 56 { update(CollectionOfOne(0)) }
        update((0..<8).reversed().map { UInt8(truncatingIfNeeded: bitCount >> ($0 * 8)) })
        let words = [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7]
        return Digest(bytes: words.flatMap { word in (0..<4).reversed().map { UInt8(truncatingIfNeeded: word >> ($0 * 8)) } })
    }

    /// The 32 bytes of a SHA-256 digest.
    public struct Digest: Sendable, Hashable, CustomStringConvertible {
        /// The 32 bytes of the digest.
        public let bytes: [UInt8]
        /// Lowercase hexadecimal, 64 characters.
        public var hex: String {
            let digits = Array("0123456789abcdef".utf8)
            return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
        }
        /// The digest in lowercase hexadecimal.
        public var description: String { hex }
    }

    /// The digest of `bytes`.
    public static func hash(_ bytes: some Sequence<UInt8>) -> Digest {
        var hash = SHA256()
        hash.update(bytes)
        return hash.finalize()
    }

    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// One 64-byte block at `block`; the message schedule lives on the stack.
    private mutating func compress(_ block: UnsafeRawPointer) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { compress(block, schedule: $0) }
    }

    private mutating func compress(_ block: UnsafeRawPointer, schedule w: UnsafeMutableBufferPointer<UInt32>) {
        for i in 0..<16 {
            w[i] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self))
        }
        for i in 16..<64 {
            let s0 = w[i - 15].rotatedRight(7) ^ w[i - 15].rotatedRight(18) ^ (w[i - 15] >> 3)
            let s1 = w[i - 2].rotatedRight(17) ^ w[i - 2].rotatedRight(19) ^ (w[i - 2] >> 10)
            w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, h) = state
        for i in 0..<64 {
            let s1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
            let choice = (e & f) ^ (~e & g)
            let t1 = h &+ s1 &+ choice &+ Self.roundConstants[i] &+ w[i]
            let s0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let t2 = s0 &+ majority
            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h)
    }
}

extension UInt32 {
    fileprivate func rotatedRight(_ n: UInt32) -> UInt32 { (self >> n) | (self << (32 - n)) }
}
