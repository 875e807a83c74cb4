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
}
