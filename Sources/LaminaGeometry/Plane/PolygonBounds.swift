import Foundation

extension CGRect {
    /// The smallest rect containing the points, or nil for none or for a
    /// coordinate that is not finite (a point projected from just in front
    /// of the eye can be; such a box means nothing, and Foundation's rect
    /// operations trap on it): the planner's extents and the raster's pixel
    /// bounds of a polygon.
    package static func bounding(_ points: [CGPoint]) -> CGRect? {
        guard let first = points.first, points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return nil }
        var box = Bounds(first)
        for p in points.dropFirst() { box.add(p) }
        return box.rect
    }

    /// `bounding(_:)` of four points (a quad's corners), with no list made
    /// of them.
    package static func bounding(_ a: CGPoint, _ b: CGPoint, _ c: CGPoint, _ d: CGPoint) -> CGRect? {
        func finite(_ p: CGPoint) -> Bool { p.x.isFinite && p.y.isFinite }
        guard finite(a), finite(b), finite(c), finite(d) else { return nil }
        var box = Bounds(a)
        box.add(b); box.add(c); box.add(d)
        return box.rect
    }

    /// A running minimum and maximum of finite points.
    private struct Bounds {
        var x0, x1, y0, y1: CGFloat
        init(_ p: CGPoint) { x0 = p.x; x1 = p.x; y0 = p.y; y1 = p.y }
        mutating func add(_ p: CGPoint) { x0 = min(x0, p.x); x1 = max(x1, p.x); y0 = min(y0, p.y); y1 = max(y1, p.y) }
        var rect: CGRect? {
            let box = CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
            // Finite corners far apart can still have an infinite width.
            return box.width.isFinite && box.height.isFinite ? box : nil
        }
    }
}
