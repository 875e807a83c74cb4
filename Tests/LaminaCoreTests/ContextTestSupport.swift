// Helpers for the CGContext tests: draw into a context, paint it with the
// CPU rasterizer, read pixels (rows top first, as in the image).
import Foundation
import Testing
@testable import LaminaRaster
@testable import LaminaCore

/// Draws with `body` into a `width` x `height` context and paints it.
func painted(_ width: Int, _ height: Int, _ body: (CGContext) -> Void) throws -> Pixmap {
    let ctx = try #require(CGContext(width: width, height: height))
    body(ctx)
    return try ContextRasterizer().render(ctx.recording)
}

/// The alpha of pixel (x, y), row 0 at the top.
func alpha(_ pixmap: Pixmap, _ x: Int, _ y: Int) throws -> Int {
    Int(try pixmap.pixel(x: x, y: y).a)
}

/// Pixel (x, y) as [r, g, b, a].
func rgba(_ pixmap: Pixmap, _ x: Int, _ y: Int) throws -> [Int] {
    let p = try pixmap.pixel(x: x, y: y)
    return [Int(p.r), Int(p.g), Int(p.b), Int(p.a)]
}

/// Whether two values are within `tolerance` of each other.
func near(_ a: Int, _ b: Int, _ tolerance: Int = 1) -> Bool { abs(a - b) <= tolerance }

/// The sum of all alpha, as a pixel area.
func coveredArea(_ pixmap: Pixmap) -> Double {
    var sum = 0
    var i = 3
    while i < pixmap.data.count {
        sum += Int(pixmap.data[i])
        i += 4
    }
    return Double(sum) / 255
}

/// A 2x2 image, straight colours: red top-left, green top-right, blue
/// bottom-left, white bottom-right (rows top first).
func quadrantImage() throws -> CGImage {
    try CGImage(width: 2, height: 2, premultipliedRGBA: [
        255, 0, 0, 255, 0, 255, 0, 255,
        0, 0, 255, 255, 255, 255, 255, 255,
    ])
}

let red: [Int] = [255, 0, 0, 255]
let green: [Int] = [0, 255, 0, 255]
let blue: [Int] = [0, 0, 255, 255]
let white: [Int] = [255, 255, 255, 255]
let transparent: [Int] = [0, 0, 0, 0]
