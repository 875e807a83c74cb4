// Gaussian blur, tinting and alpha masks.
import Testing
@testable import LaminaCPU

@Suite struct EffectsTests {
    func alphaSum(_ p: Pixmap) -> Int {
        stride(from: 3, to: p.data.count, by: 4).reduce(0) { $0 + Int(p.data[$1]) }
    }

    @Test func kernelIsNormalisedAndReachesThreeSigma() throws {
        let blur = try GaussianBlur(sigma: 2.2)
        #expect(blur.radius == 7)
        #expect(blur.weights.count == 15)
        #expect(abs(blur.weights.reduce(0, +) - 1) < 1e-5)
        #expect(blur.weights == blur.weights.reversed())
        #expect(throws: CPURenderError.self) { try GaussianBlur(sigma: -1) }
        #expect(throws: CPURenderError.self) { try GaussianBlur(sigma: .infinity) }
    }

    @Test func blurIsSymmetricAndPreservesTheTotal() throws {
        // One opaque white pixel in the middle of a 5 x 5 picture.
        var p = try Pixmap(width: 5, height: 5)
        try p.setPixel(.white, x: 2, y: 2)
        let blur = try GaussianBlur(sigma: 1.5)
        let out = try blur.apply(to: p)
        #expect(out.width == 5 + 2 * blur.radius && out.height == out.width)
        let c = out.width / 2
        for y in 0..<out.height { for x in 0..<out.width {
            let v = try out.pixel(x: x, y: y)
            #expect(v == (try out.pixel(x: 2 * c - x, y: y)))
            #expect(v == (try out.pixel(x: x, y: 2 * c - y)))
            #expect(v == (try out.pixel(x: y, y: x)))
        } }
        // The peak is 255 · w0², w0 the centre weight.
        let w0 = Double(blur.weights[blur.radius])
        #expect(abs(Double(try out.pixel(x: c, y: c).a) - 255 * w0 * w0) <= 0.5)

        // A larger shape: the total is kept within rounding.
        var square = try Pixmap(width: 20, height: 20)
        square.fill(PremultipliedColor(r: 0, g: 100, b: 0, a: 200), in: PixelRect(x: 5, y: 5, width: 10, height: 10))
        let blurred = try GaussianBlur(sigma: 2).apply(to: square)
        #expect(abs(alphaSum(blurred) - alphaSum(square)) <= alphaSum(square) / 200)
        // Premultiplication survives.
        for i in stride(from: 0, to: blurred.data.count, by: 4) {
            #expect(blurred.data[i + 1] <= blurred.data[i + 3])
        }
    }

    @Test func zeroOrVanishingSigmaLeavesThePictureAlone() throws {
        var p = try Pixmap(width: 3, height: 3)
        try p.setPixel(.white, x: 1, y: 0)
        #expect(try GaussianBlur(sigma: 0).apply(to: p) == p)
        // A subnormal sigma still has a one-pixel kernel, all weight in the centre.
        let tiny = try GaussianBlur(sigma: .leastNonzeroMagnitude)
        #expect(tiny.weights == [0, 1, 0])
        #expect(try tiny.apply(to: p).cropped(to: PixelRect(x: 1, y: 1, width: 3, height: 3)) == p)
    }

    @Test func tintKeepsOnlyAlpha() throws {
        let p = try Pixmap(width: 2, height: 1, premultipliedRGBA: [10, 20, 30, 128, 0, 0, 0, 0])
        let shadow = p.tinted(with: PremultipliedColor(r: 255, g: 0, b: 0, a: 255))
        #expect(try shadow.pixel(x: 0, y: 0) == PremultipliedColor(r: 128, g: 0, b: 0, a: 128))
        #expect(try shadow.pixel(x: 1, y: 0) == .clear)
        // A half-transparent tint halves again.
        let faint = p.tinted(with: PremultipliedColor(r: 0, g: 0, b: 128, a: 128))
        #expect(try faint.pixel(x: 0, y: 0) == PremultipliedColor(r: 0, g: 0, b: 64, a: 64))
    }

    @Test func multiplyingByAMaskAlpha() throws {
        var p = try Pixmap(width: 3, height: 2, filledWith: .white)
        let mask = try Pixmap(width: 2, height: 1, premultipliedRGBA: [0, 0, 0, 128, 9, 9, 9, 255])
        p.multiplyAlpha(by: mask, atX: 1, y: 0)
        #expect(try p.pixel(x: 0, y: 0) == .clear)  // left of the mask
        #expect(try p.pixel(x: 1, y: 0) == PremultipliedColor(r: 128, g: 128, b: 128, a: 128))
        #expect(try p.pixel(x: 2, y: 0) == .white)
        #expect(try p.pixel(x: 1, y: 1) == .clear)  // below the mask
    }
}
