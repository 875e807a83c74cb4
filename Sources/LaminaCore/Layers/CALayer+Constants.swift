import Foundation

/// The corners that `cornerRadius` rounds (`CACornerMask`).
///
/// `minY` is the top edge on iOS (y grows down) and the bottom edge on macOS
/// or under `isGeometryFlipped`: the names are about coordinates, not looks.
public struct CACornerMask: OptionSet, Hashable, Sendable {
    public let rawValue: UInt

    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let layerMinXMinYCorner = CACornerMask(rawValue: 1 << 0)
    public static let layerMaxXMinYCorner = CACornerMask(rawValue: 1 << 1)
    public static let layerMinXMaxYCorner = CACornerMask(rawValue: 1 << 2)
    public static let layerMaxXMaxYCorner = CACornerMask(rawValue: 1 << 3)

    /// All four corners, the default of `maskedCorners`.
    public static let allCorners: CACornerMask = [
        .layerMinXMinYCorner, .layerMaxXMinYCorner, .layerMinXMaxYCorner, .layerMaxXMaxYCorner,
    ]
}

/// How `contents` is laid out in the bounds (`CALayerContentsGravity`).
///
/// As in Core Animation, `top` means the maximum-Y edge and `bottom` the
/// minimum-Y edge, so on iOS (y grows down) `.top` pins the image to the
/// visual bottom unless the layer's geometry is flipped.
public struct CALayerContentsGravity: RawRepresentable, Hashable, Sendable {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public static let center = CALayerContentsGravity("center")
    public static let top = CALayerContentsGravity("top")
    public static let bottom = CALayerContentsGravity("bottom")
    public static let left = CALayerContentsGravity("left")
    public static let right = CALayerContentsGravity("right")
    public static let topLeft = CALayerContentsGravity("topLeft")
    public static let topRight = CALayerContentsGravity("topRight")
    public static let bottomLeft = CALayerContentsGravity("bottomLeft")
    public static let bottomRight = CALayerContentsGravity("bottomRight")
    /// Stretch to fill the bounds (the default).
    public static let resize = CALayerContentsGravity("resize")
    /// Scale to fit inside the bounds, keeping the aspect ratio.
    public static let resizeAspect = CALayerContentsGravity("resizeAspect")
    /// Scale to cover the bounds, keeping the aspect ratio.
    public static let resizeAspectFill = CALayerContentsGravity("resizeAspectFill")
}

/// The filter used to scale `contents` (`CALayerContentsFilter`).
public struct CALayerContentsFilter: RawRepresentable, Hashable, Sendable {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Bilinear filtering (the default).
    public static let linear = CALayerContentsFilter("linear")
    /// Nearest-neighbour sampling: hard pixel edges.
    public static let nearest = CALayerContentsFilter("nearest")
    /// Bilinear filtering between mipmap levels.
    public static let trilinear = CALayerContentsFilter("trilinear")
}
