import Foundation

extension PathData {
    /// Whether filling the path with `rule` paints `point`. Open subpaths
    /// count as closed by a line back to their first point, as when filling.
    /// Curves are tested exactly, not through a flattened copy.
    public func contains(_ point: CGPoint, using rule: CGPathFillRule = .winding) -> Bool {
        let winding = windingNumber(at: point)
        switch rule {
        case .winding: return winding != 0
        case .evenOdd: return winding & 1 != 0
        }
    }

    /// How many times the path winds around `point`, counting each subpath
    /// as closed. The sign depends on the path's direction; only zero versus
    /// not zero (or odd versus even) matters for filling.
    public func windingNumber(at point: CGPoint) -> Int {
        var counter = WindingCounter(point: point)
        var current = CGPoint.zero, start = CGPoint.zero
        var open = false  // whether the subpath has segments not yet closed
        for element in elements {
            switch element {
            case .moveTo(let p):
                if open { counter.addLine(current, start) }
                current = p; start = p; open = false
            case .lineTo(let p):
                counter.addLine(current, p)
                current = p; open = true
            case .quadCurveTo(let c, let p):
                counter.addQuad(current, c, p)
                current = p; open = true
            case .curveTo(let c1, let c2, let p):
                counter.addCubic(current, c1, c2, p)
                current = p; open = true
            case .closeSubpath:
                counter.addLine(current, start)
                current = start; open = false
            }
        }
        if open { counter.addLine(current, start) }
        return counter.winding
    }
}

/// Counts signed crossings of the ray from `point` towards +x.
///
/// Each segment is cut into pieces along which y only rises or only falls;
/// a piece crosses the ray when the ray's y lies in its half-open y range
/// (lower end included), which counts a crossing through a shared end point
/// exactly once.
private struct WindingCounter {
    let point: CGPoint
    var winding = 0

    init(point: CGPoint) { self.point = point }

    mutating func addLine(_ a: CGPoint, _ b: CGPoint) {
        guard let direction = crossingDirection(a.y, b.y) else { return }
        let x = a.x + (point.y - a.y) * (b.x - a.x) / (b.y - a.y)
        if x > point.x { winding += direction }
    }

    mutating func addQuad(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint) {
        if max(p0.x, p1.x, p2.x) <= point.x { return }  // entirely left of the point
        let cuts = [0] + Bezier.quadExtrema(p0.y, p1.y, p2.y) + [1]
        addMonotonePieces(cuts) { Bezier.point(p0, p1, p2, at: $0) }
    }

    mutating func addCubic(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ p3: CGPoint) {
        if max(p0.x, p1.x, p2.x, p3.x) <= point.x { return }
        let cuts = [0] + Bezier.cubicExtrema(p0.y, p1.y, p2.y, p3.y) + [1]
        addMonotonePieces(cuts) { Bezier.point(p0, p1, p2, p3, at: $0) }
    }

    /// Adds the crossings of the pieces between consecutive parameters in
    /// `cuts`, along each of which y is monotone.
    private mutating func addMonotonePieces(_ cuts: [CGFloat], _ curve: (CGFloat) -> CGPoint) {
        for i in 0..<(cuts.count - 1) {
            var lo = cuts[i], hi = cuts[i + 1]
            let a = curve(lo), b = curve(hi)
            guard let direction = crossingDirection(a.y, b.y) else { continue }
            // Bisect for the parameter where y reaches the ray; 60 halvings
            // take the interval below a double's resolution.
            let rising = b.y > a.y
            for _ in 0..<60 {
                let mid = (lo + hi) / 2
                if (curve(mid).y < point.y) == rising { lo = mid } else { hi = mid }
                if hi - lo <= 1e-15 { break }
            }
            if curve((lo + hi) / 2).x > point.x { winding += direction }
        }
    }

    /// +1 when a piece from y0 to y1 crosses the ray going up, -1 going
    /// down, `nil` when it does not reach the ray's y.
    private func crossingDirection(_ y0: CGFloat, _ y1: CGFloat) -> Int? {
        if y0 <= point.y && y1 > point.y { return 1 }
        if y1 <= point.y && y0 > point.y { return -1 }
        return nil
    }
}
