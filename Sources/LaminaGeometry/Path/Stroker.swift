import Foundation

/// Turns flattened subpaths into the outline of their stroke: polygons that,
/// filled together with the nonzero rule, paint exactly the stroke. The CPU
/// rasterizer and the GPU tessellator both fill these.
///
/// Each open run becomes one contour (one side forward, the end cap, the
/// other side back, the start cap) and each closed loop two (one per side).
/// Every contour winds clockwise in y-up axes (counterclockwise on a y-down
/// screen), so overlaps add up instead of cancelling. On the inner side of a
/// corner the two offset edges are joined through the corner's own vertex
/// unless they simply cross; either way the winding number of every point is
/// the number of segment bodies, joins and caps covering it, so the union
/// comes out right however tight the curve or wide the line.
package enum Stroker {
    /// The stroke outline of `polylines` (from `PathData.flattened`) in
    /// `style`. `tolerance` is the largest distance allowed between round
    /// joins and caps and the true circle, in the same units as the points.
    public static func outline(of polylines: [Polyline], style: StrokeStyle, tolerance: CGFloat) -> [[CGPoint]] {
        guard style.lineWidth > 0, style.lineWidth.isFinite else { return [] }
        return outline(of: StrokeRuns.runs(of: polylines, style: style), style: style, tolerance: tolerance)
    }

    /// The stroke outline of a path flattened and measured already (see
    /// `MeasuredPath`): the same contours as `outline(of:style:tolerance:)`
    /// of its polylines.
    public static func outline(of path: MeasuredPath, style: StrokeStyle, tolerance: CGFloat) -> [[CGPoint]] {
        guard style.lineWidth > 0, style.lineWidth.isFinite else { return [] }
        return outline(of: StrokeRuns.runs(of: path.subpaths, style: style), style: style, tolerance: tolerance)
    }

    private static func outline(of runs: [StrokeRun], style: StrokeStyle, tolerance: CGFloat) -> [[CGPoint]] {
        var builder = OutlineBuilder(style: style, tolerance: tolerance)
        for run in runs { builder.add(run) }
        return builder.contours
    }
}

/// A path flattened at one tolerance and measured along its length: what
/// every stroke of it starts from, whatever its width, trim or dashes. A
/// shape layer whose stroke is trimmed a little more each frame (a Lottie
/// trim path: `strokeStart`, `strokeEnd`) strokes the same path each frame;
/// kept (the planner's `OutlineCache` does), it is flattened and measured
/// once rather than every frame.
///
/// ```swift
/// let measured = MeasuredPath(path, tolerance: 0.05)
/// let half = Stroker.outline(of: measured, style: StrokeStyle(lineWidth: 4, strokeEnd: 0.5), tolerance: 0.05)
/// ```
package struct MeasuredPath: Sendable {
    /// The subpaths, cleaned and measured as the stroker cuts them.
    let subpaths: [MeasuredPolyline]

    /// `path` flattened within `tolerance` and measured.
    package init(_ path: PathData, tolerance: CGFloat) {
        subpaths = path.flattened(tolerance: tolerance).compactMap(MeasuredPolyline.init)
    }

    /// The points held, all subpaths together.
    package var pointCount: Int { subpaths.reduce(0) { $0 + $1.points.count } }
}

extension PathData {
    /// The outline of this path stroked in `style`, curves flattened and
    /// round parts drawn within `tolerance`; fill it with the nonzero rule.
    public func strokeOutline(style: StrokeStyle, tolerance: CGFloat) -> [[CGPoint]] {
        Stroker.outline(of: flattened(tolerance: tolerance), style: style, tolerance: tolerance)
    }

    /// A path of closed polygons, one subpath each (polygons with fewer than
    /// one point are skipped).
    public init(polygons: [[CGPoint]]) {
        self.init()
        for polygon in polygons {
            guard let first = polygon.first else { continue }
            move(to: first)
            for p in polygon.dropFirst() { addLine(to: p) }
            closeSubpath()
        }
    }
}

/// Builds the contours of `Stroker.outline`.
struct OutlineBuilder {
    let halfWidth: CGFloat
    let cap: CGLineCap
    let join: CGLineJoin
    /// A miter is drawn while 1 + cos θ reaches this (θ is the turn).
    let miterThreshold: CGFloat
    /// The largest angle one chord of a round join or cap may span.
    let arcStep: CGFloat
    var contours: [[CGPoint]] = []

    init(style: StrokeStyle, tolerance: CGFloat) {
        halfWidth = style.lineWidth / 2
        cap = style.lineCap
        join = style.lineJoin
        // Core Graphics bevels when miter length / width = 1 / sin(φ/2) =
        // 1 / cos(θ/2) exceeds the limit, i.e. when 1 + cos θ < 2 / limit².
        let limit = style.miterLimit
        miterThreshold = limit > 0 ? 2 / (limit * limit) : .infinity
        // A chord spanning angle α sits r(1 − cos(α/2)) inside the circle.
        let ratio = tolerance > 0 ? min(tolerance / halfWidth, 1) : 0
        let step = 2 * acos(1 - ratio)
        arcStep = min(max(step, 2 * .pi / 1024), .pi / 2)
    }

    mutating func add(_ run: StrokeRun) {
        if run.points.count == 1 {
            addDot(at: run.points[0], facing: run.direction)
        } else if run.isClosed {
            contours.append(side(of: run, backwards: false, closed: true))
            contours.append(side(of: run, backwards: true, closed: true))
        } else {
            let points = run.points
            let n = points.count
            var contour = side(of: run, backwards: false, closed: false)
            addCap(at: points[n - 1], direction: direction(points[n - 2], points[n - 1]), to: &contour)
            contour += side(of: run, backwards: true, closed: false)
            addCap(at: points[0], direction: direction(points[1], points[0]), to: &contour)
            contours.append(contour)
        }
    }

    /// The offset line on the left of the run's points (towards +90° from
    /// each segment's direction), with the joins at its vertices; the
    /// points taken last to first when `backwards` (the other side).
    ///
    /// Each segment's direction and length are worked out as the walk
    /// reaches it and kept for the next join, and the run is read
    /// backwards in place: the side's own points are its one list.
    private func side(of run: StrokeRun, backwards: Bool, closed: Bool) -> [CGPoint] {
        let points = run.points, smooth = run.isSmooth
        let n = points.count
        @inline(__always) func index(_ i: Int) -> Int { backwards ? n - 1 - i : i }
        @inline(__always) func point(_ i: Int) -> CGPoint { points[index(i)] }
        /// Segment `i`, from point `i` to the next (the first, closing a loop).
        @inline(__always) func segment(_ i: Int) -> (direction: CGPoint, length: CGFloat) {
            let d = point((i + 1) % n) - point(i)
            return (d.normalized ?? CGPoint(x: 1, y: 0), d.length)
        }
        var out: [CGPoint] = []
        out.reserveCapacity(n * 3)
        if closed {
            var previous = segment(n - 1)
            for i in 0..<n {
                let current = segment(i)
                addJoin(at: point(i), from: previous.direction, to: current.direction,
                        lengths: (previous.length, current.length), smooth: smooth[index(i)], to: &out)
                previous = current
            }
        } else {
            var previous = segment(0)
            out.append(point(0) + normal(previous.direction))
            for i in 1..<(n - 1) {
                let current = segment(i)
                addJoin(at: point(i), from: previous.direction, to: current.direction,
                        lengths: (previous.length, current.length), smooth: smooth[index(i)], to: &out)
                previous = current
            }
            out.append(point(n - 1) + normal(previous.direction))
        }
        return out
    }

    /// Appends the left side's points at vertex `v` where direction `a`
    /// turns into `b`.
    private func addJoin(
        at v: CGPoint, from a: CGPoint, to b: CGPoint, lengths: (CGFloat, CGFloat), smooth: Bool,
        to out: inout [CGPoint]
    ) {
        let na = normal(a), nb = normal(b)
        let cross = a.cross(b), dot = a.dot(b)
        if cross > 0 || (cross == 0 && dot > 0) {
            // Turning left: this is the inner side. Going through the vertex
            // is always right (see the type's comment). Where the two offset
            // edges cross within the first half of each segment, their
            // crossing is a shorter way: the small loop it cuts off lies
            // where both segment bodies overlap, so that area stays painted.
            let reach = halfWidth * cross / (1 + dot)  // hw · tan(θ/2)
            if dot > -1, reach <= min(lengths.0, lengths.1) / 2 {
                out.append(v + (na + nb) * (1 / (1 + dot)))
            } else {
                out.append(v + na)
                out.append(v)
                out.append(v + nb)
            }
            return
        }
        // Turning right (or back on itself): the outer side.
        out.append(v + na)
        switch smooth ? .round : join {
        case .miter:
            if 1 + dot >= miterThreshold, 1 + dot > 0 {
                out.append(v + (na + nb) * (1 / (1 + dot)))
            }
        case .round:
            // Clockwise from one offset to the other; a full reversal
            // (atan2 of ±0 and a negative) is a half turn round the front.
            addArc(center: v, from: na, sweep: -abs(atan2(na.cross(nb), na.dot(nb))), to: &out)
        case .bevel:
            break
        }
        out.append(v + nb)
    }

    /// Appends the cap at `p`, an end reached going along `d`: from the left
    /// offset point round to the right one.
    private func addCap(at p: CGPoint, direction d: CGPoint, to out: inout [CGPoint]) {
        let n = normal(d)
        switch cap {
        case .butt:
            break
        case .square:
            let ahead = d * halfWidth
            out.append(p + n + ahead)
            out.append(p - n + ahead)
        case .round:
            addArc(center: p, from: n, sweep: -.pi, to: &out)
        }
    }

    /// A subpath of zero length: a disc for round caps, a square facing
    /// `direction` for square caps, nothing for butt caps.
    private mutating func addDot(at p: CGPoint, facing direction: CGPoint) {
        switch cap {
        case .butt:
            return
        case .square:
            let n = normal(direction), ahead = direction * halfWidth
            contours.append([p + n - ahead, p + n + ahead, p - n + ahead, p - n - ahead])
        case .round:
            var disc = [p + CGPoint(x: halfWidth, y: 0)]
            addArc(center: p, from: CGPoint(x: halfWidth, y: 0), sweep: -2 * .pi, to: &disc)
            contours.append(disc)
        }
    }

    /// Appends the points strictly inside the arc about `center` that starts
    /// at offset `from` and turns through `sweep`.
    private func addArc(center: CGPoint, from: CGPoint, sweep: CGFloat, to out: inout [CGPoint]) {
        let pieces = (abs(sweep) / arcStep).rounded(.up)
        guard pieces > 1, pieces.isFinite else { return }
        let steps = Int(pieces)
        let start = atan2(from.y, from.x)
        for i in 1..<steps {
            let angle = start + sweep * CGFloat(i) / CGFloat(steps)
            out.append(center + CGPoint(x: cos(angle), y: sin(angle)) * halfWidth)
        }
    }

    /// The left offset of direction `d`: a quarter turn towards +y, half the
    /// line width long.
    private func normal(_ d: CGPoint) -> CGPoint {
        d.perpendicular * halfWidth
    }

    private func direction(_ from: CGPoint, _ to: CGPoint) -> CGPoint {
        (to - from).normalized ?? CGPoint(x: 1, y: 0)
    }
}
