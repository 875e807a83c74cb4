import Foundation
import Testing
import LaminaGeometry
import LaminaRaster

/// The gradient's byte conversion is the libm rounding it replaced, value for
/// value: every gradient picture stays the same.
@Suite("Gradient fill")
struct GradientFillTests {
    @Test func bytesRoundAsRoundedDid() {
        func reference(_ v: Double) -> UInt8 { UInt8(max(0, min(255, (v * 255).rounded()))) }
        var values: [Double] = [0, 1, -0.0, -1, 2, 0.5, 1.0 / 255, 0.5 / 255, 1.5 / 255, 254.5 / 255, .ulpOfOne, 1 - .ulpOfOne]
        // Every half-way point and its neighbours, where rounding decides.
        for n in 0...255 {
            let half = (Double(n) + 0.5) / 255
            values += [half, half.nextUp, half.nextDown, Double(n) / 255, (Double(n) / 255).nextUp, (Double(n) / 255).nextDown]
        }
        var seed: UInt64 = 5
        for _ in 0..<100_000 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            values.append(Double(seed >> 11) / Double(1 << 53) * 1.2 - 0.1)
        }
        for v in values {
            #expect(GradientFill.byte(v) == reference(v), "\(v)")
        }
    }

    /// Four entries looked up side by side are the entries looked up one
    /// by one: below and above the table, NaN and the infinities, whole
    /// positions and their neighbours (where the floor decides), and
    /// positions anywhere between.
    @Test func fourLookupsAreTheLookupsOneByOne() {
        let table = (0..<UInt32(GradientRamp.entries)).map { $0 &* 2_654_435_761 }
        let last = Double(GradientRamp.entries - 1)
        var positions: [Double] = [0, -0.0, .nan, .infinity, -.infinity, -1, 0.5, last, last + 0.5, last.nextDown, last.nextUp,
                                   1e300, -1e300, .leastNonzeroMagnitude, -.leastNonzeroMagnitude]
        for n in 0..<GradientRamp.entries {
            positions += [Double(n), Double(n).nextUp, Double(n).nextDown, Double(n) + 0.5]
        }
        var seed: UInt64 = 11
        for _ in 0..<20_000 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            positions.append(Double(seed >> 11) / Double(1 << 53) * (last + 200) - 100)
        }
        positions += Array(repeating: 0, count: (4 - positions.count % 4) % 4)
        table.withUnsafeBufferPointer { table in
            for i in stride(from: 0, to: positions.count, by: 4) {
                let four = SIMD4(positions[i], positions[i + 1], positions[i + 2], positions[i + 3])
                let words = GradientRamp.words(table.baseAddress!, at: four)
                for lane in 0..<4 {
                    #expect(words[lane] == GradientRamp.word(table.baseAddress!, at: four[lane]), "at \(four[lane])")
                }
            }
        }
    }

    /// The table a draw reads holds the gradient's colours within a level,
    /// stops beyond 0...1 included, and clamps beyond the last stop.
    @Test func theRampHoldsTheGradientsColours() {
        let fill = GradientFill(shape: .axial, stops: [(-0.5, (1, 0, 0, 1)), (0.5, (0, 0, 0.5, 0.5)), (1.5, (0, 1, 0, 1))],
                                start: (0, 0), end: (100, 0))
        let ramp = GradientRamp(fill)
        ramp.words.withUnsafeBufferPointer { table in
            for x in stride(from: -80.0, through: 180, by: 3.7) {
                let c = fill.color(at: fill.parameter(x: x, y: 7))
                let w = ramp.word(table.baseAddress!, x: x, y: 7)
                let seen = [w & 0xFF, (w >> 8) & 0xFF, (w >> 16) & 0xFF, w >> 24].map(Int.init)
                let expected = [c.0, c.1, c.2, c.3].map { Int(GradientFill.byte($0)) }
                #expect(zip(seen, expected).allSatisfy { abs($0 - $1) <= 1 }, "at x \(x): \(seen), expected \(expected)")
            }
            #expect(ramp.word(table.baseAddress!, x: .nan, y: 0) == ramp.words[0], "NaN reads the first entry")
        }
    }

    /// `fill` drawn over a 60 x 40 rectangle through `transform` at `alpha`
    /// on a 120 x 100 grey pixmap; each pixel `step` apart a pixel or more
    /// inside the rectangle is checked against the gradient's colour at its
    /// local point over the grey (within 2 levels), and handed to `also`.
    /// Returns how many were checked.
    static func drawAndCheck(_ fill: GradientFill, through transform: CATransform3D, alpha: Double, step: Int,
                             also: (Pixmap, Int, Int, PlaneHomography) throws -> Void = { _, _, _, _ in }) throws -> Int {
        let grey = 100.0
        var pixmap = try Pixmap(width: 120, height: 100, filledWith: PremultipliedColor(r: 100, g: 100, b: 100, a: 255))
        var paint = PolygonPaint(rect: CGRect(x: 0, y: 0, width: 60, height: 40), transform: transform, source: .gradient(fill))
        paint.alpha = alpha
        try pixmap.draw(paint)
        let inverse = try #require(transform.planeHomography.inverted())
        var checked = 0
        for y in stride(from: 0, to: 100, by: step) {
            for x in stride(from: 0, to: 120, by: step) {
                let local = inverse.apply(to: CGPoint(x: Double(x) + 0.5, y: Double(y) + 0.5))
                guard local.x > 1, local.x < 59, local.y > 1, local.y < 39 else { continue }
                let c = fill.color(at: fill.parameter(x: Double(local.x), y: Double(local.y)))
                let source = [c.0, c.1, c.2, c.3].map { Double(GradientFill.byte($0 * alpha)) }
                let expected = [0, 1, 2].map { Int((source[$0] + grey * (1 - source[3] / 255)).rounded()) } + [255]
                let p = try pixmap.pixel(x: x, y: y)
                let seen = [Int(p.r), Int(p.g), Int(p.b), Int(p.a)]
                #expect(zip(seen, expected).allSatisfy { abs($0 - $1) <= 2 }, "(\(x), \(y)): \(seen), the gradient there is \(expected)")
                try also(pixmap, x, y, inverse)
                checked += 1
            }
        }
        return checked
    }

    static let stops: [(location: Double, color: (Double, Double, Double, Double))] =
        [(-0.25, (0.8, 0, 0, 0.8)), (0.4, (0, 0.5, 0, 0.5)), (1.25, (0, 0, 1, 1))]

    /// A polygon filled with a gradient shows, at every pixel it wholly
    /// covers, the gradient's colour at that pixel's local point over what
    /// was there: axial and radial (read a row at a time, four pixels at
    /// once where all four are covered), conic (read pixel by pixel), under
    /// a turned, scaled, moved map and stops beyond 0...1, at two opacities,
    /// over a grey background.
    @Test(arguments: [GradientFill.Shape.axial, .radial, .conic], [1.0, 0.6])
    func aGradientPolygonShowsTheGradientAtEachPixel(shape: GradientFill.Shape, alpha: Double) throws {
        let fill = GradientFill(shape: shape, stops: Self.stops, start: (12, 9), end: (50, 30))
        let turn = CATransform3DMakeRotation(0.3, 0, 0, 1)
        let transform = CATransform3DConcat(CATransform3DConcat(CATransform3DMakeScale(1.5, 1.5, 1), turn),
                                            CATransform3DMakeTranslation(20.25, 3.5, 0))
        #expect(try Self.drawAndCheck(fill, through: transform, alpha: alpha, step: 3) > 100)
    }

    /// An axial gradient along the rows, or across them, unturned: every
    /// row shows the same colours (read once), or one colour (read once a
    /// row), each the gradient's at that pixel's local point.
    @Test(arguments: [true, false], [1.0, 0.6])
    func anAxialGradientAlongOrAcrossTheRowsShowsTheGradientAtEachPixel(alongRows: Bool, alpha: Double) throws {
        let fill = GradientFill(shape: .axial, stops: Self.stops, start: (12, 9), end: alongRows ? (50, 9) : (12, 30))
        let transform = CATransform3DConcat(CATransform3DMakeScale(1.5, 1.75, 1), CATransform3DMakeTranslation(20.25, 3.5, 0))
        let checked = try Self.drawAndCheck(fill, through: transform, alpha: alpha, step: 1) { pixmap, x, y, inverse in
            // The same as the pixel beside it across the gradient.
            let (nx, ny) = alongRows ? (x, y - 1) : (x - 1, y)
            let neighbour = inverse.apply(to: CGPoint(x: Double(nx) + 0.5, y: Double(ny) + 0.5))
            if neighbour.x > 1, neighbour.y > 1 {
                let (a, b) = (try pixmap.pixel(x: nx, y: ny), try pixmap.pixel(x: x, y: y))
                #expect(a == b)
            }
        }
        #expect(checked > 3000)
    }
}
