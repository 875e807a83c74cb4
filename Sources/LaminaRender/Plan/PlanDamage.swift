import Foundation
import LaminaCore
import LaminaRaster

/// Where a frame differs from the frame drawn before it, in rows of the
/// output: what a backend that keeps its last picture must clear and redraw
/// for the new picture to be the bytes a full drawing gives (as Chromium's
/// `DamageTracker` finds what a compositor frame must redraw, and Core
/// Animation's render server redraws only what changed).
///
/// Found by comparing the two plans draw by draw, not by comparing pixels:
/// a draw that is the same (same geometry, matrix, paint, the same images,
/// the same offscreen surfaces under it) paints the same pixels, so a row
/// where every draw that reaches it is the same is the same row. The rows
/// of each draw that differs, where it was and where it is, are damaged.
///
/// ```swift
/// if let damage = PlanDamage(from: lastPlan, to: plan) {
///     // Clear damage.rows of the last picture and redraw, within them, the
///     // output's draws that reach them (damage.redraws), after the
///     // offscreen surfaces those sample (damage.skipsPass says which not).
/// }
/// ```
package struct PlanDamage: Sendable {
    /// The output's rows to clear and redraw.
    package private(set) var rows: RowSpans
    /// The columns of `rows` the last frame may have drawn in (the box of
    /// its draws that reach them): every other pixel of them is transparent.
    package private(set) var clearedColumns: Range<Int>
    /// The pixels each of the new plan's draws into the output may change,
    /// in drawing order: the next frame's `previousPixels`.
    package private(set) var drawnPixels: [PixelRect]
    /// For each pass of the new plan that draws into the output, whether
    /// each of its commands reaches `rows` (nil for other passes).
    package private(set) var redraws: [[Bool]?]
    /// For each pass of the new plan, whether it is not run: it draws an
    /// offscreen surface that no redrawn draw samples, directly or through
    /// another surface.
    package private(set) var skipsPass: [Bool]

    /// The damage from `previous` to `plan`; nil when the whole picture must
    /// be drawn: the sizes differ, or a pass into the output does more than
    /// fill polygons and paths (a backdrop reads rows around its own, a
    /// filter replaces the whole target).
    ///
    /// `previousPixels`: the `drawnPixels` of the damage that `previous`
    /// was drawn with, where it was (worked out again otherwise).
    package init?(from previous: RenderPlan, to plan: RenderPlan, previousPixels: [PixelRect]? = nil) {
        guard previous.width == plan.width, previous.height == plan.height else { return nil }
        let before = DrawsByTarget(previous), after = DrawsByTarget(plan)
        guard let old = OutputDraws(previous, before), let new = OutputDraws(plan, after) else { return nil }
        var sameness = Sameness(previous: previous, plan: plan, previousDraws: before, draws: after)
        // What each draw into the output reaches, worked out once a plan.
        let (width, height) = (plan.width, plan.height)
        func reached(_ places: [DrawPlace], of plan: RenderPlan) -> [PixelRect] {
            places.map { place in plan.withDraw(at: place) { $0.pixelsReached(width: width, height: height) } }
        }
        let oldPixels = previousPixels.flatMap { $0.count == old.count ? $0 : nil } ?? reached(old.places, of: previous)
        let newPixels = reached(new.places, of: plan)
        drawnPixels = newPixels
        let newRows = newPixels.map { $0.minY..<$0.maxY }
        var rows = RowSpans()
        func damage(old k: Int) { rows.insert(oldPixels[k].minY..<oldPixels[k].maxY) }
        func same(_ a: Int, _ b: Int) -> Bool { sameness.same(old.places[a], new.places[b]) }
        if old.count == new.count {
            // Draw for draw: a changed draw damages where it was and where it is.
            for k in 0..<new.count where !same(k, k) {
                damage(old: k)
                rows.insert(newRows[k])
            }
        } else {
            // Draws came or went: the same ones from either end, the rest damaged.
            var start = 0
            while start < min(old.count, new.count), same(start, start) { start += 1 }
            var (endOld, endNew) = (old.count, new.count)
            while endOld > start, endNew > start, same(endOld - 1, endNew - 1) {
                endOld -= 1
                endNew -= 1
            }
            (start..<endOld).forEach { damage(old: $0) }
            newRows[start..<endNew].forEach { rows.insert($0) }
        }
        // Thin slices joined: each costs every draw across it a setting-up.
        let redrawn = rows.bridging(gapsUnder: 16)
        self.rows = redrawn
        // What the last frame drew in those rows lies within its draws that reach them.
        var cleared = PixelRect(width: 0, height: 0)
        for area in oldPixels where redrawn.overlaps(area.minY..<area.maxY) { cleared = cleared.union(area) }
        clearedColumns = cleared.isEmpty ? 0..<0 : cleared.minX..<cleared.maxX

        // What is redrawn, and the surfaces that needs: the output's draws
        // that reach the rows, then (passes from last to first, each
        // surface's pass before any pass that samples it) every draw of a
        // surface one of those samples.
        var needed = [Bool](repeating: false, count: plan.surfaces.count)
        func need(_ surfaces: AtMostTwo<SurfaceID>) {
            for case .offscreen(let i) in surfaces where needed.indices.contains(i) { needed[i] = true }
        }
        var redraws = plan.passes.map { $0.target == .output ? [Bool](repeating: false, count: $0.commands.count) : nil }
        for (k, place) in new.places.enumerated() where redrawn.overlaps(newRows[k]) {
            redraws[place.pass]![place.command] = true
            need(plan.withDraw(at: place) { $0.sampledSurfaces })
        }
        self.redraws = redraws
        skipsPass = [Bool](repeating: false, count: plan.passes.count)
        for p in plan.passes.indices.reversed() {
            guard case .offscreen(let i) = plan.passes[p].target else { continue }
            guard needed.indices.contains(i), needed[i] else {
                skipsPass[p] = true
                continue
            }
            for c in plan.passes[p].commands.indices { need(plan.withDraw(at: DrawPlace(pass: p, command: c)) { $0.sampledSurfaces }) }
        }
    }
}

/// Where a draw is in a plan: its pass, and its place in the pass.
private struct DrawPlace {
    var pass: Int
    var command: Int
}

/// The draws into each target of a plan, in the order they draw; none for
/// a target made more than once (each pass that does not continue its
/// target clears it): the first pass into a target makes it, and every
/// later one must continue it. Kept in lists by surface number (made for
/// both plans of every frame: no dictionary).
private struct DrawsByTarget {
    /// By slot: each surface's by its number, then the output's.
    private var places: [[DrawPlace]?]
    /// By slot: whether a pass draws into that target.
    private var made: [Bool]

    init(_ plan: RenderPlan) {
        let slots = plan.surfaces.count + 1
        places = [[DrawPlace]?](repeating: [], count: slots)
        made = [Bool](repeating: false, count: slots)
        for p in plan.passes.indices {
            guard let s = slot(of: plan.passes[p].target) else { continue }
            defer { made[s] = true }
            guard plan.passes[p].continuesTarget == made[s] else {
                places[s] = nil
                continue
            }
            places[s]?.append(contentsOf: plan.passes[p].commands.indices.lazy.map { DrawPlace(pass: p, command: $0) })
        }
    }

    /// The draws into `target`; nil when no pass draws it, or when it is
    /// made more than once.
    subscript(target: SurfaceID) -> [DrawPlace]? {
        guard let s = slot(of: target), made[s] else { return nil }
        return places[s]
    }

    /// Where `target` is kept; nil for a surface the plan does not have.
    private func slot(of target: SurfaceID) -> Int? {
        switch target {
        case .output: made.count - 1
        case .offscreen(let i): i >= 0 && i < made.count - 1 ? i : nil
        }
    }
}

extension RenderPlan {
    /// `body` of the command at `place`, read where it lies (a command
    /// read out of its list is a copy: a few hundred bytes and a reference
    /// counted for each list it holds).
    fileprivate func withDraw<Result>(at place: DrawPlace, _ body: (DrawCommand) -> Result) -> Result {
        passes[place.pass].commands.withUnsafeBufferPointer { body($0[place.command]) }
    }
}

/// The places of the commands of the passes into the output, in the order
/// they draw (places, not the commands: nothing is copied).
private struct OutputDraws {
    let places: [DrawPlace]
    var count: Int { places.count }

    /// Nil when one of them is not a polygon or a path, or when the output
    /// is not made exactly once (`DrawsByTarget`).
    init?(_ plan: RenderPlan, _ byTarget: DrawsByTarget) {
        guard let places = byTarget[.output] else { return nil }
        for place in places {
            let fills = plan.withDraw(at: place) { command in
                switch command {
                case .polygon, .path: true
                case .blurMask, .filter, .backdrop: false
                }
            }
            guard fills else { return nil }
        }
        self.places = places
    }
}

/// Whether draws of the two plans paint the same pixels, remembering which
/// offscreen surfaces are the same in both.
private struct Sameness {
    let previous: RenderPlan
    let plan: RenderPlan
    /// Each surface of `plan`: nil until asked, then whether it is drawn as
    /// the surface of the same number in `previous` is.
    private var surfaces: [Bool?]
    /// The draws into each target, by plan.
    private let previousDraws: DrawsByTarget
    private let draws: DrawsByTarget

    init(previous: RenderPlan, plan: RenderPlan, previousDraws: DrawsByTarget, draws: DrawsByTarget) {
        (self.previous, self.plan, self.previousDraws, self.draws) = (previous, plan, previousDraws, draws)
        surfaces = [Bool?](repeating: nil, count: plan.surfaces.count)
    }

    /// Whether the draw at `a` in `previous` and the one at `b` in `plan`
    /// paint the same pixels.
    mutating func same(_ a: DrawPlace, _ b: DrawPlace) -> Bool {
        let (previous, plan) = (previous, plan)
        return previous.withDraw(at: a) { old in plan.withDraw(at: b) { new in self.same(old, new) } }
    }

    /// Whether `a` of `previous` and `b` of `plan` paint the same pixels:
    /// equal commands sampling identical images and the same surfaces.
    mutating func same(_ a: DrawCommand, _ b: DrawCommand) -> Bool {
        guard a == b else { return false }
        for id in b.sampledImages {
            guard previous.images.indices.contains(id.index), plan.images.indices.contains(id.index),
                  previous.images[id.index] == plan.images[id.index] else { return false }
        }
        for case .offscreen(let i) in b.sampledSurfaces where !sameSurface(i) { return false }
        return true
    }

    /// Whether surface `i` of `plan` holds the pixels surface `i` of
    /// `previous` held: the same size, drawn by the same commands in one
    /// pass, or in passes that continue it.
    private mutating func sameSurface(_ i: Int) -> Bool {
        guard surfaces.indices.contains(i) else { return false }
        if let known = surfaces[i] { return known }
        // Not the same until shown to be (a plan that samples a surface
        // within its own drawing is refused before it is drawn).
        surfaces[i] = false
        guard previous.surfaces.indices.contains(i), previous.surfaces[i] == plan.surfaces[i],
              let old = previousDraws[.offscreen(i)], let new = draws[.offscreen(i)],
              old.count == new.count else { return false }
        for (a, b) in zip(old, new) where !same(a, b) { return false }
        surfaces[i] = true
        return true
    }
}

extension DrawCommand {
    /// The pixels of a `width` x `height` target that the command may
    /// change: every pixel its geometry reaches through its matrix, and one
    /// more all round for anti-aliasing; the whole target when that is not
    /// known (a path seen in perspective, a blur, a filter, a backdrop).
    func pixelsReached(width: Int, height: Int) -> PixelRect {
        let all = PixelRect(width: width, height: height)
        var box = BoxAccumulator()
        /// Adds `point` mapped by `m`, divided by its w; false when that
        /// is not a finite point in front of the eye.
        func add(_ point: CGPoint, through m: CATransform3D) -> Bool {
            let h = m.apply(x: point.x, y: point.y)
            let mapped = CGPoint(x: h.x / h.w, y: h.y / h.w)
            guard h.w > 0, mapped.x.isFinite, mapped.y.isFinite else { return false }
            box.add(mapped)
            return true
        }
        switch self {
        case .polygon(let draw):
            for point in draw.polygon { guard add(point, through: draw.matrix) else { return all } }
        case .path(let draw):
            let m = draw.matrix
            guard m.m14 == 0, m.m24 == 0, m.m34 == 0, m.m44 == 1 else { return all }
            if let b = draw.bounds {
                // The box's corners (named one by one: a list of them was a heap block a draw).
                guard add(CGPoint(x: b.minX, y: b.minY), through: m), add(CGPoint(x: b.maxX, y: b.minY), through: m),
                      add(CGPoint(x: b.minX, y: b.maxY), through: m), add(CGPoint(x: b.maxX, y: b.maxY), through: m)
                else { return all }
            } else {
                for contour in draw.contours {
                    for point in contour { guard add(point, through: m) else { return all } }
                }
            }
        case .blurMask, .filter, .backdrop:
            return all
        }
        if box.isEmpty { return PixelRect(width: 0, height: 0) }
        // A coordinate that is not finite, or beyond any picture: everything.
        return PixelRect.covering(box.rect)?.intersection(all) ?? all
    }
}
