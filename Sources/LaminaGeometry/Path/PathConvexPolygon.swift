import Foundation

extension PathData {
    /// The corners of the region the path fills, when that region is one
    /// convex polygon: a single subpath of straight segments, closed or not
    /// (a fill closes it), that turns one way and goes round once. A curve
    /// whose control points lie on its chord, between its ends, is straight
    /// (Lottie writes a rectangle's sides so). Corners in order, without
    /// repeated points or points partway along a side; nil for anything
    /// else (a true curve, a second subpath, a star, no area, a point that
    /// is not finite) or for more than `maximumCorners` corners.
    ///
    /// A fill of such a region is the intersection of the half-planes of
    /// its sides, whichever fill rule it has: a mask of this shape cuts as
    /// a few clip planes do.
    ///
    /// ```swift
    /// var square = PathData()
    /// square.addRect(CGRect(x: 0, y: 0, width: 4, height: 4))
    /// square.convexPolygon(maximumCorners: 8)  // its four corners
    /// ```
    package func convexPolygon(maximumCorners: Int) -> [CGPoint]? {
        var points: [CGPoint] = []
        // Set by a move after the first subpath's segments: a further
        // segment starts a second subpath.
        var moved = false
        for element in elements {
            switch element {
            case .moveTo(let p):
                // A move before any segment only moves the start.
                if points.count > 1 { moved = true } else { points = [p] }
                continue
            case .closeSubpath:
                continue
            case .lineTo, .quadCurveTo, .curveTo:
                guard !moved, let from = points.last else { return nil }
                switch element {
                case .lineTo(let p):
                    points.append(p)
                case .quadCurveTo(let c, let p):
                    guard Self.lies(c, onChordFrom: from, to: p) else { return nil }
                    points.append(p)
                case .curveTo(let c1, let c2, let p):
                    guard Self.lies(c1, onChordFrom: from, to: p), Self.lies(c2, onChordFrom: from, to: p) else { return nil }
                    points.append(p)
                default:
                    break
                }
            }
        }
        guard points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return nil }
        // Repeated points, and points on the straight line between their
        // neighbours (also where the outline doubles back along it: no
        // area either way), leave the region as it is.
        var corners = points
        var removed = true
        while removed, corners.count >= 3 {
            removed = false
            var i = 0
            while i < corners.count, corners.count >= 3 {
                let previous = corners[(i + corners.count - 1) % corners.count]
                let next = corners[(i + 1) % corners.count]
                if corners[i] == previous || Self.isStraight(previous, corners[i], next) {
                    corners.remove(at: i)
                    removed = true
                } else {
                    i += 1
                }
            }
        }
        guard corners.count >= 3, corners.count <= maximumCorners else { return nil }
        // Convex: every corner turns the same way, and all of them together
        // once round (a pentagram turns one way twice round).
        var sign = 0.0, turning = 0.0
        for i in corners.indices {
            let a = corners[(i + corners.count - 1) % corners.count], b = corners[i], c = corners[(i + 1) % corners.count]
            let (ux, uy) = (Double(b.x - a.x), Double(b.y - a.y)), (vx, vy) = (Double(c.x - b.x), Double(c.y - b.y))
            let cross = ux * vy - uy * vx
            guard cross.isFinite, cross != 0, sign == 0 || (cross > 0) == (sign > 0) else { return nil }
            sign = cross
            turning += atan2(cross, ux * vx + uy * vy)
        }
        guard abs(abs(turning) - 2 * .pi) < 1e-6 else { return nil }
        return corners
    }

    /// Whether `c` lies on the segment from `a` to `b` (to a billionth of
    /// its length either way).
    private static func lies(_ c: CGPoint, onChordFrom a: CGPoint, to b: CGPoint) -> Bool {
        let (abx, aby) = (Double(b.x - a.x), Double(b.y - a.y)), (acx, acy) = (Double(c.x - a.x), Double(c.y - a.y))
        let length2 = abx * abx + aby * aby
        guard length2 > 0 else { return c == a }
        let cross = abx * acy - aby * acx, along = (abx * acx + aby * acy) / length2
        return cross * cross <= 1e-18 * length2 * (acx * acx + acy * acy) && along >= -1e-9 && along <= 1 + 1e-9
    }

    /// Whether `a`, `b` and `c` lie on one straight line (to a billionth
    /// of the lengths).
    private static func isStraight(_ a: CGPoint, _ b: CGPoint, _ c: CGPoint) -> Bool {
        let (ux, uy) = (Double(b.x - a.x), Double(b.y - a.y)), (vx, vy) = (Double(c.x - b.x), Double(c.y - b.y))
        let cross = ux * vy - uy * vx
        return cross * cross <= 1e-18 * (ux * ux + uy * uy) * (vx * vx + vy * vy)
    }
}
