import Foundation
import Testing
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
}
