import Foundation
import Lamina

extension UIImage {
    /// The picture the book's listings load from `Snowman.png`. Here it is
    /// made rather than loaded: a 64 x 64 checkerboard of 8-pixel squares,
    /// orange (#f0a030) in the top-left corner and dark grey (#303030), the
    /// image that the conformance scenes give as
    /// `{"checker": [64, 64, 8], "colors": ["#f0a030", "#303030"]}`. A
    /// checkerboard shows every distortion a transform makes, which a photo
    /// hides.
    public static func snowman() throws -> UIImage {
        let side = 64, cell = 8
        let orange: [UInt8] = [0xf0, 0xa0, 0x30, 0xff], grey: [UInt8] = [0x30, 0x30, 0x30, 0xff]
        var pixels: [UInt8] = []
        pixels.reserveCapacity(side * side * 4)
        for y in 0..<side {
            for x in 0..<side {
                pixels += (x / cell + y / cell) % 2 == 0 ? orange : grey
            }
        }
        return UIImage(cgImage: try CGImage(width: side, height: side, straightRGBA: pixels))
    }
}

extension UIColor {
    /// An opaque sRGB colour from its 24-bit hexadecimal code: `0xe6194b`
    /// is red e6, green 19, blue 4b. Interface Builder's colour picker gives
    /// colours this way; the listings' faces use the conformance scenes'.
    public convenience init(rgb: UInt32) {
        func component(_ shift: UInt32) -> CGFloat { CGFloat((rgb >> shift) & 0xff) / 255 }
        self.init(red: component(16), green: component(8), blue: component(0), alpha: 1)
    }
}
