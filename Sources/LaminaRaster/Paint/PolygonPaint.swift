import Foundation
import LaminaGeometry

/// One polygon to paint: local geometry, the matrix that takes it to pixels,
/// what to paint it with, and what limits where it paints. This is the CPU
/// backend's draw command for a layer's background, contents and border.
package struct PolygonPaint: Sendable {
    /// The polygon in local coordinates. The render plan sends convex ones
    /// (quads and their clipped pieces); any simple polygon works.
    package var polygon: [CGPoint]
    /// Local → homogeneous pixel coordinates. Every vertex must map to W > 0
    /// (in front of the camera); the render plan clips to ensure it.
    package var transform: CATransform3D
    package var source: PaintSource
    /// Limits painting to a rounded rectangle or its inner ring.
    package var roundedRect: RoundedRectCoverage?
    /// The part of a split draw this piece keeps (`RenderPlan`'s
    /// `PolygonPaint.cuts`): a pixel is painted only when every cut owns its
    /// centre, so pieces tile without a seam.
    package var cuts: [HalfPlane]
    /// A global opacity, clamped to 0...1.
    package var alpha: Double
    /// A clip mask in target pixel coordinates; outside its bounds nothing is painted.
    package var clipMask: CoverageMask?

    package init(
        polygon: [CGPoint], transform: CATransform3D, source: PaintSource,
        roundedRect: RoundedRectCoverage? = nil, cuts: [HalfPlane] = [], alpha: Double = 1,
        clipMask: CoverageMask? = nil
    ) {
        self.polygon = polygon
        self.transform = transform
        self.source = source
        self.roundedRect = roundedRect
        self.cuts = cuts
        self.alpha = alpha
        self.clipMask = clipMask
    }

    /// A draw of the local rectangle `rect` (as a quad) with the given source.
    package init(rect: CGRect, transform: CATransform3D, source: PaintSource) {
        let r = rect.standardized
        self.init(
            polygon: [
                CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY),
                CGPoint(x: r.maxX, y: r.maxY), CGPoint(x: r.minX, y: r.maxY),
            ],
            transform: transform, source: source)
    }
}
