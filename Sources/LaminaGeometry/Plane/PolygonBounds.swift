import Foundation

extension CGRect {
    /// The smallest rect containing the points, or nil for none or for a
    /// coordinate that is not finite (a point projected from just in front
    /// of the eye can be; such a box means nothing, and Foundation's rect
    /// operations trap on it): the planner's extents and the raster's pixel
    /// bounds of a polygon.
    package static func bounding(_ points: [CGPoint]) -> CGRect? {
        guard let first = points.first, points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return nil }
        var x0 = first.x, x1 = first.x, y0 = first.y, y1 = first.y
        for p in points.dropFirst() {
            x0 = min(x0, p.x); x1 = max(x1, p.x); y0 = min(y0, p.y); y1 = max(y1, p.y)
        }
        let box = CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        // Finite corners far apart can still have an infinite width.
        return box.width.isFinite && box.height.isFinite ? box : nil
    }
}
