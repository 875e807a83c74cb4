import Foundation

/// The elements of a path as a plain value: what `CGPath` wraps and what
/// renderers take across threads.
///
/// `PathData` keeps the invariants a renderer wants to rely on:
/// - every segment and every `closeSubpath` belongs to a subpath that starts
///   with an explicit `moveTo`; a segment added with no current point is
///   ignored, as Core Graphics ignores it (it logs "no current point");
/// - a segment added right after `closeSubpath` is preceded by an explicit
///   `moveTo` to the closed subpath's first point, which is where Core
///   Graphics starts the next subpath;
/// - `closeSubpath` right after another `closeSubpath` is ignored.
package struct PathData: Hashable, Sendable {
    /// The elements, in order.
    public private(set) var elements: [PathElement] = []

    /// Where the next segment starts: the end of the last element, the first
    /// point of the subpath after `closeSubpath`, `nil` while empty.
    public private(set) var currentPoint: CGPoint?

    /// The first point of the current subpath.
    private var subpathStart: CGPoint?

    /// An empty path.
    public init() {}

    /// A path made by appending `elements` one by one, which enforces the
    /// invariants above (a leading segment with no `moveTo` is dropped).
    public init<S: Sequence>(_ elements: S) where S.Element == PathElement {
        for element in elements { append(element) }
    }

    /// Makes room for `count` elements in all, so that a path built
    /// element by element (a morph's, every frame) grows its storage once.
    public mutating func reserveCapacity(_ count: Int) {
        elements.reserveCapacity(count)
    }

    /// Whether the path has no elements at all.
    public var isEmpty: Bool { elements.isEmpty }

    /// Starts a new subpath at `point`.
    public mutating func move(to point: CGPoint) {
        elements.append(.moveTo(point))
        currentPoint = point
        subpathStart = point
    }

    /// Adds a straight segment from the current point to `point`.
    public mutating func addLine(to point: CGPoint) {
        guard beginSegment() else { return }
        elements.append(.lineTo(point))
        currentPoint = point
    }

    /// Adds a quadratic Bézier segment from the current point to `point`.
    public mutating func addQuadCurve(to point: CGPoint, control: CGPoint) {
        guard beginSegment() else { return }
        elements.append(.quadCurveTo(control: control, to: point))
        currentPoint = point
    }

    /// Adds a cubic Bézier segment from the current point to `point`.
    public mutating func addCurve(to point: CGPoint, control1: CGPoint, control2: CGPoint) {
        guard beginSegment() else { return }
        elements.append(.curveTo(control1: control1, control2: control2, to: point))
        currentPoint = point
    }

    /// Closes the current subpath with a straight segment to its first point;
    /// the current point becomes that first point.
    public mutating func closeSubpath() {
        guard subpathStart != nil, elements.last != .closeSubpath else { return }
        elements.append(.closeSubpath)
        currentPoint = subpathStart
    }

    /// Appends one element through the methods above.
    public mutating func append(_ element: PathElement) {
        switch element {
        case .moveTo(let p): move(to: p)
        case .lineTo(let p): addLine(to: p)
        case .quadCurveTo(let c, let p): addQuadCurve(to: p, control: c)
        case .curveTo(let c1, let c2, let p): addCurve(to: p, control1: c1, control2: c2)
        case .closeSubpath: closeSubpath()
        }
    }

    /// Appends every element of `other`, which starts its own subpaths.
    public mutating func append(_ other: PathData) {
        elements.reserveCapacity(elements.count + other.elements.count)
        for element in other.elements { append(element) }
    }

    /// This path with every point transformed by `t`.
    public func applying(_ t: CGAffineTransform) -> PathData {
        if t.isIdentity { return self }
        var out = PathData()
        out.elements = elements.map { $0.applying(t) }
        out.currentPoint = currentPoint?.applying(t)
        out.subpathStart = subpathStart?.applying(t)
        return out
    }

    /// Removes every element.
    public mutating func removeAll() {
        self = PathData()
    }

    /// The elements folded into one word by a multiply-and-shift mix, then
    /// that word given to `hasher`: the planner's outline cache hashes every
    /// path it is asked for each frame (an animated path is new each
    /// frame), and feeding each coordinate to the hasher itself cost more
    /// than flattening the path. Equal paths have equal elements (the rest
    /// follows from them), and equal coordinates equal words (a zero's
    /// sign is left out, as `==` leaves it out).
    public func hash(into hasher: inout Hasher) {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: elements.count)
        @inline(__always) func mix(_ word: UInt64) {
            h = (h ^ word) &* 0xFF51_AFD7_ED55_8CCD
            h ^= h >> 32
        }
        @inline(__always) func mix(_ p: CGPoint) {
            mix(p.x == 0 ? 0 : UInt64(p.x.bitPattern))
            mix(p.y == 0 ? 0 : UInt64(p.y.bitPattern))
        }
        for element in elements {
            switch element {
            case .moveTo(let p): mix(1); mix(p)
            case .lineTo(let p): mix(2); mix(p)
            case .quadCurveTo(let c, let p): mix(3); mix(c); mix(p)
            case .curveTo(let c1, let c2, let p): mix(4); mix(c1); mix(c2); mix(p)
            case .closeSubpath: mix(5)
            }
        }
        hasher.combine(h)
    }

    /// Whether a segment may be added now; inserts the `moveTo` that follows
    /// a `closeSubpath`.
    private mutating func beginSegment() -> Bool {
        guard let start = subpathStart else { return false }
        if elements.last == .closeSubpath {
            elements.append(.moveTo(start))
            currentPoint = start
        }
        return true
    }
}
