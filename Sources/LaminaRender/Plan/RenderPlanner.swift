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
    /// The defaults: a budget of `RenderBudget.default`, curves within 0.2 pixels.
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
        plan.passes = builder.passes + [RenderPass(target: .output, commands: commands)]
        plan.removeUndrawableCommands()
        plan.computeSurfaceLifetimes()
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

final class PlanBuilder {
    /// How far beyond the target, in pixels, drawn geometry may reach.
    static let guardBand = 4.0

    let options: RenderPlannerOptions
    /// Where paths' contours are found or kept, and this plan's number there.
    let outlines: OutlineCache
    let planNumber: Int
    /// The rect whose corners were asked for last, and its corners.
    private var lastCorners: (rect: CGRect, corners: [CGPoint])?
    var surfaces: [SurfaceDescription] = []
    var images: [CGImage] = []
    var passes: [RenderPass] = []
    /// The pixel rect of the target being drawn into: offscreen work is
    /// limited to what can show in it.
    var viewport: CGRect = .zero
    private var imageIndex: [ObjectIdentifier: Int] = [:]
    /// Work counted against the budget so far.
    private var planeCount = 0
    private var pathSegments = 0
    var depthFragments = 0

    init(options: RenderPlannerOptions, outlines: OutlineCache = OutlineCache()) {
        self.options = options; self.outlines = outlines
        planNumber = outlines.beginPlan()
    }

    /// The corners of `rect`, from the cache when an earlier draw or plan
    /// made them. Consecutive draws of one rect (a grid of equal cells) skip
    /// even the lookup.
    private func corners(of rect: CGRect) -> [CGPoint] {
        if let last = lastCorners, last.rect == rect { return last.corners }
        let corners = outlines.corners(of: rect, plan: planNumber)
        lastCorners = (rect, corners)
        return corners
    }

    /// `fill`'s contours at `tolerance`, from the cache when an earlier plan
    /// made them.
    private func contours(of fill: FillContent, tolerance: Double) -> [[CGPoint]] {
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

    private func countPlane(at path: LayerPath) throws(RenderRefusal) {
        planeCount += 1
        if planeCount > options.budget.drawCommands / 4 {
            throw RenderRefusal(at: path, "the frame would draw layers more than \(options.budget.drawCommands / 4) times (depth sorting splits and replicators multiply them; the budget is \(options.budget.drawCommands) draw commands)")
        }
    }

    private func countSegments(_ contours: [[CGPoint]], at path: LayerPath) throws(RenderRefusal) {
        pathSegments += contours.reduce(0) { $0 + $1.count }
        if pathSegments > options.budget.pathSegments {
            throw RenderRefusal(at: path, "the frame's paths would have more than \(options.budget.pathSegments) line segments once flattened and dashed (the budget)")
        }
    }

    // MARK: Layers as planes

    /// What limits a layer's draws in its local space: `clips` cut its
    /// geometry with anti-aliased edges (the near plane of each level), and
    /// `cuts` keep one piece of a split draw, pixel-exactly
    /// (`PolygonDraw.cuts`).
    struct Clipping {
        var clips: [HalfPlane] = []
        var cuts: [HalfPlane] = []
        static let none = Clipping()

        func adding(_ clip: HalfPlane) -> Clipping {
            // An affine layer's near plane keeps everything: a flat scene
            // gathers no clips (and allocates no list of them per layer).
            if clip.keepsEverything { return self }
            var more = clips
            more.reserveCapacity(clips.count + 1)
            more.append(clip)
            return Clipping(clips: more, cuts: cuts)
        }
        func cut(by more: [HalfPlane]) -> Clipping {
            more.isEmpty ? self : Clipping(clips: clips, cuts: cuts.isEmpty ? more : cuts + more)
        }
        /// `clips` and the planes of `viewport`, in one new array.
        func clips(within viewport: (HalfPlane, HalfPlane, HalfPlane, HalfPlane)) -> [HalfPlane] {
            var planes = clips
            planes.reserveCapacity(clips.count + 4)
            planes.append(viewport.0)
            planes.append(viewport.1)
            planes.append(viewport.2)
            planes.append(viewport.3)
            return planes
        }
        /// The same limits in a sublayer's space, `h` being its plane map.
        func pulledBack(through h: PlaneHomography) -> Clipping {
            Clipping(clips: clips.map(h.pullBack), cuts: cuts.map(h.pullBack))
        }
    }

    /// Draws an ordinary layer, its content and its flattened sublayers, with
    /// `matrix` from its local space to the target.
    func emitPlane(_ layer: RenderLayer, matrix: CATransform3D, clipping: Clipping, opacity: Double, tint: RGBA?, into commands: inout [DrawCommand]) throws(RenderRefusal) {
        guard !layer.isHidden, layer.kind == .ordinary else { return }
        let alpha = opacity * layer.opacity
        guard alpha > 0 else { return }
        try countPlane(at: layer.path)
        let tint = combine(tint, layer.tint)
        let clippingWithNear = clipping.adding(matrix.nearPlane)

        let hasShadow = (layer.shadow?.opacity ?? 0) > 0
        let clipsContent = layer.masksToBounds && (!layer.sublayers.isEmpty || !layer.content.isEmpty)
        // Without group opacity the fade reaches every draw on its own:
        // `alpha` is passed down to the content and the sublayers below.
        let groupOpacity = layer.opacity < 1 && layer.allowsGroupOpacity && drawsOverlap(layer)
        guard hasShadow || clipsContent || layer.mask != nil || groupOpacity else {
            try emitContent(layer, matrix: matrix, clipping: clippingWithNear, opacity: alpha, tint: tint, into: &commands)
            return
        }

        // Offscreen: the layer in its own 2D coordinates, at the resolution
        // the target sees it, and only as much of it as can show: what lies
        // outside the target (with room for a shadow to blur into view) is
        // never drawn.
        let whole = layer.masksToBounds ? layer.bounds : contentExtent(layer)
        guard whole.width > 0, whole.height > 0 else { return }
        var margin = 2.0
        if hasShadow, let shadow = layer.shadow {
            let reach = 3 * shadow.radius + Double(hypot(shadow.offset.width, shadow.offset.height))
            margin += reach * matrix.maxPixelScale(over: whole)
        }
        guard let extent = visiblePart(of: whole, matrix: matrix, margin: margin) else { return }
        let scale = surfaceScale(matrix: matrix, extent: extent)
        let purpose: SurfacePurpose = layer.mask != nil ? .mask : clipsContent ? .clip : hasShadow ? .shadow : .groupOpacity
        var content = try renderToSurface(extent: extent, scale: scale, for: layer.path, purpose) { m, cmds throws(RenderRefusal) in
            try self.emitContent(layer, matrix: m, clipping: .none, opacity: 1, tint: nil, into: &cmds)
        }
        // The surface's whole pixels cover a little more than `extent`: its
        // texture maps onto this rect, so nothing is stretched to fit.
        let contentRect = content.rect
        if layer.masksToBounds && layer.isRounded {
            let rounded = try renderToSurface(extent: extent, scale: scale, for: layer.path, .roundedClip) { m, cmds in
                cmds.append(.polygon(PolygonDraw(
                    matrix: m, polygon: PolygonClipper.clip(self.paddedForCoverage(layer.bounds, matrix: m), to: [m.nearPlane]),
                    fill: .color(.white), coverage: RoundedRectCoverage(rect: layer.bounds, radii: layer.cornerRadii))))
            }
            content = try maskSurface(content, by: rounded, extent: extent, scale: scale, for: layer.path, .roundedClip)
        }
        if let mask = layer.mask?.value {
            let maskSurface = try renderToSurface(extent: extent, scale: scale, for: mask.path, .mask) { m, cmds throws(RenderRefusal) in
                try self.emitPlane(mask, matrix: mask.transformToSuperlayer.concatenating(m), clipping: .none, opacity: 1, tint: nil, into: &cmds)
            }
            content = try self.maskSurface(content, by: maskSurface, extent: extent, scale: scale, for: layer.path, .mask)
        }
        var area = contentRect
        if hasShadow, let shadow = layer.shadow, alpha < 1 {
            // A translucent layer fades with its shadow as one group: the
            // shadow does not show through the layer's own opaque parts.
            let cast = try shadowSurface(shadow, content: content, scale: scale, for: layer.path)
            let combined = try renderToSurface(extent: contentRect.union(cast.area), scale: scale, for: layer.path, .shadow) { m, cmds in
                cmds.append(.polygon(PolygonDraw(matrix: m, polygon: self.corners(of: cast.area),
                                                 fill: .alphaTint(.surface(cast.surface), localRect: cast.area, color: cast.color))))
                cmds.append(.polygon(PolygonDraw(matrix: m, polygon: self.corners(of: contentRect),
                                                 fill: .texture(.surface(content.id), localRect: contentRect, uvRect: CGRect(x: 0, y: 0, width: 1, height: 1),
                                                                filter: .linear, tint: .white))))
            }
            content = combined
            area = combined.rect
        } else if hasShadow, let shadow = layer.shadow {
            let cast = try shadowSurface(shadow, content: content, scale: scale, for: layer.path)
            emitPolygon(cast.area, matrix: matrix, clipping: clippingWithNear,
                        fill: .alphaTint(.surface(cast.surface), localRect: cast.area, color: tinted(cast.color, tint)),
                        coverage: nil, opacity: alpha, into: &commands)
        }
        emitPolygon(area, matrix: matrix, clipping: clippingWithNear,
                    fill: .texture(.surface(content.id), localRect: area, uvRect: CGRect(x: 0, y: 0, width: 1, height: 1),
                                   filter: .linear, tint: tint ?? .white),
                    coverage: nil, opacity: alpha, into: &commands)
    }

    /// Background, contents, sublayers, border: the layer drawn straight into
    /// the target.
    private func emitContent(_ layer: RenderLayer, matrix: CATransform3D, clipping: Clipping, opacity: Double, tint: RGBA?, into commands: inout [DrawCommand]) throws(RenderRefusal) {
        let rounded = layer.isRounded ? RoundedRectCoverage(rect: layer.bounds, radii: layer.cornerRadii) : nil
        if let background = layer.backgroundColor, background.alpha > 0 {
            emitPolygon(layer.bounds, matrix: matrix, clipping: clipping, fill: .color(tinted(background, tint)),
                        coverage: rounded, opacity: opacity, into: &commands)
        }
        for piece in layer.content {
            switch piece {
            case .image(let content):
                let id = imageID(content.image)
                let layout = ContentsLayout(content, in: layer.bounds)
                // Magnified where a texel covers at least a pixel: pixels per
                // local unit against texels per local unit (the picture may
                // be stretched or squeezed into its rect, whatever its scale).
                let pixelsPerUnit = matrix.maxPixelScale(over: layer.bounds)
                var texelsPerUnit = 0.0
                for q in layout.quads {
                    let across = abs(Double(q.uv.width)) * Double(content.image.width) / Double(q.local.width)
                    let down = abs(Double(q.uv.height)) * Double(content.image.height) / Double(q.local.height)
                    texelsPerUnit = max(texelsPerUnit, across, down)
                }
                let filter = pixelsPerUnit >= texelsPerUnit ? content.magnificationFilter : content.minificationFilter
                let outline = layer.masksToBounds ? layout.rect.intersection(layer.bounds) : layout.rect
                guard !outline.isNull, outline.width > 0, outline.height > 0 else { continue }
                for quad in layout.quads {
                    // Nine parts are one picture: each part keeps its cell of
                    // the whole outline by cuts, so no seam shows between them.
                    emitPolygon(outline, matrix: matrix, clipping: clipping.cut(by: quad.cuts),
                                fill: .texture(.image(id), localRect: quad.local, uvRect: quad.uv, filter: filter, tint: tint ?? .white),
                                coverage: nil, opacity: opacity, into: &commands)
                }
            case .fill(let fill):
                let pixelsPerUnit = max(matrix.maxPixelScale(over: fill.bounds), 1e-6)
                let contours = contours(of: fill, tolerance: options.curveTolerance / pixelsPerUnit)
                guard !contours.isEmpty else { continue }
                try countSegments(contours, at: layer.path)
                commands.append(.path(PathFillDraw(
                    matrix: matrix, contours: contours, evenOdd: fill.evenOdd,
                    color: tinted(fill.color, tint).withAlpha(times: opacity),
                    clipPlanes: clipPlanes(for: fill.bounds, matrix: matrix, clipping: clipping), cuts: clipping.cuts)))
            }
        }
        try emitScene(of: layer, matrix: matrix, clipping: clipping, opacity: opacity, tint: tint, into: &commands)
        if layer.borderWidth > 0, layer.borderColor.alpha > 0 {
            emitPolygon(layer.bounds, matrix: matrix, clipping: clipping, fill: .color(tinted(layer.borderColor, tint)),
                        coverage: RoundedRectCoverage(rect: layer.bounds, radii: layer.cornerRadii, borderWidth: layer.borderWidth),
                        opacity: opacity, into: &commands)
        }
    }

    /// Draws `rect` (its corners; with `coverage`, a rect a pixel larger,
    /// whose soft edge the coverage draws) cut by the clips and the target.
    private func emitPolygon(_ rect: CGRect, matrix: CATransform3D, clipping: Clipping, fill: PolygonFill, coverage: RoundedRectCoverage?, opacity: Double, into commands: inout [DrawCommand]) {
        // The coverage function anti-aliases the rect's edges itself; a
        // polygon one pixel larger lets it, instead of cutting the soft
        // edge off with a hard (or multisampled) polygon edge. (One list
        // of corners either way: this runs for every layer's background.)
        let polygon = coverage.map { paddedForCoverage($0.rect, matrix: matrix) } ?? corners(of: rect)
        // Cut to the target too: geometry reaching towards the eye projects
        // to coordinates far beyond it, which a GPU rasterizes imprecisely.
        let clipped = PolygonClipper.clip(polygon, to: clipping.clips, and: viewportPlanes(matrix, margin: Self.guardBand))
        guard !clipped.isEmpty else { return }
        commands.append(.polygon(PolygonDraw(matrix: matrix, polygon: clipped, fill: fill, coverage: coverage, opacity: opacity,
                                             cuts: clipping.cuts)))
    }

    // MARK: The 3D scene of a layer's sublayers

    /// The ordinary layers that a layer's sublayers contribute to its 3D
    /// scene, in sublayer order, through transform layers.
    func sceneItems(of layer: RenderLayer) -> [SceneItem] {
        var items: [SceneItem] = []
        func gather(_ sublayers: [RenderLayer], into parent: CATransform3D, opacity: Double, tint: RGBA?) {
            for sub in sublayers where !sub.isHidden {
                let m = sub.transformToSuperlayer.concatenating(parent)
                switch sub.kind {
                case .ordinary:
                    items.append(SceneItem(layer: sub, matrix: m, opacity: opacity, tint: tint))
                case .transform:
                    // No group: the opacity reaches each sublayer separately.
                    gather(sub.sublayers, into: m, opacity: opacity * sub.opacity, tint: combine(tint, sub.tint))
                }
            }
        }
        gather(layer.sublayers, into: .identity, opacity: 1, tint: nil)
        return items
    }

    private func emitScene(of layer: RenderLayer, matrix: CATransform3D, clipping: Clipping, opacity: Double, tint: RGBA?, into commands: inout [DrawCommand]) throws(RenderRefusal) {
        let items = sceneItems(of: layer)
        guard !items.isEmpty else { return }
        let budget = options.budget.depthFragments - depthFragments
        let refusal = { () -> RenderRefusal in
            RenderRefusal(at: layer.path, "its sublayers' planes cut each other into more than \(self.options.budget.depthFragments) pieces (the budget for depth sorting)")
        }
        let pieces: [ScenePolygon]
        if let flat = flatSceneOrder(items) {
            // Counted as the sorter counts.
            guard flat.count <= 1 || flat.count <= budget else { throw refusal() }
            pieces = flat
        } else {
            pieces = try DepthSorter.backToFront(sceneOutlines(items), budget: budget, refusal: refusal)
        }
        depthFragments += pieces.count
        for piece in pieces {
            let item = items[piece.item]
            // The scene's cuts of this piece are pixel-exact, so the pieces
            // of one split layer tile it without a seam.
            let itemClipping = clipping.pulledBack(through: item.matrix.planeHomography)
                .cut(by: piece.cuts.map { pullBack($0, through: item.matrix) })
            try emitPlane(item.layer, matrix: item.matrix.concatenating(flatteningMatrix).concatenating(matrix),
                      clipping: itemClipping, opacity: opacity * item.opacity, tint: combine(tint, item.tint), into: &commands)
        }
    }

    /// The scene's items in drawing order, without sorting, when every one
    /// lies in the layer's own plane (its matrix keeps z at 0) wholly in
    /// front of the eye, with a finite extent: a flat interface, the usual
    /// case. Polygons in one plane keep their sublayer order in
    /// `DepthSorter` too, so this is the sorter's answer without the
    /// projected outline it would make of every item. Nil when any item
    /// leaves the plane, and the scene is sorted.
    func flatSceneOrder(_ items: [SceneItem]) -> [ScenePolygon]? {
        var order: [ScenePolygon] = []
        order.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            let m = item.matrix
            guard m.m13 == 0, m.m23 == 0, m.m43 == 0, m.m14 == 0, m.m24 == 0, m.m44 >= nearPlaneW, m.isFinite else { return nil }
            if isCulled(item) { continue }
            let extent = contentExtent(item.layer)
            guard extent.minX.isFinite, extent.minY.isFinite, extent.maxX.isFinite, extent.maxY.isFinite else { return nil }
            order.append(ScenePolygon(points: [], item: index))
        }
        return order
    }

    /// Whether the item is a single-sided layer seen from behind (its
    /// plane map reverses orientation in the scene), which is not drawn.
    private func isCulled(_ item: SceneItem) -> Bool {
        !item.layer.isDoubleSided && item.matrix.planeHomography.determinant < 0
    }

    /// The outlines the depth sorter orders: each item not culled, with
    /// what of it lies in front of the eye, in sublayer order.
    func sceneOutlines(_ items: [SceneItem]) -> [ScenePolygon] {
        var polygons: [ScenePolygon] = []
        for (index, item) in items.enumerated() where !isCulled(item) {
            let outline = projectedOutline(of: item)
            if outline.count >= 3 { polygons.append(ScenePolygon(points: outline, item: index)) }
        }
        return polygons
    }

    /// The item's extent in the scene's projected space: cut at the near
    /// plane, divided by w.
    private func projectedOutline(of item: SceneItem) -> [SIMD3<Double>] {
        func projected(_ p: CGPoint) -> SIMD3<Double> {
            let h = item.matrix.apply(x: p.x, y: p.y)
            let w = Double(h.w)
            return SIMD3(Double(h.x) / w, Double(h.y) / w, Double(h.z) / w)
        }
        let extent = contentExtent(item.layer), near = item.matrix.nearPlane
        let (x0, y0, x1, y1) = (extent.minX, extent.minY, extent.maxX, extent.maxY)
        let corners = (CGPoint(x: x0, y: y0), CGPoint(x: x1, y: y0), CGPoint(x: x1, y: y1), CGPoint(x: x0, y: y1))
        if near.value(at: corners.0) >= 0, near.value(at: corners.1) >= 0, near.value(at: corners.2) >= 0, near.value(at: corners.3) >= 0 {
            // Wholly in front, the usual case: what the clip below would
            // give, without its list of corners in between.
            return [projected(corners.0), projected(corners.1), projected(corners.2), projected(corners.3)]
        }
        return PolygonClipper.clip(extent.cornerPolygon, to: near).map(projected)
    }

    /// A cut in projected scene space as a half-plane of the item's local
    /// space (exact where w > 0).
    private func pullBack(_ plane: ScenePlane, through m: CATransform3D) -> HalfPlane {
        let n = plane.normal, d = plane.offset
        return HalfPlane(
            a: n.x * Double(m.m11) + n.y * Double(m.m12) + n.z * Double(m.m13) + d * Double(m.m14),
            b: n.x * Double(m.m21) + n.y * Double(m.m22) + n.z * Double(m.m23) + d * Double(m.m24),
            c: n.x * Double(m.m41) + n.y * Double(m.m42) + n.z * Double(m.m43) + d * Double(m.m44))
    }

    /// A rect grown by about one target pixel, for drawing with coverage.
    func paddedForCoverage(_ rect: CGRect, matrix: CATransform3D) -> [CGPoint] {
        let scale = matrix.maxPixelScale(over: rect)
        let pad = scale > 0 ? min(1 / scale, Double(max(rect.width, rect.height))) : 0
        return corners(of: rect.insetBy(dx: -pad, dy: -pad))
    }

    // MARK: Extents

    /// Everything a layer draws in its own plane (bounds, contents,
    /// flattened sublayers; not the shadow), limited to a finite box.
    func contentExtent(_ layer: RenderLayer) -> CGRect {
        var extent = layer.bounds
        for piece in layer.content {
            switch piece {
            case .image(let content):
                let layout = ContentsLayout(content, in: layer.bounds)
                if !layout.quads.isEmpty { extent = extent.union(layout.rect) }
            case .fill(let fill):
                extent = extent.union(fill.bounds)
            }
        }
        if layer.masksToBounds { return layer.bounds }
        let limit = layer.bounds.insetBy(dx: -16384, dy: -16384)
        for item in sceneItems(of: layer) where item.layer.kind == .ordinary {
            if let box = item.matrix.projectedBounds(of: contentExtent(item.layer)) { extent = extent.union(box.intersection(limit)) }
        }
        return extent
    }

    /// Whether fading `layer`'s draws one by one would differ from fading
    /// them as a group: when any two of them cover a common point. Without
    /// overlap, each pixel shows at most one draw, and the group's fade is
    /// each draw's fade: no offscreen surface is needed.
    ///
    /// Conservative: a sublayer that is not a single flat draw (it has
    /// sublayers of its own, a border with a background, a shadow, a mask, a
    /// clip) counts as overlapping, as does anything seen through the eye
    /// plane. Boxes are compared in the layer's own plane.
    func drawsOverlap(_ layer: RenderLayer) -> Bool {
        var boxes: [CGRect] = []
        if layer.backgroundColor != nil || layer.borderWidth > 0 {
            if layer.backgroundColor != nil && layer.borderWidth > 0 { return true }
            boxes.append(layer.bounds)
        }
        for piece in layer.content {
            switch piece {
            case .image(let content):
                let layout = ContentsLayout(content, in: layer.bounds)
                if !layout.quads.isEmpty { boxes.append(layout.rect) }
            case .fill:
                // A fill and a stroke of one shape overlap; so may a path's own
                // contours under non-zero winding: never assume otherwise.
                return true
            }
        }
        for item in sceneItems(of: layer) {
            let sub = item.layer
            guard sub.sublayers.isEmpty, sub.mask == nil, sub.shadow == nil, !sub.masksToBounds, sub.content.count <= 1,
                  (sub.backgroundColor == nil || sub.borderWidth == 0),
                  sub.content.isEmpty || (sub.backgroundColor == nil && sub.borderWidth == 0)
            else { return true }
            var corners: [CGPoint] = []
            for p in contentExtent(sub).cornerPolygon {
                let h = item.matrix.apply(x: p.x, y: p.y)
                guard Double(h.w) > 1e-9 else { return true }
                corners.append(CGPoint(x: Double(h.x) / Double(h.w), y: Double(h.y) / Double(h.w)))
            }
            guard let box = CGRect.bounding(corners) else { continue }
            boxes.append(box)
        }
        for i in boxes.indices {
            for j in boxes.indices where j > i {
                let common = boxes[i].intersection(boxes[j])
                if !common.isNull, common.width > 0, common.height > 0 { return true }
            }
        }
        return false
    }

    // MARK: Offscreen surfaces

    /// The part of `rect` (local) whose image lies within the viewport grown
    /// by `margin` pixels and in front of the eye, as a bounding rect; nil
    /// when none does. Each viewport edge is a half-plane of the local plane
    /// (`X >= minX * W` and so on), exact where w > 0.
    func visiblePart(of rect: CGRect, matrix m: CATransform3D, margin: Double) -> CGRect? {
        let v = viewportPlanes(m, margin: margin)
        let edges = [v.0, v.1, v.2, v.3, m.nearPlane]
        guard let box = CGRect.bounding(PolygonClipper.clip(rect.cornerPolygon, to: edges)) else { return nil }
        let visible = box.intersection(rect)
        return visible.isNull || visible.width <= 0 || visible.height <= 0 ? nil : visible
    }

    /// What a path fill within `bounds` is cut by: the clips, and the
    /// target's guard band unless `bounds` lies wholly inside it (the usual
    /// case, which then needs no list of planes of its own).
    private func clipPlanes(for bounds: CGRect, matrix: CATransform3D, clipping: Clipping) -> [HalfPlane] {
        let v = viewportPlanes(matrix, margin: Self.guardBand)
        let inside = v.0.holds(bounds) && v.1.holds(bounds) && v.2.holds(bounds) && v.3.holds(bounds)
        return inside ? clipping.clips : clipping.clips(within: v)
    }

    /// The viewport, grown by `margin` pixels, as four half-planes of the
    /// local plane that `m` maps to the target: `X >= minX * W` and so on.
    /// Exact where w > 0 (pair them with the near plane).
    func viewportPlanes(_ m: CATransform3D, margin: Double) -> (HalfPlane, HalfPlane, HalfPlane, HalfPlane) {
        let v = viewport.insetBy(dx: -margin, dy: -margin)
        let (x0, x1, y0, y1) = (Double(v.minX), Double(v.maxX), Double(v.minY), Double(v.maxY))
        let (m11, m21, m41) = (Double(m.m11), Double(m.m21), Double(m.m41))
        let (m12, m22, m42) = (Double(m.m12), Double(m.m22), Double(m.m42))
        let (m14, m24, m44) = (Double(m.m14), Double(m.m24), Double(m.m44))
        return (
            HalfPlane(a: m11 - x0 * m14, b: m21 - x0 * m24, c: m41 - x0 * m44),
            HalfPlane(a: x1 * m14 - m11, b: x1 * m24 - m21, c: x1 * m44 - m41),
            HalfPlane(a: m12 - y0 * m14, b: m22 - y0 * m24, c: m42 - y0 * m44),
            HalfPlane(a: y1 * m14 - m12, b: y1 * m24 - m22, c: y1 * m44 - m42)
        )
    }

    private func surfaceScale(matrix: CATransform3D, extent: CGRect) -> Double {
        limitedScale(max(matrix.maxPixelScale(over: extent), 1e-3), for: extent)
    }

    /// `scale` lowered as far as needed for a surface over `extent` to keep
    /// within the largest side and the pixel budget: no more pixels than a
    /// few times the target it is drawn into (more only shows where
    /// perspective magnifies a sliver), and never more than the options allow.
    private func limitedScale(_ scale: Double, for extent: CGRect) -> Double {
        var scale = scale
        let longest = Double(max(extent.width, extent.height))
        if longest * scale > Double(options.maxSurfaceSide) { scale = Double(options.maxSurfaceSide) / longest }
        let budget = min(Double(options.maxSurfacePixels), max(4 * Double(viewport.width * viewport.height), 512 * 512))
        let area = Double(extent.width * extent.height) * scale * scale
        if area > budget { scale *= (budget / area).squareRoot() }
        return scale
    }

    /// An offscreen surface and the local rect its whole texture covers:
    /// `extent` grown to whole pixels on its right and bottom.
    struct Surface {
        var id: SurfaceID
        var rect: CGRect
    }

    /// A new surface covering `extent` (local units) at `scale` pixels per
    /// unit, filled by `draw` with the local-to-surface matrix. Its pixel
    /// size is rounded up, so it covers a little more than `extent`: a draw
    /// of it maps its texture onto the returned `rect`, never onto `extent`
    /// (which would shrink the picture toward the top-left by up to a pixel).
    private func renderToSurface(
        extent: CGRect, scale: Double, for layer: LayerPath, _ purpose: SurfacePurpose,
        draw: (CATransform3D, inout [DrawCommand]) throws(RenderRefusal) -> Void
    ) throws(RenderRefusal) -> Surface {
        let scale = limitedScale(scale, for: extent)
        let id = SurfaceID.offscreen(surfaces.count)
        let size = SurfaceDescription(
            width: max(1, Int(saturating: (Double(extent.width) * scale).rounded(.up))),
            height: max(1, Int(saturating: (Double(extent.height) * scale).rounded(.up))),
            purpose: purpose, layer: layer)
        if size.width > options.maxSurfaceSide || size.height > options.maxSurfaceSide {
            // Only a non-finite extent gets here: limitedScale fits any finite one.
            throw RenderRefusal(at: layer, "its \(purpose) would need a surface of \(Quoted.number(Double(extent.width) * scale)) x \(Quoted.number(Double(extent.height) * scale)) pixels")
        }
        surfaces.append(size)
        let m = CATransform3D(translationX: -extent.minX, y: -extent.minY, z: 0)
            .concatenating(CATransform3D(scaleX: scale, y: scale, z: 1))
        var commands: [DrawCommand] = []
        let outer = viewport
        viewport = CGRect(x: 0, y: 0, width: size.width, height: size.height)
        defer { viewport = outer }
        try draw(m, &commands)
        passes.append(RenderPass(target: id, commands: commands))
        return Surface(id: id, rect: CGRect(x: extent.minX, y: extent.minY,
                                            width: Double(size.width) / scale, height: Double(size.height) / scale))
    }

    /// `source` times the alpha of `mask`, both made over `extent` at `scale`
    /// (so of one size, covering one rect).
    private func maskSurface(_ source: Surface, by mask: Surface, extent: CGRect, scale: Double,
                             for layer: LayerPath, _ purpose: SurfacePurpose) throws(RenderRefusal) -> Surface {
        try renderToSurface(extent: extent, scale: scale, for: layer, purpose) { m, cmds in
            cmds.append(.polygon(PolygonDraw(
                matrix: m, polygon: self.corners(of: source.rect),
                fill: .masked(source: .surface(source.id), mask: .surface(mask.id), localRect: source.rect))))
        }
    }

    /// The shadow: the layer's alpha (or its `shadowPath`) blurred, moved by
    /// the offset, to be painted in `color` below the layer. `area` is where
    /// the surface lands in the layer's local space.
    private func shadowSurface(_ shadow: RenderShadow, content: Surface, scale: Double, for layer: LayerPath)
        throws(RenderRefusal) -> (surface: SurfaceID, area: CGRect, color: RGBA)
    {
        let pad = 3 * shadow.radius
        var shape = content.rect
        // Flattened for the surface's pixels, as every path of the plan is.
        let pathContours = shadow.path.map { contours(of: $0, tolerance: options.curveTolerance / max(scale, 1e-6)) }
        if let pathContours {
            try countSegments(pathContours, at: layer)
            shape = CGRect.bounding(pathContours.flatMap { $0 }) ?? .zero
        }
        let area = shape.insetBy(dx: -pad, dy: -pad)
        let alpha = try renderToSurface(extent: area, scale: scale, for: layer, .shadow) { m, cmds in
            if let pathContours {
                cmds.append(.path(PathFillDraw(matrix: m, contours: pathContours, evenOdd: false, color: .white)))
            } else {
                cmds.append(.polygon(PolygonDraw(matrix: m, polygon: self.corners(of: content.rect),
                                                 fill: .alphaTint(.surface(content.id), localRect: content.rect, color: .white))))
            }
        }
        var blurred = alpha.id
        if shadow.radius > 0 {
            let size = surfaces[surfaceIndex(alpha.id)]
            blurred = .offscreen(surfaces.count)
            surfaces.append(size)  // the same size, layer and purpose
            // The surface may have come out coarser than asked (its pixel
            // budget): blur by its own pixels per point.
            let pixelsPerPoint = Double(size.width) / Double(alpha.rect.width)
            passes.append(RenderPass(target: blurred, commands: [.blurMask(source: alpha.id, blur: BlurMethod(sigma: shadow.radius * pixelsPerPoint))]))
        }
        return (blurred, alpha.rect.offsetBy(dx: shadow.offset.width, dy: shadow.offset.height), shadow.color.withAlpha(times: shadow.opacity))
    }

    private func surfaceIndex(_ id: SurfaceID) -> Int {
        if case .offscreen(let i) = id { return i }
        return 0
    }

    private func imageID(_ image: CGImage) -> ImageID {
        let key = ObjectIdentifier(image)
        if let i = imageIndex[key] { return ImageID(i) }
        images.append(image.downscaled(toFit: options.maxImageSide))
        imageIndex[key] = images.count - 1
        return ImageID(images.count - 1)
    }
}

private func combine(_ a: RGBA?, _ b: RGBA?) -> RGBA? {
    switch (a, b) {
    case (nil, nil): return nil
    case (let x?, nil), (nil, let x?): return x
    case (let x?, let y?): return x.multiplied(by: y)
    }
}

private func tinted(_ color: RGBA, _ tint: RGBA?) -> RGBA {
    tint.map { color.multiplied(by: $0) } ?? color
}
