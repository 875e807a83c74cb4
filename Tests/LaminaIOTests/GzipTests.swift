import CDeflate
import Testing
@testable import LaminaIO

/// Gzip data inflated whole, within a limit checked before any work.
@Suite("Gzip")
struct GzipTests {
    /// `bytes` gzipped by libdeflate.
    static func gzip(_ bytes: [UInt8]) -> [UInt8] {
        let compressor = libdeflate_alloc_compressor(6)!
        defer { libdeflate_free_compressor(compressor) }
        let bound = libdeflate_gzip_compress_bound(compressor, bytes.count)
        var out = [UInt8](repeating: 0, count: bound)
        let n = bytes.withUnsafeBytes { source in
            out.withUnsafeMutableBytes { libdeflate_gzip_compress(compressor, source.baseAddress, source.count, $0.baseAddress, bound) }
        }
        return Array(out.prefix(n))
    }

    @Test func gzipDataInflatesToItsBytes() throws {
        let text = Array(String(repeating: "{\"layers\": []} ", count: 1000).utf8)
        #expect(try Gzip.inflate(Self.gzip(text), maxBytes: 1 << 20) == text)
    }

    @Test func aBombIsRefusedBeforeInflating() {
        let zeros = Self.gzip([UInt8](repeating: 0, count: 4 << 20))
        let error = #expect(throws: Gzip.Failure.self) { try Gzip.inflate(zeros, maxBytes: 1 << 20) }
        #expect(error?.isOverLimit == true)
    }

    @Test func aLyingTrailerOrDamagedDataIsRefused() {
        var lying = Self.gzip(Array("hello, sticker".utf8))
        lying[lying.count - 4] = 3  // claims 3 bytes
        #expect(throws: Gzip.Failure.self) { try Gzip.inflate(lying, maxBytes: 1 << 20) }
        var damaged = Self.gzip(Array(String(repeating: "abc", count: 100).utf8))
        damaged[12] ^= 0xFF
        #expect(throws: Gzip.Failure.self) { try Gzip.inflate(damaged, maxBytes: 1 << 20) }
        #expect(throws: Gzip.Failure.self) { try Gzip.inflate([0x1F, 0x8B, 1, 2], maxBytes: 1 << 20) }
    }
}
