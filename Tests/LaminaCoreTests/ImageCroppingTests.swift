import Foundation
import Testing
@testable import LaminaCore

/// `CGImage.cropping(to:)` as Core Graphics defines it: integral rect,
/// intersected with the bounds, origin at the top-left pixel, nil when empty.
@Suite struct ImageCroppingTests {
    /// 8x6, pixel (x, y) = (x, y, 0, 255).
    private let picture: CGImage = {
        let bytes = (0..<6).flatMap { y in (0..<8).flatMap { x -> [UInt8] in [UInt8(x), UInt8(y), 0, 255] } }
        return try! CGImage(width: 8, height: 6, premultipliedRGBA: bytes)
    }()

    /// The (x, y) each pixel of `image` came from.
    private func origins(_ image: CGImage?) -> [[Int]] {
        guard let image else { return [] }
        return (0..<image.height).map { y in
            (0..<image.width).map { x in
                let pixel = image.pixel(x: x, y: y)!
                return Int(pixel.red) * 10 + Int(pixel.green)
            }
        }
    }

    @Test func cropsFromTheTopLeft() {
        let cropped = picture.cropping(to: CGRect(x: 2, y: 1, width: 3, height: 2))
        #expect(cropped?.width == 3)
        #expect(cropped?.height == 2)
        #expect(origins(cropped) == [[21, 31, 41], [22, 32, 42]])
    }

    @Test func fractionalRectsGrowToWholePixels() {
        // x 1.5...3.2 -> 1...4, y 0.9...1.1 -> 0...2 (CGRectIntegral).
        let cropped = picture.cropping(to: CGRect(x: 1.5, y: 0.9, width: 1.7, height: 0.2))
        #expect(origins(cropped) == [[10, 20, 30], [11, 21, 31]])
    }

    @Test func rectsAreClippedToTheImage() {
        let cropped = picture.cropping(to: CGRect(x: 6, y: -3, width: 10, height: 5))
        #expect(origins(cropped) == [[60, 70], [61, 71]])
    }

    @Test func negativeSizesAreStandardised() {
        let cropped = picture.cropping(to: CGRect(x: 5, y: 3, width: -2, height: -1))
        #expect(origins(cropped) == [[32, 42]])
    }

    @Test func wholeOrLargerRectGivesTheSameImage() {
        #expect(picture.cropping(to: CGRect(x: 0, y: 0, width: 8, height: 6)) === picture)
        #expect(picture.cropping(to: .infinite) === picture)
        #expect(picture.cropping(to: CGRect(x: -10, y: -10, width: 100, height: 100)) === picture)
    }

    @Test(arguments: [
        CGRect(x: 8, y: 0, width: 4, height: 4),  // right of the image
        CGRect(x: 0, y: -5, width: 4, height: 5),  // touches the top edge only
        CGRect(x: 2, y: 2, width: 0, height: 3),  // empty
        CGRect.null,
        CGRect(x: CGFloat.nan, y: 0, width: 1, height: 1),
        CGRect(x: 0, y: 0, width: CGFloat.infinity, height: 1),
    ])
    func areasOutsideOrEmptyGiveNil(rect: CGRect) {
        #expect(picture.cropping(to: rect) == nil)
    }
}
