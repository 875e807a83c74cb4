// An animated GIF's pictures, as its screen shows them one after another.
import Testing
@testable import LaminaGIF
import LaminaCore

@Suite struct GIFDecoderFramesTests {
    /// A GIF of `frames` 2 x 1 pictures over a red-green-blue-white table,
    /// each (left, top, width, colour indices, disposal, delay in cs).
    private func gif(_ frames: [(x: Int, w: Int, indices: [UInt8], disposal: UInt8, delay: Int)]) -> [UInt8] {
        var bytes = Array("GIF89a".utf8) + [2, 0, 1, 0, 0x81, 0, 0]
        bytes += [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255]
        for f in frames {
            bytes += [0x21, 0xF9, 4, f.disposal << 2, UInt8(f.delay & 0xFF), UInt8(f.delay >> 8), 0, 0]
            bytes += [0x2C, UInt8(f.x), 0, 0, 0, UInt8(f.w), 0, 1, 0, 0]
            // The code size, then the data's sub-blocks and their terminator.
            bytes += [2] + LZW.compress(f.indices, minimumCodeSize: 2)
        }
        return bytes + [0x3B]
    }

    private func pixels(_ image: CGImage) -> [[UInt8]] {
        (0..<image.width).map { x in image.pixel(x: x, y: 0).map { [$0.red, $0.green, $0.blue, $0.alpha] } ?? [] }
    }

    /// A damaged GIF whose picture is far larger than its screen (60,000 x
    /// 60,000 on a 2 x 1 screen, as the fuzzer found) is refused as over
    /// the limits before its indices are held (it took 2.7 GB).
    @Test func aPictureLargerThanTheLimitsIsRefusedBeforeItIsDecoded() throws {
        var bytes = Array("GIF89a".utf8) + [2, 0, 1, 0, 0x81, 0, 0]
        bytes += [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255]
        bytes += [0x2C, 0, 0, 0, 0, 0x60, 0xEA, 0x60, 0xEA, 0]
        bytes += [2] + LZW.compress([0, 1], minimumCodeSize: 2) + [0x3B]
        let decoder = GIFDecoder(limits: .init(maxPixels: 16 << 20, maxBytes: 1 << 20))
        #expect { _ = try decoder.frames(bytes, maxFrames: 4) } throws: { error in
            (error as? GIFError)?.isOverLimit == true && "\(error)".contains("60000 x 60000")
        }
    }

    @Test func picturesAreDrawnOverWhatTheirDisposalLeaves() throws {
        let bytes = gif([
            (0, 2, [0, 1], 1, 10),   // red, green; kept
            (1, 1, [2], 3, 20),      // blue on the right; then put back
            (0, 1, [3], 2, 0),       // white on the left; a delay of 0 plays as 0.1 s
            (1, 1, [2], 0, 5),       // the left cleared after the white: transparent
        ])
        let decoder = GIFDecoder()
        #expect(try decoder.frameCount(bytes) == 4)
        let frames = try decoder.frames(bytes, maxFrames: 4)
        #expect(frames.map(\.duration) == [0.1, 0.2, 0.1, 0.05])
        #expect(pixels(frames[0].image) == [[255, 0, 0, 255], [0, 255, 0, 255]])
        #expect(pixels(frames[1].image) == [[255, 0, 0, 255], [0, 0, 255, 255]])
        #expect(pixels(frames[2].image) == [[255, 255, 255, 255], [0, 255, 0, 255]], "the blue put back to green")
        #expect(pixels(frames[3].image) == [[0, 0, 0, 0], [0, 0, 255, 255]], "the white cleared")
        // The first picture alone is what `decode` gives.
        #expect(pixels(try decoder.decode(bytes)) == pixels(frames[0].image))
    }

    @Test func tooManyPicturesAreRefusedBeforeAnyIsDecoded() throws {
        let bytes = gif(Array(repeating: (0, 2, [0, 1], 1, 10), count: 5))
        #expect(throws: GIFError.self) { try GIFDecoder().frames(bytes, maxFrames: 4) }
        #expect(try GIFDecoder().frames(bytes, maxFrames: 5).count == 5)
    }
}
