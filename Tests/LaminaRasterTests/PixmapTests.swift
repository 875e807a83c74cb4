// Pixmap storage, pixel access and rectangle operations.
import Testing
@testable import LaminaRaster
@testable import LaminaCore
import LaminaGeometry

@Suite struct PixmapTests {
    let red = PremultipliedColor(r: 255, g: 0, b: 0, a: 255)
    let halfGreen = PremultipliedColor(r: 0, g: 128, b: 0, a: 128)

    @Test func newPixmapIsTransparentAndSized() throws {
        let p = try Pixmap(width: 3, height: 2)
        #expect(p.data.count == 3 * 2 * 4)
        #expect(p.data.allSatisfy { $0 == 0 })
        #expect(p.bounds == PixelRect(width: 3, height: 2))
        let empty = try Pixmap(width: 0, height: 5)
        #expect(empty.data.isEmpty)
    }

    @Test func pixelsAreStoredRowMajorRGBA() throws {
        var p = try Pixmap(width: 3, height: 2)
        try p.setPixel(halfGreen, x: 2, y: 1)
        #expect(try p.pixel(x: 2, y: 1) == halfGreen)
        let i = (1 * 3 + 2) * 4
        #expect(Array(p.data[i..<i + 4]) == [0, 128, 0, 128])
        p.fill(red)
        #expect(try p.pixel(x: 0, y: 0) == red)
        let filled = try Pixmap(width: 2, height: 1, filledWith: halfGreen)
        #expect(filled.data == [0, 128, 0, 128, 0, 128, 0, 128])
    }

    @Test func badSizesAndDataThrow() throws {
        #expect(throws: RasterError.self) { try Pixmap(width: -1, height: 2) }
        #expect(throws: RasterError.self) { try Pixmap(width: Pixmap.maximumDimension + 1, height: 1) }
        #expect(throws: RasterError.pixelDataSize(expected: 8, actual: 4)) {
            try Pixmap(width: 2, height: 1, premultipliedRGBA: [0, 0, 0, 0])
        }
        #expect(throws: RasterError.notPremultiplied(x: 1, y: 0)) {
            try Pixmap(width: 2, height: 1, premultipliedRGBA: [0, 0, 0, 0, 200, 0, 0, 100])
        }
        let p = try Pixmap(width: 2, height: 2)
        #expect(throws: RasterError.self) { try p.pixel(x: 2, y: 0) }
        #expect(throws: RasterError.self) { try p.pixel(x: 0, y: -1) }
    }

    /// The vector check finds the same first pixel as the rule read pixel
    /// by pixel: any channel, any place (in a group of four or in the tail
    /// after the last whole group), colours equal to alpha allowed.
    @Test func theFirstUnpremultipliedPixelIsFoundWherever() throws {
        var random = SeededRandom(seed: 0x9A1)
        for trial in 0..<400 {
            let count = random.int(0...41)
            var data: [UInt8] = []
            for _ in 0..<count {
                let a = UInt8(random.int(0...255))
                data += [UInt8(random.int(0...Int(a))), UInt8(random.int(0...Int(a))), a, a]
                data.swapAt(data.count - 4 + random.int(0...2), data.count - 2)  // alpha-equal colour in any channel
            }
            for _ in 0..<random.int(0...2) where count > 0 {
                let pixel = random.int(0...(count - 1)), channel = random.int(0...2)
                if data[pixel * 4 + 3] < 255 { data[pixel * 4 + channel] = UInt8(random.int(Int(data[pixel * 4 + 3]) + 1...255)) }
            }
            let expected = (0..<count).first { p in (0..<3).contains { data[p * 4 + $0] > data[p * 4 + 3] } }
            #expect(Pixmap.firstUnpremultipliedPixel(data) == expected, "trial \(trial)")
        }
    }

    @Test func colourConstructionKeepsPremultiplication() {
        // A channel above alpha is lowered to it.
        #expect(PremultipliedColor(r: 200, g: 10, b: 0, a: 100) == PremultipliedColor(r: 100, g: 10, b: 0, a: 100))
        // Straight components are multiplied by alpha and rounded.
        #expect(PremultipliedColor(red: 1, green: 0.5, blue: 0, alpha: 0.5) == PremultipliedColor(r: 128, g: 64, b: 0, a: 128))
        #expect(PremultipliedColor(red: .nan, green: 2, blue: -1, alpha: 1) == PremultipliedColor(r: 0, g: 255, b: 0, a: 255))
    }

    @Test func fillRectClipsToTheBounds() throws {
        var p = try Pixmap(width: 4, height: 4)
        p.fill(red, in: PixelRect(x: 2, y: -1, width: 10, height: 2))
        #expect(try p.pixel(x: 2, y: 0) == red)
        #expect(try p.pixel(x: 3, y: 0) == red)
        #expect(try p.pixel(x: 1, y: 0) == .clear)
        #expect(try p.pixel(x: 2, y: 1) == .clear)
    }

    @Test func croppingCopiesASubRectangle() throws {
        var p = try Pixmap(width: 4, height: 3)
        try p.setPixel(red, x: 1, y: 1)
        try p.setPixel(halfGreen, x: 2, y: 2)
        let c = try p.cropped(to: PixelRect(x: 1, y: 1, width: 2, height: 2))
        #expect(c.width == 2 && c.height == 2)
        #expect(try c.pixel(x: 0, y: 0) == red)
        #expect(try c.pixel(x: 1, y: 1) == halfGreen)
        #expect(try c.pixel(x: 1, y: 0) == .clear)
        #expect(throws: RasterError.self) { try p.cropped(to: PixelRect(x: 3, y: 0, width: 2, height: 1)) }
    }

    @Test func replacingAndCompositingClipAtTheEdges() throws {
        var target = try Pixmap(width: 3, height: 3, filledWith: PremultipliedColor(r: 0, g: 0, b: 255, a: 255))
        let patch = try Pixmap(width: 2, height: 2, filledWith: halfGreen)
        target.replacePixels(with: patch, atX: 2, y: -1)
        #expect(try target.pixel(x: 2, y: 0) == halfGreen)
        #expect(try target.pixel(x: 1, y: 0) == PremultipliedColor(r: 0, g: 0, b: 255, a: 255))

        var over = try Pixmap(width: 3, height: 3, filledWith: PremultipliedColor(r: 0, g: 0, b: 255, a: 255))
        try over.composite(patch, atX: -1, y: -1)
        // Half green over blue: g = 128, b = 255·127/255 = 127, a = 255.
        #expect(try over.pixel(x: 0, y: 0) == PremultipliedColor(r: 0, g: 128, b: 127, a: 255))
        #expect(try over.pixel(x: 1, y: 1) == PremultipliedColor(r: 0, g: 0, b: 255, a: 255))
        #expect(throws: RasterError.self) { try over.composite(patch, atX: 0, y: 0, alpha: .nan) }
    }
}

@Suite("Masked composite")
struct MaskedCompositeTests {
    /// Random premultiplied pixels (each colour channel at most its alpha),
    /// some fully transparent and some opaque.
    private func pixmap(_ w: Int, _ h: Int, seed: UInt64) throws -> Pixmap {
        var state = seed
        func next() -> UInt32 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt32(truncatingIfNeeded: state >> 33)
        }
        var bytes = [UInt8](repeating: 0, count: w * h * 4)
        for i in 0..<(w * h) {
            let pick = next() % 4
            let a = pick == 0 ? 0 : pick == 1 ? 255 : next() % 256
            bytes[i * 4 + 3] = UInt8(a)
            for c in 0..<3 { bytes[i * 4 + c] = UInt8(a == 0 ? 0 : next() % (a + 1)) }
        }
        return try Pixmap(width: w, height: h, premultipliedRGBA: bytes)
    }

    /// Drawing a surface through its mask in one pass gives the bytes that
    /// masking a copy and compositing it gave, at any placement (partly off
    /// the target too), opacity and inversion.
    @Test(arguments: [false, true], [1.0, 0.55])
    func itGivesTheBytesOfMaskingACopyThenCompositing(inverted: Bool, alpha: Double) throws {
        let source = try pixmap(37, 23, seed: 1), mask = try pixmap(37, 23, seed: 2)
        let background = try pixmap(50, 30, seed: 3)
        for (x, y) in [(0, 0), (5, 4), (-6, 11), (20, -3)] {
            var direct = background, reference = background
            let area = PixelRect(x: 2, y: 1, width: 44, height: 27)
            try direct.paint(#require(try MaskedComposite(source, through: mask, inverted: inverted, atX: x, y: y, alpha: alpha, within: area)))
            var masked = source
            masked.multiplyAlpha(by: mask, atX: 0, y: 0, inverted: inverted)
            try reference.paint(#require(try PixmapComposite(masked, atX: x, y: y, alpha: alpha, within: area)))
            #expect(direct.data == reference.data, "at (\(x), \(y))")
        }
    }
}
