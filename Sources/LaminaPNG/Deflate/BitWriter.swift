/// Deflate's bit stream (RFC 1951, 3.1.1): bits packed from the least
/// significant end of each byte, into a buffer the caller sized.
struct BitWriter {
    private let out: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    /// Bytes written so far (whole bytes; pending bits not counted).
    private(set) var count = 0
    private var pending: UInt64 = 0
    private var pendingBits = 0

    /// A writer into `capacity` bytes at `out`.
    init(into out: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.out = out
        self.capacity = capacity
    }

    /// Appends the low `n` bits of `bits` (n at most 32).
    @inline(__always)
    mutating func write(_ bits: UInt32, _ n: Int) {
        pending |= UInt64(bits) << UInt64(pendingBits)
        pendingBits &+= n
        if pendingBits >= 32 {
            precondition(count + 4 <= capacity, "deflate output over its bound")
            UnsafeMutableRawPointer(out + count).storeBytes(of: UInt32(truncatingIfNeeded: pending).littleEndian, as: UInt32.self)
            count &+= 4
            pending >>= 32
            pendingBits &-= 32
        }
    }

    /// Pads with zero bits to a byte boundary and writes out every pending byte.
    mutating func alignToByte() {
        while pendingBits > 0 {
            precondition(count < capacity, "deflate output over its bound")
            out[count] = UInt8(truncatingIfNeeded: pending)
            count += 1
            pending >>= 8
            pendingBits = max(0, pendingBits - 8)
        }
        pending = 0
    }

    /// A stored block's header (RFC 1951, 3.2.4): its final flag and type
    /// 00, padding to a byte, then LEN and NLEN; `length` bytes must follow.
    mutating func writeStoredHeader(length: Int, final: Bool) {
        write(final ? 1 : 0, 3)
        alignToByte()
        write(UInt32(length) | UInt32(~length & 0xFFFF) << 16, 32)
    }

    /// Appends bytes as they are; the stream must be at a byte boundary.
    mutating func writeBytes(_ bytes: UnsafePointer<UInt8>, count n: Int) {
        precondition(pendingBits == 0 && count + n <= capacity, "deflate output over its bound")
        (out + count).update(from: bytes, count: n)
        count += n
    }
}
