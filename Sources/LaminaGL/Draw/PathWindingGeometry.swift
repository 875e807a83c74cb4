import Foundation
import LaminaGeometry

/// The quads of one path fill's winding pass (`GLPainter.fillPaths`): for
/// each edge of the path, a quad over the rows it spans, from its left to
/// its contour's right, every vertex carrying the whole edge; all in pixels
/// counted from the top-left corner of the path's box in the picture.
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

    /// What drawing a path by winding comes to.
    enum Outcome {
        case edges(PathWindingGeometry)
        /// No pixel of the path lies in the region.
        case nothingShows
        /// A point lies where W is not positive (behind the eye of a
        /// perspective), where only clipping in clip space draws it right,
        /// or is not finite (which the stencil's geometry refuses).
        case needsClipSpace
    }

    /// The pixels the path touches within the region asked for: where its
    /// winding numbers are summed and its colour drawn.
    let box: Box
    /// `GLVertexStream.floatsPerEdgeVertex` floats a vertex, six vertices a
    /// quad, from the box's top-left corner.
    let vertices: [Float]

    /// The quads of `contours` (local points; contours of fewer than 3
    /// points are skipped) through `transform` (local to the picture's
    /// pixels), within `region`.
    static func make(_ contours: [[CGPoint]], transform: CATransform3D, within region: Box) -> Outcome {
        let h = PlaneHomography(transform).h
        // Each contour's points in the picture, and its rightmost x.
        var pictureContours: [(points: [SIMD2<Double>], right: Double)] = []
        pictureContours.reserveCapacity(contours.count)
        var minimum = SIMD2(Double.infinity, .infinity), maximum = -minimum
        for contour in contours {
            // A short contour encloses nothing, but a point of it that is
            // not finite is bad data all the same: the stencil's geometry
            // refuses it, naming it.
            guard contour.count >= 3 else {
                if contour.contains(where: { !$0.x.isFinite || !$0.y.isFinite }) { return .needsClipSpace }
                continue
            }
            var points: [SIMD2<Double>] = []
            points.reserveCapacity(contour.count)
            var contourRight = -Double.infinity
            for p in contour {
                let (x, y) = (Double(p.x), Double(p.y))
                let w = x * h.2 + y * h.5 + h.8
                guard w > 0 else { return .needsClipSpace }
                let point = SIMD2(x * h.0 + y * h.3 + h.6, x * h.1 + y * h.4 + h.7) / w
                guard point.x.isFinite, point.y.isFinite else { return .needsClipSpace }
                points.append(point)
                minimum = pointwiseMin(minimum, point)
                maximum = pointwiseMax(maximum, point)
                contourRight = max(contourRight, point.x)
            }
            pictureContours.append((points, contourRight))
        }
        guard !pictureContours.isEmpty else { return .nothingShows }
        let left = max(region.x, Int(minimum.x.rounded(.down))), right = min(region.maxX, Int(maximum.x.rounded(.up)))
        let top = max(region.y, Int(minimum.y.rounded(.down))), bottom = min(region.maxY, Int(maximum.y.rounded(.up)))
        guard left < right, top < bottom else { return .nothingShows }
        let box = Box(x: left, y: top, width: right - left, height: bottom - top)
        let origin = SIMD2(Double(left), Double(top))

        var vertices: [Float] = []
        vertices.reserveCapacity(pictureContours.reduce(0) { $0 + $1.points.count } * 6 * GLVertexStream.floatsPerEdgeVertex)
        for (points, rightmost) in pictureContours {
            let contourRight = Double(min(right, Int(rightmost.rounded(.up))))
            var a = points[points.count - 1]
            for b in points {
                defer { a = b }
                // A level edge crosses no row: it adds nothing.
                guard a.y != b.y else { continue }
                let quadTop = max(Double(top), min(a.y, b.y).rounded(.down))
                let quadBottom = min(Double(bottom), max(a.y, b.y).rounded(.up))
                let quadLeft = max(Double(left), min(a.x, b.x).rounded(.down))
                guard quadTop < quadBottom, quadLeft < contourRight else { continue }
                let (from, to) = (a - origin, b - origin)
                let edge = [Float(from.x), Float(from.y), Float(to.x), Float(to.y)]
                for (x, y) in [(quadLeft, quadTop), (contourRight, quadTop), (quadLeft, quadBottom),
                               (contourRight, quadTop), (contourRight, quadBottom), (quadLeft, quadBottom)] {
                    vertices.append(Float(x - origin.x))
                    vertices.append(Float(y - origin.y))
                    vertices.append(contentsOf: edge)
                }
            }
        }
        return .edges(PathWindingGeometry(box: box, vertices: vertices))
    }
}

/// Path fills whose winding passes are one draw (`GLPainter.fillPaths`):
/// each path's box given a slot of the winding buffer, side by side on
/// shelves no wider nor taller than `limit`, and its quads moved into it.
struct WindingBatch {
    struct Path {
        var box: PathWindingGeometry.Box
        /// Where the box's top-left pixel lies in the winding buffer.
        var slot: (x: Int, y: Int)
        var evenOdd: Bool
        /// Premultiplied.
        var color: SIMD4<Float>
    }

    let limit: Int
    private(set) var paths: [Path] = []
    /// Every path's quads, in the winding buffer's pixels.
    private(set) var vertices: [Float] = []
    /// The part of the winding buffer the slots take.
    private(set) var usedWidth = 0
    private(set) var usedHeight = 0
    private var shelfX = 0, shelfY = 0, shelfHeight = 0

    init(limit: Int) { self.limit = limit }

    /// Adds a path in the next free slot; false, adding nothing, when the
    /// batch has no room left for it (a path larger than `limit` goes in an
    /// empty batch alone).
    mutating func add(_ edges: PathWindingGeometry, evenOdd: Bool, color: SIMD4<Float>) -> Bool {
        let (width, height) = (edges.box.width, edges.box.height)
        if !paths.isEmpty {
            guard width <= limit, height <= limit else { return false }
            if shelfX + width > limit {
                shelfY += shelfHeight
                (shelfX, shelfHeight) = (0, 0)
            }
            guard shelfY + height <= limit else { return false }
        }
        let slot = (x: shelfX, y: shelfY)
        shelfX += width
        shelfHeight = max(shelfHeight, height)
        usedWidth = max(usedWidth, slot.x + width)
        usedHeight = max(usedHeight, slot.y + height)
        paths.append(Path(box: edges.box, slot: slot, evenOdd: evenOdd, color: color))
        let (dx, dy) = (Float(slot.x), Float(slot.y))
        // Grown by appending, which doubles: reserving the exact count at
        // each path copied the whole batch every time.
        var i = 0
        while i < edges.vertices.count {
            // The quad's corner, then the edge's two ends.
            vertices.append(edges.vertices[i] + dx)
            vertices.append(edges.vertices[i + 1] + dy)
            vertices.append(edges.vertices[i + 2] + dx)
            vertices.append(edges.vertices[i + 3] + dy)
            vertices.append(edges.vertices[i + 4] + dx)
            vertices.append(edges.vertices[i + 5] + dy)
            i += GLVertexStream.floatsPerEdgeVertex
        }
        return true
    }

    /// Empties the batch, keeping its storage.
    mutating func removeAll() {
        paths.removeAll(keepingCapacity: true)
        vertices.removeAll(keepingCapacity: true)
        (usedWidth, usedHeight, shelfX, shelfY, shelfHeight) = (0, 0, 0, 0, 0)
    }
}
