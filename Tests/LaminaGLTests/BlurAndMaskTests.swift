import Foundation
import Testing
@testable import LaminaGL

@Suite("Blur, tint and mask", .enabled(if: GLTestSupport.isAvailable, "no EGL display on this machine"))
struct BlurAndMaskTests {
    /// A `size` x `size` target with an opaque white square of `side` pixels
    /// at its centre.
    private func square(_ gl: GLFixture, size: Int, side: Int) throws -> GLRenderTarget {
        let target = try gl.target(size, size)
        let start = Double(size - side) / 2
        try gl.painter.fillPolygon(
            CGRect.square(start, start, Double(side)).polygon, transform: .identity, paint: .color(.white),
            into: target)
        return target
    }

    /// The same blur on the CPU: the discrete kernel of `GaussianKernel`
    /// (texel-integrated Gaussian, radius ⌈3σ⌉), applied directly.
    private func referenceBlur(_ alpha: [Double], size: Int, sigma: Double) -> [Double] {
        let radius = Int((3 * sigma).rounded(.up))
        func cumulative(_ x: Double) -> Double { 0.5 * (1 + erf(x / (sigma * 2.0.squareRoot()))) }
        var weights = (-radius...radius).map { cumulative(Double($0) + 0.5) - cumulative(Double($0) - 0.5) }
        let total = weights.reduce(0, +)
        weights = weights.map { $0 / total }
        func pass(_ input: [Double], horizontal: Bool) -> [Double] {
            var output = [Double](repeating: 0, count: input.count)
            for y in 0..<size {
                for x in 0..<size {
                    var sum = 0.0
                    for k in -radius...radius {
                        let (sx, sy) = horizontal ? (x + k, y) : (x, y + k)
                        guard (0..<size).contains(sx), (0..<size).contains(sy) else { continue }
                        sum += input[sy * size + sx] * weights[k + radius]
                    }
                    output[y * size + x] = sum
                }
            }
            return output
        }
        return pass(pass(alpha, horizontal: true), horizontal: false)
    }

    @Test("a blurred dot spreads symmetrically, as the CPU reference does")
    func blurDot() throws {
        let gl = try GLFixture()
        let size = 41
        let source = try square(gl, size: size, side: 3)
        let blurred = try gl.target(size, size)
        try gl.painter.blur(source, into: blurred, sigma: 2.5)
        let pixels = try Pixels(blurred)

        let centre = size / 2
        for d in 1...8 {
            let values = [
                pixels.alpha(centre - d, centre), pixels.alpha(centre + d, centre),
                pixels.alpha(centre, centre - d), pixels.alpha(centre, centre + d),
            ]
            #expect((values.max() ?? 0) - (values.min() ?? 0) <= 1, "symmetric at distance \(d): \(values)")
            #expect(pixels.alpha(centre + d, centre) <= pixels.alpha(centre + d - 1, centre))
        }
        #expect(pixels.alpha(centre + 1, centre + 1) == pixels.alpha(centre - 1, centre - 1))
        #expect(pixels.alpha(centre, centre) < 255, "the dot spread out")
        #expect(pixels.alpha(centre + 6, centre) > 0, "and reached further")

        var input = [Double](repeating: 0, count: size * size)
        for y in centre - 1...centre + 1 { for x in centre - 1...centre + 1 { input[y * size + x] = 255 } }
        let expected = referenceBlur(input, size: size, sigma: 2.5)
        var worst = 0.0
        for index in 0..<size * size {
            worst = max(worst, abs(Double(pixels.bytes[index * 4 + 3]) - expected[index]))
        }
        #expect(worst <= 2, "largest difference from the CPU reference: \(worst)")
        // Colour stays premultiplied: white stays grey-of-alpha.
        #expect(pixels[centre, centre][0] == pixels.alpha(centre, centre))
    }

    @Test("a large blur goes through a halved source and still spreads evenly")
    func largeBlur() throws {
        let gl = try GLFixture()
        let size = 96
        let source = try square(gl, size: size, side: 24)
        let blurred = try gl.target(size, size)
        try gl.painter.blur(source, into: blurred, sigma: 50)
        let pixels = try Pixels(blurred)
        let centre = size / 2
        for d in [4, 12, 24, 40] {
            let values = [
                pixels.alpha(centre - 1 - d, centre), pixels.alpha(centre + d, centre),
                pixels.alpha(centre, centre - 1 - d), pixels.alpha(centre, centre + d),
            ]
            #expect((values.max() ?? 0) - (values.min() ?? 0) <= 2, "symmetric at distance \(d): \(values)")
        }
        var input = [Double](repeating: 0, count: size * size)
        for y in 36..<60 { for x in 36..<60 { input[y * size + x] = 255 } }
        let expected = referenceBlur(input, size: size, sigma: 50)
        let got = Double(pixels.alpha(centre, centre))
        #expect(abs(got - expected[centre * size + centre]) <= 4, "centre \(got) vs \(expected[centre * size + centre])")
        #expect(pixels.alpha(centre, centre) < 255 && pixels.alpha(1, 1) > 0)
        #expect(gl.painter.targets.checkedOutCount == 0, "blur steps go back to the pool")
    }

    @Test("a blur wide enough to run at half size stays close to the exact one")
    func halvedBlur() throws {
        let gl = try GLFixture()
        let size = 80
        let source = try square(gl, size: size, side: 20)
        let blurred = try gl.target(size, size)
        try gl.painter.blur(source, into: blurred, sigma: 12)
        let pixels = try Pixels(blurred)
        var input = [Double](repeating: 0, count: size * size)
        for y in 30..<50 { for x in 30..<50 { input[y * size + x] = 255 } }
        let expected = referenceBlur(input, size: size, sigma: 12)
        var worst = 0.0
        for index in 0..<size * size {
            worst = max(worst, abs(Double(pixels.bytes[index * 4 + 3]) - expected[index]))
        }
        #expect(worst <= 2, "largest difference from the CPU reference: \(worst)")
    }

    @Test("a blur into a target of another size scales the result to fit")
    func scaledBlur() throws {
        let gl = try GLFixture()
        let source = try square(gl, size: 40, side: 8)
        let small = try gl.target(20, 20)
        try gl.painter.blur(source, into: small, sigma: 2)
        let pixels = try Pixels(small)
        #expect(pixels.alpha(9, 9) == pixels.alpha(10, 10))
        #expect(pixels.alpha(9, 9) > 200)
        #expect(pixels.alpha(1, 10) == 0)
        #expect(pixels.alpha(6, 10) > 0 && pixels.alpha(6, 10) < pixels.alpha(7, 10))
        #expect(gl.painter.targets.checkedOutCount == 0)
    }

    @Test("zero sigma copies, bad sigma is an error")
    func blurEdgeCases() throws {
        let gl = try GLFixture()
        let source = try square(gl, size: 8, side: 2)
        let copy = try gl.target(8, 8)
        try gl.painter.blur(source, into: copy, sigma: 0)
        #expect(try copy.readPixels() == source.readPixels())
        #expect(throws: GLError.self) { try gl.painter.blur(source, into: copy, sigma: -1) }
        #expect(throws: GLError.self) { try gl.painter.blur(source, into: copy, sigma: .nan) }
        #expect(throws: GLError.self) { try gl.painter.blur(source, into: source, sigma: 1) }
    }

    @Test("an alpha tint draws a colour through a texture's alpha")
    func alphaTint() throws {
        let gl = try GLFixture()
        // Opaque red on the left, half-transparent green on the right: only alpha counts.
        let texture = try GLTexture(
            context: gl.context, width: 2, height: 1, premultipliedRGBA: [255, 0, 0, 255, 0, 128, 0, 128])
        let target = try gl.target(4, 2)
        let rect = CGRect(x: 0, y: 0, width: 4, height: 2)
        let input = GLTextureInput(texture, mapping: GLTextureMapping(localRect: rect), sampling: .nearest)
        try gl.painter.fillPolygon(
            rect.polygon, transform: .identity, paint: .alphaTint(input, color: .blue), into: target)
        let pixels = try Pixels(target)
        #expect(pixels[0, 0] == [0, 0, 255, 255])
        #expect(pixels[3, 1] == [0, 0, 128, 128])
    }

    @Test("a mask multiplies content by its alpha, through its own mapping")
    func mask() throws {
        let gl = try GLFixture()
        let content = try GLTexture(
            context: gl.context, width: 1, height: 1, premultipliedRGBA: [255, 0, 0, 255])
        // Mask: opaque, then half, then clear, left to right.
        let mask = try GLTexture(
            context: gl.context, width: 3, height: 1,
            premultipliedRGBA: [255, 255, 255, 255, 0, 0, 0, 128, 0, 0, 0, 0])
        let target = try gl.target(12, 4)
        let rect = CGRect(x: 0, y: 0, width: 12, height: 4)
        // The mask covers only local x 0...6; beyond it clamps to its clear edge.
        let maskInput = GLTextureInput(
            mask, mapping: GLTextureMapping(localRect: CGRect(x: 0, y: 0, width: 6, height: 4)), sampling: .nearest)
        let contentInput = GLTextureInput(content, mapping: GLTextureMapping(localRect: rect), sampling: .nearest)
        try gl.painter.fillPolygon(
            rect.polygon, transform: .identity, paint: .masked(contentInput, mask: maskInput, inverted: false), into: target)
        let pixels = try Pixels(target)
        #expect(pixels[0, 1] == [255, 0, 0, 255])
        #expect(pixels[1, 2] == [255, 0, 0, 255])
        #expect(pixels[2, 1] == [128, 0, 0, 128])
        #expect(pixels[3, 2] == [128, 0, 0, 128])
        #expect(pixels[4, 1] == [0, 0, 0, 0])
        #expect(pixels[11, 3] == [0, 0, 0, 0])

        // Inverted: one minus the mask's alpha; past its clear edge, everything.
        let inverted = try gl.target(12, 4)
        try gl.painter.fillPolygon(
            rect.polygon, transform: .identity, paint: .masked(contentInput, mask: maskInput, inverted: true), into: inverted)
        let shown = try Pixels(inverted)
        #expect(shown[0, 1] == [0, 0, 0, 0])
        #expect(shown[2, 1] == [127, 0, 0, 127])
        #expect(shown[4, 1] == [255, 0, 0, 255])
        #expect(shown[11, 3] == [255, 0, 0, 255])
    }
}
