import Foundation

/// The vertices of one stencil-then-cover path fill, ready for a single
/// upload: every contour's points, then the four corners of the cover quad,
/// and the fan triangles of the stencil pass as indices.
///
/// Built on the CPU so that a path of any number of contours costs one vertex
/// upload and two draw calls (`GL_TRIANGLES` for the fans, a four-vertex
/// `GL_TRIANGLE_FAN` for the cover quad).
struct PathFillGeometry: Equatable {
    /// x, y pairs: the contours' points in order, then the cover quad.
    var positions: [Float]
    /// Stencil-pass triangles: contour k with n points becomes the fan
    /// (p0, p1, p2), (p0, p2, p3) ... (p0, pn-2, pn-1) from its first point.
    var fanIndices: [UInt32]
    /// Index of the cover quad's first vertex in `positions` (its four
    /// corners go around the quad, ready for `GL_TRIANGLE_FAN`).
    var coverFirstVertex: Int

    /// How far the cover quad reaches past the contours' bounding box, as a
    /// fraction of the box's larger side. The quad and the fans are projected
    /// from different vertices, so without a margin a sample lying exactly
    /// on a shared edge could be stencilled by a fan yet missed by the quad,
    /// leaving stencil behind for the next path.
    static let coverMargin = 1.0 / 1024

    /// Checks the contours and lays them out, or returns nil when nothing
    /// would be drawn (no contour with 3 points or more).
    ///
    /// Contours of fewer than 3 points enclose no area and are left out (a
    /// flattened path may well hold a lone `moveTo`).
    /// - Throws: `GLError.invalidArgument` naming the contour and point that
    ///   is not finite.
    init?(contours: [[CGPoint]]) throws {
        let drawn = contours.lazy.filter { $0.count >= 3 }
        let vertexCount = drawn.reduce(0) { $0 + $1.count }
        let triangleCount = vertexCount - 2 * drawn.count
        guard vertexCount + 4 <= Int(UInt32.max) else {
            throw GLError.invalidArgument("a path has \(vertexCount) points, more than one draw can index")
        }

        var positions: [Float] = []
        positions.reserveCapacity((vertexCount + 4) * 2)
        var indices: [UInt32] = []
        indices.reserveCapacity(triangleCount * 3)
        var minX = Double.infinity, minY = Double.infinity
        var maxX = -Double.infinity, maxY = -Double.infinity
        // One pass checks every point (short contours included: their data
        // is wrong all the same) and lays out those that are drawn.
        for (contourIndex, contour) in contours.enumerated() {
            let isDrawn = contour.count >= 3
            for pointIndex in contour.indices {
                let x = Double(contour[pointIndex].x), y = Double(contour[pointIndex].y)
                guard x.isFinite, y.isFinite else {
                    throw GLError.invalidArgument(
                        "a path's contour \(contourIndex) has a point that is not finite at index \(pointIndex): "
                            + "\(contour[pointIndex])")
                }
                guard isDrawn else { continue }
                positions.append(Float(x))
                positions.append(Float(y))
                minX = min(minX, x)
                minY = min(minY, y)
                maxX = max(maxX, x)
                maxY = max(maxY, y)
            }
            guard isDrawn else { continue }
            let first = UInt32(positions.count / 2 - contour.count)
            for corner in 1..<UInt32(contour.count - 1) {
                indices.append(first)
                indices.append(first + corner)
                indices.append(first + corner + 1)
            }
        }
        guard triangleCount > 0 else { return nil }
        let margin = max(maxX - minX, maxY - minY) * Self.coverMargin
        let cover = [(minX - margin, minY - margin), (maxX + margin, minY - margin),
                     (maxX + margin, maxY + margin), (minX - margin, maxY + margin)]
        coverFirstVertex = positions.count / 2
        for (x, y) in cover {
            positions.append(Float(x))
            positions.append(Float(y))
        }
        self.positions = positions
        fanIndices = indices
    }
}
