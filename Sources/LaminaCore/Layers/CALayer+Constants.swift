import Foundation

/// The corners that `cornerRadius` rounds (`CACornerMask`).
///
/// `minY` is the top edge on iOS (y grows down) and the bottom edge on macOS
/// or under `isGeometryFlipped`: the names are about coordinates, not looks.
public struct CACornerMask: OptionSet, Hashable, Sendable {
    public let rawValue: UInt

    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// The corner at minimum x and y (top-left on iOS).
    public static let layerMinXMinYCorner = CACornerMask(rawValue: 1 << 0)
    /// The corner at maximum x, minimum y (top-right on iOS).
    public static let layerMaxXMinYCorner = CACornerMask(rawValue: 1 << 1)
    /// The corner at minimum x, maximum y (bottom-left on iOS).
    public static let layerMinXMaxYCorner = CACornerMask(rawValue: 1 << 2)
    /// The corner at maximum x and y (bottom-right on iOS).
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
    /// The constant whose string is `rawValue`.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Core Animation's `center` ("center").
    public static let center = CALayerContentsGravity("center")
    /// Core Animation's `top` ("top").
    public static let top = CALayerContentsGravity("top")
    /// Core Animation's `bottom` ("bottom").
    public static let bottom = CALayerContentsGravity("bottom")
    /// Core Animation's `left` ("left").
    public static let left = CALayerContentsGravity("left")
    /// Core Animation's `right` ("right").
    public static let right = CALayerContentsGravity("right")
    /// Core Animation's `topLeft` ("topLeft").
    public static let topLeft = CALayerContentsGravity("topLeft")
    /// Core Animation's `topRight` ("topRight").
    public static let topRight = CALayerContentsGravity("topRight")
    /// Core Animation's `bottomLeft` ("bottomLeft").
    public static let bottomLeft = CALayerContentsGravity("bottomLeft")
    /// Core Animation's `bottomRight` ("bottomRight").
    public static let bottomRight = CALayerContentsGravity("bottomRight")
    /// Stretch to fill the bounds (the default).
    public static let resize = CALayerContentsGravity("resize")
    /// Scale to fit inside the bounds, keeping the aspect ratio.
    public static let resizeAspect = CALayerContentsGravity("resizeAspect")
    /// Scale to cover the bounds, keeping the aspect ratio.
    public static let resizeAspectFill = CALayerContentsGravity("resizeAspectFill")

    /// Every gravity Core Animation has: the one list the scene format's
    /// names and the renderer's check are made from.
    package static let all: [CALayerContentsGravity] = [
        .center, .top, .bottom, .left, .right, .topLeft, .topRight, .bottomLeft, .bottomRight,
        .resize, .resizeAspect, .resizeAspectFill,
    ]
}

/// The filter used to scale `contents` (`CALayerContentsFilter`).
public struct CALayerContentsFilter: RawRepresentable, Hashable, Sendable {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    /// The constant whose string is `rawValue`.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Bilinear filtering (the default).
    public static let linear = CALayerContentsFilter("linear")
    /// Nearest-neighbour sampling: hard pixel edges.
    public static let nearest = CALayerContentsFilter("nearest")
    /// Bilinear filtering between mipmap levels.
    public static let trilinear = CALayerContentsFilter("trilinear")

    /// Every filter Core Animation has (see `CALayerContentsGravity.all`).
    package static let all: [CALayerContentsFilter] = [.linear, .nearest, .trilinear]
}
