import Foundation

/// An image as UIKit names it, wrapping a `CGImage` so that the book's
/// `layer.contents = (__bridge id)image.CGImage` reads
/// `layer.contents = image.cgImage`.
///
/// Loading by name or file needs the PNG decoder, which lives above this
/// module (LaminaPNG): decode there and wrap the result with
/// `init(cgImage:scale:)`.
public final class UIImage: Hashable, CustomStringConvertible, Sendable {
    /// The bitmap.
    public let cgImage: CGImage?

    /// Pixels per point. Default 1.
    public let scale: CGFloat

    /// An image of `cgImage` at `scale` pixels per point.
    public init(cgImage: CGImage, scale: CGFloat = 1) {
        self.cgImage = cgImage
        self.scale = scale > 0 && scale.isFinite ? scale : 1
    }

    /// The size in points: the pixel size divided by `scale`.
    public var size: CGSize {
        guard let cgImage else { return .zero }
        return CGSize(width: CGFloat(cgImage.width) / scale, height: CGFloat(cgImage.height) / scale)
    }

    public static func == (lhs: UIImage, rhs: UIImage) -> Bool {
        lhs.cgImage == rhs.cgImage && lhs.scale == rhs.scale
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(cgImage?.width)
        hasher.combine(cgImage?.height)
        hasher.combine(scale)
    }

    public var description: String { "UIImage(\(size.width)x\(size.height) @\(scale)x)" }
}
