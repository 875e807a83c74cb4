// Helpers shared by the path tests.
import Foundation
@testable import LaminaGeometry

/// Whether two points are within `tolerance` of each other.
func near(_ a: CGPoint, _ b: CGPoint, _ tolerance: CGFloat = 1e-9) -> Bool {
    abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
}

/// Whether two numbers are within `tolerance` of each other.
func near(_ a: CGFloat, _ b: CGFloat, _ tolerance: CGFloat = 1e-9) -> Bool {
    abs(a - b) <= tolerance
}

/// Whether two rectangles match within `tolerance` on every edge.
func near(_ a: CGRect, _ b: CGRect, _ tolerance: CGFloat = 1e-9) -> Bool {
    near(a.minX, b.minX, tolerance) && near(a.minY, b.minY, tolerance)
        && near(a.maxX, b.maxX, tolerance) && near(a.maxY, b.maxY, tolerance)
}

/// Whether two element lists match, points within `tolerance`.
func near(_ a: [PathElement], _ b: [PathElement], _ tolerance: CGFloat = 1e-9) -> Bool {
    guard a.count == b.count else { return false }
    for (x, y) in zip(a, b) {
        guard x.type == y.type, x.points.count == y.points.count else { return false }
        for (p, q) in zip(x.points, y.points) where !near(p, q, tolerance) { return false }
    }
    return true
}

/// The end points of the elements that have one, in order.
func endPoints(_ data: PathData) -> [CGPoint] {
    data.elements.compactMap(\.endPoint)
}

/// The cubic segments of a path as (start, c1, c2, end).
func cubics(_ data: PathData) -> [(CGPoint, CGPoint, CGPoint, CGPoint)] {
    var out: [(CGPoint, CGPoint, CGPoint, CGPoint)] = []
    var current = CGPoint.zero
    for element in data.elements {
        if case .curveTo(let c1, let c2, let p) = element { out.append((current, c1, c2, p)) }
        if let p = element.endPoint { current = p }
    }
    return out
}

/// The point at t on a cubic.
func cubicPoint(_ c: (CGPoint, CGPoint, CGPoint, CGPoint), _ t: CGFloat) -> CGPoint {
    let u = 1 - t
    let a = u * u * u, b = 3 * u * u * t, d = 3 * u * t * t, e = t * t * t
    return CGPoint(
        x: a * c.0.x + b * c.1.x + d * c.2.x + e * c.3.x,
        y: a * c.0.y + b * c.1.y + d * c.2.y + e * c.3.y)
}

/// The distance from `p` to the segment a-b.
func distance(_ p: CGPoint, toSegment a: CGPoint, _ b: CGPoint) -> CGFloat {
    let (dx, dy) = (b.x - a.x, b.y - a.y)
    let len2 = dx * dx + dy * dy
    var t = len2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2 : 0
    t = min(max(t, 0), 1)
    return hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy))
}

/// The distance from `p` to the nearest segment of `polyline`.
func distance(_ p: CGPoint, to polyline: Polyline) -> CGFloat {
    let pts = polyline.points
    if pts.count == 1 { return hypot(p.x - pts[0].x, p.y - pts[0].y) }
    var best = CGFloat.infinity
    let count = polyline.isClosed ? pts.count : pts.count - 1
    for i in 0..<count {
        best = min(best, distance(p, toSegment: pts[i], pts[(i + 1) % pts.count]))
    }
    return best
}

/// Whether two point lists match pairwise within `tolerance`.
func near(_ a: [CGPoint], _ b: [CGPoint], _ tolerance: CGFloat = 1e-9) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { near($0, $1, tolerance) }
}
