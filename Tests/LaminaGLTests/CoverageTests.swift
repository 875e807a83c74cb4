import Foundation
import Testing
import LaminaRender
@testable import LaminaGL

@Suite("Rounded rects and clip planes", .enabled(if: GLTestSupport.isAvailable, "no EGL display on this machine"))
struct CoverageTests {
    /// Draws a white polygon covering `polygon` with `options` into a fresh
    /// `size` x `size` target.
    private func draw(
        _ gl: GLFixture, size: Int, polygon: CGRect, transform: CATransform3D = .identity, options: GLDrawOptions
    ) throws -> Pixels {
        let target = try gl.target(size, size)
        try gl.painter.fillPolygon(
            polygon.polygon, transform: transform, paint: .color(.white), options: options, into: target)
        return try Pixels(target)
    }

    @Test("a rounded rect: corners clear, centre opaque, edges partly covered")
    func roundedRect() throws {
        let gl = try GLFixture()
        // The rect's left edge runs through the centres of column 5's pixels.
        let shape = RoundedRectCoverage(
            rect: CGRect(x: 5.5, y: 5, width: 29.5, height: 30), radii: CornerRadii(uniform: 10))
        let pixels = try draw(gl, size: 40, polygon: .square(0, 0, 40), options: GLDrawOptions(coverage: shape))
        #expect(pixels.alpha(20, 20) == 255)
        #expect(pixels.alpha(6, 6) == 0, "outside the top-left arc")
        #expect(pixels.alpha(33, 33) == 0, "outside the bottom-right arc")
        #expect(pixels.alpha(2, 20) == 0, "outside the rect")
        let edge = pixels.alpha(5, 20)
        #expect((110...146).contains(edge), "half covered at the edge, got \(edge)")
        #expect(pixels.alpha(6, 20) == 255)
        // On the arc (distance 10 from the corner centre at 45°) partly covered.
        let onArc = 15.5 - 10 / 2.0.squareRoot()
        let arc = pixels.alpha(Int(onArc), Int(15 - 10 / 2.0.squareRoot()))
        #expect((1...254).contains(arc), "partial on the arc, got \(arc)")
        // Premultiplied: colour follows alpha.
        #expect(pixels[5, 20][0] == edge)
    }

    @Test("per-corner radii apply to their own corners")
    func perCornerRadii() throws {
        let gl = try GLFixture()
        let shape = RoundedRectCoverage(
            rect: .square(0, 0, 40), radii: CornerRadii(minXMinY: 15, maxXMinY: 0, maxXMaxY: 15, minXMaxY: 0))
        let pixels = try draw(gl, size: 40, polygon: .square(0, 0, 40), options: GLDrawOptions(coverage: shape))
        #expect(pixels.alpha(1, 1) == 0)
        #expect(pixels.alpha(38, 1) == 255)
        #expect(pixels.alpha(38, 38) == 0)
        #expect(pixels.alpha(1, 38) == 255)
    }

    @Test("a border is a ring inside the rect")
    func border() throws {
        let gl = try GLFixture()
        let shape = RoundedRectCoverage(rect: .square(4, 4, 32), radii: CornerRadii(uniform: 8), borderWidth: 4)
        let pixels = try draw(gl, size: 40, polygon: .square(0, 0, 40), options: GLDrawOptions(coverage: shape))
        #expect(pixels.alpha(20, 20) == 0, "the middle is not part of the border")
        #expect(pixels.alpha(5, 20) == 255)
        #expect(pixels.alpha(34, 20) == 255)
        #expect(pixels.alpha(20, 9) == 0, "just inside the ring")
        #expect(pixels.alpha(2, 20) == 0, "outside the rect")
        #expect(pixels.alpha(5, 5) == 0, "cut by the outer corner")
    }

    @Test("the edge stays about one pixel wide under scaling")
    func edgeWidthUnderScale() throws {
        let gl = try GLFixture()
        // Local rect 0...10 drawn 4x larger: its right edge at pixel x = 40.5.
        let shape = RoundedRectCoverage(rect: CGRect(x: 0, y: 0, width: 10.125, height: 12))
        let pixels = try draw(
            gl, size: 48, polygon: .square(0, 0, 12), transform: TestMatrix.scale(4),
            options: GLDrawOptions(coverage: shape))
        #expect(pixels.alpha(39, 20) == 255)
        let edge = pixels.alpha(40, 20)
        #expect((110...146).contains(edge), "half covered at the edge, got \(edge)")
        #expect(pixels.alpha(41, 20) == 0)
    }

    @Test("a clip half-plane keeps one side, and its flip tiles the other without a seam")
    func clipPlane() throws {
        let gl = try GLFixture()
        let target = try gl.target(20, 20)
        // x - 0.37 y - 6 >= 0: a slanted line.
        let plane = HalfPlane(a: 1, b: -0.37, c: -6)
        let rect = CGRect.square(0, 0, 20)
        try gl.painter.fillPolygon(
            rect.polygon, transform: .identity, paint: .color(.red), options: GLDrawOptions(clipPlanes: [plane]),
            into: target)
        let clipped = try Pixels(target)
        #expect(clipped[2, 10] == [0, 0, 0, 0])
        #expect(clipped[18, 10] == [255, 0, 0, 255])
        for y in 0..<20 {
            for x in 0..<20 {
                let kept = Double(x) + 0.5 - 0.37 * (Double(y) + 0.5) - 6 >= 0
                #expect(clipped.alpha(x, y) == (kept ? 255 : 0), "pixel \(x), \(y)")
            }
        }
        try gl.painter.fillPolygon(
            rect.polygon, transform: .identity, paint: .color(.blue),
            options: GLDrawOptions(clipPlanes: [plane.flipped]), into: target)
        let both = try Pixels(target)
        for y in 0..<20 {
            for x in 0..<20 {
                #expect(both.alpha(x, y) == 255, "no seam at \(x), \(y)")
            }
        }
    }

    @Test("several clip planes intersect")
    func severalPlanes() throws {
        let gl = try GLFixture()
        let planes = [
            HalfPlane(a: 1, b: 0, c: -5), HalfPlane(a: -1, b: 0, c: 15),
            HalfPlane(a: 0, b: 1, c: -5), HalfPlane(a: 0, b: -1, c: 15),
        ]
        let pixels = try draw(gl, size: 20, polygon: .square(0, 0, 20), options: GLDrawOptions(clipPlanes: planes))
        #expect(pixels.alpha(10, 10) == 255)
        #expect(pixels.alpha(5, 5) == 255)
        #expect(pixels.alpha(14, 14) == 255)
        #expect(pixels.alpha(4, 10) == 0)
        #expect(pixels.alpha(15, 10) == 0)
        #expect(pixels.alpha(10, 4) == 0)
        #expect(pixels.alpha(10, 15) == 0)
    }
}
