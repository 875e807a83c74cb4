import Foundation

/// A path animated between two shapes, as Core Animation animates a shape
/// layer's `path`: when both have the same elements in the same order
/// (moves, lines, curves and closes alike), each point moves in a straight
/// line from its place in one to its place in the other. Paths that differ
/// in their elements cannot morph: the animation jumps between them, the
/// first shown until the segment's end (Core Animation's result is
/// undefined there; showing no path at all would be the worst of answers).
package enum PathMorph {
    /// Whether `a` and `b` have the same elements in the same order.
    package static func canMorph(_ a: PathData, _ b: PathData) -> Bool {
        a.elements.count == b.elements.count && zip(a.elements, b.elements).allSatisfy { sameKind($0, $1) }
    }

    /// The path `fraction` of the way from `a` to `b` (which `canMorph`).
    package static func interpolate(_ a: PathData, _ b: PathData, fraction f: Double) -> PathData {
        func mix(_ p: CGPoint, _ q: CGPoint) -> CGPoint {
            CGPoint(x: p.x + (q.x - p.x) * CGFloat(f), y: p.y + (q.y - p.y) * CGFloat(f))
        }
        var out = PathData()
        out.reserveCapacity(min(a.elements.count, b.elements.count))
        for (x, y) in zip(a.elements, b.elements) {
            switch (x, y) {
            case let (.moveTo(p), .moveTo(q)): out.move(to: mix(p, q))
            case let (.lineTo(p), .lineTo(q)): out.addLine(to: mix(p, q))
            case let (.quadCurveTo(c, p), .quadCurveTo(d, q)): out.addQuadCurve(to: mix(p, q), control: mix(c, d))
            case let (.curveTo(c1, c2, p), .curveTo(d1, d2, q)):
                out.addCurve(to: mix(p, q), control1: mix(c1, d1), control2: mix(c2, d2))
            case (.closeSubpath, .closeSubpath): out.closeSubpath()
            default: break  // canMorph said they match
            }
        }
        return out
    }

    private static func sameKind(_ x: PathElement, _ y: PathElement) -> Bool {
        switch (x, y) {
        case (.moveTo, .moveTo), (.lineTo, .lineTo), (.quadCurveTo, .quadCurveTo), (.curveTo, .curveTo),
             (.closeSubpath, .closeSubpath): true
        default: false
        }
    }
}
