import Foundation
import LaminaRender

/// One polygon to paint: local geometry, the matrix that takes it to pixels,
/// what to paint it with, and what limits where it paints. This is the CPU
/// backend's draw command for a layer's background, contents and border.
struct PolygonDraw: Sendable {
    /// The polygon in local coordinates. The render plan sends convex ones
    /// (quads and their clipped pieces); any simple polygon works.
    public var polygon: [CGPoint]
    /// Local → homogeneous pixel coordinates. Every vertex must map to W > 0
    /// (in front of the camera); the render plan clips to ensure it.
    public var transform: Matrix4x4
    public var source: PaintSource
    /// Limits painting to a rounded rectangle or its inner ring.
    public var roundedRect: RoundedRectShape?
    /// Limits painting to the intersection of these local half-planes.
    public var clipPlanes: [HalfPlane]
    /// A global opacity, clamped to 0...1.
    public var alpha: Double
    /// A clip mask in target pixel coordinates; outside its bounds nothing is painted.
    public var clipMask: CoverageMask?

    public init(
        polygon: [CGPoint], transform: Matrix4x4, source: PaintSource,
        roundedRect: RoundedRectShape? = nil, clipPlanes: [HalfPlane] = [], alpha: Double = 1,
        clipMask: CoverageMask? = nil
    ) {
        self.polygon = polygon
        self.transform = transform
        self.source = source
        self.roundedRect = roundedRect
        self.clipPlanes = clipPlanes
        self.alpha = alpha
        self.clipMask = clipMask
    }

    /// A draw of the local rectangle `rect` (as a quad) with the given source.
    public init(rect: CGRect, transform: Matrix4x4, source: PaintSource) {
        let r = rect.standardized
        self.init(
            polygon: [
                CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY),
                CGPoint(x: r.maxX, y: r.maxY), CGPoint(x: r.minX, y: r.maxY),
            ],
            transform: transform, source: source)
    }
}
