import LaminaRaster
import Foundation
import Testing
import LaminaRender
@testable import LaminaGL

/// Shapes for the path tests, in pixels of a 40x40 target. Vertices sit on
/// whole pixels, so on a single-sampled target a pixel is filled exactly when
/// its centre is inside: the tests can say which pixel must be which.
private enum Shapes {
    /// An L: a 12-wide bar down the left, a 12-high foot along the bottom.
    static let letterL = [
        CGPoint(x: 4, y: 4), CGPoint(x: 16, y: 4), CGPoint(x: 16, y: 24),
        CGPoint(x: 36, y: 24), CGPoint(x: 36, y: 36), CGPoint(x: 4, y: 36),
    ]

    static func insideL(_ x: Double, _ y: Double) -> Bool {
        (4..<16).contains(x) && (4..<36).contains(y) || (4..<36).contains(x) && (24..<36).contains(y)
    }

    /// A five-pointed star drawn in one stroke (each point joined to the one
    /// two further on): its pentagon centre has winding number 2.
    static func pentagram(center: CGPoint, radius: Double) -> [CGPoint] {
        (0..<5).map { step in
            let angle = (-90 + 144 * Double(step)) * .pi / 180
            return CGPoint(x: center.x + radius * cos(angle), y: center.y + radius * sin(angle))
        }
    }
}

@Suite("Path fills", .enabled(if: GLTestSupport.isAvailable, "no EGL display on this machine"))
struct PathFillTests {
    /// Fills `contours` into a fresh `size` x `size` target and reads it back.
    /// `byWinding` false stencils the path (`GLPainter.fillsPathsByWinding`).
    private func fill(
        _ gl: GLFixture, _ contours: [[CGPoint]], evenOdd: Bool, color: RGBA = .white,
        transform: CATransform3D = .identity, clipPlanes: [HalfPlane] = [], size: Int = 40, multisampled: Bool = false,
        byWinding: Bool = true
    ) throws -> Pixels {
        gl.painter.fillsPathsByWinding = byWinding && gl.painter.windingBuffer != nil
        let target = try gl.target(size, size, multisampled: multisampled)
        try gl.painter.fillPath(
            contours, evenOdd: evenOdd, transform: transform, color: color, clipPlanes: clipPlanes, into: target)
        return try Pixels(target)
    }

    /// Expects every pixel whose centre `inside` accepts to be `color` and
    /// every other pixel to be transparent.
    private func expectExactly(_ pixels: Pixels, _ color: [Int], _ what: String, inside: (Double, Double) -> Bool) {
        var wrong: [String] = []
        for y in 0..<pixels.height {
            for x in 0..<pixels.width {
                let expected = inside(Double(x) + 0.5, Double(y) + 0.5) ? color : [0, 0, 0, 0]
                if pixels[x, y] != expected { wrong.append("(\(x), \(y)): \(pixels[x, y])") }
            }
        }
        let wrongCount = wrong.count
        #expect(wrongCount == 0, "\(what): wrong pixels, first \(wrong.prefix(5))")
    }

    @Test("a concave L fills exactly its area under both rules", arguments: [false, true])
    func concave(evenOdd: Bool) throws {
        let gl = try GLFixture()
        let pixels = try fill(gl, [Shapes.letterL], evenOdd: evenOdd, color: .red)
        expectExactly(pixels, [255, 0, 0, 255], "L, evenOdd \(evenOdd)", inside: Shapes.insideL)
        // The same outline the other way round fills the same.
        let reversed = try fill(gl, [Shapes.letterL.reversed()], evenOdd: evenOdd, color: .red)
        #expect(reversed.bytes == pixels.bytes)
        try gl.context.checkErrors("after the L")
    }

    @Test("a pentagram's centre is filled by nonzero and empty under even-odd")
    func pentagram() throws {
        let gl = try GLFixture()
        let star = Shapes.pentagram(center: CGPoint(x: 20, y: 20), radius: 18)
        let nonZero = try fill(gl, [star], evenOdd: false)
        let evenOdd = try fill(gl, [star], evenOdd: true)
        #expect(nonZero[20, 20] == [255, 255, 255, 255])
        #expect(evenOdd[20, 20] == [0, 0, 0, 0])
        // The five points are filled under both (80% of the way out from the
        // centre), the corners of the target under neither.
        for pixels in [nonZero, evenOdd] {
            for (index, tip) in star.enumerated() {
                let x = Int(20 + 0.8 * (tip.x - 20)), y = Int(20 + 0.8 * (tip.y - 20))
                #expect(pixels.alpha(x, y) == 255, "point \(index) at pixel (\(x), \(y))")
            }
            #expect(pixels.alpha(1, 1) == 0 && pixels.alpha(38, 38) == 0 && pixels.alpha(20, 38) == 0)
        }
    }

    @Test("a reversed inner square is a hole under both rules, a same-way one only under even-odd")
    func holes() throws {
        let gl = try GLFixture()
        let outer = CGRect.square(4, 4, 32).polygon
        let inner = CGRect.square(14, 14, 12).polygon
        func inRing(_ x: Double, _ y: Double) -> Bool {
            (4..<36).contains(x) && (4..<36).contains(y) && !((14..<26).contains(x) && (14..<26).contains(y))
        }
        for evenOdd in [false, true] {
            let pixels = try fill(gl, [outer, inner.reversed()], evenOdd: evenOdd, color: .green)
            expectExactly(pixels, [0, 255, 0, 255], "reversed hole, evenOdd \(evenOdd)", inside: inRing)
        }
        let sameWayEvenOdd = try fill(gl, [outer, inner], evenOdd: true, color: .green)
        expectExactly(sameWayEvenOdd, [0, 255, 0, 255], "same-way hole, even-odd", inside: inRing)
        let sameWayNonZero = try fill(gl, [outer, inner], evenOdd: false, color: .green)
        expectExactly(sameWayNonZero, [0, 255, 0, 255], "same-way inner square, nonzero") { x, y in
            (4..<36).contains(x) && (4..<36).contains(y)
        }
    }

    @Test("overlapping translucent contours in one nonzero call blend once")
    func overlapBlendsOnce() throws {
        let gl = try GLFixture()
        let halfRed = RGBA(red: 1, green: 0, blue: 0, alpha: 0.5)
        let left = CGRect(x: 4, y: 10, width: 20, height: 20).polygon
        let right = CGRect(x: 16, y: 10, width: 20, height: 20).polygon
        let pixels = try fill(gl, [left, right], evenOdd: false, color: halfRed, multisampled: true)
        let onlyLeft = pixels[8, 20]
        #expect(abs(onlyLeft[0] - 128) <= 1 && onlyLeft[1] == 0 && onlyLeft[2] == 0 && abs(onlyLeft[3] - 128) <= 1)
        #expect(pixels[20, 20] == onlyLeft, "the overlap is not darker")
        #expect(pixels[32, 20] == onlyLeft)
        // The same under even-odd cancels in the overlap.
        let exclusive = try fill(gl, [left, right], evenOdd: true, color: halfRed, multisampled: true)
        #expect(exclusive[20, 20] == [0, 0, 0, 0])
        #expect(exclusive[8, 20] == onlyLeft)
    }

    @Test("many contours in one call all fill")
    func manyContours() throws {
        let gl = try GLFixture()
        let squares = (0..<100).map { CGRect.square(Double($0 % 10) * 4, Double($0 / 10) * 4, 2).polygon }
        let pixels = try fill(gl, squares, evenOdd: false, color: .blue)
        expectExactly(pixels, [0, 0, 255, 255], "grid of squares") { x, y in
            x.truncatingRemainder(dividingBy: 4) < 2 && y.truncatingRemainder(dividingBy: 4) < 2
        }
    }

    @Test("consecutive paths leave no stencil behind for each other", arguments: [false, true])
    func noStencilLeak(multisampled: Bool) throws {
        let gl = try GLFixture()
        let target = try gl.target(40, 40, multisampled: multisampled)
        let square = CGRect.square(8, 8, 24)
        let inside: (Double, Double) -> Bool = { x, y in square.contains(CGPoint(x: x, y: y)) }
        // A left-over winding of +1 would cancel the reversed square's -1; a
        // left-over odd bit would be flipped back to even.
        try gl.painter.fillPath([square.polygon], evenOdd: false, transform: .identity, color: .red, into: target)
        try gl.painter.fillPath(
            [square.polygon.reversed()], evenOdd: false, transform: .identity, color: .green, into: target)
        expectExactly(try Pixels(target), [0, 255, 0, 255], "nonzero after nonzero", inside: inside)
        try gl.painter.fillPath([square.polygon], evenOdd: true, transform: .identity, color: .blue, into: target)
        expectExactly(try Pixels(target), [0, 0, 255, 255], "even-odd after nonzero", inside: inside)
        try gl.painter.fillPath([square.polygon], evenOdd: true, transform: .identity, color: .red, into: target)
        expectExactly(try Pixels(target), [255, 0, 0, 255], "even-odd after even-odd", inside: inside)
        // A clip plane must not leave the clipped part counted either.
        try gl.painter.fillPath(
            [square.polygon], evenOdd: false, transform: .identity, color: .blue,
            clipPlanes: [HalfPlane(a: 1, b: 0, c: -20)], into: target)
        try gl.painter.fillPath(
            [square.polygon.reversed()], evenOdd: false, transform: .identity, color: .green, into: target)
        expectExactly(try Pixels(target), [0, 255, 0, 255], "nonzero after a clipped path", inside: inside)
        try gl.context.checkErrors("after consecutive paths")
    }

    @Test("polygon draws after a stencilled path ignore the stencil, and the stencil comes only with such a path")
    func polygonsIgnoreStencil() throws {
        let gl = try GLFixture()
        gl.painter.fillsPathsByWinding = false
        let target = try gl.target(20, 20, multisampled: true)
        #expect(!target.hasStencil)
        try gl.painter.fillPolygon(
            CGRect.square(0, 0, 20).polygon, transform: .identity, paint: .color(.red), into: target)
        #expect(!target.hasStencil, "polygons need no stencil")
        try gl.painter.fillPath(
            [CGRect.square(5, 5, 10).polygon], evenOdd: false, transform: .identity, color: .green, into: target)
        #expect(target.hasStencil)
        try gl.painter.fillPolygon(
            CGRect.square(0, 0, 20).polygon, transform: .identity, paint: .color(.blue), into: target)
        expectExactly(try Pixels(target), [0, 0, 255, 255], "polygon after a path") { _, _ in true }
        // Clearing keeps working with the stencil attached, and paths still fill.
        try target.clear()
        #expect(try target.readPixels().allSatisfy { $0 == 0 })
        try gl.painter.fillPath(
            [CGRect.square(5, 5, 10).polygon], evenOdd: true, transform: .identity, color: .green, into: target)
        expectExactly(try Pixels(target), [0, 255, 0, 255], "path after a clear") { x, y in
            (5..<15).contains(x) && (5..<15).contains(y)
        }
    }

    @Test("a clip half-plane cuts the fill hard", arguments: [false, true])
    func clipPlane(evenOdd: Bool) throws {
        let gl = try GLFixture()
        // x - 0.37 y - 6 >= 0: a slanted line through the L.
        let plane = HalfPlane(a: 1, b: -0.37, c: -6)
        let pixels = try fill(gl, [Shapes.letterL], evenOdd: evenOdd, color: .red, clipPlanes: [plane])
        expectExactly(pixels, [255, 0, 0, 255], "clipped L") { x, y in
            Shapes.insideL(x, y) && x - 0.37 * y - 6 >= 0
        }
        // The other side fills the rest without a seam.
        let target = try gl.target(40, 40)
        for side in [plane, plane.flipped] {
            try gl.painter.fillPath(
                [Shapes.letterL], evenOdd: evenOdd, transform: .identity, color: .red, clipPlanes: [side],
                into: target)
        }
        expectExactly(try Pixels(target), [255, 0, 0, 255], "both halves", inside: Shapes.insideL)
    }

    @Test("a path through a perspective matrix lands where the matrix projects it", arguments: [true, false])
    func perspective(byWinding: Bool) throws {
        let gl = try GLFixture()
        let matrix = PolygonDrawTests.perspective
        let outer = PolygonDrawTests.square.polygon
        let hole = CGRect(x: -10, y: -10, width: 20, height: 20).polygon.reversed()
        let pixels = try fill(gl, [outer, Array(hole)], evenOdd: false, color: .red, transform: matrix, size: 100,
                              byWinding: byWinding)
        for (x, y) in [(-25.0, -25.0), (25, 25), (-25, 25), (25, -25), (0, -20), (20, 0), (-20, 0)] {
            let p = TestMatrix.project(matrix, x, y)
            #expect(pixels[Int(p.x), Int(p.y)] == [255, 0, 0, 255], "in the ring at local (\(x), \(y))")
        }
        for (x, y) in [(0.0, 0.0), (5, -5), (-5, 5), (-36, 0), (36, 0), (0, -36), (0, 36)] {
            let p = TestMatrix.project(matrix, x, y)
            #expect(pixels[Int(p.x), Int(p.y)] == [0, 0, 0, 0], "empty at local (\(x), \(y))")
        }
        let solid = try fill(gl, [outer], evenOdd: true, color: .red, transform: matrix, size: 100, byWinding: byWinding)
        if byWinding {
            // Each pixel covered by the exact share of it the projected square covers.
            let projected = outer.map { point in
                let p = TestMatrix.project(matrix, Double(point.x), Double(point.y))
                return CGPoint(x: p.x, y: p.y)
            }
            expectCoverage(solid, of: projected, "the square in perspective")
        } else {
            // Stencilled, it covers exactly the pixels the polygon draw does.
            let polygon = try gl.target(100, 100)
            try gl.painter.fillPolygon(outer, transform: matrix, paint: .color(.red), into: polygon)
            #expect(solid.bytes == (try polygon.readPixels()))
        }
    }

    @Test("by winding, each pixel is covered by the share of it the path covers, on any target", arguments: [false, true])
    func exactCoverage(multisampled: Bool) throws {
        let gl = try GLFixture()
        try #require(gl.painter.windingBuffer != nil, "this context cannot add floats by blending (GL_EXT_float_blend)")
        // A concave arrow head whose slanted edges cross pixels at all offsets,
        // and a triangle on no whole pixel.
        let arrow = [CGPoint(x: 2, y: 2), CGPoint(x: 38, y: 20), CGPoint(x: 2, y: 38), CGPoint(x: 14, y: 20)]
        let triangle = [CGPoint(x: 3, y: 5.3), CGPoint(x: 37, y: 11), CGPoint(x: 17, y: 36.6)]
        for (name, shape) in [("arrow", arrow), ("triangle", triangle)] {
            for evenOdd in [false, true] {
                let pixels = try fill(gl, [shape], evenOdd: evenOdd, multisampled: multisampled)
                expectCoverage(pixels, of: shape, "\(name), \(evenOdd ? "even-odd" : "nonzero")")
            }
        }
        // Nothing is stencilled: the target never needed a stencil buffer.
        let target = try gl.target(40, 40, multisampled: multisampled)
        try gl.painter.fillPath([arrow], evenOdd: false, transform: .identity, color: .white, into: target)
        #expect(!target.hasStencil)
    }

    /// `fillPaths` shares the passes of many paths (their winding numbers
    /// side by side in one buffer, shelf by shelf, a new batch when it is
    /// full): the picture is the one filling them one by one draws.
    @Test("paths filled together draw as they do one by one, across shelves and batches")
    func batchedPathsDrawAsSinglePaths() throws {
        let gl = try GLFixture()
        try #require(gl.painter.windingBuffer != nil, "this context cannot add floats by blending (GL_EXT_float_blend)")
        // Boxes of 1,200 pixels: two side by side overflow a 2,048 shelf,
        // two shelves a batch; small ones between them fill the gaps.
        var paths: [GLPainter.PathFill] = []
        for k in 0..<7 {
            let side = k.isMultiple(of: 2) ? 1200.0 : 90.0
            let origin = Double(k) * 60 + 3.3
            let star = Shapes.pentagram(center: CGPoint(x: origin + side / 2, y: origin + side / 2), radius: side / 2)
            let colors: [RGBA] = [.red, .green, .blue]
            var color = colors[k % 3]
            color.alpha = 0.6
            paths.append(GLPainter.PathFill(contours: [star], evenOdd: k % 3 == 1, transform: .identity, color: color))
        }
        let together = try gl.target(1700, 1700)
        try gl.painter.fillPaths(paths, into: together)
        let oneByOne = try gl.target(1700, 1700)
        for path in paths {
            try gl.painter.fillPath(path.contours, evenOdd: path.evenOdd, transform: path.transform, color: path.color,
                                    into: oneByOne)
        }
        let (a, b) = (try together.readPixels(), try oneByOne.readPixels())
        #expect(a.contains { $0 != 0 })
        #expect(a == b, "\(zip(a, b).filter { $0 != $1 }.count) bytes differ")
    }

    @Test("stencilled, edges are anti-aliased on a multisampled target and hard without")
    func antiAliasing() throws {
        let gl = try GLFixture()
        // A concave arrow head whose slanted edges cross pixels at all offsets.
        let arrow = [
            CGPoint(x: 2, y: 2), CGPoint(x: 38, y: 20), CGPoint(x: 2, y: 38), CGPoint(x: 14, y: 20),
        ]
        let smooth = try fill(gl, [arrow], evenOdd: false, multisampled: true, byWinding: false)
        #expect(smooth.alpha(28, 20) == 255)
        #expect(smooth.alpha(8, 20) == 0, "the notch is empty")
        // In every column the top edge y = 2 + (x - 2) / 2 crosses, some
        // pixel next to it is partly covered (whatever the sample pattern).
        for x in 5..<35 {
            let row = Int(2 + (Double(x) + 0.5 - 2) / 2)
            let column = (row - 1...row + 1).map { smooth.alpha(x, $0) }
            #expect(column.contains { (1...254).contains($0) }, "partial coverage at column \(x): \(column)")
        }
        let partial = smooth.bytes.enumerated().filter { $0.offset % 4 == 3 && (1...254).contains($0.element) }
        #expect(partial.count > 60)
        let hard = try fill(gl, [arrow], evenOdd: false, multisampled: false, byWinding: false)
        #expect(stride(from: 3, to: hard.bytes.count, by: 4).allSatisfy { [0, 255].contains(hard.bytes[$0]) })

        // Per-sample stencil matches what the GPU's own multisampling gives a
        // polygon with the same triangles.
        let triangle = [CGPoint(x: 3, y: 5.3), CGPoint(x: 37, y: 11), CGPoint(x: 17, y: 36.6)]
        let path = try fill(gl, [triangle], evenOdd: false, multisampled: true, byWinding: false)
        let polygon = try gl.target(40, 40, multisampled: true)
        try gl.painter.fillPolygon(triangle, transform: .identity, paint: .color(.white), into: polygon)
        #expect(path.bytes == (try polygon.readPixels()))
    }

    /// Expects each pixel's alpha to be the share of it `polygon` (simple:
    /// no edge crosses another) covers, to within rounding.
    private func expectCoverage(_ pixels: Pixels, of polygon: [CGPoint], _ what: String) {
        var wrong: [String] = []
        for y in 0..<pixels.height {
            for x in 0..<pixels.width {
                let expected = Self.area(of: polygon, clippedTo: CGRect(x: x, y: y, width: 1, height: 1)) * 255
                let alpha = Double(pixels.alpha(x, y))
                if abs(alpha - expected) > 1.5 { wrong.append("(\(x), \(y)): \(alpha) for \(expected)") }
            }
        }
        let wrongCount = wrong.count
        #expect(wrongCount == 0, "\(what): \(wrongCount) pixels off, first \(wrong.prefix(5))")
    }

    /// The area of `polygon` within `box` (Sutherland-Hodgman against the
    /// box's four sides, then the shoelace formula).
    private static func area(of polygon: [CGPoint], clippedTo box: CGRect) -> Double {
        var points = polygon.map { SIMD2(Double($0.x), Double($0.y)) }
        // Each side as (axis, bound, keep the side above the bound).
        for (axis, bound, above) in [(0, Double(box.minX), true), (0, Double(box.maxX), false),
                                     (1, Double(box.minY), true), (1, Double(box.maxY), false)] {
            let inside = { (p: SIMD2<Double>) in above ? p[axis] >= bound : p[axis] <= bound }
            var clipped: [SIMD2<Double>] = []
            for (i, b) in points.enumerated() {
                let a = points[(i + points.count - 1) % points.count]
                if inside(b) != inside(a) {
                    clipped.append(a + (b - a) * ((bound - a[axis]) / (b[axis] - a[axis])))
                }
                if inside(b) { clipped.append(b) }
            }
            points = clipped
            if points.isEmpty { return 0 }
        }
        var twice = 0.0
        for (i, b) in points.enumerated() {
            let a = points[(i + points.count - 1) % points.count]
            twice += a.x * b.y - b.x * a.y
        }
        return abs(twice) / 2
    }

    @Test("empty and degenerate contours draw nothing")
    func degenerate() throws {
        let gl = try GLFixture()
        let target = try gl.target(8, 8)
        let contours = [[], [CGPoint(x: 1, y: 1)], [CGPoint(x: 1, y: 1), CGPoint(x: 6, y: 6)]]
        try gl.painter.fillPath(contours, evenOdd: false, transform: .identity, color: .red, into: target)
        try gl.painter.fillPath([], evenOdd: true, transform: .identity, color: .red, into: target)
        #expect(!target.hasStencil, "nothing to fill, nothing attached")
        // Three collinear points: a contour with no area.
        let line = [CGPoint(x: 1, y: 1), CGPoint(x: 4, y: 4), CGPoint(x: 7, y: 7)]
        try gl.painter.fillPath([line], evenOdd: false, transform: .identity, color: .red, into: target)
        #expect(try target.readPixels().allSatisfy { $0 == 0 })
        try gl.context.checkErrors("after degenerate paths")
    }

    @Test("bad input is an error, not a crash")
    func badInput() throws {
        let gl = try GLFixture()
        let target = try gl.target(8, 8)
        let square = CGRect.square(0, 0, 8).polygon
        #expect(throws: GLError.self) {
            try gl.painter.fillPath(
                [square, [CGPoint(x: 0, y: 0), CGPoint(x: Double.nan, y: 1), CGPoint(x: 2, y: 2)]], evenOdd: false,
                transform: .identity, color: .red, into: target)
        }
        // A contour too short to enclose anything is wrong data all the same.
        #expect(throws: GLError.self) {
            try gl.painter.fillPath(
                [square, [CGPoint(x: 0, y: 0), CGPoint(x: 1, y: Double.infinity)]], evenOdd: false,
                transform: .identity, color: .red, into: target)
        }
        #expect(throws: GLError.self) {
            try gl.painter.fillPath(
                [square], evenOdd: false, transform: .identity, color: .red,
                clipPlanes: Array(repeating: HalfPlane(a: 1, b: 0, c: 0), count: 5), into: target)
        }
        #expect(throws: GLError.self) {
            try gl.painter.fillPath(
                [square], evenOdd: false, transform: .identity, color: .red,
                clipPlanes: [HalfPlane(a: .infinity, b: 0, c: 0)], into: target)
        }
        #expect(throws: GLError.self) {
            try gl.painter.fillPath(
                [square], evenOdd: true, transform: .identity, color: RGBA(red: 2, green: 0, blue: 0, alpha: 1),
                into: target)
        }
        let other = try GLFixture()
        let otherTarget = try other.target(8, 8)
        #expect(throws: GLError.self) {
            try gl.painter.fillPath([square], evenOdd: false, transform: .identity, color: .red, into: otherTarget)
        }
        #expect(try target.readPixels().allSatisfy { $0 == 0 }, "nothing drawn by rejected fills")
        try gl.context.checkErrors("after rejected path fills")
    }
}
