import Foundation
import Testing
@testable import LaminaGL

@Suite("Render targets", .enabled(if: GLTestSupport.isAvailable, "no EGL display on this machine"))
struct RenderTargetTests {
    @Test("readback gives the top row first")
    func orientation() throws {
        let gl = try GLFixture()
        let target = try gl.target(6, 4)
        // Red across the top row only, blue down the left column below it.
        try gl.painter.fillPolygon(
            CGRect(x: 0, y: 0, width: 6, height: 1).polygon, transform: .identity, paint: .color(.red), into: target)
        try gl.painter.fillPolygon(
            CGRect(x: 0, y: 1, width: 1, height: 3).polygon, transform: .identity, paint: .color(.blue), into: target)
        let bytes = try target.readPixels()
        #expect(bytes.count == 6 * 4 * 4)
        #expect(Array(bytes[0..<24]) == Array([[UInt8]](repeating: [255, 0, 0, 255], count: 6).joined()))
        let lastRow = Array(bytes[72..<96])
        #expect(Array(lastRow[0..<4]) == [0, 0, 255, 255])
        #expect(Array(lastRow[4...]) == [UInt8](repeating: 0, count: 20))
    }

    @Test("a render target samples with the same orientation as an uploaded image")
    func targetAsTexture() throws {
        let gl = try GLFixture()
        let source = try gl.target(4, 4)
        try gl.painter.fillPolygon(
            CGRect(x: 0, y: 0, width: 4, height: 2).polygon, transform: .identity, paint: .color(.green), into: source)
        let copy = try gl.target(8, 8)
        let rect = CGRect.square(0, 0, 8)
        try gl.painter.fillPolygon(
            rect.polygon, transform: .identity,
            paint: .texture(GLTextureInput(source, mapping: GLTextureMapping(localRect: rect), sampling: .nearest)),
            into: copy)
        let pixels = try Pixels(copy)
        #expect(pixels[4, 1] == [0, 255, 0, 255])
        #expect(pixels[4, 6] == [0, 0, 0, 0])
    }

    @Test("MSAA resolves to partial coverage on an edge; without it the edge is hard")
    func multisampling() throws {
        let gl = try GLFixture()
        // A triangle whose long edge runs diagonally through pixel centres' neighbourhoods.
        let triangle = [CGPoint(x: 0, y: 0), CGPoint(x: 20, y: 0), CGPoint(x: 0, y: 20)]
        func edgeAlphas(multisampled: Bool) throws -> [Int] {
            let target = try gl.target(20, 20, multisampled: multisampled)
            #expect(target.isMultisampled == multisampled)
            try gl.painter.fillTriangles(triangle, transform: .identity, paint: .color(.white), into: target)
            let pixels = try Pixels(target)
            #expect(pixels.alpha(2, 2) == 255)
            #expect(pixels.alpha(18, 18) == 0)
            // Pixels the edge x + y = 20 crosses.
            return (1..<19).map { pixels.alpha($0, 19 - $0) }
        }
        let smooth = try edgeAlphas(multisampled: true)
        #expect(smooth.allSatisfy { (1...254).contains($0) }, "partial coverage on the edge: \(smooth)")
        let hard = try edgeAlphas(multisampled: false)
        #expect(hard.allSatisfy { $0 == 0 || $0 == 255 }, "no partial coverage without MSAA: \(hard)")
    }

    @Test("an indexed mesh fills its triangles")
    func indexedMesh() throws {
        let gl = try GLFixture()
        let target = try gl.target(10, 10, multisampled: true)
        let corners = CGRect(x: 2, y: 2, width: 6, height: 6).polygon
        try gl.painter.fillTriangles(
            corners, indices: [0, 1, 2, 0, 2, 3], transform: .identity, paint: .color(.red), into: target)
        let pixels = try Pixels(target)
        for y in 2..<8 { for x in 2..<8 { #expect(pixels[x, y] == [255, 0, 0, 255], "pixel \(x), \(y)") } }
        #expect(pixels.alpha(1, 5) == 0 && pixels.alpha(8, 5) == 0)
        #expect(throws: GLError.self) {
            try gl.painter.fillTriangles(corners, indices: [0, 1, 4], transform: .identity, paint: .color(.red),
                                         into: target)
        }
        #expect(throws: GLError.self) {
            try gl.painter.fillTriangles(corners, transform: .identity, paint: .color(.red), into: target)
        }
    }

    @Test("the pool hands the same targets out again, cleared, and frees idle ones")
    func pool() throws {
        let context = try GLContext()
        let pool = GLRenderTargetPool(context: context, maximumIdleFrames: 2)
        let first = try pool.acquire(width: 16, height: 8)
        try first.clear(to: .red)
        try pool.recycle(first)
        #expect(throws: GLError.self) { try pool.recycle(first) }
        pool.endFrame()
        let again = try pool.acquire(width: 16, height: 8)
        #expect(again === first)
        #expect(try again.readPixels().allSatisfy { $0 == 0 }, "reused targets come back cleared")
        let other = try pool.acquire(width: 16, height: 8, multisampled: true)
        #expect(other !== first && other.isMultisampled)
        try pool.recycle(again)
        try pool.recycle(other)
        #expect(pool.idleCount == 2 && pool.checkedOutCount == 0)
        pool.endFrame()
        pool.endFrame()
        #expect(pool.idleCount == 2)
        pool.endFrame()
        #expect(pool.idleCount == 0, "idle for more than two frames")
    }
}
