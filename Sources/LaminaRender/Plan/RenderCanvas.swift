import LaminaCore

/// The picture a plan is for.
public struct RenderCanvas: Hashable, Sendable {
    /// The canvas in points.
    public var width: Double
    /// Points down.
    public var height: Double
    /// Pixels per point.
    public var scale: Double
    /// True for macOS coordinates (y grows up from the bottom-left corner).
    public var originBottomLeft: Bool

    /// A canvas of `width` x `height` points at `scale` pixels per point; with
    /// `originBottomLeft`, y grows up (macOS, a scene's `"origin": "bottomLeft"`).
    public init(width: Double, height: Double, scale: Double = 1, originBottomLeft: Bool = false) {
        self.width = width; self.height = height; self.scale = scale; self.originBottomLeft = originBottomLeft
    }

    /// `ceil(width * scale)`, saturating (check the canvas against a
    /// `RenderBudget` before trusting it).
    public var pixelWidth: Int { Int(saturating: max(0, (width * scale).rounded(.up))) }
    /// Pixels down: the height times the scale, rounded up.
    public var pixelHeight: Int { Int(saturating: max(0, (height * scale).rounded(.up))) }

    /// Canvas points to output pixels.
    public var pointsToPixels: CATransform3D {
        var m = CATransform3D(scaleX: scale, y: scale, z: 1)
        if originBottomLeft {
            m = CATransform3D(scaleX: 1, y: -1, z: 1).concatenating(CATransform3D(translationX: 0, y: height, z: 0)).concatenating(m)
        }
        return m
    }
}
