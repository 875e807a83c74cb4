import Foundation
import LaminaCore
import LaminaRaster

/// What a backend implements: the plan's few primitives on surfaces of its
/// own. Everything else (the order of passes, which surfaces live when, what
/// a draw samples, checking the plan, deadlines, errors) is `PlanWalker`'s,
/// once for every backend, as Chromium's `DirectRenderer` walks render passes
/// for both its GL and its software renderer.
///
/// A backend conforming to this and to `Renderer` gets `render(_:deadline:)`
/// for free:
///
/// ```swift
/// final class MyRenderer: Renderer, SurfacePainter {
///     let name = "mine"
///     func makeSurface(width: Int, height: Int, cleared: Bool) throws -> MySurface { ... }
///     // ... the other primitives
/// }
/// let image = try MyRenderer().render(plan)   // walked by PlanWalker
/// ```
package protocol SurfacePainter: AnyObject {
    /// A picture the backend draws into: the output or an offscreen surface.
    associatedtype Surface
    /// Something the backend samples: a finished surface or an image.
    associatedtype Texture

    /// A surface of this many pixels (both at least 1): transparent, or,
    /// unless `cleared`, holding whatever the backend's memory held (the
    /// pass's first draw covers every pixel, `RenderPass.firstDrawCovers`).
    func makeSurface(width: Int, height: Int, cleared: Bool) throws -> Surface
    /// A finished surface, to sample.
    func texture(of surface: Surface) throws -> Texture
    /// A plan image, to sample. The walker asks once per image per frame;
    /// a backend may keep what it made for later frames.
    func texture(of image: CGImage) throws -> Texture

    /// Fills `draw.polygon` (anti-aliased edges) keeping the pixels that
    /// `draw.cuts` own, with its fill, coverage and opacity, source-over.
    /// `textures` holds every texture the fill names.
    func drawPolygon(_ draw: PolygonDraw, textures: TextureTable<Texture>, into target: inout Surface) throws
    /// Fills the path's contours under its fill rule, keeping the pixels its
    /// cuts own, source-over. Its clip planes are already applied.
    func fillPath(_ draw: PathFillDraw, into target: inout Surface) throws
    /// Replaces `target` with `source`'s alpha blurred as `blur` says, in
    /// white (`DrawCommand.blurMask`). `source` and `target` are the same size.
    func blurMask(_ source: Texture, blur: BlurMethod, into target: inout Surface) throws
    /// Replaces `target` with `source` through `filter` (`DrawCommand.filter`).
    /// `source` and `target` are the same size.
    func filter(_ source: Texture, _ filter: SurfaceFilter, into target: inout Surface) throws
    /// Replaces `copy` (the region's size) with the pixels of `region` of
    /// `source`, a surface being drawn (a backdrop, `DrawCommand.backdrop`).
    func copy(_ region: PixelRect, of source: Surface, into copy: inout Surface) throws
    /// The surface will not be used again this frame.
    func release(_ surface: Surface)
    /// The finished output as premultiplied RGBA8, top row first.
    func image(of output: Surface) throws -> CGImage
    /// The frame is over (every surface released): a backend ages its caches.
    func endFrame()
    /// Draws `steps`, a run of a pass's commands between blurs, in order.
    /// The default hands each to `drawPolygon` or `fillPath`, checking
    /// `deadline` before each; a painter may instead spread the run's work
    /// over cores (the CPU rasterizes the draws' coverage side by side, then
    /// paints bands of rows, every draw in each band), as long as the
    /// picture is what drawing them one by one gives.
    func draw(_ steps: [DrawStep<Texture>], into target: inout Surface, deadline: RenderDeadline?) throws
}

extension SurfacePainter {
    /// One by one.
    public func draw(_ steps: [DrawStep<Texture>], into target: inout Surface, deadline: RenderDeadline?) throws {
        try drawOneByOne(steps, into: &target, deadline: deadline)
    }

    /// Each step handed to `drawPolygon` or `fillPath` in order, checking
    /// `deadline` before each: the default `draw`, for a painter that draws
    /// its own way around it (GL, tile by tile) to call.
    public func drawOneByOne(_ steps: [DrawStep<Texture>], into target: inout Surface, deadline: RenderDeadline?) throws {
        for step in steps {
            try deadline?.check()
            switch step {
            case .polygon(let draw, let textures): try drawPolygon(draw, textures: textures, into: &target)
            case .path(let draw): try fillPath(draw, into: &target)
            }
        }
    }
}

/// A painter that draws a frame over the picture of the frame before,
/// redrawing only the rows that changed (`PlanDamage`): an animation's
/// frames in order, where most of the picture stays as it was.
package protocol PartialRedrawPainter: SurfacePainter {
    /// Makes `rows` of `surface` transparent, every other row left as it
    /// is; within them, only `columns` may hold pixels that are not.
    func clear(_ rows: RowSpans, columns: Range<Int>, of surface: inout Surface)
    /// Draws `steps` as `draw(_:into:deadline:)` does, but changes only
    /// `rows` of `target`: there, the bytes drawing them whole gives.
    func draw(_ steps: [DrawStep<Texture>], into target: inout Surface, within rows: RowSpans, deadline: RenderDeadline?) throws
}

/// A polygon or path command of a pass, with the textures it samples ready:
/// what `SurfacePainter.draw(_:into:deadline:)` draws.
package enum DrawStep<Texture> {
    case polygon(PolygonDraw, TextureTable<Texture>)
    case path(PathFillDraw)
}

/// The textures one draw samples, looked up by the plan's names.
package struct TextureTable<Texture> {
    private var entries: [TextureSource: Texture] = [:]

    init() {}

    mutating func insert(_ texture: Texture, for source: TextureSource) { entries[source] = texture }

    /// The texture for `source`; the walker has put every texture the draw
    /// names here, so a miss is a bug in the walker, reported as a bad plan.
    public subscript(_ source: TextureSource) -> Texture {
        get throws(InvalidRenderPlan) {
            guard let texture = entries[source] else { throw InvalidRenderPlan("a draw samples \(source), which was not made ready") }
            return texture
        }
    }
}

/// A plan that breaks the promises `RenderPlan` makes (a pass for a surface
/// that does not exist, a surface sampled before it is drawn or after it is
/// released): a bug in whatever made the plan, told in one text for every
/// backend.
package struct InvalidRenderPlan: Error, Equatable, CustomStringConvertible {
    /// What the plan broke.
    public var reason: String
    /// An error that says `reason`.
    public init(_ reason: String) { self.reason = reason }
    /// "invalid render plan: " and the reason.
    public var description: String { "invalid render plan: \(reason)" }
}

/// Walks a plan's passes in order on a `SurfacePainter`: makes each pass's
/// surface, hands it each command with its textures ready, releases the
/// surfaces no later pass samples, and reads back the output.
package enum PlanWalker {
    /// Draws `plan` with `painter` and returns the output.
    /// - Throws: `InvalidRenderPlan` before anything is drawn when the plan
    ///   breaks its promises, `RenderInterruption` past `deadline`, or the
    ///   painter's error.
    public static func render<Painter: SurfacePainter>(
        _ plan: RenderPlan, with painter: Painter, deadline: RenderDeadline?
    ) throws -> CGImage {
        var frame = Frame<Painter>(plan: plan, painter: painter)
        defer { frame.finish() }
        try frame.draw(deadline: deadline)
        guard let output = frame.output else { throw InvalidRenderPlan("no pass targets the output") }
        return try painter.image(of: output)
    }

    /// Draws `plan` with `painter` and hands back the output surface itself,
    /// the caller's to release: a picture to draw the next frame over.
    public static func drawOutput<Painter: SurfacePainter>(
        _ plan: RenderPlan, with painter: Painter, deadline: RenderDeadline?
    ) throws -> Painter.Surface {
        var frame = Frame<Painter>(plan: plan, painter: painter)
        defer { frame.finish() }
        try frame.draw(deadline: deadline)
        guard let output = frame.output.take() else { throw InvalidRenderPlan("no pass targets the output") }
        return output
    }

    /// Draws `plan` over `previous`, the output of the plan `damage` was
    /// found from (`PlanDamage(from:to:)`), and hands it back, the caller's
    /// to release: its damaged rows cleared and redrawn, the others as they
    /// were, which makes it the picture `drawOutput` gives. On an error,
    /// `previous` is released.
    public static func redraw<Painter: PartialRedrawPainter>(
        _ plan: RenderPlan, over previous: consuming Painter.Surface, damage: PlanDamage, with painter: Painter, deadline: RenderDeadline?
    ) throws -> Painter.Surface {
        var frame = Frame<Painter>(plan: plan, painter: painter)
        frame.redraw = Redraw(damage: damage, previous: previous,
                              clear: { painter.clear(damage.rows, columns: damage.clearedColumns, of: &$0) },
                              draw: { try painter.draw($0, into: &$1, within: damage.rows, deadline: $2) })
        defer { frame.finish() }
        try frame.draw(deadline: deadline)
        guard let output = frame.output.take() else { throw InvalidRenderPlan("no pass targets the output") }
        return output
    }

    /// A frame drawn over the last one: what it redraws, and the painter's
    /// ways of clearing and drawing the damaged rows alone.
    private struct Redraw<Painter: SurfacePainter> {
        let damage: PlanDamage
        /// The last frame's output, until the pass that makes the output takes it.
        var previous: Painter.Surface?
        let clear: (inout Painter.Surface) -> Void
        let draw: ([DrawStep<Painter.Texture>], inout Painter.Surface, RenderDeadline?) throws -> Void
    }

    /// One frame's live surfaces and image textures.
    private struct Frame<Painter: SurfacePainter> {
        let plan: RenderPlan
        let painter: Painter
        var surfaces: [Int: Painter.Surface] = [:]
        var images: [Int: Painter.Texture] = [:]
        var output: Painter.Surface?
        /// Set when the frame is drawn over the last one.
        var redraw: Redraw<Painter>?

        init(plan: RenderPlan, painter: Painter) { self.plan = plan; self.painter = painter }

        /// Runs every pass, the plan checked first.
        mutating func draw(deadline: RenderDeadline?) throws {
            try plan.checkStructure()
            if let redraw, redraw.damage.redraws.count != plan.passes.count {
                throw InvalidRenderPlan("a frame's damage was found for another plan")
            }
            for (p, pass) in plan.passes.enumerated() {
                try deadline?.check()
                if let redraw, redraw.damage.skipsPass[p] {
                    // A surface no redrawn draw samples: not drawn, but
                    // what this pass would have been the last to use is done with.
                    release(pass.releasedSurfaces)
                    continue
                }
                try run(pass, redrawing: redraw?.damage.redraws[p], deadline: deadline)
            }
        }

        /// `redrawing`: for a pass into the output drawn over the last
        /// frame, which of its commands reach the damaged rows.
        mutating func run(_ pass: RenderPass, redrawing: [Bool]?, deadline: RenderDeadline?) throws {
            var target: Painter.Surface
            if let redrawing, !pass.continuesTarget {
                // Taken, not bound to a name: the target must be the pixels' only holder.
                guard redraw?.previous != nil else { throw InvalidRenderPlan("a frame makes its output twice") }
                target = redraw!.previous.take()!
                // (Not where the first draw, redrawn with the rest, paints every pixel opaque.)
                if let redraw, !pass.firstDrawCovers { redraw.clear(&target) }
            } else if pass.continuesTarget {
                // Taken out while it is drawn, so that the painter holds its only reference.
                let existing: Painter.Surface?
                switch pass.target {
                case .output:
                    existing = output
                    output = nil
                case .offscreen(let i):
                    existing = surfaces.removeValue(forKey: i)
                }
                guard let existing else { throw InvalidRenderPlan("a pass continues \(pass.target), which is not drawn yet or already released") }
                target = existing
            } else {
                let size = plan.size(of: pass.target)
                target = try painter.makeSurface(width: max(1, size.width), height: max(1, size.height), cleared: !pass.firstDrawCovers)
            }
            do {
                // Runs of polygons and paths go to the painter whole; a blur
                // needs everything before it drawn.
                var run: [DrawStep<Painter.Texture>] = []
                run.reserveCapacity(pass.commands.count)
                for (c, command) in pass.commands.enumerated() {
                    if let redrawing, !redrawing[c] { continue }
                    switch command {
                    case .polygon(let draw):
                        run.append(.polygon(draw, try textures(for: command)))
                    case .path(let draw):
                        run.append(.path(draw))
                    case .blurMask(let source, _) where source == pass.target, .filter(let source, _) where source == pass.target:
                        throw InvalidRenderPlan("a pass filters its own target")
                    case .filter(let source, let filter):
                        try painter.draw(run, into: &target, deadline: deadline)
                        run.removeAll(keepingCapacity: true)
                        try deadline?.check()
                        try painter.filter(try texture(for: .surface(source)), filter, into: &target)
                    case .blurMask(let source, let blur):
                        try painter.draw(run, into: &target, deadline: deadline)
                        run.removeAll(keepingCapacity: true)
                        try deadline?.check()
                        try painter.blurMask(try texture(for: .surface(source)), blur: blur, into: &target)
                    case .backdrop(let backdrop):
                        // What is under the layer must be drawn before it is copied.
                        try painter.draw(run, into: &target, deadline: deadline)
                        run.removeAll(keepingCapacity: true)
                        try drawBackdrop(backdrop, onto: &target, deadline: deadline)
                    }
                }
                if redrawing != nil, let redraw {
                    try redraw.draw(run, &target, deadline)
                } else {
                    try painter.draw(run, into: &target, deadline: deadline)
                }
            } catch {
                painter.release(target)
                throw error
            }
            switch pass.target {
            case .output:
                if let old = output { painter.release(old) }
                output = target
            case .offscreen(let i):
                if let old = surfaces[i] { painter.release(old) }
                surfaces[i] = target
            }
            // Surfaces no later pass samples are released now: a frame holds
            // only what it still needs (the plan's budget counts the same).
            release(pass.releasedSurfaces)
        }

        private mutating func release(_ released: [Int]) {
            for i in released {
                if let done = surfaces.removeValue(forKey: i) { painter.release(done) }
            }
        }

        /// Copies the backdrop's region of `target`, filters it, and draws
        /// it back; its surfaces are freed before this returns.
        private func drawBackdrop(_ backdrop: BackdropDraw, onto target: inout Painter.Surface,
                                  deadline: RenderDeadline?) throws {
            try deadline?.check()
            let region = backdrop.region
            // The surface in hand is this command's to release, however it ends.
            var current = try painter.makeSurface(width: region.width, height: region.height, cleared: true)
            defer { painter.release(current) }
            try painter.copy(region, of: target, into: &current)
            for (_, filter) in backdrop.filters {
                try deadline?.check()
                var next = try painter.makeSurface(width: region.width, height: region.height, cleared: true)
                do {
                    try painter.filter(try painter.texture(of: current), filter, into: &next)
                } catch {
                    painter.release(next)
                    throw error
                }
                swap(&current, &next)
                painter.release(next)
            }
            var textures = TextureTable<Painter.Texture>()
            textures.insert(try painter.texture(of: current), for: .surface(.offscreen(backdrop.result)))
            try painter.draw([.polygon(backdrop.draw, textures)], into: &target, deadline: deadline)
        }

        private mutating func textures(for command: DrawCommand) throws -> TextureTable<Painter.Texture> {
            var table = TextureTable<Painter.Texture>()
            guard case .polygon(let draw) = command else { return table }
            for source in draw.fill.textureSources { table.insert(try texture(for: source), for: source) }
            return table
        }

        private mutating func texture(for source: TextureSource) throws -> Painter.Texture {
            switch source {
            case .surface(.output):
                throw InvalidRenderPlan("a draw samples the output while it is drawn")
            case .surface(.offscreen(let i)):
                guard let surface = surfaces[i] else {
                    throw InvalidRenderPlan("a draw samples surface \(i), which is not drawn yet or already released")
                }
                return try painter.texture(of: surface)
            case .image(let id):
                if let texture = images[id.index] { return texture }
                let texture = try painter.texture(of: plan.images[id.index])
                images[id.index] = texture
                return texture
            }
        }

        mutating func finish() {
            for surface in surfaces.values { painter.release(surface) }
            if let output { painter.release(output) }
            if let previous = redraw?.previous.take() { painter.release(previous) }
            surfaces = [:]; output = nil; images = [:]
            painter.endFrame()
        }
    }
}

extension Renderer where Self: SurfacePainter {
    /// Walks the plan with `PlanWalker`.
    package func render(_ plan: RenderPlan, deadline: RenderDeadline?) throws -> CGImage {
        try PlanWalker.render(plan, with: self, deadline: deadline)
    }
}

extension RenderPlan {
    /// The size in pixels of a pass's target; the output's for a surface
    /// the plan does not have (which `checkStructure` refuses before any
    /// pass is drawn).
    func size(of target: SurfaceID) -> (width: Int, height: Int) {
        guard case .offscreen(let i) = target, surfaces.indices.contains(i) else { return (width, height) }
        return (surfaces[i].width, surfaces[i].height)
    }

    /// Checks what a backend relies on before anything is drawn: a size,
    /// passes for surfaces that exist, images that exist.
    package func checkStructure() throws(InvalidRenderPlan) {
        guard width > 0, height > 0 else { throw InvalidRenderPlan("a picture of \(width)x\(height) pixels has nothing to draw") }
        // Which targets hold a drawing: the output, then each surface by
        // index (a list, not a set: planned every frame, and a set's
        // storage cost more than the rest of the check).
        var outputDrawn = false
        var surfaceDrawn = [Bool](repeating: false, count: surfaces.count)
        for (p, pass) in passes.enumerated() {
            let drawnBefore: Bool
            switch pass.target {
            case .output:
                drawnBefore = outputDrawn
                outputDrawn = true
            case .offscreen(let i):
                guard surfaces.indices.contains(i) else { throw InvalidRenderPlan("pass \(p) targets unknown surface \(i)") }
                guard surfaces[i].width > 0, surfaces[i].height > 0 else {
                    throw InvalidRenderPlan("pass \(p) targets surface \(i) of \(surfaces[i].width)x\(surfaces[i].height) pixels")
                }
                drawnBefore = surfaceDrawn[i]
                surfaceDrawn[i] = true
            }
            if pass.continuesTarget, !drawnBefore {
                throw InvalidRenderPlan("pass \(p) continues \(pass.target), which no earlier pass drew")
            }
            for i in pass.releasedSurfaces where surfaceDrawn.indices.contains(i) { surfaceDrawn[i] = false }
            // (By index: each draw asked where it lies, not copied out.)
            for c in pass.commands.indices {
                if case .backdrop(let backdrop) = pass.commands[c] {
                    let size = self.size(of: pass.target), r = backdrop.region
                    guard r.width > 0, r.height > 0, r.x >= 0, r.y >= 0, r.x + r.width <= size.width, r.y + r.height <= size.height else {
                        throw InvalidRenderPlan("pass \(p) copies a backdrop of \(r) from a \(size.width)x\(size.height) target")
                    }
                    for i in backdrop.surfaces {
                        guard surfaces.indices.contains(i), surfaces[i].width == r.width, surfaces[i].height == r.height else {
                            throw InvalidRenderPlan("pass \(p)'s backdrop names surface \(i), which is not of its region's size")
                        }
                    }
                    guard backdrop.draw.fill.textureSources == AtMostTwo(.surface(.offscreen(backdrop.result))) else {
                        throw InvalidRenderPlan("pass \(p)'s backdrop draws something other than its result")
                    }
                    continue
                }
                for id in pass.commands[c].sampledImages where !images.indices.contains(id.index) {
                    throw InvalidRenderPlan("pass \(p) names unknown image \(id.index)")
                }
            }
        }
    }
}
