import Foundation

extension PathData {
    /// Adds an arc of a circle the way `CGMutablePath.addArc(center:radius:
    /// startAngle:endAngle:clockwise:transform:)` does, in Core Graphics'
    /// direction convention: `clockwise == false` sweeps with *increasing*
    /// angle (counterclockwise in y-up axes), `clockwise == true` with
    /// decreasing angle. UIKit's convention is the opposite, see
    /// `UIBezierPath.addArc(withCenter:radius:startAngle:endAngle:clockwise:)`.
    ///
    /// A line joins the current point to the arc's start; with no current
    /// point the arc starts a new subpath instead. When the two angles are at
    /// least 2π apart the arc is a full circle in the requested direction;
    /// otherwise it runs from `startAngle` to `endAngle` the requested way
    /// round, so less than one turn. The arc is stored as cubic Béziers of at
    /// most 90° each, then transformed by `transform`.
    public mutating func addArc(
        center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat,
        clockwise: Bool, transform: CGAffineTransform = .identity
    ) {
        let sweep = ArcGeometry.sweep(from: startAngle, to: endAngle, increasing: !clockwise)
        addCircularArc(center: center, radius: radius, startAngle: startAngle, sweep: sweep, transform: transform)
    }

    /// Adds an arc that starts at `startAngle` and turns through `delta`
    /// radians, positive `delta` with increasing angle
    /// (`CGMutablePath.addRelativeArc`). A line joins the current point to the
    /// arc's start, or a new subpath starts there. A `delta` beyond one turn
    /// draws one full turn: more turns would only repeat the same curve.
    public mutating func addRelativeArc(
        center: CGPoint, radius: CGFloat, startAngle: CGFloat, delta: CGFloat,
        transform: CGAffineTransform = .identity
    ) {
        let sweep = delta.isFinite ? min(max(delta, -2 * .pi), 2 * .pi) : 0
        addCircularArc(center: center, radius: radius, startAngle: startAngle, sweep: sweep, transform: transform)
    }

    /// Adds the arc of PostScript's `arct` and Canvas' `arcTo`
    /// (`CGMutablePath.addArc(tangent1End:tangent2End:radius:transform:)`): a
    /// line from the current point to where a circle of `radius` touches the
    /// line current point → `tangent1End`, then the arc of that circle to
    /// where it touches the line `tangent1End` → `tangent2End`. The arc is at
    /// most a half turn and ends at that second tangent point, not at
    /// `tangent2End`.
    ///
    /// With no current point nothing is added (Core Graphics logs "no current
    /// point"). When the three points are collinear, a point coincides, or the
    /// radius is zero, only a line to `tangent1End` is added. A negative
    /// radius acts as its magnitude. The geometry is worked out before
    /// `transform`, so the current point is taken back through its inverse.
    public mutating func addArc(
        tangent1End: CGPoint, tangent2End: CGPoint, radius: CGFloat,
        transform: CGAffineTransform = .identity
    ) {
        guard let current = currentPoint else { return }
        let p0 = transform.isIdentity ? current : current.applying(transform.inverted())
        let p1 = tangent1End, p2 = tangent2End
        let r = abs(radius)
        guard r > 0, r.isFinite,
              let d1 = (p0 - p1).normalized, let d2 = (p2 - p1).normalized,
              abs(d1.cross(d2)) > 1e-12
        else {
            addLine(to: p1.applying(transform))
            return
        }
        // The circle sits in the corner at p1; its tangent points are at
        // distance r / tan(θ/2) from p1, θ being the corner's angle.
        let cosTheta = min(max(d1.dot(d2), -1), 1)
        let halfTheta = acos(cosTheta) / 2
        let reach = r / tan(halfTheta)
        let t1 = p1 + d1 * reach, t2 = p1 + d2 * reach
        guard let bisector = (d1 + d2).normalized else {
            addLine(to: p1.applying(transform))
            return
        }
        let center = p1 + bisector * (r / sin(halfTheta))
        let a0 = atan2(t1.y - center.y, t1.x - center.x)
        let a1 = atan2(t2.y - center.y, t2.x - center.x)
        var sweep = a1 - a0
        if sweep > .pi { sweep -= 2 * .pi } else if sweep < -.pi { sweep += 2 * .pi }

        addLine(to: t1.applying(transform))
        let m = CGAffineTransform(a: r, b: 0, c: 0, d: r, tx: center.x, ty: center.y).concatenating(transform)
        appendUnitArc(startAngle: a0, sweep: sweep, mapping: m)
    }

    /// Joins or starts at the arc's start, then appends the arc.
    mutating func addCircularArc(
        center: CGPoint, radius: CGFloat, startAngle: CGFloat, sweep: CGFloat, transform: CGAffineTransform
    ) {
        let m = CGAffineTransform(a: radius, b: 0, c: 0, d: radius, tx: center.x, ty: center.y)
            .concatenating(transform)
        let start = ArcGeometry.unitPoint(startAngle).applying(m)
        if currentPoint == nil { move(to: start) } else { addLine(to: start) }
        appendUnitArc(startAngle: startAngle, sweep: sweep, mapping: m)
    }

    /// Appends cubic Béziers for the arc of the unit circle from `startAngle`
    /// through `sweep` radians, each piece mapped through `mapping` (which
    /// places the circle, or an ellipse, in the path). The current point must
    /// already be the arc's start. Pieces are equal and at most 90°. When
    /// the caller knows the arc's exact end point it passes it as `end`, so
    /// that rounding in the angles cannot move it.
    mutating func appendUnitArc(
        startAngle: CGFloat, sweep: CGFloat, mapping m: CGAffineTransform, end: CGPoint? = nil
    ) {
        guard sweep != 0, sweep.isFinite, startAngle.isFinite else { return }
        let count = ArcGeometry.pieceCount(sweep: sweep)
        let step = sweep / CGFloat(count)
        // Control points sit along the tangents at k times the radius; this k
        // makes the curve meet the circle at its midpoint as well.
        let k = 4.0 / 3.0 * tan(step / 4)
        for i in 0..<count {
            let a = startAngle + step * CGFloat(i)
            let b = i == count - 1 ? startAngle + sweep : a + step
            let p0 = ArcGeometry.unitPoint(a), p3 = ArcGeometry.unitPoint(b)
            let c1 = p0 + p0.perpendicular * k
            let c2 = p3 - p3.perpendicular * k
            let to = i == count - 1 ? (end ?? p3.applying(m)) : p3.applying(m)
            addCurve(to: to, control1: c1.applying(m), control2: c2.applying(m))
        }
    }
}

/// Angle arithmetic shared by the arc builders.
enum ArcGeometry {
    /// The signed sweep from `a0` to `a1` in the given direction, by Core
    /// Graphics' rule (which the conformance oracle follows too): angles at
    /// least a full turn apart give a full turn; otherwise the sweep goes the
    /// requested way round and is less than a full turn.
    static func sweep(from a0: CGFloat, to a1: CGFloat, increasing: Bool) -> CGFloat {
        let d = a1 - a0
        guard d.isFinite else { return 0 }
        let turn = 2 * CGFloat.pi
        if abs(d) >= turn { return increasing ? turn : -turn }
        if increasing { return d < 0 ? d + turn : d }
        return d > 0 ? d - turn : d
    }

    /// How many equal pieces of at most 90° an arc of `sweep` needs.
    static func pieceCount(sweep: CGFloat) -> Int {
        // The small slack keeps an exact quarter turn in one piece despite
        // rounding in the angle arithmetic that produced it.
        let pieces = (abs(sweep) / (CGFloat.pi / 2) - 1e-9).rounded(.up)
        guard pieces.isFinite else { return 1 }
        return Int(min(max(pieces, 1), 64))
    }

    /// The point at `angle` on the unit circle, with the rounding noise of
    /// cos and sin at multiples of 90° removed so that quarter arcs end
    /// exactly on the axes.
    static func unitPoint(_ angle: CGFloat) -> CGPoint {
        CGPoint(x: snap(cos(angle)), y: snap(sin(angle)))
    }

    private static func snap(_ v: CGFloat) -> CGFloat {
        if abs(v) < 1e-15 { return 0 }
        if abs(abs(v) - 1) < 1e-15 { return v < 0 ? -1 : 1 }
        return v
    }
}
