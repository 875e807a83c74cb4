import LaminaRaster
import Foundation
import Testing
import LaminaRender
@testable import LaminaGL

@Suite("Polygon draws", .enabled(if: GLTestSupport.isAvailable, "no EGL display on this machine"))
struct PolygonDrawTests {
    /// A 60x60 local square centred on the origin, turned 50° about y under
    /// the book's perspective (m34 = -1/100) and moved to the target's centre.
    /// Its left edge comes towards the viewer (W < 1), its right edge recedes.
    static let perspective = TestMatrix.rotationY(50 * .pi / 180)
        .concatenating(TestMatrix.perspective(100))
        .concatenating(TestMatrix.translation(50, 50))
    static let square = CGRect(x: -30, y: -30, width: 60, height: 60)

    @Test("a solid quad lands where its matrix projects it, perspective included")
    func solidPerspectiveQuad() throws {
        let gl = try GLFixture()
        let target = try gl.target(100, 100)
        try gl.painter.fillPolygon(
            Self.square.polygon, transform: Self.perspective, paint: .color(.red), into: target)
        let pixels = try Pixels(target)

        // Points inside the square, projected: filled red.
        for (x, y) in [(0.0, 0.0), (-25, -25), (25, 25), (-25, 25), (25, -25)] {
            let p = TestMatrix.project(Self.perspective, x, y)
            #expect(pixels[Int(p.x), Int(p.y)] == [255, 0, 0, 255], "inside at local (\(x), \(y))")
        }
        // Points outside it: untouched.
        for (x, y) in [(-36.0, 0.0), (36, 0), (0, -36), (0, 36)] {
            let p = TestMatrix.project(Self.perspective, x, y)
            #expect(pixels[Int(p.x), Int(p.y)] == [0, 0, 0, 0], "outside at local (\(x), \(y))")
        }
        // Perspective: the edge nearer the viewer (W < 1) is taller.
        #expect(Self.perspective.apply(x: -30, y: 0).w < 1)
        let nearTop = TestMatrix.project(Self.perspective, -30, -30)
        let farTop = TestMatrix.project(Self.perspective, 30, -30)
        #expect(nearTop.y < farTop.y - 5)
        let column = Int(nearTop.x) + 1
        let rowBetween = Int((nearTop.y + farTop.y) / 2)
        #expect(pixels.alpha(column, rowBetween) == 255)
        try gl.context.checkErrors("after the perspective quad")
    }

    @Test("texture coordinates are interpolated perspective-correctly")
    func perspectiveTexture() throws {
        let gl = try GLFixture()
        // Left half red, right half blue.
        let texture = try GLTexture(
            context: gl.context, width: 2, height: 1, premultipliedRGBA: [255, 0, 0, 255, 0, 0, 255, 255])
        let target = try gl.target(100, 100)
        let input = GLTextureInput(texture, mapping: GLTextureMapping(localRect: Self.square), sampling: .nearest)
        try gl.painter.fillPolygon(
            Self.square.polygon, transform: Self.perspective, paint: .texture(input), into: target)
        let pixels = try Pixels(target)

        // The texture's middle (local x = 0) projects off the middle of the
        // quad's screen extent; check both sides of the true projection.
        let middle = TestMatrix.project(Self.perspective, 0, 0)
        let left = TestMatrix.project(Self.perspective, -30, 0)
        let right = TestMatrix.project(Self.perspective, 30, 0)
        let affineMiddle = (left.x + right.x) / 2
        #expect(abs(middle.x - affineMiddle) > 4, "the test needs visible perspective")
        let row = Int(middle.y)
        #expect(pixels[Int(middle.x) - 2, row] == [255, 0, 0, 255])
        #expect(pixels[Int(middle.x) + 2, row] == [0, 0, 255, 255])
    }

    @Test("a textured quad shows its texels in place, top row first")
    func texturedQuad() throws {
        let gl = try GLFixture()
        // 2x2: red, green / blue, half-transparent white (premultiplied).
        let texels: [UInt8] = [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 128, 128, 128, 128]
        let texture = try GLTexture(context: gl.context, width: 2, height: 2, premultipliedRGBA: texels)
        let target = try gl.target(8, 8)
        let rect = CGRect.square(0, 0, 8)
        let input = GLTextureInput(texture, mapping: GLTextureMapping(localRect: rect), sampling: .nearest)
        try gl.painter.fillPolygon(rect.polygon, transform: .identity, paint: .texture(input), into: target)
        let pixels = try Pixels(target)
        #expect(pixels[1, 1] == [255, 0, 0, 255])
        #expect(pixels[6, 1] == [0, 255, 0, 255])
        #expect(pixels[1, 6] == [0, 0, 255, 255])
        #expect(pixels[6, 6] == [128, 128, 128, 128])

        // Half opacity scales all four premultiplied components.
        let faded = try gl.target(8, 8)
        try gl.painter.fillPolygon(
            rect.polygon, transform: .identity, paint: .texture(input), options: GLDrawOptions(opacity: 0.5),
            into: faded)
        let fadedPixels = try Pixels(faded)
        #expect(fadedPixels[1, 1].enumerated().allSatisfy { abs($0.element - [128, 0, 0, 128][$0.offset]) <= 1 })
    }

    @Test("a uv rect picks part of a texture")
    func uvRect() throws {
        let gl = try GLFixture()
        let texels: [UInt8] = [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255]
        let texture = try GLTexture(context: gl.context, width: 2, height: 2, premultipliedRGBA: texels)
        let target = try gl.target(4, 4)
        let rect = CGRect.square(0, 0, 4)
        // Only the bottom-right texel.
        let mapping = GLTextureMapping(localRect: rect, uvRect: CGRect(x: 0.5, y: 0.5, width: 0.5, height: 0.5))
        try gl.painter.fillPolygon(
            rect.polygon, transform: .identity,
            paint: .texture(GLTextureInput(texture, mapping: mapping, sampling: .nearest)), into: target)
        #expect(try target.readPixels() == [UInt8](repeating: 255, count: 64))
    }

    @Test("trilinear filtering averages through mipmaps")
    func trilinear() throws {
        let gl = try GLFixture()
        // A 4x4 checkerboard of opaque black and white, shrunk to one pixel.
        var checker: [UInt8] = []
        for y in 0..<4 {
            for x in 0..<4 {
                let value: UInt8 = (x + y) % 2 == 0 ? 255 : 0
                checker += [value, value, value, 255]
            }
        }
        let texture = try GLTexture(context: gl.context, width: 4, height: 4, premultipliedRGBA: checker)
        let target = try gl.target(1, 1)
        let rect = CGRect.square(0, 0, 1)
        let sampling = GLSampling(minification: .trilinear, magnification: .linear)
        try gl.painter.fillPolygon(
            rect.polygon, transform: .identity,
            paint: .texture(GLTextureInput(texture, mapping: GLTextureMapping(localRect: rect), sampling: sampling)),
            into: target)
        let pixel = try Pixels(target)[0, 0]
        #expect(abs(pixel[0] - 128) <= 2)
        #expect(pixel[3] == 255)
    }

    @Test("source-over blending of premultiplied colours, in painter's order")
    func blending() throws {
        let gl = try GLFixture()
        let target = try gl.target(4, 4)
        let rect = CGRect.square(0, 0, 4)
        try gl.painter.fillPolygon(rect.polygon, transform: .identity, paint: .color(.blue), into: target)
        // Half-transparent red over opaque blue.
        let halfRed = RGBA(red: 1, green: 0, blue: 0, alpha: 0.5)
        try gl.painter.fillPolygon(rect.polygon, transform: .identity, paint: .color(halfRed), into: target)
        let pixel = try Pixels(target)[2, 2]
        #expect(abs(pixel[0] - 128) <= 1 && pixel[1] == 0 && abs(pixel[2] - 127) <= 1 && pixel[3] == 255)
    }

    @Test("bad input is an error, not a crash")
    func badInput() throws {
        let gl = try GLFixture()
        let target = try gl.target(4, 4)
        let square = CGRect.square(0, 0, 4).polygon
        #expect(throws: GLError.self) {
            try gl.painter.fillPolygon(Array(square.prefix(2)), transform: .identity, paint: .color(.red), into: target)
        }
        #expect(throws: GLError.self) {
            try gl.painter.fillPolygon(
                [CGPoint(x: Double.nan, y: 0)] + square, transform: .identity, paint: .color(.red), into: target)
        }
        #expect(throws: GLError.self) {
            try gl.painter.fillPolygon(
                square, transform: .identity, paint: .color(.red),
                options: GLDrawOptions(clipPlanes: Array(repeating: HalfPlane(a: 1, b: 0, c: 0), count: 5)),
                into: target)
        }
        #expect(throws: GLError.self) {
            try gl.painter.fillPolygon(
                square, transform: .identity, paint: .color(.red), options: GLDrawOptions(opacity: 2), into: target)
        }
        let selfSample = GLTextureInput(target, mapping: GLTextureMapping(localRect: .square(0, 0, 4)))
        #expect(throws: GLError.self) {
            try gl.painter.fillPolygon(square, transform: .identity, paint: .texture(selfSample), into: target)
        }
        #expect(throws: GLError.self) {
            try GLTexture(context: gl.context, width: 2, height: 2, premultipliedRGBA: [1, 2, 3])
        }
        #expect(throws: GLError.self) { try gl.target(0, 4) }
        #expect(throws: GLError.self) { try gl.target(gl.context.info.maxTextureSize + 1, 1) }
        var infinite = CATransform3D.identity
        infinite.m41 = .infinity
        #expect(throws: GLError.self) { try infinite.validateForDrawing() }
        #expect(throws: GLError.self) { try gl.painter.fillPolygon(square, transform: infinite, paint: .color(.red), into: target) }
        try gl.context.checkErrors("after rejected draws")
    }
}
