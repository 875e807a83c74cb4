import CDeflate
import Foundation
import Testing
import LaminaGeometry
@testable import LaminaPNG
@testable import LaminaRaster

/// The fast preset's deflate (`ImageDeflate`): every stream inflates, in
/// libdeflate's strict decoder (an implementation independent of ours), to
/// the exact input; its codes are complete and within deflate's limits; and
/// its bytes do not depend on how many cores compress them.
@Suite(.serialized) struct DeflateTests {
    /// `data` through ImageDeflate and back through libdeflate.
    private func roundTrip(_ data: [UInt8], stride: Int) throws -> [UInt8] {
        let stream = ImageDeflate.zlibStream(data, stride: stride)
        let decompressor = try #require(libdeflate_alloc_decompressor())
        defer { libdeflate_free_decompressor(decompressor) }
        var out = [UInt8](repeating: 0, count: data.count + 1)
        var written = 0
        let result = stream.withUnsafeBytes { input in
            out.withUnsafeMutableBytes { output in
                libdeflate_zlib_decompress(decompressor, input.baseAddress, input.count, output.baseAddress, output.count, &written)
            }
        }
        #expect(result == LIBDEFLATE_SUCCESS, "libdeflate refused the stream (\(result))")
        return Array(out[0..<written])
    }

    /// Rows of a picture: filter byte 0, then `width` RGBA pixels made by `pixel`.
    private func rows(width: Int, height: Int, _ pixel: (Int, Int) -> (UInt8, UInt8, UInt8, UInt8)) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(height * (width * 4 + 1))
        for y in 0..<height {
            out.append(0)
            for x in 0..<width {
                let p = pixel(x, y)
                out += [p.0, p.1, p.2, p.3]
            }
        }
        return out
    }

    @Test func picturesOfEveryKindComeBackExactly() throws {
        var random = SeededRandom(seed: 0xDEF1)
        let noise = (0..<200_000).map { _ in UInt8.random(in: 0...255, using: &random) }
        let cases: [(String, [UInt8], Int)] = [
            ("flat", rows(width: 300, height: 200) { _, _ in (10, 20, 30, 255) }, 1201),
            ("gradient", rows(width: 256, height: 256) { x, y in (UInt8(x), UInt8(y), UInt8((x + y) / 2), 255) }, 1025),
            ("stripes", rows(width: 97, height: 310) { x, y in ((x / 7 + y) % 3 == 0 ? (255, 0, 0, 255) : (0, 0, 0, 0)) }, 389),
            ("noise: stored blocks", noise, 1000),
            ("noisy edges", rows(width: 640, height: 480) { x, y in
                let edge = (x * 7 + y * 3) % 50 < 3
                return edge ? (UInt8(x & 255), UInt8(y & 255), 0, UInt8((x ^ y) & 255)) : (255, 255, 255, 255)
            }, 2561),
            // Rows too long for a match to reach the row above (stride over 32 KB).
            ("wide", rows(width: 9000, height: 6) { x, y in (UInt8(x % 13), UInt8(y), 0, 255) }, 36001),
            ("one byte", [0], 1),
            ("one pixel", [0, 1, 2, 3, 4], 5),
            ("tiny", [0, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9], 13),
        ]
        for (name, data, stride) in cases {
            #expect(try roundTrip(data, stride: stride) == data, "\(name)")
        }
    }

    @Test func emptyInputIsAValidStream() throws {
        #expect(try roundTrip([], stride: 1) == [])
    }

    /// Many segments and many blocks: a picture of several megabytes, with
    /// runs longer than a match (258) and repeats far back.
    @Test func largePicturesSplitIntoSegmentsComeBackExactly() throws {
        let data = rows(width: 1500, height: 700) { x, y in
            let tile = ((x / 40) + (y / 40)) % 2 == 0
            return tile ? (UInt8((x * 3) & 255), 80, UInt8(y & 255), 255) : (0, 0, 0, 0)
        }
        #expect(data.count > 4 * ImageDeflate.segmentBytes)
        #expect(try roundTrip(data, stride: 6001) == data)
    }

    @Test func theBytesDoNotDependOnTheCores() {
        let data = rows(width: 800, height: 900) { x, y in (UInt8(x & 255), UInt8(y & 255), UInt8((x * y) & 255), 255) }
        func stream(bands: Int) -> [UInt8] {
            RowBands.forcedBands = bands
            defer { RowBands.forcedBands = nil }
            return ImageDeflate.zlibStream(data, stride: 3201)
        }
        let one = stream(bands: 1)
        #expect(stream(bands: 2) == one)
        #expect(stream(bands: 5) == one)
    }

    /// Codes are complete (Kraft's sum exactly 1) and within the limit, also
    /// for frequencies whose optimal code would be far deeper (Fibonacci
    /// frequencies give a code as deep as there are symbols).
    @Test func huffmanCodesAreCompleteAndLimited() {
        var random = SeededRandom(seed: 7)
        var cases: [[UInt32]] = [[5, 0], [0, 0, 3], [1, 1], [0, 0, 0, 0]]
        var fibonacci: [UInt32] = [1, 1]
        while fibonacci.count < 30 { fibonacci.append(fibonacci[fibonacci.count - 1] + fibonacci[fibonacci.count - 2]) }
        cases.append(fibonacci)
        cases.append(fibonacci + [UInt32](repeating: 0, count: 256))
        for _ in 0..<300 {
            let count = Bool.random(using: &random) ? 19 : Int.random(in: 2...286, using: &random)
            cases.append((0..<count).map { _ in UInt32.random(in: 0...3, using: &random) == 0 ? 0 : UInt32.random(in: 1...100_000, using: &random) })
        }
        for frequencies in cases {
            // 7 bits is the code length alphabet's limit: its 19 symbols.
            for limit in frequencies.count <= 19 ? [7, 15] : [15] {
                let code = HuffmanCode(frequencies: frequencies, limit: limit)
                let used = (0..<frequencies.count).map { code.length(of: $0) }.filter { $0 > 0 }
                #expect(used.count >= 2, "\(frequencies)")
                #expect(used.allSatisfy { Int($0) <= limit })
                #expect(used.reduce(0) { $0 + (1 << (limit - Int($1))) } == 1 << limit, "\(frequencies), limit \(limit)")
                for (s, f) in frequencies.enumerated() where f > 0 { #expect(code.length(of: s) > 0) }
            }
        }
    }

    /// Where the limit does not bind, the code is a Huffman code: its cost
    /// (frequency times length, summed) is the optimum, the sum of the
    /// weights of the nodes a Huffman tree merges (worked out here with a
    /// plain sorted list).
    @Test func unlimitedCodesCostWhatHuffmansDoes() {
        var random = SeededRandom(seed: 11)
        for _ in 0..<200 {
            let count = [19, 30, 286][Int.random(in: 0...2, using: &random)]
            let frequencies = (0..<count).map { _ in
                UInt32.random(in: 0...2, using: &random) == 0 ? 0 : UInt32.random(in: 1...5_000, using: &random)
            }
            var weights = frequencies.filter { $0 > 0 }.map { Int($0) }.sorted()
            guard weights.count >= 2 else { continue }
            var optimum = 0
            while weights.count > 1 {
                let merged = weights.removeFirst() + weights.removeFirst()
                optimum += merged
                weights.insert(merged, at: weights.firstIndex { $0 >= merged } ?? weights.count)
            }
            let code = HuffmanCode(frequencies: frequencies, limit: 15)
            let depth = (0..<count).map { Int(code.length(of: $0)) }.max() ?? 0
            guard depth < 15 else { continue }
            let cost = frequencies.indices.reduce(0) { $0 + Int(frequencies[$1]) * Int(code.length(of: $1)) }
            #expect(cost == optimum, "\(frequencies)")
        }
    }

    /// Deflate's length and distance symbols against RFC 1951's tables.
    @Test func lengthAndDistanceSymbolsFollowTheRFC() {
        let lengthBases = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
        let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
        for length in 3...258 {
            let i = lengthBases.lastIndex { $0 <= length }!
            let s = Deflate.lengthSymbol(length - 3)
            #expect(Int(s.symbol) == 257 + i && Int(s.extraBits) == lengthExtra[i] && Int(s.extra) == length - lengthBases[i], "length \(length)")
        }
        let distanceBases = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073,
                             4097, 6145, 8193, 12289, 16385, 24577]
        for distance in 1...32768 {
            let i = distanceBases.lastIndex { $0 <= distance }!
            let s = Deflate.distanceSymbol(distance - 1)
            #expect(Int(s.symbol) == i && Int(s.extraBits) == max(0, i / 2 - 1) && Int(s.extra) == distance - distanceBases[i], "distance \(distance)")
        }
    }
}
