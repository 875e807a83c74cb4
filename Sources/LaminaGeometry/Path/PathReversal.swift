import Foundation

extension PathData {
    /// The same shape with every subpath traversed backwards: each starts at
    /// its old end point and keeps its closed or open state. Reversing a
    /// subpath flips the sign of its winding number, which is how a hole is
    /// cut under the nonzero rule (`UIBezierPath.reversing()`).
    public func reversingSubpaths() -> PathData {
        var out = PathData()
        var segments: [(from: CGPoint, element: PathElement)] = []
        var start = CGPoint.zero, current = CGPoint.zero

        func flush(closed: Bool) {
            defer { segments.removeAll(keepingCapacity: true) }
            guard !segments.isEmpty || closed else {
                out.move(to: start)  // a lone moveTo stays one
                return
            }
            out.move(to: current)
            for (from, element) in segments.reversed() {
                switch element {
                case .lineTo: out.addLine(to: from)
                case .quadCurveTo(let c, _): out.addQuadCurve(to: from, control: c)
                case .curveTo(let c1, let c2, _): out.addCurve(to: from, control1: c2, control2: c1)
                case .moveTo, .closeSubpath: break
                }
            }
            if closed { out.closeSubpath() }
        }

        var pending = false  // a subpath has been started and not flushed
        for element in elements {
            switch element {
            case .moveTo(let p):
                if pending { flush(closed: false) }
                start = p; current = p; pending = true
            case .lineTo(let p), .quadCurveTo(_, let p), .curveTo(_, _, let p):
                segments.append((current, element))
                current = p
            case .closeSubpath:
                flush(closed: true)
                current = start; pending = false
            }
        }
        if pending { flush(closed: false) }
        return out
    }
}
