import Foundation

/// A decoded scene: the canvas and the layer tree drawn on it.
///
/// The root layer is a plain `CALayer` whose bounds are `[0, 0, width,
/// height]` and whose position is the canvas centre; everything else about
/// it (background, sublayer transform, sublayers...) comes from the scene's
/// top-level object. `init` places the root layer so; changing `width` or
/// `height` afterwards does not move it, and `SceneEncoder` refuses a root
/// layer that does not match the canvas.
public struct Scene {
    /// The coordinate convention of the whole tree.
    public enum Origin: String, Sendable, CaseIterable {
        /// iOS: the origin at the top left, y growing down (the default).
        case topLeft
        /// macOS: the origin at the bottom left, y growing up.
        case bottomLeft
    }

    /// The canvas width in points, > 0.
    public var width: CGFloat
    /// The canvas height in points, > 0.
    public var height: CGFloat
    /// Pixels per point, > 0. Default 1.
    public var scale: CGFloat
    /// Default `.topLeft`.
    public var origin: Origin
    /// The media time at which animations are sampled. Default 0.
    public var time: CFTimeInterval
    /// The root of the layer tree.
    public var rootLayer: CALayer

    /// A scene whose root layer gets the canvas' bounds and centre as its
    /// `bounds` and `position`.
    public init(
        width: CGFloat, height: CGFloat, scale: CGFloat = 1, origin: Origin = .topLeft,
        time: CFTimeInterval = 0, rootLayer: CALayer = CALayer()
    ) {
        self.width = width
        self.height = height
        self.scale = scale
        self.origin = origin
        self.time = time
        self.rootLayer = rootLayer
        rootLayer.bounds = CGRect(x: 0, y: 0, width: width, height: height)
        rootLayer.position = CGPoint(x: width / 2, y: height / 2)
    }

    /// The width of the rendered picture in pixels: `ceil(width * scale)`.
    public var pixelWidth: Int { Self.pixels(width * scale) }

    /// The height of the rendered picture in pixels: `ceil(height * scale)`.
    public var pixelHeight: Int { Self.pixels(height * scale) }

    /// `ceil(points)` as an Int, saturating instead of trapping on huge or
    /// infinite sizes, so that the decoder's limits see them as huge.
    static func pixels(_ points: CGFloat) -> Int {
        let p = points.rounded(.up)
        if p.isNaN || p <= 0 { return 0 }
        return Int(saturating: p)  // an infinite size is as large as can be, never 0
    }
}
