import Testing
import LaminaRaster

/// The rounding that PNG round trips rely on, checked exhaustively against
/// floating point.
@Suite struct PremultipliedAlphaTests {
    @Test func premultiplyRoundsToNearest() {
        for alpha in 0...255 {
            for component in 0...255 {
                let exact = (Double(component) * Double(alpha) / 255).rounded()
                #expect(PremultipliedAlpha.premultiply(UInt8(component), alpha: UInt8(alpha)) == UInt8(exact))
            }
        }
    }

    @Test func unpremultiplyRoundsHalfUpAndClamps() {
        for alpha in 1...255 {
            for component in 0...255 {
                let exact = min(255, (Double(component) * 255 / Double(alpha) + 0.5).rounded(.down))
                #expect(PremultipliedAlpha.unpremultiply(UInt8(component), alpha: UInt8(alpha)) == UInt8(exact))
            }
        }
        #expect(PremultipliedAlpha.unpremultiply(0, alpha: 0) == 0)
        #expect(PremultipliedAlpha.unpremultiply(77, alpha: 0) == 0)
    }

    @Test func premultipliedToStraightAndBackIsExactForValidPixels() {
        for alpha in 0...255 {
            for component in 0...alpha {
                let straight = PremultipliedAlpha.unpremultiply(UInt8(component), alpha: UInt8(alpha))
                #expect(PremultipliedAlpha.premultiply(straight, alpha: UInt8(alpha)) == UInt8(component))
            }
        }
    }

    @Test func bulkConversionsMatchTheScalarOnes() {
        var pixels: [UInt8] = []
        for alpha in stride(from: 0, through: 255, by: 5) {
            for component in stride(from: 0, through: 255, by: 17) {
                pixels += [UInt8(component), UInt8(255 - component), UInt8(component / 2), UInt8(alpha)]
            }
        }
        var premultiplied = pixels
        premultiplied.withUnsafeMutableBytes { PremultipliedAlpha.premultiplyRGBA($0) }
        var straight = [UInt8](repeating: 0, count: pixels.count)
        pixels.withUnsafeBytes { source in
            straight.withUnsafeMutableBytes { PremultipliedAlpha.unpremultiplyRGBA(source, into: $0) }
        }
        for i in stride(from: 0, to: pixels.count, by: 4) {
            let alpha = pixels[i + 3]
            for c in 0..<3 {
                #expect(premultiplied[i + c] == PremultipliedAlpha.premultiply(pixels[i + c], alpha: alpha))
                #expect(straight[i + c] == PremultipliedAlpha.unpremultiply(pixels[i + c], alpha: alpha))
            }
            #expect(premultiplied[i + 3] == alpha)
            #expect(straight[i + 3] == alpha)
        }
    }
}
