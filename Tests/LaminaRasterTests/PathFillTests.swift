// A path painted straight from its edges, against the mask it replaces.
import Foundation
import Testing
@testable import LaminaRaster
@testable import LaminaCore
import LaminaGeometry

@Suite struct PathFillTests {
    /// A jagged closed outline of `count` points around (cx, cy), some far
    /// out: spikes, thin slivers, edges crossing one another.
    static func outline(_ rng: inout SeededRandom, count: Int, cx: Double, cy: Double, reach: Double) -> [CGPoint] {
        (0..<count).map { i in
            let angle = Double(i) / Double(count) * 2 * .pi + Double(rng.int(0...100)) / 300
            let r = reach * Double(rng.int(5...100)) / 100
            return CGPoint(x: cx + r * cos(angle), y: cy + r * sin(angle))
        }
    }

    /// A pixmap of stripes of several colours and alphas, so that the blend
    /// onto what is there shows.
    static func striped(width: Int, height: Int) throws -> Pixmap {
        var pixmap = try Pixmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width where (x / 3 + y / 5) % 3 != 0 {
                let a = UInt8(60 + (x * 7 + y * 13) % 196)
                try pixmap.setPixel(PremultipliedColor(r: a / 2, g: a / 3, b: a, a: a), x: x, y: y)
            }
        }
        return pixmap
    }

    /// `fill` painted on the stripes whole, and in bands of rows as threads
    /// paint it, gives `expected`'s bytes.
    static func expectPainted(_ fill: PathFill?, width: Int, height: Int, as expected: Pixmap, _ rng: inout SeededRandom,
                              _ what: String) throws {
        var whole = try striped(width: width, height: height)
        if let fill { whole.paint(fill) }
        #expect(whole.data == expected.data, "\(what): whole")
        var banded = try striped(width: width, height: height)
        if let fill {
            var top = fill.rows.lowerBound
            banded.withPixelRows(painting: fill.area) { rows in
                while top < fill.rows.upperBound {
                    let band = top..<min(fill.rows.upperBound, top + rng.int(1...90))
                    fill.paint(band, of: rows)
                    top = band.upperBound
                }
            }
        }
        #expect(banded.data == expected.data, "\(what): in bands")
    }

    /// Painted from its edges, a path gives the bytes its mask fill gives:
    /// shapes one band tall and several, inside the target and past its
    /// sides, rows of one partial coverage, both fill rules, opaque and
    /// translucent colours, painted whole or in bands of rows as threads
    /// paint them.
    @Test func aPathPaintedFromItsEdgesIsItsMaskFilled() throws {
        var rng = SeededRandom(seed: 0xED6E)
        for trial in 0..<80 {
            let width = rng.int(1...130), height = rng.int(1...210)
            var contours = [Self.outline(&rng, count: rng.int(3...40), cx: Double(rng.int(-20...150)), cy: Double(rng.int(-20...230)),
                                         reach: Double(rng.int(1...160)))]
            if rng.int(0...2) == 0 { contours.append(Self.outline(&rng, count: rng.int(3...12), cx: 40, cy: 60, reach: 30)) }
            if rng.int(0...1) == 0 {
                // A rectangle between pixel rows: the rows its top and bottom
                // cross are runs of one partial coverage.
                let x = Double(rng.int(-10...100)) + 0.25, y = Double(rng.int(-10...180)) + Double(rng.int(1...99)) / 100
                let w = Double(rng.int(9...120)) + 0.5, h = Double(rng.int(1...90)) + Double(rng.int(1...99)) / 100
                contours.append(points([(x, y), (x + w, y), (x + w, y + h), (x, y + h)]))
            }
            let rule: FillRule = rng.int(0...1) == 0 ? .nonZero : .evenOdd
            let alpha = rng.int(0...1) == 0 ? 255 : rng.int(1...254)
            let color = PremultipliedColor(r: UInt8(rng.int(0...alpha)), g: UInt8(rng.int(0...alpha)), b: UInt8(rng.int(0...alpha)), a: UInt8(alpha))
            let bounds = PixelRect(width: width, height: height)
            // Through the mask.
            var expected = try Self.striped(width: width, height: height)
            let mask = try CoverageRasterizer(width: width, height: height).rasterize(contours: contours, fillRule: rule) { $0 }
            if let fill = try MaskFill(mask, color: color, within: bounds) { expected.paint(fill) }
            // From the edges, whole and in bands.
            let fill = try PathFill(contours: contours, fillRule: rule, color: color, within: bounds) { $0 }
            #expect((fill == nil) == (try MaskFill(mask, color: color, within: bounds) == nil), "trial \(trial)")
            try Self.expectPainted(fill, width: width, height: height, as: expected, &rng, "trial \(trial)")
        }
    }

    /// Through a clip mask and faded (a path under a Lottie matte), a path
    /// painted from its edges gives the bytes of its mask filled through
    /// the clip: clips larger, smaller and beside the path, fades and none,
    /// painted whole and in bands of rows.
    @Test func aPathThroughAClipIsItsMaskFilledThroughTheClip() throws {
        var rng = SeededRandom(seed: 0xC11F)
        for trial in 0..<80 {
            let width = rng.int(1...130), height = rng.int(1...210)
            let contours = [Self.outline(&rng, count: rng.int(3...40), cx: Double(rng.int(-20...150)), cy: Double(rng.int(-20...230)),
                                         reach: Double(rng.int(1...160)))]
            let clipShape = [Self.outline(&rng, count: rng.int(3...20), cx: Double(rng.int(-20...150)), cy: Double(rng.int(-20...230)),
                                          reach: Double(rng.int(1...160)))]
            let rule: FillRule = rng.int(0...1) == 0 ? .nonZero : .evenOdd
            let alpha = [1.0, 0.5, 0.03][rng.int(0...2)]
            let a = rng.int(1...255)
            let color = PremultipliedColor(r: UInt8(rng.int(0...a)), g: UInt8(rng.int(0...a)), b: UInt8(rng.int(0...a)), a: UInt8(a))
            let bounds = PixelRect(width: width, height: height)
            let rasterizer = try CoverageRasterizer(width: width, height: height)
            let clip = try rasterizer.rasterize(contours: clipShape, fillRule: .nonZero) { $0 }
            guard !clip.bounds.isEmpty else { continue }
            var expected = try Self.striped(width: width, height: height)
            let mask = try rasterizer.rasterize(contours: contours, fillRule: rule) { $0 }
            let maskFill = try MaskFill(mask, color: color, alpha: alpha, clip: clip, within: bounds)
            if let maskFill { expected.paint(maskFill) }
            let fill = try PathFill(contours: contours, fillRule: rule, color: color, alpha: alpha, clip: clip, within: bounds) { $0 }
            #expect((fill == nil) == (maskFill == nil), "trial \(trial)")
            try Self.expectPainted(fill, width: width, height: height, as: expected, &rng, "trial \(trial)")
        }
    }

    @Test func aPathThatPaintsNothingIsNoPaint() throws {
        let square = [points([(2, 2), (8, 2), (8, 8), (2, 8)])]
        let bounds = PixelRect(width: 10, height: 10)
        let red = PremultipliedColor(r: 255, g: 0, b: 0, a: 255)
        #expect(try PathFill(contours: square, fillRule: .nonZero, color: .clear, within: bounds) { $0 } == nil)
        #expect(try PathFill(contours: square, fillRule: .nonZero, color: red, within: bounds) { CGPoint(x: $0.x + 20, y: $0.y) } == nil)
        #expect(try PathFill(contours: [], fillRule: .nonZero, color: red, within: bounds) { $0 } == nil)
        #expect(throws: RasterError.self) {
            try PathFill(contours: square, fillRule: .nonZero, color: red, within: bounds) { CGPoint(x: $0.x, y: .nan) }
        }
    }
}
