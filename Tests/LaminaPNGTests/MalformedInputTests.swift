import Foundation
import Testing
@testable import LaminaPNG
import LaminaCore

/// Broken, hostile and random input: always a thrown `PNGError`, never a crash
/// or a hang, and the error names what is wrong.
@Suite(.timeLimit(.minutes(2))) struct MalformedInputTests {
    /// A small valid file: 6x5 RGBA, interlaced, so every chunk kind matters.
    static let valid = FixtureCase(colorType: .rgba, bitDepth: 8, interlaced: true, width: 6, height: 5).fixture().encoded()

    @Test func validFixtureDecodes() throws {
        #expect(try PNGDecoder().decode(Self.valid).width == 6)
    }

    @Test func dataWithoutThePNGSignatureIsNotPNG() {
        for bytes in [Array("GIF89a and then some".utf8), Array("\u{89}PNG\r\n\u{1A}\r".utf8), [UInt8](repeating: 0, count: 100)] {
            #expect(throws: PNGError.notPNG) { try PNGDecoder().decode(bytes) }
        }
        #expect(throws: PNGError.notPNG) { try PNGDecoder().decode([0x89, 0x50, 0x4E, 0x48]) }  // wrong 4th byte
    }

    /// Every prefix of a valid file is reported as truncated, with where.
    @Test func everyPrefixIsTruncated() {
        for length in 0..<Self.valid.count {
            do {
                _ = try PNGDecoder().decode(Array(Self.valid.prefix(length)))
                Issue.record("a \(length)-byte prefix decoded")
            } catch let PNGError.truncated(detail) {
                // "the data ends after N bytes, ..." or "chunk 'X' at byte O needs S bytes but only R remain".
                #expect(detail.contains("after \(length) bytes") || detail.contains("remain"), "\(detail)")
            } catch {
                Issue.record("a \(length)-byte prefix threw \(error)")
            }
        }
    }

    /// Any single flipped bit is caught: by the signature check, by the
    /// framing walk, or by libpng's CRC checks. The exception is IEND's own CRC
    /// (the last 4 bytes), which libpng's simplified reader never reads: by
    /// then every pixel has been read and checked.
    @Test func everySingleBitFlipIsAnError() {
        for index in Self.valid.indices.dropLast(4) {
            for bit in 0..<8 {
                var bytes = Self.valid
                bytes[index] ^= 1 << bit
                #expect(throws: PNGError.self, "byte \(index) bit \(bit)") { try PNGDecoder().decode(bytes) }
            }
        }
    }

    @Test func randomBytesAreErrors() {
        var random = SeededRandom(seed: 0x5EED)
        for round in 0..<3_000 {
            let count = Int(random.next() % 600)
            var bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            if round % 2 == 0 { bytes = FixturePNG.signature + bytes }
            #expect(throws: PNGError.self) { try PNGDecoder().decode(bytes) }
        }
    }

    /// Well-framed chunks with correct CRCs around random compressed data: the
    /// hardest garbage, since only zlib and libpng's row checks can catch it.
    @Test func randomImageDataIsAnErrorOrAPictureOfTheDeclaredSize() {
        var random = SeededRandom(seed: 42)
        for round in 0..<1_000 {
            let body = (0..<Int(random.next() % 300)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            // Half the time a valid zlib header, so that inflate gets further.
            let idat = round % 2 == 0 ? [0x78, 0x01] + body : body
            let png = FixturePNG.signature
                + FixturePNG.chunk("IHDR", FixturePNG.ihdr(width: 7, height: 3, bitDepth: 8, colorType: 6, interlace: UInt8(round % 2)))
                + FixturePNG.chunk("IDAT", idat) + FixturePNG.chunk("IEND", [])
            do {
                let image = try PNGDecoder().decode(png)
                #expect(image.width == 7 && image.height == 3)
            } catch {
                #expect(error is PNGError)
            }
        }
    }

    @Test func hugeDeclaredSizesAreRefusedBeforeAllocating() {
        for (width, height) in [(100_000, 100_000), (0x7FFF_FFFF, 0x7FFF_FFFF), (0xFFFF_FFFF, 2)] {
            let png = Self.header(width: UInt32(width), height: UInt32(height))
            #expect(throws: PNGError.tooLarge(width: width, height: height, maxPixels: PNGDecoder.Limits.default.maxPixels)) {
                try PNGDecoder().decode(png)
            }
        }
    }

    @Test func pixelLimitIsConfigurable() throws {
        let png = FixtureCase(colorType: .rgb, bitDepth: 8, interlaced: false, width: 10, height: 10).fixture().encoded()
        #expect(throws: PNGError.tooLarge(width: 10, height: 10, maxPixels: 99)) {
            try PNGDecoder(limits: .init(maxPixels: 99)).decode(png)
        }
        #expect(try PNGDecoder(limits: .init(maxPixels: 100)).decode(png).width == 10)
    }

    @Test func byteLimitIsConfigurable() {
        #expect(throws: PNGError.dataTooLarge(byteCount: Self.valid.count, maxBytes: 100)) {
            try PNGDecoder(limits: .init(maxBytes: 100)).decode(Self.valid)
        }
    }

    @Test func headerErrorsCarryLibpngsMessage() {
        // A zero width, a colour type / bit depth pair PNG forbids (RGB at 4 bits).
        for ihdr in [
            FixturePNG.ihdr(width: 0, height: 4, bitDepth: 8, colorType: 6, interlace: 0),
            FixturePNG.ihdr(width: 4, height: 4, bitDepth: 4, colorType: 2, interlace: 0),
            FixturePNG.ihdr(width: 4, height: 4, bitDepth: 8, colorType: 6, interlace: 2),
        ] {
            let png = FixturePNG.signature + FixturePNG.chunk("IHDR", ihdr) + FixturePNG.chunk("IEND", [])
            #expect(corruptMessage(png) != nil)
        }
    }

    @Test func badChecksumIsCorrupt() throws {
        var bytes = Self.valid
        bytes[29] ^= 0xFF  // last byte of IHDR's CRC
        let message = try #require(corruptMessage(bytes))
        #expect(message.localizedCaseInsensitiveContains("crc"))
    }

    @Test func missingOrMisplacedHeaderIsCorrupt() {
        let noHeader = FixturePNG.signature + FixturePNG.chunk("IDAT", FixturePNG.zlibStored([0, 0])) + FixturePNG.chunk("IEND", [])
        #expect(throws: PNGError.corrupt("the first chunk is 'IDAT' of 13 bytes, not the 13-byte IHDR")) {
            try PNGDecoder().decode(noHeader)
        }
        let shortHeader = FixturePNG.signature + FixturePNG.chunk("IHDR", [0, 0, 0, 1]) + FixturePNG.chunk("IEND", [])
        #expect(throws: PNGError.corrupt("the first chunk is 'IHDR' of 4 bytes, not the 13-byte IHDR")) {
            try PNGDecoder().decode(shortHeader)
        }
    }

    @Test func impossibleChunkLengthIsCorrupt() {
        let png = Array(Self.valid.prefix(33)) + [0x80, 0, 0, 0] + Array("IDAT".utf8) + [UInt8](repeating: 0, count: 16)
        #expect(throws: PNGError.corrupt("chunk 'IDAT' at byte 33 declares length 2147483648, over 2^31 - 1")) {
            try PNGDecoder().decode(png)
        }
    }

    @Test func tooLittleImageDataIsCorrupt() {
        // Framing and CRCs fine, but the compressed rows stop after one row.
        let png = FixturePNG.signature
            + FixturePNG.chunk("IHDR", FixturePNG.ihdr(width: 4, height: 4, bitDepth: 8, colorType: 0, interlace: 0))
            + FixturePNG.chunk("IDAT", FixturePNG.zlibStored([0, 1, 2, 3, 4])) + FixturePNG.chunk("IEND", [])
        #expect(corruptMessage(png) != nil)
    }

    @Test func chunkTypesWithControlBytesAreShownInHex() {
        let png = FixturePNG.signature + [0, 0, 0, 0, 0x01, 0x02, 0x41, 0x7F, 0, 0, 0, 0]
        #expect(throws: PNGError.corrupt("the first chunk is '0x0102417f' of 0 bytes, not the 13-byte IHDR")) {
            try PNGDecoder().decode(png)
        }
    }

    @Test func errorDescriptionsSayWhatAndWhere() {
        #expect(PNGError.notPNG.description.contains("signature"))
        #expect(PNGError.truncated("x").description == "truncated PNG: x")
        #expect(PNGError.tooLarge(width: 3, height: 4, maxPixels: 5).description.contains("3x4"))
        #expect(PNGError.io(IOError(path: "/a/b.png", "cannot open it: no such file or directory")).description
            == "/a/b.png: cannot open it: no such file or directory")
    }

    /// A file that is only a header declaring `width` x `height` RGBA pixels.
    private static func header(width: UInt32, height: UInt32) -> [UInt8] {
        FixturePNG.signature
            + FixturePNG.chunk("IHDR", FixturePNG.ihdr(width: width, height: height, bitDepth: 8, colorType: 6, interlace: 0))
            + FixturePNG.chunk("IDAT", FixturePNG.zlibStored([0])) + FixturePNG.chunk("IEND", [])
    }

    /// libpng's message when `bytes` fails as corrupt, nil for anything else.
    private func corruptMessage(_ bytes: [UInt8]) -> String? {
        do {
            _ = try PNGDecoder().decode(bytes)
        } catch let PNGError.corrupt(message) {
            return message
        } catch {}
        return nil
    }
}

