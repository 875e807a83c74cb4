import Foundation
import Testing
import Lamina
@testable import LaminaSnapshotTesting

/// A `width` x `height` picture of one premultiplied colour.
func solid(_ width: Int, _ height: Int, _ rgba: [UInt8]) -> CGImage {
    try! CGImage(width: width, height: height, premultipliedRGBA: Array((0..<(width * height)).map { _ in rgba }.joined()))
}

/// `image` with the pixel at index `p` replaced.
func changing(_ image: CGImage, pixel p: Int, to rgba: [UInt8]) -> CGImage {
    var bytes = image.pixelBytes
    bytes.replaceSubrange((p * 4)..<(p * 4 + 4), with: rgba)
    return try! CGImage(width: image.width, height: image.height, premultipliedRGBA: bytes)
}

@Suite("Comparing pictures as swift-snapshot-testing does on Apple's systems")
struct ImageComparisonTests {
    let reference = solid(10, 10, [200, 40, 40, 255])

    @Test func equalPicturesMatch() {
        #expect(ImageComparison(precision: 1, perceptualPrecision: 1).compare(reference, solid(10, 10, [200, 40, 40, 255])) == nil)
    }

    @Test func oneByteDiffersExactly() throws {
        let new = changing(reference, pixel: 7, to: [201, 40, 40, 255])
        let failure = try #require(ImageComparison(precision: 1, perceptualPrecision: 1).compare(reference, new))
        #expect(failure.message.contains("1 of 100 pixels differ"), "\(failure.message)")
        #expect(failure.message.contains("by up to 1 of 255"), "\(failure.message)")
        // One byte of 400 may differ at precision 0.997 (Apple's measure: bytes).
        #expect(ImageComparison(precision: 0.997, perceptualPrecision: 1).compare(reference, new) == nil)
        #expect(ImageComparison(precision: 0.998, perceptualPrecision: 1).compare(reference, new) != nil)
    }

    @Test func perceptualToleranceForgivesWhatTheEyeCannotSee() {
        let new = changing(reference, pixel: 3, to: [202, 41, 40, 255])
        #expect(ImageComparison(precision: 1, perceptualPrecision: 0.98).compare(reference, new) == nil)
        let far = changing(reference, pixel: 3, to: [40, 40, 200, 255])
        #expect(ImageComparison(precision: 1, perceptualPrecision: 0.98).compare(reference, far) != nil)
        // One pixel of 100 may be far off at precision 0.99, not at 0.995.
        #expect(ImageComparison(precision: 0.99, perceptualPrecision: 0.98).compare(reference, far) == nil)
        #expect(ImageComparison(precision: 0.995, perceptualPrecision: 0.98).compare(reference, far) != nil)
    }

    @Test func aChangeOfTransparencyAloneIsSeen() {
        // Opaque black and transparent look alike over black; over white they do not.
        let black = solid(4, 4, [0, 0, 0, 255])
        let clear = changing(black, pixel: 0, to: [0, 0, 0, 0])
        let failure = ImageComparison(precision: 1, perceptualPrecision: 0.98).compare(black, clear)
        #expect(failure?.measurement?.pixelsOverTolerance == 1)
    }

    @Test func picturesOfOtherSizesDoNotMatch() throws {
        let failure = try #require(ImageComparison(precision: 0, perceptualPrecision: 0).compare(reference, solid(10, 11, [0, 0, 0, 0])))
        #expect(failure.message == "The new picture is 10 x 11 pixels; the reference is 10 x 10.")
    }

    @Test func deltaE94OfKnownColours() {
        func lab(_ rgba: [UInt8]) -> CIELab { CIELab(premultiplied: rgba, at: 0, over: 0) }
        let white = lab([255, 255, 255, 255]), black = lab([0, 0, 0, 255]), red = lab([255, 0, 0, 255])
        #expect(abs(white.l - 100) < 0.01 && abs(white.a) < 0.01 && abs(white.b) < 0.01)
        // sRGB red is L 53.24, a 80.09, b 67.20 (D65).
        #expect(abs(red.l - 53.24) < 0.01 && abs(red.a - 80.09) < 0.02 && abs(red.b - 67.20) < 0.02)
        #expect(abs(CIELab.deltaE94(white, black) - 100) < 0.01)
        // CIE94 weighs a chroma difference by 1 + 0.045 C of the reference.
        let c = (red.a * red.a + red.b * red.b).squareRoot()
        #expect(abs(CIELab.deltaE94(red, black) - ((red.l * red.l) + (c / (1 + 0.045 * c)) * (c / (1 + 0.045 * c))).squareRoot()) < 1e-9)
    }

    @Test func theDifferencePictureShowsWhereAndHowMuch() throws {
        let new = changing(changing(reference, pixel: 0, to: [40, 40, 200, 255]), pixel: 1, to: [201, 40, 40, 255])
        let comparison = ImageComparison(precision: 1, perceptualPrecision: 0.98)
        let picture = try #require(ImageComparison.differencePicture(comparison.measure(reference, new)))
        #expect(picture.pixel(x: 0, y: 0).map { [$0.red, $0.green, $0.blue] } == [255, 0, 0])  // over the tolerance: red
        #expect(picture.pixel(x: 1, y: 0).map { [$0.red, $0.green, $0.blue] } == [64, 64, 64])  // within it: grey
        #expect(picture.pixel(x: 2, y: 0).map { [$0.red, $0.green, $0.blue, $0.alpha] } == [0, 0, 0, 255])  // equal: black
    }
}
