import Foundation

extension PathData {
    /// Adds `rect` as a closed subpath: a move to (minX, minY), then lines
    /// through (maxX, minY), (maxX, maxY) and (minX, maxY) (`addRect`).
    public mutating func addRect(_ rect: CGRect, transform: CGAffineTransform = .identity) {
        let r = rect.standardized
        move(to: CGPoint(x: r.minX, y: r.minY).applying(transform))
        addLine(to: CGPoint(x: r.maxX, y: r.minY).applying(transform))
        addLine(to: CGPoint(x: r.maxX, y: r.maxY).applying(transform))
        addLine(to: CGPoint(x: r.minX, y: r.maxY).applying(transform))
        closeSubpath()
    }

    /// Adds straight segments through `points`: a move to the first, then a
    /// line to each of the others (`addLines(between:)`).
    public mutating func addLines(between points: [CGPoint], transform: CGAffineTransform = .identity) {
        guard let first = points.first else { return }
        move(to: first.applying(transform))
        for p in points.dropFirst() { addLine(to: p.applying(transform)) }
    }

    /// Adds the ellipse that fits `rect` as a closed subpath of four cubic
    /// Béziers (`addEllipse(in:)`): it starts at (maxX, midY) and runs with
    /// increasing angle, through (midX, maxY), (minX, midY) and (midX, minY),
    /// which is clockwise on screen where y points down.
    public mutating func addEllipse(in rect: CGRect, transform: CGAffineTransform = .identity) {
        let r = rect.standardized
        let right = CGPoint(x: r.maxX, y: r.midY), bottom = CGPoint(x: r.midX, y: r.maxY)
        let left = CGPoint(x: r.minX, y: r.midY), top = CGPoint(x: r.midX, y: r.minY)
        move(to: right.applying(transform))
        addQuarterEllipse(to: bottom, corner: CGPoint(x: r.maxX, y: r.maxY), from: right, transform: transform)
        addQuarterEllipse(to: left, corner: CGPoint(x: r.minX, y: r.maxY), from: bottom, transform: transform)
        addQuarterEllipse(to: top, corner: CGPoint(x: r.minX, y: r.minY), from: left, transform: transform)
        addQuarterEllipse(to: right, corner: CGPoint(x: r.maxX, y: r.minY), from: top, transform: transform)
        closeSubpath()
    }

    /// Adds a rectangle whose chosen corners are quarter ellipses of radii
    /// `cornerWidth` × `cornerHeight`, as a closed subpath. It starts on the
    /// top edge (minY) just after the top-left corner and runs towards +x,
    /// which is clockwise on screen: top-right, bottom-right, bottom-left,
    /// top-left. Each radius is clamped to half the rectangle's size along its
    /// own axis, as UIKit and the conformance oracle clamp it; a radius of
    /// zero (or one that is not finite) gives a plain rectangle.
    public mutating func addRoundedRect(
        in rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat,
        corners: UIRectCorner = .allCorners, transform: CGAffineTransform = .identity
    ) {
        let r = rect.standardized
        let rx = cornerWidth.isFinite ? min(max(cornerWidth, 0), r.width / 2) : 0
        let ry = cornerHeight.isFinite ? min(max(cornerHeight, 0), r.height / 2) : 0
        guard rx > 0, ry > 0, !corners.isEmpty else {
            addRect(r, transform: transform)
            return
        }
        // Each corner as (rounded?, its point, the arc's first and last point).
        typealias Corner = (round: Bool, at: CGPoint, from: CGPoint, to: CGPoint)
        let (x0, y0, x1, y1) = (r.minX, r.minY, r.maxX, r.maxY)
        let sequence: [Corner] = [
            (corners.contains(.topRight), CGPoint(x: x1, y: y0), CGPoint(x: x1 - rx, y: y0), CGPoint(x: x1, y: y0 + ry)),
            (corners.contains(.bottomRight), CGPoint(x: x1, y: y1), CGPoint(x: x1, y: y1 - ry), CGPoint(x: x1 - rx, y: y1)),
            (corners.contains(.bottomLeft), CGPoint(x: x0, y: y1), CGPoint(x: x0 + rx, y: y1), CGPoint(x: x0, y: y1 - ry)),
            (corners.contains(.topLeft), CGPoint(x: x0, y: y0), CGPoint(x: x0, y: y0 + ry), CGPoint(x: x0 + rx, y: y0)),
        ]
        // Start where the top-left corner ends (or at the corner itself).
        let topLeft = sequence[3]
        var current = topLeft.round ? topLeft.to : topLeft.at
        move(to: current.applying(transform))
        for corner in sequence {
            let lineEnd = corner.round ? corner.from : corner.at
            if lineEnd != current { addLine(to: lineEnd.applying(transform)) }
            current = lineEnd
            if corner.round {
                addQuarterEllipse(to: corner.to, corner: corner.at, from: corner.from, transform: transform)
                current = corner.to
            }
        }
        closeSubpath()
    }

    /// Appends the quarter ellipse from `from` to `to` that is tangent to the
    /// sides meeting at `corner`, as one cubic Bézier with exact end points.
    mutating func addQuarterEllipse(to end: CGPoint, corner: CGPoint, from start: CGPoint, transform: CGAffineTransform) {
        // 4/3 tan(π/8): the control distance that puts the curve's midpoint
        // on the ellipse.
        let k: CGFloat = 0.552_284_749_830_793_4
        let c1 = start.lerp(to: corner, k), c2 = end.lerp(to: corner, k)
        addCurve(to: end.applying(transform), control1: c1.applying(transform), control2: c2.applying(transform))
    }
}
