import Foundation
import LaminaGeometry

/// A rounded rectangle's signed distance in local units (negative inside),
/// with fitted radii; the machinery behind `RoundedRectEvaluator`.
package struct RoundedRectDistance {
    package let minX, minY, maxX, maxY: Double
    package let centreX, centreY, halfWidth, halfHeight: Double
    /// minXMinY, maxXMinY, minXMaxY, maxXMaxY.
    package let radii: (Double, Double, Double, Double)
    package let unequalRadii: Bool

    /// `radii` must fit (`CornerRadii.fitted(to:)`): each at most half
    /// the shorter side.
    package init(minX: Double, minY: Double, maxX: Double, maxY: Double, radii r: (Double, Double, Double, Double)) {
        self.minX = minX; self.minY = minY; self.maxX = maxX; self.maxY = maxY
        centreX = (minX + maxX) / 2; centreY = (minY + maxY) / 2
        halfWidth = (maxX - minX) / 2; halfHeight = (maxY - minY) / 2
        radii = r
        unequalRadii = !(r.0 == r.1 && r.1 == r.2 && r.2 == r.3)
    }

    /// The signed distance at (x, y) and its gradient.
    ///
    /// A point lies in a corner's zone when it is beyond that corner's arc
    /// centre on both axes; there the distance is to the arc. Fitted radii keep
    /// the zones apart, so at most one applies; elsewhere the distance is the
    /// rectangle's (to the nearer side).
    @inline(__always)
    package func evaluate(x: Double, y: Double) -> (distance: Double, gx: Double, gy: Double) {
        let left = x < centreX, top = y < centreY
        if unequalRadii {
            // A large corner can reach across the midline into another
            // quadrant, so every corner is a candidate.
            if let d = corner(x, y, left: true, top: true, radii.0) { return d }
            if let d = corner(x, y, left: false, top: true, radii.1) { return d }
            if let d = corner(x, y, left: true, top: false, radii.2) { return d }
            if let d = corner(x, y, left: false, top: false, radii.3) { return d }
        } else if let d = corner(x, y, left: left, top: top, radii.0) {
            return d
        }
        let dx = abs(x - centreX) - halfWidth, dy = abs(y - centreY) - halfHeight
        return dx > dy ? (dx, left ? -1 : 1, 0) : (dy, 0, top ? -1 : 1)
    }

    /// A box of local points.
    package typealias Box = (minX: Double, minY: Double, maxX: Double, maxY: Double)

    /// The local points whose whole pixel the shape surely covers, for a
    /// pixel footprint reaching `reachX` and `reachY` local units from its
    /// centre: a plus sign whose arms stop short of the corners. The
    /// horizontal arm is the rectangle inset by the reach left and right
    /// and by the largest corner radius and the reach top and bottom, where
    /// the shape's sides are straight; the vertical arm the same the other
    /// way round; both shrunk by a hair for rounding. A point in either is
    /// no corner's zone, and its distance is at most minus the reach, so
    /// `LocalFootprint.coverage` there is exactly 1. Empty arms are nil.
    /// Two values, not a list: every rounded draw asks, and a list is a heap
    /// block per draw.
    package func interiorBoxes(reachX: Double, reachY: Double) -> (across: Box?, down: Box?) {
        let radius = max(radii.0, radii.1, radii.2, radii.3)
        let hair = 1e-6 * max(1, abs(maxX - minX), abs(maxY - minY))
        let across: Box = (minX: minX + reachX + hair, minY: minY + radius + reachY + hair,
                           maxX: maxX - reachX - hair, maxY: maxY - radius - reachY - hair)
        let down: Box = (minX: minX + radius + reachX + hair, minY: minY + reachY + hair,
                         maxX: maxX - radius - reachX - hair, maxY: maxY - reachY - hair)
        func nonEmpty(_ box: Box) -> Box? { box.minX <= box.maxX && box.minY <= box.maxY ? box : nil }
        return (nonEmpty(across), nonEmpty(down))
    }

    /// The distance to one corner's arc, if (x, y) lies in that corner's zone.
    @inline(__always)
    private func corner(
        _ x: Double, _ y: Double, left: Bool, top: Bool, _ r: Double
    ) -> (distance: Double, gx: Double, gy: Double)? {
        guard r > 0 else { return nil }
        // Offsets from the arc centre, positive towards the corner.
        let qx = left ? (minX + r) - x : x - (maxX - r)
        let qy = top ? (minY + r) - y : y - (maxY - r)
        guard qx > 0, qy > 0 else { return nil }
        let length = (qx * qx + qy * qy).squareRoot()
        return (length - r, (left ? -qx : qx) / length, (top ? -qy : qy) / length)
    }
}

/// The coverage evaluator for a plan's `RoundedRectCoverage`: the outer
/// rounded rectangle, minus the inner one for a ring.
package struct RoundedRectEvaluator {
    package let outer: RoundedRectDistance
    package let inner: RoundedRectDistance?
    /// Validates `shape` and prepares its distance functions.
    package init(_ shape: RoundedRectCoverage) throws {
        let rect = shape.rect.standardized
        // Checked one by one, not through a list: every rounded draw makes one of these.
        try requireFinite(Double(rect.origin.x), "rounded rect x")
        try requireFinite(Double(rect.origin.y), "rounded rect y")
        try requireFinite(Double(rect.size.width), "rounded rect width")
        try requireFinite(Double(rect.size.height), "rounded rect height")
        let r = shape.radii
        func checkRadius(_ v: Double, _ name: String) throws {
            try requireFinite(v, "corner radius \(name)")
            guard v >= 0 else {
                throw RasterError.invalidArgument(what: "corner radius \(name)", reason: "is negative (\(v))")
            }
        }
        try checkRadius(r.minXMinY, "minXMinY")
        try checkRadius(r.maxXMinY, "maxXMinY")
        try checkRadius(r.minXMaxY, "minXMaxY")
        try checkRadius(r.maxXMaxY, "maxXMaxY")
        let (x0, y0) = (Double(rect.minX), Double(rect.minY))
        let (x1, y1) = (Double(rect.maxX), Double(rect.maxY))
        outer = RoundedRectDistance(
            minX: x0, minY: y0, maxX: x1, maxY: y1, radii: (r.minXMinY, r.maxXMinY, r.minXMaxY, r.maxXMaxY))
        guard let ring = shape.borderWidth else {
            inner = nil
            return
        }
        try requireFinite(ring, "ring width")
        guard ring > 0 else {
            throw RasterError.invalidArgument(what: "ring width", reason: "must be positive (got \(ring))")
        }
        guard 2 * ring < x1 - x0, 2 * ring < y1 - y0 else {
            inner = nil  // the border covers the whole shape
            return
        }
        let o = outer.radii
        inner = RoundedRectDistance(
            minX: x0 + ring, minY: y0 + ring, maxX: x1 - ring, maxY: y1 - ring,
            radii: (max(0, o.0 - ring), max(0, o.1 - ring), max(0, o.2 - ring), max(0, o.3 - ring)))
    }

    /// The anti-aliased coverage, 0...1, of the pixel whose centre maps to (x, y).
    @inline(__always)
    package func coverage(x: Double, y: Double, footprint: LocalFootprint) -> Double {
        let o = outer.evaluate(x: x, y: y)
        let outerCoverage = footprint.coverage(distance: o.distance, gradientX: o.gx, gradientY: o.gy)
        guard let inner, outerCoverage > 0 else { return outerCoverage }
        let i = inner.evaluate(x: x, y: y)
        return max(0, outerCoverage - footprint.coverage(distance: i.distance, gradientX: i.gx, gradientY: i.gy))
    }
}
