import Foundation
import LaminaCore
import LaminaRaster

/// Limits that keep offscreen work bounded whatever the scene.
package struct RenderPlannerOptions: Hashable, Sendable {
    /// The largest side of an offscreen surface, in pixels.
    public var maxSurfaceSide = 8192
    /// The largest area of an offscreen surface, in pixels (64 MiB of
    /// RGBA8): a layer seen at a huge scale is drawn at a lower resolution
    /// rather than making a picture no backend could hold.
    public var maxSurfacePixels = 16 * 1024 * 1024
    /// The largest side of an image a backend is handed: larger images
    /// (a 40000 x 400 strip fits the scene format's pixel limit) are
    /// averaged down to fit, as every GPU has a texture size limit (8192 is
    /// within what any GLES 3 GPU worth its name takes).
    public var maxImageSide = 8192
    /// Curves are flattened to within this many pixels of the true curve.
    /// 0.05: at 0.2 (and at 0.1) thin curved strokes' antialiasing differed
    /// from Apple's Core Animation enough to fail its pictures (see
    /// docs/lottie.md); the finer chords cost up to a fifth more on scenes
    /// made of curves (docs/benchmarks.md).
    public var curveTolerance = 0.05
    /// What one frame may ask for: the canvas, surfaces alive at once, depth
    /// fragments, path segments, draw commands.
    public var budget = RenderBudget.default
    /// Whether each offscreen surface is drawn just before the draw that
    /// samples it (`RenderPlan.drawSurfacesWhereUsed`), holding fewer at
    /// once, rather than in the order planned, where a layer draws all its
    /// sublayers' surfaces back in one pass. A backend that pays for each
    /// pass (the GL backend resolves a multisampled tile at the end of
    /// every one) turns it off; a plan that would hold more than the budget
    /// allows is drawn where used all the same.
    public var drawsSurfacesWhereUsed = true
    /// Whether the backend fills a path through another path's coverage
    /// (`PathFillDraw.mask`): a layer whose one path is masked by a mask of
    /// one path is then one draw, not a surface for the layer, one for its
    /// mask and a masked composite (a Lottie track matte or mask over a
    /// shape). The CPU backend does; off by default.
    public var fillsMaskedPaths = false
    /// The defaults: a budget of `RenderBudget.default`, curves within 0.05 pixels.
    public init() {}
}

/// Turns a frozen layer tree into a `RenderPlan`: Core Animation's semantics
/// in one place, for every backend.
///
/// Every ordinary layer composites its sublayers as one 3D scene, depth
/// sorted (with planes split where they cut each other), and flattens it into
/// its own plane: a sublayer's matrix to the target is
/// `sublayer→layer (3D) * flatten * layer→target`. Transform layers add
/// nothing of their own: their sublayers join the enclosing scene. Group
/// opacity, masks, `masksToBounds` and shadows draw the layer into an
/// offscreen surface first, in its own 2D coordinates, and then draw that
/// surface as one textured polygon.
package struct RenderPlanner: Sendable {
    /// Tolerances, limits and the budget.
    public var options: RenderPlannerOptions
    /// The contours of paths flattened and stroked by earlier plans, which
    /// later ones reuse. Shared by the copies of this planner.
    public var outlines: OutlineCache

    /// A planner with `options`, keeping its contours in `outlines` (a cache
    /// of its own unless one is given).
    public init(options: RenderPlannerOptions = RenderPlannerOptions(), outlines: OutlineCache = OutlineCache()) {
        self.options = options; self.outlines = outlines
    }

    /// The plan for `root` on `canvas`.
    /// - Throws: `RenderRefusal`, naming the layer, when the frame would ask
    ///   for more than `options.budget` allows: checked here, before any
    ///   pixel is allocated.
    public func plan(_ root: RenderLayer, canvas: RenderCanvas) throws(RenderRefusal) -> RenderPlan {
        try options.budget.check(canvas)
        let builder = PlanBuilder(options: options, outlines: outlines)
        builder.viewport = CGRect(x: 0, y: 0, width: canvas.pixelWidth, height: canvas.pixelHeight)
        var commands: [DrawCommand] = []
        let matrix = root.transformToSuperlayer.concatenating(canvas.pointsToPixels)
        try builder.emitPlane(root, matrix: matrix, clipping: .none, opacity: 1, tint: nil, into: &commands)
        var plan = RenderPlan(width: canvas.pixelWidth, height: canvas.pixelHeight)
        plan.surfaces = builder.surfaces
        plan.images = builder.images
        // The plan's own lists, held nowhere else, so that the steps below
        // change them in place rather than copy them first.
        var passes = builder.passes
        builder.passes = []
        passes.append(RenderPass(target: .output, commands: consume commands))
        plan.passes = consume passes
        plan.removeUndrawableCommands()
        plan.dropOccludedCommands()
        plan.computeSurfaceLifetimes()
        if options.drawsSurfacesWhereUsed || plan.peakSurfacePixels > options.budget.surfacePixels {
            plan.drawSurfacesWhereUsed()
            plan.computeSurfaceLifetimes()
        }
        try builder.checkPeakSurfacePixels(of: plan)
        return plan
    }
}

/// One member of a 3D scene: an ordinary layer with its matrix into the
/// scene's (the flattening layer's) local space.
struct SceneItem {
    var layer: RenderLayer
    var matrix: CATransform3D
    var opacity: Double
    var tint: RGBA?
}

/// One plan being made: the surfaces, images and passes so far, and the work
/// counted against the budget. Its stages live beside it, one file each:
/// layers as planes (`PlanBuilder+Planes`), the depth-sorted 3D scene of a
/// layer's sublayers (`+DepthOrder`), extents and clipping (`+Clipping`),
/// and offscreen surfaces (`+Surfaces`).
final class PlanBuilder {
    /// How far beyond the target, in pixels, drawn geometry may reach.
    static let guardBand = 4.0

    let options: RenderPlannerOptions
    /// Where paths' contours are found or kept, and this plan's number there.
    let outlines: OutlineCache
    let planNumber: Int
    /// The rect whose corners were asked for last, and its corners.
    var lastCorners: (rect: CGRect, corners: [CGPoint])?
    var surfaces: [SurfaceDescription] = []
    var images: [CGImage] = []
    var passes: [RenderPass] = []
    /// The pixel rect of the target being drawn into: offscreen work is
    /// limited to what can show in it.
    var viewport: CGRect = .zero
    var imageIndex: [ObjectIdentifier: Int] = [:]
    /// Work counted against the budget so far.
    var planeCount = 0
    var pathSegments = 0
    var depthFragments = 0

    init(options: RenderPlannerOptions, outlines: OutlineCache = OutlineCache()) {
        self.options = options; self.outlines = outlines
        planNumber = outlines.beginPlan()
    }

    /// The corners of `rect`, from the cache when an earlier draw or plan
    /// made them. Consecutive draws of one rect (a grid of equal cells) skip
    /// even the lookup.
    func corners(of rect: CGRect) -> [CGPoint] {
        if let last = lastCorners, last.rect == rect { return last.corners }
        let corners = outlines.corners(of: rect, plan: planNumber)
        lastCorners = (rect, corners)
        return corners
    }

    /// `fill`'s contours at `tolerance` with their box, from the cache when
    /// an earlier plan made them.
    func contours(of fill: FillContent, tolerance: Double) -> FlatOutline {
        outlines.contours(of: fill.outline, tolerance: tolerance, plan: planNumber)
    }

    /// Refuses the plan when its offscreen surfaces alive at one time would
    /// hold more pixels than the budget, naming the layer whose surface
    /// crossed it.
    func checkPeakSurfacePixels(of plan: RenderPlan) throws(RenderRefusal) {
        let budget = options.budget.surfacePixels
        try plan.forEachSurfaceAllocation { (i: Int, live: Int) throws(RenderRefusal) in
            guard live > budget else { return }
            let d = plan.surfaces[i]
            throw RenderRefusal(at: d.layer, "its \(d.purpose) needs a \(d.width) x \(d.height) surface, and the surfaces alive at once would hold \(live) pixels, over the budget of \(budget)")
        }
    }

    func countPlane(at path: LayerPath) throws(RenderRefusal) {
        planeCount += 1
        if planeCount > options.budget.drawCommands / 4 {
            throw RenderRefusal(at: path, "the frame would draw layers more than \(options.budget.drawCommands / 4) times (depth sorting splits and replicators multiply them; the budget is \(options.budget.drawCommands) draw commands)")
        }
    }

    func countSegments(_ contours: [[CGPoint]], at path: LayerPath) throws(RenderRefusal) {
        pathSegments += contours.reduce(0) { $0 + $1.count }
        if pathSegments > options.budget.pathSegments {
            throw RenderRefusal(at: path, "the frame's paths would have more than \(options.budget.pathSegments) line segments once flattened and dashed (the budget)")
        }
    }
}
