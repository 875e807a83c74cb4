import Foundation
import LaminaCore
import Synchronization

/// Flattened fills and stroke outlines, kept from one plan for the next.
///
/// Flattening a shape layer's path and working out its stroke's outline are
/// most of the plan of a scene of paths, and every frame of a still scene
/// (a server's stream of the same card) or of an animation's still parts
/// asks for the same contours again. A region is found by its outline's
/// value and the tolerance it is flattened at, so a scene decoded afresh
/// for each request finds the contours its twin left, and a path that
/// moves, turns or changes colour keeps them: only a change of its shape
/// or of its scale on screen (which changes the tolerance) works them out
/// again. A hit hands out the kept arrays themselves, so a plan that finds
/// every region allocates nothing for them.
///
/// A stroke whose trim or dashes change from frame to frame (a Lottie trim
/// path) is a new outline each frame, but of the same path: a trimmed or
/// dashed stroke's path flattened and measured at the tolerance
/// (`MeasuredPath`) is kept too, by its value, so such a frame strokes it
/// without flattening it again.
///
/// Bounded by points: when a new outline would overflow the budget, what
/// earlier plans used and this one has not is forgotten first (an animated
/// path leaves a trail of shapes no later frame asks for); an outline that
/// still does not fit is drawn without being kept.
///
/// ```swift
/// let planner = RenderPlanner()          // it makes its own cache
/// let first = try planner.plan(root, canvas: canvas)
/// let again = try planner.plan(root, canvas: canvas)
/// // planner.outlines.statistics.made is the same after both plans
/// ```
package final class OutlineCache: Sendable {
    /// The most points kept by default (4 MiB of them).
    public static let defaultMaximumPoints = 1 << 18

    /// The most points kept, all outlines together.
    public let maximumPoints: Int

    private let table = Mutex(Table())

    /// What an outline is kept by: a region and the tolerance it was
    /// flattened at, or a rectangle (its corners); or what a path's
    /// strokes start from: the path, measured at the tolerance.
    private enum Key: Hashable {
        case region(FillOutline, tolerance: Double)
        case rectangle(CGRect)
        case measured(PathData, tolerance: Double)
    }

    /// What is kept under a key.
    private enum Kept {
        case outline(FlatOutline)
        case measured(MeasuredPath)
    }

    /// A key with its hash worked out once: a lookup that misses hashes
    /// its key three times (the search, the removal of a stale entry, the
    /// insertion), and a path's hash reads every point of it.
    private struct HashedKey: Hashable {
        let key: Key
        let hash: Int
        init(_ key: Key) { self.key = key; hash = key.hashValue }
        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
        static func == (a: HashedKey, b: HashedKey) -> Bool { a.hash == b.hash && a.key == b.key }
    }

    private struct Entry {
        /// The contours (a rectangle's: one, its corners), with their box;
        /// or a measured path.
        var value: Kept
        var points: Int
        /// The latest plan that used this outline.
        var lastPlan: Int
    }

    private struct Table {
        var entries: [HashedKey: Entry] = [:]
        var points = 0
        /// Plans begun so far.
        var plans = 0
        /// Outlines and measured paths worked out since the cache was made.
        var made = 0
        /// Times what earlier plans used was swept out.
        var sweeps = 0
        /// The latest plan that swept the cache. It sweeps no more: after
        /// its sweep everything kept is its own (found or made by it), so
        /// another would forget nothing, and a scene of a hundred thousand
        /// paths sweeps once, not once a path. What it makes once the cache
        /// is full again is drawn without being kept.
        var sweptBy = 0

        /// Makes room for `points` more, forgetting what plans before
        /// `plan` used; false when even that leaves too little.
        mutating func makeRoom(for points: Int, plan: Int, maximum: Int) -> Bool {
            if self.points + points <= maximum { return true }
            guard plan > sweptBy else { return false }
            sweptBy = plan
            sweeps += 1
            entries = entries.filter { $0.value.lastPlan >= plan }
            self.points = entries.values.reduce(0) { $0 + $1.points }
            return self.points + points <= maximum
        }
    }

    /// An empty cache that keeps at most `maximumPoints` points.
    public init(maximumPoints: Int = OutlineCache.defaultMaximumPoints) {
        self.maximumPoints = max(0, maximumPoints)
    }

    /// What the cache holds and has done.
    public struct Statistics: Hashable, Sendable {
        /// Outlines kept, and their points.
        public var kept: Int, points: Int
        /// Outlines and measured paths worked out (every miss) since the
        /// cache was made.
        public var made: Int
        /// Times the outlines of earlier plans were swept out to make room.
        public var sweeps: Int
    }

    /// What the cache holds and has done, now.
    public var statistics: Statistics {
        table.withLock { Statistics(kept: $0.entries.count, points: $0.points, made: $0.made, sweeps: $0.sweeps) }
    }

    /// Starts a plan; its number marks what it uses.
    func beginPlan() -> Int {
        table.withLock { t in
            t.plans += 1
            return t.plans
        }
    }

    /// The contours of `outline` at `tolerance` with their box, kept or
    /// worked out now, for the plan numbered `plan`.
    func contours(of outline: FillOutline, tolerance: Double, plan: Int) -> FlatOutline {
        // Fixed polygons are their own contours: nothing to keep.
        if case .polygons(let polygons) = outline { return FlatOutline(polygons) }
        // (A tolerance that is not a number would never be found again.)
        guard tolerance.isFinite else { return FlatOutline(outline.contours(tolerance: tolerance)) }
        if case .stroke(let path, let style) = outline, style.strokeStart > 0 || style.strokeEnd < 1 || !style.dashPattern.isEmpty {
            // A new trim of a path stroked before: the path as measured
            // then. (Only trimmed or dashed strokes: a plain stroke of a
            // path kept is found whole above, and the measured path of one
            // that changes each frame would be kept for nothing.)
            return keptOutline(.region(outline, tolerance: tolerance), plan: plan) {
                Stroker.outline(of: measured(path, tolerance: tolerance, plan: plan), style: style, tolerance: CGFloat(tolerance))
            }
        }
        return keptOutline(.region(outline, tolerance: tolerance), plan: plan) { outline.contours(tolerance: tolerance) }
    }

    /// `path` flattened at `tolerance` and measured, kept or worked out now.
    private func measured(_ path: PathData, tolerance: Double, plan: Int) -> MeasuredPath {
        let value = kept(.measured(path, tolerance: tolerance), plan: plan) {
            let measured = MeasuredPath(path, tolerance: CGFloat(tolerance))
            return (.measured(measured), measured.pointCount)
        }
        guard case .measured(let measured) = value else { preconditionFailure("a measured path's key holds a measured path") }
        return measured
    }

    /// The corners of `rect` (minX-minY, maxX-minY, maxX-maxY, minX-maxY),
    /// kept or made now, for the plan numbered `plan`: the polygon of a
    /// layer's background, border or picture, which a grid of equal cells or
    /// a scene drawn again asks for many times.
    func corners(of rect: CGRect, plan: Int) -> [CGPoint] {
        guard rect.minX.isFinite, rect.minY.isFinite, rect.maxX.isFinite, rect.maxY.isFinite else { return rect.cornerPolygon }
        return keptOutline(.rectangle(rect), plan: plan) { [rect.cornerPolygon] }.contours[0]
    }

    /// The contours kept under `key`, or those `make` works out now, kept
    /// if they fit.
    private func keptOutline(_ key: Key, plan: Int, make: () -> [[CGPoint]]) -> FlatOutline {
        let value = kept(key, plan: plan) {
            let outline = FlatOutline(make())
            return (.outline(outline), outline.contours.reduce(0) { $0 + $1.count })
        }
        guard case .outline(let outline) = value else { preconditionFailure("an outline's key holds an outline") }
        return outline
    }

    /// What is kept under `key`, or what `make` works out now (with its
    /// points), kept if it fits.
    private func kept(_ key: Key, plan: Int, make: () -> (Kept, points: Int)) -> Kept {
        let key = HashedKey(key)
        let found = table.withLock { t -> Kept? in
            guard let i = t.entries.index(forKey: key) else { return nil }
            t.entries.values[i].lastPlan = max(t.entries.values[i].lastPlan, plan)
            return t.entries.values[i].value
        }
        if let found { return found }
        // Worked out outside the lock: another thread's plan may use the
        // cache meanwhile.
        let (value, points) = make()
        table.withLock { t in
            t.made += 1
            if let old = t.entries.removeValue(forKey: key) { t.points -= old.points }
            guard t.makeRoom(for: points, plan: plan, maximum: maximumPoints) else { return }
            t.entries[key] = Entry(value: value, points: points, lastPlan: plan)
            t.points += points
        }
        return value
    }
}

/// A region's closed contours, flattened, with the box that holds every
/// point of them: worked out once, when the contours are, and kept with
/// them, so that the plan's validation of each frame's draw tests the
/// box's four corners rather than every point (`PathFillDraw.bounds`).
package struct FlatOutline: Sendable {
    /// The closed contours, in local coordinates.
    package let contours: [[CGPoint]]
    /// The smallest box holding every point of `contours`, as
    /// `CGRect.bounding` gives it for all their points: nil when one of them
    /// is not finite, there are none, or the box's width or height is not.
    package let bounds: CGRect?

    /// `contours` with their box.
    package init(_ contours: [[CGPoint]]) {
        self.contours = contours
        var box = BoxAccumulator()
        var finite = true
        for contour in contours {
            guard let b = BoxAccumulator(finite: contour) else { finite = false; break }
            if !b.isEmpty { box.add(CGPoint(x: b.minX, y: b.minY)); box.add(CGPoint(x: b.maxX, y: b.maxY)) }
        }
        let rect = box.rect
        bounds = finite && !box.isEmpty && rect.width.isFinite && rect.height.isFinite ? rect : nil
    }
}
