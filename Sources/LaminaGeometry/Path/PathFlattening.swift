import Foundation

/// One subpath flattened into straight segments: what fill rasterizers,
/// tessellators and the stroker consume.
///
/// Invariants: `points` is never empty; no two consecutive points are equal;
/// in a closed polyline the last point differs from the first (the closing
/// segment is implied). A single point is a subpath of zero length, which a
/// round or square cap strokes as a dot.
package struct Polyline: Hashable, Sendable {
    /// The vertices, in path order.
    public var points: [CGPoint]
    /// Whether a segment joins the last point back to the first.
    public var isClosed: Bool
    /// Parallel to `points`: `true` where the vertex lies inside a curve, or
    /// where two elements meet with the same tangent, so that a stroker
    /// should draw no corner there whatever the line join.
    public var isSmooth: [Bool]

    /// A polyline through `points`; `isSmooth` marks the points where a curve
    /// continues smoothly (no join is drawn there).
    public init(points: [CGPoint], isClosed: Bool, isSmooth: [Bool]? = nil) {
        self.points = points
        self.isClosed = isClosed
        self.isSmooth = isSmooth ?? Array(repeating: false, count: points.count)
    }
}

extension PathData {
    /// The path as polylines, one per subpath that has at least one segment
    /// or a `closeSubpath` (a lone `moveTo` draws nothing), with every curve
    /// replaced by a chain of chords that stays within `tolerance` of it.
    ///
    /// `tolerance` is a distance in the path's own units: a renderer that
    /// draws the path scaled by s passes its device tolerance divided by s.
    /// Each curve gets the number of uniform parameter steps that Wang's
    /// formula guarantees for that tolerance, n = ⌈√(d(d−1)/8 · M / tolerance)⌉
    /// for degree d with M the largest second difference of its control
    /// points, so flat curves cost one chord and tight ones more. A curve is
    /// cut into at most `Flattening.maximumSteps` chords, which bounds the
    /// work for absurd tolerances; a tolerance that is not positive gets
    /// that maximum.
    public func flattened(tolerance: CGFloat) -> [Polyline] {
        var builder = Flattening.Builder(tolerance: tolerance)
        for (index, element) in elements.enumerated() {
            switch element {
            case .moveTo(let p):
                builder.finish(closing: false)
                // Room for a point per element up to the next subpath: all a
                // subpath of lines needs, so its lists grow at most for curves.
                var next = index + 1
                while next < elements.count {
                    if case .moveTo = elements[next] { break }
                    next += 1
                }
                builder.start(at: p, expectedPoints: next - index)
            case .lineTo(let p):
                builder.addLine(to: p)
            case .quadCurveTo(let c, let p):
                builder.addQuad(control: c, to: p)
            case .curveTo(let c1, let c2, let p):
                builder.addCubic(control1: c1, control2: c2, to: p)
            case .closeSubpath:
                builder.finish(closing: true)
            }
        }
        builder.finish(closing: false)
        return builder.polylines
    }
}

/// Curve subdivision counts and the polyline builder behind
/// `PathData.flattened(tolerance:)`.
package enum Flattening {
    /// The most chords one curve is cut into.
    public static let maximumSteps = 16_384

    /// How many uniform parameter steps keep the chords of a quadratic
    /// Bézier within `tolerance` of it (Wang's formula).
    public static func steps(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, tolerance: CGFloat) -> Int {
        let m = (p0 - p1 * 2 + p2).length
        return stepCount(0.25 * m, tolerance)
    }

    /// How many uniform parameter steps keep the chords of a cubic Bézier
    /// within `tolerance` of it (Wang's formula).
    public static func steps(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ p3: CGPoint, tolerance: CGFloat) -> Int {
        let m = max((p0 - p1 * 2 + p2).length, (p1 - p2 * 2 + p3).length)
        return stepCount(0.75 * m, tolerance)
    }

    /// Whether a curve from `p0` to `p3` through control points `c1` and
    /// `c2` is, within `tolerance`, its chord run one way: each control
    /// point within `tolerance` of the chord's line, and their feet on it
    /// in order between its ends (then the curve moves along it without
    /// turning back, and lies in their hull: within `tolerance` of the
    /// chord). A straight line a file writes as a curve (a Lottie vertex
    /// with no tangents puts its control points on the vertices) is one
    /// chord; Wang's formula, blind to where the control points lie, cuts
    /// it into as many as a curve of its size needs.
    static func isStraight(_ p0: CGPoint, _ c1: CGPoint, _ c2: CGPoint, _ p3: CGPoint, tolerance: CGFloat) -> Bool {
        let chord = p3 - p0
        let lengthSquared = chord.dot(chord)
        guard tolerance > 0, lengthSquared > 0, lengthSquared.isFinite else { return false }
        // The feet, as fractions of the chord times its length squared.
        let a = (c1 - p0).dot(chord), b = (c2 - p0).dot(chord)
        guard a >= 0, a <= b, b <= lengthSquared else { return false }
        // Distances from the line, times the chord's length.
        let reach = tolerance * lengthSquared.squareRoot()
        return abs((c1 - p0).cross(chord)) <= reach && abs((c2 - p0).cross(chord)) <= reach
    }

    private static func stepCount(_ scaledM: CGFloat, _ tolerance: CGFloat) -> Int {
        guard tolerance > 0 else { return maximumSteps }
        let n = (scaledM / tolerance).squareRoot().rounded(.up)
        guard n.isFinite else { return n.isNaN ? 1 : maximumSteps }
        return Int(min(max(n, 1), CGFloat(maximumSteps)))
    }

    /// Tangents closer than this (the sine of the angle between them) meet
    /// without a visible corner.
    static let smoothTangentSine: CGFloat = 1e-3

    /// Accumulates the polyline of the subpath being flattened.
    struct Builder {
        let tolerance: CGFloat
        var polylines: [Polyline] = []

        private var points: [CGPoint] = []
        private var smooth: [Bool] = []
        private var started = false      // a moveTo opened a subpath
        private var hasSegment = false   // it has at least one segment
        private var firstTangent: CGPoint?  // where its first segment leaves
        private var lastTangent: CGPoint?   // where its last segment arrives

        init(tolerance: CGFloat) { self.tolerance = tolerance }

        mutating func start(at p: CGPoint, expectedPoints: Int = 1) {
            points = []
            points.reserveCapacity(expectedPoints)
            points.append(p)
            smooth = []
            smooth.reserveCapacity(expectedPoints)
            smooth.append(false)
            started = true
            hasSegment = false
            firstTangent = nil
            lastTangent = nil
        }

        mutating func addLine(to p: CGPoint) {
            guard let from = points.last else { return }
            addSegment(SegmentControls(from, p), steps: 1) { _ in p }
        }

        mutating func addQuad(control c: CGPoint, to p: CGPoint) {
            guard let from = points.last else { return }
            let n = Flattening.isStraight(from, c, c, p, tolerance: tolerance) ? 1 : Flattening.steps(from, c, p, tolerance: tolerance)
            addSegment(SegmentControls(from, c, p), steps: n) { i in
                i == n ? p : Bezier.point(from, c, p, at: CGFloat(i) / CGFloat(n))
            }
        }

        mutating func addCubic(control1 c1: CGPoint, control2 c2: CGPoint, to p: CGPoint) {
            guard let from = points.last else { return }
            let n = Flattening.isStraight(from, c1, c2, p, tolerance: tolerance) ? 1 : Flattening.steps(from, c1, c2, p, tolerance: tolerance)
            addSegment(SegmentControls(from, c1, c2, p), steps: n) { i in
                i == n ? p : Bezier.point(from, c1, c2, p, at: CGFloat(i) / CGFloat(n))
            }
        }

        /// Appends one element's chord points, `chordEnd(1...steps)` (its
        /// start is the last point already there), and settles whether the
        /// vertex where it meets the previous element is smooth.
        private mutating func addSegment(_ controls: SegmentControls, steps: Int, chordEnd: (Int) -> CGPoint) {
            guard started else { return }
            hasSegment = true
            guard let inTangent = controls.startTangent else { return }  // a single point
            if let previous = lastTangent {
                if Flattening.isSmooth(previous, inTangent) { smooth[smooth.count - 1] = true }
            } else {
                firstTangent = inTangent
            }
            lastTangent = controls.endTangent
            for i in 1...steps {
                let q = chordEnd(i)
                guard q != points[points.count - 1] else { continue }
                points.append(q)
                smooth.append(i < steps)  // inside the curve
            }
        }

        /// Ends the current subpath, closed or not, and stores its polyline.
        mutating func finish(closing: Bool) {
            guard started, let first = points.first else { return }
            defer { started = false }
            if closing {
                // The closing segment is a line like any other.
                if let last = points.last, last != first { addLine(to: first) }
                if points.count > 1, points[points.count - 1] == first {
                    points.removeLast()
                    smooth.removeLast()
                }
                if let a = lastTangent, let b = firstTangent {
                    smooth[0] = Flattening.isSmooth(a, b)
                }
            } else if !hasSegment {
                return  // a lone moveTo draws nothing
            }
            polylines.append(Polyline(points: points, isClosed: closing, isSmooth: smooth))
        }
    }

    /// Whether unit tangents `a` (arriving) and `b` (leaving) continue each
    /// other without a corner.
    static func isSmooth(_ a: CGPoint, _ b: CGPoint) -> Bool {
        a.dot(b) > 0 && abs(a.cross(b)) <= smoothTangentSine
    }
}
