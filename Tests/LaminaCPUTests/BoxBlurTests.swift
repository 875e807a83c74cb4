import Foundation
import Testing
@testable import LaminaCPU

@Suite("Gaussian blur by boxes")
struct BoxBlurTests {
    @Test func boxWidthsHaveTheGaussiansVariance() {
        for sigma in [GaussianBlur.boxApproximationSigma, 4.5, 10, 24, 60] {
            let widths = GaussianBlur.boxWidths(sigma: sigma)
            #expect(widths.count == 3 && widths.allSatisfy { $0 % 2 == 1 })
            // A box of width w has variance (w² - 1) / 12; variances add.
            let variance = widths.map { Double($0 * $0 - 1) / 12 }.reduce(0, +)
            #expect(abs(variance.squareRoot() - sigma) / sigma < 0.05)
            // The boxes together reach no farther than the kernel's radius.
            #expect(widths.map { ($0 - 1) / 2 }.reduce(0, +) <= Int((3 * sigma).rounded(.up)))
        }
    }

    @Test func largeSigmaStaysCloseToTheTrueGaussian() throws {
        // A white square, blurred with sigma 6: compare with the Gaussian's
        // exact value at the square's centre and its edge (erf products).
        var square = try Pixmap(width: 40, height: 40)
        square.fill(PremultipliedColor.white, in: PixelRect(x: 10, y: 10, width: 20, height: 20))
        let blur = try GaussianBlur(sigma: 6)
        let out = try blur.apply(to: square)
        func expected(_ x: Double, _ y: Double) -> Double {
            func axis(_ t: Double) -> Double { 0.5 * (erf((30 - t) / (6 * 2.0.squareRoot())) - erf((10 - t) / (6 * 2.0.squareRoot()))) }
            return 255 * axis(x) * axis(y)
        }
        for (x, y) in [(20, 20), (10, 20), (5, 20), (10, 10), (2, 2)] {
            let got = Double(try out.pixel(x: x + blur.radius, y: y + blur.radius).a)
            #expect(abs(got - expected(Double(x) + 0.5, Double(y) + 0.5)) <= 6, "at \(x), \(y)")
        }
    }

    @Test func boxBlurKeepsPixelsPremultiplied() throws {
        var p = try Pixmap(width: 30, height: 30)
        p.fill(PremultipliedColor(red: 1, green: 0.2, blue: 0.6, alpha: 0.7), in: PixelRect(x: 5, y: 5, width: 9, height: 17))
        let out = try GaussianBlur(sigma: 5).apply(to: p)
        for y in 0..<out.height {
            for x in 0..<out.width {
                let c = try out.pixel(x: x, y: y)
                #expect(c.r <= c.a && c.g <= c.a && c.b <= c.a)
            }
        }
    }

    /// Blurring only alpha gives, on a white mask (every channel equal to
    /// alpha: a shadow's shape), exactly what blurring all four does, for the
    /// direct kernel and the boxes; on any picture, every channel of the
    /// result is the blurred alpha.
    @Test(arguments: [1.5, 2.5, 6.0, 20.0])
    func alphaOnlyBlurMatchesTheFullBlurOnWhiteMasks(sigma: Double) throws {
        var mask = try Pixmap(width: 50, height: 40)
        mask.fill(PremultipliedColor(red: 1, green: 1, blue: 1, alpha: 1), in: PixelRect(x: 8, y: 6, width: 20, height: 13))
        mask.fill(PremultipliedColor(red: 1, green: 1, blue: 1, alpha: 0.5), in: PixelRect(x: 30, y: 20, width: 9, height: 15))
        #expect(mask.data.enumerated().allSatisfy { $0.element == mask.data[$0.offset | 3] }, "a white mask: every channel is alpha")
        let blur = try GaussianBlur(sigma: sigma)
        #expect(try blur.apply(to: mask, channels: .alphaAsWhite) == blur.apply(to: mask))

        var coloured = try Pixmap(width: 30, height: 30)
        coloured.fill(PremultipliedColor(red: 0.9, green: 0.1, blue: 0.3, alpha: 0.8), in: PixelRect(x: 5, y: 5, width: 12, height: 9))
        let alphaOnly = try blur.apply(to: coloured, channels: .alphaAsWhite)
        let full = try blur.apply(to: coloured)
        for y in 0..<full.height {
            for x in 0..<full.width {
                let (a, f) = (try alphaOnly.pixel(x: x, y: y), try full.pixel(x: x, y: y))
                #expect(a.r == a.a && a.g == a.a && a.b == a.a && a.a == f.a)
            }
        }
    }
}
