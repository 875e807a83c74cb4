import Foundation
import LaminaGeometry

/// The quads of one path fill's winding pass (`GLPainter.fillPath`): for
/// each edge of the path, in the picture's pixels, a quad over the rows it
/// spans, from its left to its contour's right, every vertex carrying the
/// whole edge.
///
/// A closed contour adds nothing right of its rightmost point (its edges'
/// directions cancel there), so each edge's quad stops at its contour's
/// right rather than the picture's: a line of text costs its glyphs' widths,
/// not the line's, a glyph.
struct PathWindingGeometry {
    /// A rectangle of whole pixels of the picture.
    struct Box: Equatable {
        var x: Int, y: Int, width: Int, height: Int
        var maxX: Int { x + width }
        var maxY: Int { y + height }
    }

    /// The pixels the path touches within the region asked for: where the
    /// winding buffer is summed and the colour drawn.
    let box: Box
    /// `GLVertexStream.floatsPerEdgeVertex` floats a vertex, six vertices a quad.
    let vertices: [Float]

    /// The quads of `contours` (local points; contours of fewer than 3
    /// points are skipped) through `transform` (local to the picture's
    /// pixels), within `region`. Nil when the path has no pixel there, or
    /// when a point lies where W is not positive (behind the eye of a
    /// perspective), which only clipping in clip space draws right.
    init?(contours: [[CGPoint]], transform: CATransform3D, within region: Box) {
        let h = PlaneHomography(transform).h
        var pictureContours: [[SIMD2<Double>]] = []
        pictureContours.reserveCapacity(contours.count)
        var minimum = SIMD2(Double.infinity, .infinity), maximum = -minimum
        for contour in contours where contour.count >= 3 {
            var points: [SIMD2<Double>] = []
            points.reserveCapacity(contour.count)
            for p in contour {
                let (x, y) = (Double(p.x), Double(p.y))
                let w = x * h.2 + y * h.5 + h.8
                guard w > 0 else { return nil }
                let point = SIMD2(x * h.0 + y * h.3 + h.6, x * h.1 + y * h.4 + h.7) / w
                guard point.x.isFinite, point.y.isFinite else { return nil }
                points.append(point)
                minimum = pointwiseMin(minimum, point)
                maximum = pointwiseMax(maximum, point)
            }
            pictureContours.append(points)
        }
        guard !pictureContours.isEmpty else { return nil }
        let left = max(region.x, Int(minimum.x.rounded(.down))), right = min(region.maxX, Int(maximum.x.rounded(.up)))
        let top = max(region.y, Int(minimum.y.rounded(.down))), bottom = min(region.maxY, Int(maximum.y.rounded(.up)))
        guard left < right, top < bottom else { return nil }
        box = Box(x: left, y: top, width: right - left, height: bottom - top)

        var vertices: [Float] = []
        vertices.reserveCapacity(pictureContours.reduce(0) { $0 + $1.count } * 6 * GLVertexStream.floatsPerEdgeVertex)
        for points in pictureContours {
            let contourRight = Double(min(right, Int(points.map(\.x).max()!.rounded(.up))))
            var a = points[points.count - 1]
            for b in points {
                defer { a = b }
                // A level edge crosses no row: it adds nothing.
                guard a.y != b.y else { continue }
                let quadTop = max(Double(top), min(a.y, b.y).rounded(.down))
                let quadBottom = min(Double(bottom), max(a.y, b.y).rounded(.up))
                let quadLeft = max(Double(left), min(a.x, b.x).rounded(.down))
                guard quadTop < quadBottom, quadLeft < contourRight else { continue }
                let edge = [Float(a.x), Float(a.y), Float(b.x), Float(b.y)]
                for (x, y) in [(quadLeft, quadTop), (contourRight, quadTop), (quadLeft, quadBottom),
                               (contourRight, quadTop), (contourRight, quadBottom), (quadLeft, quadBottom)] {
                    vertices.append(Float(x))
                    vertices.append(Float(y))
                    vertices.append(contentsOf: edge)
                }
            }
        }
        self.vertices = vertices
    }
}
