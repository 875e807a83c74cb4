import Foundation
import Testing
import LaminaCore
import LaminaGeometry
@testable import LaminaGIF

/// A GIF read back block by block, as a browser would: the loop count, and
/// each frame's delay, disposal, transparent entry, palette and pixels.
private struct ReadGIF {
    struct Frame { var delay: Int; var disposal: Int; var transparent: Int?; var palette: [UInt8]; var indices: [Int] }
    var width = 0, height = 0
    var loops: Int?
    var frames: [Frame] = []

    init(_ b: [UInt8]) throws {
        #expect(Array(b.prefix(6)) == Array("GIF89a".utf8))
        width = Int(b[6]) | Int(b[7]) << 8; height = Int(b[8]) | Int(b[9]) << 8
        var i = 13
        var control: (delay: Int, disposal: Int, transparent: Int?)?
        func subBlocks() -> [UInt8] {
            var out: [UInt8] = []
            while b[i] != 0 { let n = Int(b[i]); out += b[i + 1...i + n]; i += n + 1 }
            i += 1
            return out
        }
        while i < b.count {
            switch b[i] {
            case 0x21 where b[i + 1] == 0xF9:
                let packed = b[i + 3]
                control = (Int(b[i + 4]) | Int(b[i + 5]) << 8, Int(packed >> 2 & 7), packed & 1 == 1 ? Int(b[i + 6]) : nil)
                i += 8
            case 0x21 where b[i + 1] == 0xFF:
                i += 2
                let app = subBlocks()
                if app.starts(with: Array("NETSCAPE2.0".utf8)) { loops = Int(app[12]) | Int(app[13]) << 8 }
            case 0x2C:
                let packed = b[i + 9]
                #expect(packed & 0x80 != 0, "a local colour table")
                let size = 1 << (Int(packed & 7) + 1)
                let palette = Array(b[i + 10..<i + 10 + size * 3])
                i += 10 + size * 3
                let minimum = Int(b[i]); i += 1
                let indices = lzwDecode(subBlocks(), minimumCodeSize: minimum)
                frames.append(Frame(delay: control?.delay ?? 0, disposal: control?.disposal ?? 0,
                                    transparent: control?.transparent, palette: palette, indices: indices))
                control = nil
            case 0x3B: return
            default: Issue.record("unexpected block \(b[i]) at \(i)"); return
            }
        }
        Issue.record("no trailer")
    }
}

/// GIF's LZW, decoded the textbook way (the decoder's table lags one code
/// behind the encoder's).
private func lzwDecode(_ data: [UInt8], minimumCodeSize: Int) -> [Int] {
    let clear = 1 << minimumCodeSize, end = clear + 1
    var bits = minimumCodeSize + 1
    var table: [[Int]] = (0..<clear).map { [$0] } + [[], []]
    var out: [Int] = []
    var previous: [Int]?
    var buffer = 0, count = 0, at = 0
    while true {
        while count < bits, at < data.count { buffer |= Int(data[at]) << count; count += 8; at += 1 }
        if count < bits { break }
        let code = buffer & ((1 << bits) - 1)
        buffer >>= bits; count -= bits
        if code == clear { table = (0..<clear).map { [$0] } + [[], []]; bits = minimumCodeSize + 1; previous = nil; continue }
        if code == end { break }
        var entry: [Int]
        if code < table.count { entry = table[code] } else if let previous { entry = previous + [previous[0]] } else { break }
        out += entry
        if let previous, table.count < 4096 { table.append(previous + [entry[0]]) }
        if table.count == 1 << bits, bits < 12 { bits += 1 }
        previous = entry
    }
    return out
}

@Suite("GIF encoder")
struct GIFEncoderTests {
    @Test func lzwRoundTripsThroughFullTablesAndClearCodes() {
        var random = SeededRandom(seed: 7)
        for minimum in [2, 4, 8] {
            let symbols = 1 << minimum
            // Noise fills the table (clear codes), runs make long codes.
            var indices: [UInt8] = (0..<20_000).map { _ in UInt8(random.int(0...(symbols - 1))) }
            for _ in 0..<50 { indices += [UInt8](repeating: UInt8(random.int(0...(symbols - 1))), count: random.int(1...400)) }
            let packed = LZW.compress(indices, minimumCodeSize: minimum)
            var data: [UInt8] = []
            var i = 0
            while packed[i] != 0 { data += packed[i + 1...i + Int(packed[i])]; i += Int(packed[i]) + 1 }
            #expect(i == packed.count - 1, "sub-blocks end with the terminator")
            #expect(lzwDecode(data, minimumCodeSize: minimum) == indices.map(Int.init), "minimum code size \(minimum)")
        }
        #expect(LZW.compress([], minimumCodeSize: 2).last == 0)
    }

    private func picture(_ width: Int, _ height: Int, _ pixel: (Int, Int) -> [UInt8]) throws -> CGImage {
        var bytes: [UInt8] = []
        for y in 0..<height { for x in 0..<width { bytes += pixel(x, y) } }
        return try CGImage(width: width, height: height, premultipliedRGBA: bytes)
    }

    @Test func framesCarryTheirColoursTransparencyAndExactDelays() throws {
        let red = try picture(8, 4) { x, _ in x < 4 ? [255, 0, 0, 255] : [0, 0, 0, 0] }
        let blue = try picture(8, 4) { _, _ in [0, 0, 255, 255] }
        // 30 frames a second: starts at 0, 3, 7 centiseconds (each rounded
        // on its own), the end at 10.
        let gif = try GIFEncoder(width: 8, height: 4, loopCount: 0)
        try gif.add(red, startingAt: 0)
        try gif.add(blue, startingAt: 3)
        try gif.add(red, startingAt: 7)
        let read = try ReadGIF(try gif.finish(endingAt: 10))
        #expect(read.width == 8 && read.height == 4 && read.loops == 0)
        #expect(read.frames.map(\.delay) == [3, 4, 3])
        #expect(read.frames.allSatisfy { $0.disposal == 2 })
        let first = read.frames[0]
        let transparent = try #require(first.transparent)
        for (k, index) in first.indices.enumerated() {
            if k % 8 < 4 {
                #expect(Array(first.palette[index * 3..<index * 3 + 3]) == [255, 0, 0])
            } else {
                #expect(index == transparent)
            }
        }
        #expect(read.frames[1].transparent == nil)
        #expect(read.frames[1].indices.allSatisfy { Array(read.frames[1].palette[$0 * 3..<$0 * 3 + 3]) == [0, 0, 255] })
    }

    @Test func framesTooCloseTogetherAreLeftOutAndTheLengthIsKept() throws {
        // 100 frames a second: a frame a centisecond. Browsers slow delays
        // under 2 cs, so every other frame is left out; the total stays 1 s.
        let gif = try GIFEncoder(width: 2, height: 2, loopCount: 3)
        for k in 0..<100 {
            let shade = UInt8(k * 2)
            try gif.add(try picture(2, 2) { _, _ in [shade, shade, shade, 255] }, startingAt: k)
        }
        let read = try ReadGIF(try gif.finish(endingAt: 100))
        #expect(read.frames.count == 50 && read.frames.allSatisfy { $0.delay == 2 })
        #expect(read.frames.reduce(0) { $0 + $1.delay } == 100)
        #expect(read.loops == 2, "NETSCAPE2.0 counts repeats: three plays")
        // Played once: no loop extension at all.
        let once = try GIFEncoder(width: 2, height: 2, loopCount: 1)
        try once.add(try picture(2, 2) { _, _ in [0, 0, 0, 255] }, startingAt: 0)
        #expect(try ReadGIF(try once.finish(endingAt: 50)).loops == nil)
    }

    @Test func sizesAndFramesAreChecked() throws {
        #expect(throws: GIFError.self) { try GIFEncoder(width: 70_000, height: 10) }
        let gif = try GIFEncoder(width: 4, height: 4)
        #expect(throws: GIFError.self) { try gif.add(try picture(2, 2) { _, _ in [0, 0, 0, 255] }, startingAt: 0) }
        #expect(throws: GIFError.self) { try gif.finish(endingAt: 10) }
    }
}

@Suite("GIF decoder")
struct GIFDecoderTests {
    private func picture(_ width: Int, _ height: Int, _ pixel: (Int, Int) -> [UInt8]) throws -> CGImage {
        var bytes: [UInt8] = []
        for y in 0..<height { for x in 0..<width { bytes += pixel(x, y) } }
        return try CGImage(width: width, height: height, premultipliedRGBA: bytes)
    }

    @Test func theFirstFrameComesBackWithItsColoursAndTransparency() throws {
        // Four colours and a transparent quarter: a palette holds them exactly.
        let colours: [[UInt8]] = [[255, 0, 0, 255], [0, 128, 0, 255], [0, 0, 255, 255], [0, 0, 0, 0]]
        let image = try picture(40, 30) { x, y in colours[(x / 20) + 2 * (y / 15)] }
        let gif = try GIFEncoder(width: 40, height: 30)
        try gif.add(image, startingAt: 0)
        try gif.add(try picture(40, 30) { _, _ in [9, 9, 9, 255] }, startingAt: 10)
        let bytes = try gif.finish(endingAt: 20)
        #expect(GIFDecoder.isGIF(bytes))
        let decoded = try GIFDecoder().decode(bytes)
        #expect(decoded.width == 40 && decoded.height == 30)
        #expect(decoded.pixelBytes == image.pixelBytes)
    }

    /// Made by Pillow (another encoder), interlaced, with a transparent
    /// colour: pixel (x, y) is colour (x / 4 + y) % 4 of red, green, blue and
    /// transparent.
    @Test func anInterlacedGIFFromAnotherEncoderReadsRowForRow() throws {
        let bytes = [UInt8](Data(base64Encoded: "R0lGODlhDAAIAIEAAP8AAAD/AAAA/wAAACH5BAEAAAMALAAAAAAMAAgAAAgrAAEIBBCgYAABCAUYPJhwgMMBCQU8HDAQwMSKCzEajLgw4kSPDyteHLgwIAA7")!)
        let image = try GIFDecoder().decode(bytes)
        #expect(image.width == 12 && image.height == 8)
        let colours: [[UInt8]] = [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [0, 0, 0, 0]]
        for y in 0..<8 {
            for x in 0..<12 {
                let o = (y * 12 + x) * 4
                #expect(Array(image.pixelBytes[o..<o + 4]) == colours[(x / 4 + y) % 4], "(\(x), \(y))")
            }
        }
    }

    @Test func hostileGIFsAreRefusedCleanly() throws {
        let gif = try GIFEncoder(width: 8, height: 8)
        try gif.add(try picture(8, 8) { x, _ in [UInt8(x * 30), 0, 0, 255] }, startingAt: 0)
        let good = try gif.finish(endingAt: 10)
        // A screen of 65535 x 65535 in a few bytes: refused before any pixel.
        var huge = good
        huge[6] = 0xFF; huge[7] = 0xFF; huge[8] = 0xFF; huge[9] = 0xFF
        #expect { try GIFDecoder(limits: .init(maxPixels: 1 << 20)).decode(huge) } throws: { ($0 as? GIFError)?.isOverLimit == true }
        // Cut anywhere: an error, never a crash.
        for cut in stride(from: 0, to: good.count - 1, by: 3) {
            _ = try? GIFDecoder().decode(Array(good.prefix(cut)))
        }
        #expect(throws: GIFError.self) { try GIFDecoder().decode(Array(good.prefix(20))) }
        #expect(throws: GIFError.self) { try GIFDecoder().decode(Array("GIF89a".utf8)) }
        // Codes that were never defined.
        #expect(throws: GIFError.self) { try LZW.decompress([0xFF, 0xFF, 0xFF], minimumCodeSize: 2, count: 64) }
        // Endless codes stop when the picture is full.
        let runs = LZW.compress([UInt8](repeating: 1, count: 100_000), minimumCodeSize: 2)
        var data: [UInt8] = []
        var i = 0
        while runs[i] != 0 { data += runs[i + 1...i + Int(runs[i])]; i += Int(runs[i]) + 1 }
        #expect(try LZW.decompress(data, minimumCodeSize: 2, count: 10) == [UInt8](repeating: 1, count: 10))
    }
}
