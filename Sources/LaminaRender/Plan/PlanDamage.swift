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
    package init?(from previous: RenderPlan, to plan: RenderPlan) {
        guard previous.width == plan.width, previous.height == plan.height,
              let before = OutputDraws(previous), let after = OutputDraws(plan) else { return nil }
        var sameness = Sameness(previous: previous, plan: plan)
        let height = plan.height
        var rows = RowSpans()
        func damage(_ command: DrawCommand) { rows.insert(command.rowsReached(inHeight: height)) }
        let old = before.commands, new = after.commands
        if old.count == new.count {
            // Draw for draw: a changed draw damages where it was and where it is.
            for (a, b) in zip(old, new) where !sameness.same(a, b) {
                damage(a)
                damage(b)
            }
        } else {
            // Draws came or went: the same ones from either end, the rest damaged.
            var start = 0
            while start < min(old.count, new.count), sameness.same(old[start], new[start]) { start += 1 }
            var (endOld, endNew) = (old.count, new.count)
            while endOld > start, endNew > start, sameness.same(old[endOld - 1], new[endNew - 1]) {
                endOld -= 1
                endNew -= 1
            }
            old[start..<endOld].forEach(damage)
            new[start..<endNew].forEach(damage)
        }
        // Thin slices joined: each costs every draw across it a setting-up.
        let redrawn = rows.bridging(gapsUnder: 16)
        self.rows = redrawn

        // What is redrawn, and the surfaces that needs: the output's draws
        // that reach the rows, then (passes from last to first, each
        // surface's pass before any pass that samples it) every draw of a
        // surface one of those samples.
        var needed = [Bool](repeating: false, count: plan.surfaces.count)
        func need(_ command: DrawCommand) {
            for case .offscreen(let i) in command.sampledSurfaces where needed.indices.contains(i) { needed[i] = true }
        }
        redraws = plan.passes.map { pass in
            guard pass.target == .output else { return nil }
            return pass.commands.map { command in
                let reaches = redrawn.overlaps(command.rowsReached(inHeight: height))
                if reaches { need(command) }
                return reaches
            }
        }
        skipsPass = [Bool](repeating: false, count: plan.passes.count)
        for p in plan.passes.indices.reversed() {
            guard case .offscreen(let i) = plan.passes[p].target else { continue }
            guard needed.indices.contains(i), needed[i] else {
                skipsPass[p] = true
                continue
            }
            plan.passes[p].commands.forEach(need)
        }
    }
}

/// The commands of the passes into the output, in the order they draw.
private struct OutputDraws {
    var commands: [DrawCommand] = []

    /// Nil when one of them is not a polygon or a path, or when the output
    /// is made more than once (each pass that does not continue it clears it).
    init?(_ plan: RenderPlan) {
        let outputPasses = plan.passes.filter { $0.target == .output }
        guard outputPasses.first?.continuesTarget == false, outputPasses.dropFirst().allSatisfy(\.continuesTarget) else { return nil }
        for pass in outputPasses {
            for command in pass.commands {
                switch command {
                case .polygon, .path: commands.append(command)
                case .blurMask, .filter, .backdrop: return nil
                }
            }
        }
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
    /// The passes into each offscreen surface, by plan.
    private let previousPasses: [Int: [RenderPass]]
    private let passes: [Int: [RenderPass]]

    init(previous: RenderPlan, plan: RenderPlan) {
        self.previous = previous
        self.plan = plan
        surfaces = [Bool?](repeating: nil, count: plan.surfaces.count)
        previousPasses = Self.offscreenPasses(of: previous)
        passes = Self.offscreenPasses(of: plan)
    }

    private static func offscreenPasses(of plan: RenderPlan) -> [Int: [RenderPass]] {
        var byTarget: [Int: [RenderPass]] = [:]
        for pass in plan.passes {
            if case .offscreen(let i) = pass.target { byTarget[i, default: []].append(pass) }
        }
        return byTarget
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
              let old = previousPasses[i], let new = passes[i],
              old.filter({ !$0.continuesTarget }).count == 1, new.filter({ !$0.continuesTarget }).count == 1,
              old.first?.continuesTarget == false, new.first?.continuesTarget == false else { return false }
        let oldCommands = old.flatMap(\.commands), newCommands = new.flatMap(\.commands)
        guard oldCommands.count == newCommands.count else { return false }
        for (a, b) in zip(oldCommands, newCommands) where !same(a, b) { return false }
        surfaces[i] = true
        return true
    }
}

extension DrawCommand {
    /// The rows of its target, `height` pixels high, that the command may
    /// change: every row its geometry reaches through its matrix, and one
    /// more either side for anti-aliasing; every row when that is not
    /// known (a path seen in perspective, a blur, a filter, a backdrop).
    func rowsReached(inHeight height: Int) -> Range<Int> {
        let all = 0..<height
        var box = RowExtent()
        switch self {
        case .polygon(let draw):
            for point in draw.polygon { guard box.add(projecting: point, through: draw.matrix) else { return all } }
        case .path(let draw):
            let m = draw.matrix
            guard m.m14 == 0, m.m24 == 0, m.m34 == 0, m.m44 == 1 else { return all }
            if let bounds = draw.bounds {
                for corner in [CGPoint(x: bounds.minX, y: bounds.minY), CGPoint(x: bounds.maxX, y: bounds.minY),
                               CGPoint(x: bounds.minX, y: bounds.maxY), CGPoint(x: bounds.maxX, y: bounds.maxY)] {
                    guard box.add(projecting: corner, through: m) else { return all }
                }
            } else {
                for contour in draw.contours {
                    for point in contour { guard box.add(projecting: point, through: m) else { return all } }
                }
            }
        case .blurMask, .filter, .backdrop:
            return all
        }
        guard let top = box.top, let bottom = box.bottom else { return 0..<0 }
        let first = max(0, Int(max(-1, min(Double(height), top.rounded(.down)))) - 1)
        let end = min(height, Int(max(-1, min(Double(height), bottom.rounded(.up)))) + 1)
        return first < end ? first..<end : 0..<0
    }
}

/// The top and bottom of points in pixels.
private struct RowExtent {
    var top: Double?, bottom: Double?

    /// Adds `point` mapped by `matrix` (row-vector convention, divided by
    /// its w); false when that is not a finite point in front of the eye.
    @inline(__always)
    mutating func add(projecting point: CGPoint, through m: CATransform3D) -> Bool {
        let x = Double(point.x), y = Double(point.y)
        let w = x * Double(m.m14) + y * Double(m.m24) + Double(m.m44)
        let py = (x * Double(m.m12) + y * Double(m.m22) + Double(m.m42)) / w
        guard w > 0, py.isFinite else { return false }
        top = min(top ?? py, py)
        bottom = max(bottom ?? py, py)
        return true
    }
}
