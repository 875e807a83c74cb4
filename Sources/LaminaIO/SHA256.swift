import CSHA256

/// SHA-256 (FIPS 180-4), for naming content: the render server's ETags and
/// cache keys are digests of what a picture depends on.
///
/// ```swift
/// var hash = SHA256()
/// hash.update(Array("abc".utf8))
/// hash.finalize().hex  // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
/// ```
package struct SHA256: Sendable {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19)
    /// Bytes not yet making a whole 64-byte block.
    private var pending: [UInt8] = []
    private var byteCount: UInt64 = 0

    /// Whether blocks go to the processor's SHA instructions
    /// (`lamina_sha256_blocks`, about a hundred times fewer instructions
    /// than the rounds below) or to the rounds written here.
    private let usesHardware: Bool

    /// Whether this processor has SHA instructions that `SHA256` uses.
    package static let hardwareAvailable = lamina_sha256_hardware_available() == 1

    /// A hash of nothing yet: feed it with `update`.
    public init() {
        self.init(hardware: Self.hardwareAvailable)
    }

    /// A hash that uses the processor's SHA instructions only if
    /// `hardware` (and they exist): tests hold both ways to the same digests.
    package init(hardware: Bool) {
        usesHardware = hardware && Self.hardwareAvailable
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
                pending.withUnsafeBytes { compress(blocks: 1, at: $0.baseAddress!) }
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
            pending.withUnsafeBytes { compress(blocks: 1, at: $0.baseAddress!) }
            pending.removeAll(keepingCapacity: true)
        }
        let blocks = (bytes.count - offset) / 64
        compress(blocks: blocks, at: base + offset)
        offset += blocks * 64
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
        public var hex: String { bytes.lowercaseHex }
        /// The digest in lowercase hexadecimal.
        public var description: String { hex }
    }

    /// The digest of `bytes`.
    public static func hash(_ bytes: some Sequence<UInt8>) -> Digest {
        var hash = SHA256()
        hash.update(bytes)
        return hash.finalize()
    }

    /// K, from the one table the hardware path reads too.
    private static let roundConstants: [UInt32] = withUnsafeBytes(of: lamina_sha256_round_constants) {
        Array($0.bindMemory(to: UInt32.self))
    }

    /// `count` 64-byte blocks from `start`.
    private mutating func compress(blocks count: Int, at start: UnsafeRawPointer) {
        guard count > 0 else { return }
        if usesHardware {
            withUnsafeMutablePointer(to: &state) { tuple in
                // Eight UInt32 in a tuple lie one after another.
                tuple.withMemoryRebound(to: UInt32.self, capacity: 8) { words in
                    lamina_sha256_blocks(words, start.assumingMemoryBound(to: UInt8.self), count)
                }
            }
            return
        }
        for k in 0..<count { compress(start + 64 * k) }
    }

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

extension [UInt8] {
    /// Lowercase hexadecimal, two digits a byte: how digests and
    /// authentication codes are written.
    package var lowercaseHex: String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
    }
}
