import Foundation

/// One piece of a path to be stroked, after dashing and trimming: an open
/// run (capped at both ends), a whole closed loop (no caps), or a single
/// point (a dot, with round or square caps only).
struct StrokeRun: Equatable {
    /// The vertices; never two (nearly) equal in a row.
    var points: [CGPoint]
    /// Parallel to `points`: vertices that get no corner.
    var isSmooth: [Bool]
    /// Whether the last point joins back to the first.
    var isClosed: Bool
    /// For a single point, which way its square cap faces.
    var direction: CGPoint
}

/// Cuts flattened subpaths into the runs that get stroked: first
/// `strokeStart`/`strokeEnd` trimming over the whole path's length, then the
/// dash pattern, which starts afresh on every subpath (as in Core
/// Graphics) and runs through the closing segment of closed ones.
enum StrokeRuns {
    /// Patterns that would cut the path into more dashes than this are
    /// drawn solid: such a pattern is far finer than anything visible, and
    /// the bound keeps the work finite.
    static let maximumDashCount = 1_000_000

    static func runs(of polylines: [Polyline], style: StrokeStyle) -> [StrokeRun] {
        runs(of: polylines.compactMap(MeasuredPolyline.init), style: style)
    }

    /// The runs of subpaths measured already (`MeasuredPath`).
    static func runs(of measured: [MeasuredPolyline], style: StrokeStyle) -> [StrokeRun] {
        let dash = DashPattern(style.dashPattern, phase: style.dashPhase)
        if let dashed = runs(measured, style: style, dash: dash) { return dashed }
        return runs(measured, style: style, dash: nil) ?? []
    }

    /// The runs, or `nil` when the dash pattern is too fine.
    private static func runs(_ measured: [MeasuredPolyline], style: StrokeStyle, dash: DashPattern?) -> [StrokeRun]? {
        let start = style.strokeStart.isNaN ? 0 : min(max(style.strokeStart, 0), 1)
        let end = style.strokeEnd.isNaN ? 1 : min(max(style.strokeEnd, 0), 1)
        let trimming = start > 0 || end < 1
        if trimming && start >= end { return [] }
        let total = measured.reduce(0) { $0 + $1.length }
        let (trimStart, trimEnd) = (start * total, end * total)

        var budget = maximumDashCount
        var out: [StrokeRun] = []
        var offset: CGFloat = 0
        for line in measured {
            defer { offset += line.length }
            var lo: CGFloat = 0, hi = line.length
            if trimming {
                lo = max(0, trimStart - offset)
                hi = min(line.length, trimEnd - offset)
                if lo > hi || (line.length > 0 && lo == hi) { continue }
            }
            let intervals: [DashInterval]
            if let dash {
                guard let on = dash.onIntervals(length: line.length, budget: &budget) else { return nil }
                intervals = on
            } else {
                intervals = [DashInterval(from: 0, to: line.length, isDot: line.length == 0)]
            }
            for interval in intervals {
                let a = max(interval.from, lo), b = min(interval.to, hi)
                if interval.isDot {
                    if a == b { out.append(line.dot(at: a)) }
                } else if b > a {
                    if line.isClosed && a == 0 && b == line.length {
                        out.append(line.closedRun())
                    } else {
                        out.append(line.run(from: a, to: b))
                    }
                }
            }
        }
        return out
    }
}

/// An "on" stretch of a dash pattern along one subpath, in arc length.
struct DashInterval: Equatable {
    var from: CGFloat
    var to: CGFloat
    /// A zero-length dash, drawn as a dot by round and square caps.
    var isDot: Bool
}

/// A dash pattern with an even number of entries (an odd one is repeated
/// twice, which swaps dashes and gaps on the second pass) and its phase.
struct DashPattern {
    let lengths: [CGFloat]
    let period: CGFloat
    let phase: CGFloat

    /// `nil` when the pattern draws a solid line: empty, all zero, or with a
    /// length negative or not finite.
    init?(_ pattern: [CGFloat], phase: CGFloat) {
        guard !pattern.isEmpty, pattern.allSatisfy({ $0 >= 0 && $0.isFinite }) else { return nil }
        lengths = pattern.count % 2 == 0 ? pattern : pattern + pattern
        period = lengths.reduce(0, +)
        guard period > 0, period.isFinite else { return nil }
        let p = phase.isFinite ? phase.truncatingRemainder(dividingBy: period) : 0
        self.phase = p < 0 ? p + period : p
    }

    /// The dashes that fall on a subpath of `length`, each clipped to it;
    /// `nil` once more than `budget` dashes have been visited.
    func onIntervals(length: CGFloat, budget: inout Int) -> [DashInterval]? {
        var out: [DashInterval] = []
        var s = -phase  // where the current entry starts along the subpath
        var k = 0
        while s <= length {
            let dashLength = lengths[k % lengths.count]
            let e = s + dashLength
            if k % 2 == 0 {
                if dashLength == 0 {
                    if s >= 0 { out.append(DashInterval(from: s, to: s, isDot: true)) }
                } else if length == 0 {
                    // A subpath of one point is a dot where a dash covers it.
                    if s <= 0 && e > 0 { out.append(DashInterval(from: 0, to: 0, isDot: true)) }
                } else if e > 0 && s < length {
                    out.append(DashInterval(from: max(s, 0), to: min(e, length), isDot: false))
                }
            }
            s = e
            k += 1
            budget -= 1
            if budget < 0 { return nil }
        }
        return out
    }
}

/// A polyline with the arc length at each vertex, for cutting it up.
struct MeasuredPolyline: Sendable {
    /// The vertices; a closed polyline repeats its first point at the end.
    let points: [CGPoint]
    let smooth: [Bool]
    /// Arc length from the start to each vertex.
    let cumulative: [CGFloat]
    let isClosed: Bool

    /// The measured polyline, cleaned of what a hand-made `Polyline` may
    /// hold despite its documented invariants (repeated points, a closing
    /// point equal to the first, flags of the wrong count); `nil` when it
    /// has no points.
    init?(_ polyline: Polyline) {
        var points: [CGPoint] = [], smooth: [Bool] = []
        points.reserveCapacity(polyline.points.count + 1)
        smooth.reserveCapacity(polyline.points.count + 1)
        for (i, p) in polyline.points.enumerated() {
            if let last = points.last, StrokeRuns.nearlyEqual(last, p) { continue }
            points.append(p)
            smooth.append(i < polyline.isSmooth.count && polyline.isSmooth[i])
        }
        guard let first = points.first else { return nil }
        if polyline.isClosed, points.count > 1 {
            if StrokeRuns.nearlyEqual(points[points.count - 1], first) {
                points.removeLast()
                smooth.removeLast()
            }
            if points.count > 1 {
                points.append(first)
                smooth.append(smooth[0])
            }
        }
        var cumulative: [CGFloat] = []
        cumulative.reserveCapacity(max(points.count, 1))
        cumulative.append(0)
        for i in 1..<max(points.count, 1) {
            cumulative.append(cumulative[i - 1] + points[i - 1].distance(to: points[i]))
        }
        self.points = points
        self.smooth = smooth
        self.cumulative = cumulative
        self.isClosed = polyline.isClosed
    }

    var length: CGFloat { cumulative[cumulative.count - 1] }

    /// The whole closed loop, without its repeated first point.
    func closedRun() -> StrokeRun {
        StrokeRun(
            points: Array(points.dropLast()), isSmooth: Array(smooth.dropLast()), isClosed: true,
            direction: CGPoint(x: 1, y: 0))
    }

    /// A dot at arc length `s`, facing along the segment there.
    func dot(at s: CGFloat) -> StrokeRun {
        guard points.count > 1 else {
            return StrokeRun(points: points, isSmooth: [false], isClosed: false, direction: CGPoint(x: 1, y: 0))
        }
        let i = segment(containing: s, preferringLater: true)
        let direction = (points[i + 1] - points[i]).normalized ?? CGPoint(x: 1, y: 0)
        return StrokeRun(points: [point(at: s, segment: i)], isSmooth: [false], isClosed: false, direction: direction)
    }

    /// The open run between arc lengths `a` < `b`.
    func run(from a: CGFloat, to b: CGFloat) -> StrokeRun {
        let i = segment(containing: a, preferringLater: true)
        let j = segment(containing: b, preferringLater: false)
        let direction = (points[i + 1] - points[i]).normalized ?? CGPoint(x: 1, y: 0)
        var run = StrokeRun(points: [], isSmooth: [], isClosed: false, direction: direction)
        func add(_ p: CGPoint, _ smooth: Bool) {
            if let last = run.points.last, StrokeRuns.nearlyEqual(last, p) { return }
            run.points.append(p)
            run.isSmooth.append(smooth)
        }
        add(point(at: a, segment: i), false)
        if i + 1 <= j {
            for k in (i + 1)...j { add(points[k], smooth[k]) }
        }
        add(point(at: b, segment: j), false)
        if run.isSmooth.count > 1 { run.isSmooth[run.isSmooth.count - 1] = false }
        return run
    }

    /// The segment index i with cumulative[i] ≤ s ≤ cumulative[i + 1]; at
    /// a vertex, the segment after it when `preferringLater`, else before.
    private func segment(containing s: CGFloat, preferringLater: Bool) -> Int {
        let last = points.count - 2
        // Binary search for the first vertex beyond s (or at s).
        var lo = 0, hi = cumulative.count
        while lo < hi {
            let mid = (lo + hi) / 2
            let beyond = preferringLater ? cumulative[mid] > s : cumulative[mid] >= s
            if beyond { hi = mid } else { lo = mid + 1 }
        }
        return min(max(lo - 1, 0), last)
    }

    private func point(at s: CGFloat, segment i: Int) -> CGPoint {
        let span = cumulative[i + 1] - cumulative[i]
        let t = span > 0 ? (s - cumulative[i]) / span : 0
        if t <= 0 { return points[i] }
        if t >= 1 { return points[i + 1] }
        return points[i].lerp(to: points[i + 1], t)
    }
}

extension StrokeRuns {
    /// Whether two points differ by no more than rounding noise, which
    /// would give a segment without a trustworthy direction.
    static func nearlyEqual(_ a: CGPoint, _ b: CGPoint) -> Bool {
        let scale = max(1, abs(a.x), abs(a.y))
        return abs(a.x - b.x) <= scale * 1e-10 && abs(a.y - b.y) <= scale * 1e-10
    }
}
