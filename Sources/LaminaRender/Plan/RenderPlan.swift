import Foundation
import LaminaCore
import LaminaRaster

/// What a backend draws: a list of passes over pixel surfaces, each a list of
/// draw commands in painter's order. Everything Core Animation decides
/// (matrices, flattening, depth order, plane splitting, near-plane clipping,
/// culling, offscreen groups) has been decided already; a backend needs to know
/// nothing about layers.
///
/// Coordinates: every draw gives its geometry in a 2D *local* space and a
/// matrix in Core Animation's row-vector convention (`[x y 0 1] * matrix`)
/// that maps it to the target surface's pixel space, homogeneously. Pixel
/// space has its origin at the top-left corner and y growing down. The plan
/// guarantees `w > 0` at every vertex of every polygon it emits.
public struct RenderPlan: Sendable {
    /// The output picture's size in pixels.
    public var width: Int
    /// The output picture's height in pixels.
    public var height: Int
    /// Offscreen surfaces, indexed by `SurfaceID.index`. The output is not in
    /// this list.
    package var surfaces: [SurfaceDescription]
    /// Images the draws sample from, indexed by `ImageID.index`.
    public var images: [CGImage]
    /// Passes in execution order: a surface's pass always comes before any
    /// pass that samples it. The last pass targets the output.
    package var passes: [RenderPass]

    /// A plan of `passes` over `surfaces`, sampling `images`, making a `width` x `height` picture.
    package init(width: Int, height: Int, surfaces: [SurfaceDescription] = [], images: [CGImage] = [], passes: [RenderPass] = []) {
        self.width = width; self.height = height
        self.surfaces = surfaces; self.images = images; self.passes = passes
    }

    /// The number of draw commands in all passes.
    public var commandCount: Int { passes.reduce(0) { $0 + $1.commands.count } }
}

/// A surface a pass draws into.
package enum SurfaceID: Hashable, Sendable {
    /// The picture the plan produces.
    case output
    /// An offscreen surface of the plan.
    case offscreen(Int)
}

/// An offscreen surface: a transparent RGBA8 premultiplied picture.
package struct SurfaceDescription: Hashable, Sendable {
    /// Pixels across.
    public var width: Int
    /// Pixels down.
    public var height: Int
    /// Why the surface exists.
    public var purpose: SurfacePurpose
    /// The layer it was made for.
    public var layer: LayerPath
    /// A surface of this size, made for `layer` and `purpose`.
    public init(width: Int, height: Int, purpose: SurfacePurpose = .groupOpacity, layer: LayerPath = .root) {
        self.width = width; self.height = height; self.purpose = purpose; self.layer = layer
    }
    /// `width * height`, saturating.
    public var pixelCount: Int {
        let (p, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? .max : p
    }
}

/// Why a layer is drawn offscreen before it reaches its target (as cc's
/// `RenderSurfaceReason` says): shown in refusals and in `lamina bench`.
package enum SurfacePurpose: String, Hashable, Sendable, CustomStringConvertible {
    /// `opacity` below 1 over overlapping draws: they fade as one picture.
    case groupOpacity = "group opacity"
    /// `mask`: the layer's alpha times its mask's.
    case mask
    /// `masksToBounds` with square corners.
    case clip = "masksToBounds clip"
    /// `masksToBounds` with `cornerRadius`.
    case roundedClip = "rounded masksToBounds clip"
    /// The layer's alpha (or `shadowPath`), blurred.
    case shadow
    /// `filters`: what the layer drew, and each filter's result.
    case filter
    /// `backgroundFilters`: what lies under the layer, copied and filtered.
    case backdrop = "backgroundFilters backdrop"
    /// `compositingFilter`: the layer drawn as one picture, then blended
    /// onto what lies under it by its blend mode.
    case blend = "compositingFilter blend"

    /// The purpose in words ("rounded masksToBounds clip").
    public var description: String { rawValue }
}

/// An image of `RenderPlan.images`.
package struct ImageID: Hashable, Sendable {
    /// The image's place in `RenderPlan.images`.
    public var index: Int
    /// The image at `index`.
    public init(_ index: Int) { self.index = index }
}

/// One pass: clear the target to transparent (or take it as an earlier
/// pass left it, `continuesTarget`), then run its commands.
package struct RenderPass: Sendable {
    /// The surface this pass draws into (cleared to transparent first,
    /// unless the pass continues it or its first draw covers it).
    public var target: SurfaceID
    /// The pass's draws, in painter's order.
    public var commands: [DrawCommand]
    /// Offscreen surfaces that no later pass samples: a backend frees (or
    /// returns to its pool) their pixels once this pass is done, so a frame
    /// holds only the surfaces still to be used.
    public var releasedSurfaces: [Int] = []
    /// Whether the pass draws on over what an earlier pass drew into
    /// `target` (which is alive), instead of into a new transparent surface:
    /// a surface's draws split around the surfaces they sample, so that each
    /// of those is made just before it is drawn back (`drawSurfacesWhereUsed`).
    public var continuesTarget = false
    /// Whether the first command paints every pixel of the target opaque
    /// whatever the pixel held (`DrawCommand.coversOpaquely`): a backend
    /// need not clear the target first. Set by `dropOccludedCommands`.
    public var firstDrawCovers = false
    /// A pass of `commands` into `target`.
    public init(target: SurfaceID, commands: [DrawCommand] = [], continuesTarget: Bool = false, firstDrawCovers: Bool = false) {
        self.target = target; self.commands = commands; self.continuesTarget = continuesTarget
        self.firstDrawCovers = firstDrawCovers
    }
}

extension RenderPlan {
    /// Walks the passes in order and calls `body` with each offscreen
    /// surface as its pass begins and the pixels of all surfaces alive at
    /// that moment (it included).
    public func forEachSurfaceAllocation<E: Error>(_ body: (_ surface: Int, _ livePixels: Int) throws(E) -> Void) throws(E) {
        var live = 0
        func adding(_ i: Int, to live: Int) -> Int {
            let (sum, overflow) = live.addingReportingOverflow(surfaces[i].pixelCount)
            return overflow ? .max : sum
        }
        for pass in passes {
            if case .offscreen(let i) = pass.target, !pass.continuesTarget, surfaces.indices.contains(i) {
                live = adding(i, to: live)
                try body(i, live)
            }
            // A backdrop holds its copy and one filter's result at a time, while it runs.
            for case .backdrop(let backdrop) in pass.commands {
                let made = backdrop.surfaces.filter { surfaces.indices.contains($0) }
                for (k, i) in made.enumerated() {
                    try body(i, adding(i, to: k > 0 ? adding(made[k - 1], to: live) : live))
                }
            }
            for i in pass.releasedSurfaces where surfaces.indices.contains(i) { live -= surfaces[i].pixelCount }
        }
    }

    /// The most pixels of offscreen surfaces alive at one time: what a
    /// backend that frees `releasedSurfaces` holds at worst.
    public var peakSurfacePixels: Int {
        var peak = 0
        forEachSurfaceAllocation { _, live in peak = max(peak, live) }
        return peak
    }

    /// Orders the passes so that each surface is drawn just before the
    /// first draw that samples it, the draws of the surface sampling it
    /// split around it into passes that continue their target.
    ///
    /// Drawn in the order they were planned, every surface a layer's
    /// sublayers draw offscreen (a mask each, a group, a shadow) is made
    /// before the layer's own pass, which draws them all back at its end:
    /// a layer of a hundred masked sublayers holds two hundred surfaces at
    /// once. Drawn where used, it holds the ones on the way down to the
    /// draw under way. The pixels are the same: a pass reads only its own
    /// target and the surfaces it samples, each finished before it.
    /// A surface no draw samples (on the way to the output) is not drawn.
    /// The planner draws each target in one pass; a plan that draws one in
    /// several (each clearing it) is left in its order.
    public mutating func drawSurfacesWhereUsed() {
        // Without surfaces there is only the output to draw, in its order.
        guard !surfaces.isEmpty else { return }
        // The pass drawing each target, by slot (the output's after the
        // surfaces'): lists, not dictionaries, made for every frame.
        let outputSlot = surfaces.count
        func slot(_ target: SurfaceID) -> Int? {
            switch target {
            case .output: outputSlot
            case .offscreen(let i): surfaces.indices.contains(i) ? i : nil
            }
        }
        var passOf = [Int](repeating: -1, count: surfaces.count + 1)
        for p in passes.indices {
            guard let s = slot(passes[p].target), passOf[s] < 0 else { return }
            passOf[s] = p
        }
        var ordered: [RenderPass] = []
        ordered.reserveCapacity(passes.count)
        var drawn = [Bool](repeating: false, count: surfaces.count + 1)
        func draw(_ target: SurfaceID) {
            guard let s = slot(target), !drawn[s] else { return }
            drawn[s] = true
            guard passOf[s] >= 0 else { return }
            let pass = passes[passOf[s]]
            func isNeeded(_ surface: SurfaceID) -> Bool { surface != target && slot(surface).map { !drawn[$0] } ?? false }
            // The pass is cut before each draw that samples a surface not
            // yet drawn, which is drawn there; its draws are copied into
            // the pieces only where it is cut (by index: not copied out to
            // be asked).
            var start = 0
            var continues = pass.continuesTarget
            for c in pass.commands.indices where pass.commands[c].sampledSurfaces.contains(where: isNeeded) {
                if c > start {
                    ordered.append(RenderPass(target: target, commands: Array(pass.commands[start..<c]), continuesTarget: continues,
                                              firstDrawCovers: pass.firstDrawCovers && start == 0))
                    start = c
                    continues = true
                }
                for surface in pass.commands[c].sampledSurfaces where isNeeded(surface) { draw(surface) }
            }
            // A pass of no draws still makes its (transparent) target.
            if start < pass.commands.count || !continues {
                let rest = start == 0 ? pass.commands : Array(pass.commands[start...])
                ordered.append(RenderPass(target: target, commands: rest, continuesTarget: continues,
                                          firstDrawCovers: pass.firstDrawCovers && start == 0))
            }
        }
        draw(.output)
        passes = ordered
    }

    /// Sets every pass's `releasedSurfaces`: a surface is released after the
    /// last pass that samples it, or after its own pass if none does.
    public mutating func computeSurfaceLifetimes() {
        // The pass that last uses each surface (-1: none does), by surface:
        // a list, not a dictionary, asked of every frame.
        var lastUse = [Int](repeating: -1, count: surfaces.count)
        for p in passes.indices {
            if case .offscreen(let i) = passes[p].target, lastUse.indices.contains(i) { lastUse[i] = p }
            // (By index: each draw asked where it lies, not copied out.)
            for c in passes[p].commands.indices {
                for case .offscreen(let i) in passes[p].commands[c].sampledSurfaces where lastUse.indices.contains(i) { lastUse[i] = p }
            }
            passes[p].releasedSurfaces = []
        }
        for (surface, p) in lastUse.enumerated() where p >= 0 {
            passes[p].releasedSurfaces.append(surface)
        }
    }
}

extension DrawCommand {
    /// The surfaces this command reads.
    public var sampledSurfaces: AtMostTwo<SurfaceID> {
        switch self {
        case .blurMask(let source, _), .filter(let source, _): return AtMostTwo(source)
        case .path, .backdrop: return AtMostTwo()  // a backdrop's surfaces are its own, made and freed as it runs
        case .polygon(let draw):
            var surfaces = AtMostTwo<SurfaceID>()
            for case .surface(let id) in draw.fill.textureSources { surfaces.append(id) }
            return surfaces
        }
    }
}

extension DrawCommand {
    /// The pictures this command reads (a backdrop's are its own).
    public var sampledImages: AtMostTwo<ImageID> {
        guard case .polygon(let draw) = self else { return AtMostTwo() }
        var images = AtMostTwo<ImageID>()
        for case .image(let id) in draw.fill.textureSources { images.append(id) }
        return images
    }
}

extension PolygonFill {
    /// The textures this fill samples.
    public var textureSources: AtMostTwo<TextureSource> {
        switch self {
        case .color, .gradient: AtMostTwo()
        case .texture(let t, _, _, _, _), .alphaTint(let t, _, _): AtMostTwo(t)
        case .masked(let source, let mask, _, _): AtMostTwo(source, mask)
        }
    }
}

/// None, one or two values, in order, held in place: what one draw
/// samples (a picture, and a masked picture's mask). Asked of every draw
/// by every pass over a plan, where an array would be one allocation a draw.
package struct AtMostTwo<Element: Hashable & Sendable>: Sequence, Hashable, Sendable {
    private var first: Element?, second: Element?

    /// None, one (`a`) or two (`a`, then `b`).
    package init(_ a: Element? = nil, _ b: Element? = nil) {
        (first, second) = a == nil ? (b, nil) : (a, b)
    }

    /// Adds `value` after those held; the third and later are not held
    /// (no draw samples more than two).
    package mutating func append(_ value: Element) {
        if first == nil { first = value } else if second == nil { second = value } else { assertionFailure("a draw samples at most two") }
    }

    package var isEmpty: Bool { first == nil }

    package func makeIterator() -> Iterator { Iterator(coming: first, after: second) }

    package struct Iterator: IteratorProtocol {
        fileprivate var coming: Element?, after: Element?
        package mutating func next() -> Element? {
            defer { (coming, after) = (after, nil) }
            return coming
        }
    }
}

/// A drawing operation of a pass.
package enum DrawCommand: Equatable, Sendable {
    /// Fill a convex polygon.
    case polygon(PolygonDraw)
    /// Fill a path's polygons with a colour under a fill rule.
    case path(PathFillDraw)
    /// Replace the target's pixels with a Gaussian blur of `source`'s alpha,
    /// in white: every channel of the result is the blurred alpha. `source`
    /// (the same size as the target) is a coverage mask drawn in white, as a
    /// shadow's shape is; so a backend may blur one channel (the CPU does)
    /// or all four (GL does), with the same result, by `blur`'s method.
    case blurMask(source: SurfaceID, blur: BlurMethod)
    /// Replace the target's pixels with `source` (the same size) through
    /// the filter: a layer's `filters`, one pass each.
    case filter(source: SurfaceID, SurfaceFilter)
    /// What the target holds so far under a layer, filtered and drawn back
    /// within the layer: its `backgroundFilters` (a `CABackdropLayer`'s filters).
    case backdrop(BackdropDraw)
}

extension DrawCommand {
    /// The same kind of command with equal values. (Written out: the
    /// comparison made for it copies both commands into a pair first,
    /// and frames compare every draw with the last frame's, `PlanDamage`.)
    package static func == (a: DrawCommand, b: DrawCommand) -> Bool {
        switch a {
        case .polygon(let x): if case .polygon(let y) = b { x == y } else { false }
        case .path(let x): if case .path(let y) = b { x == y } else { false }
        case .blurMask(let s, let m): if case .blurMask(let t, let n) = b { s == t && m == n } else { false }
        case .filter(let s, let f): if case .filter(let t, let g) = b { s == t && f == g } else { false }
        case .backdrop(let x): if case .backdrop(let y) = b { x == y } else { false }
        }
    }
}

/// A layer's `backgroundFilters`: the target's pixels under it, as drawn so
/// far in the pass, copied, filtered and drawn back over them within the
/// layer's outline, before the layer's own background.
///
/// Its surfaces live only while the command runs: the copy, then one per
/// filter (each freed once the next is made), the last one sampled by `draw`.
package struct BackdropDraw: Equatable, Sendable {
    /// The target's pixels copied: the layer's outline, as far round as its
    /// filters reach, within the target.
    public var region: PixelRect
    /// The surface the copy goes into (the region's size).
    public var copy: Int
    /// Each filter in turn, each into a surface of its own (the region's size).
    public var filters: [(surface: Int, filter: SurfaceFilter)]
    /// The filtered copy drawn back, in the target's pixels: its fill
    /// samples the last of the surfaces.
    public var draw: PolygonDraw

    /// The surface `draw` samples: the last filter's, or the copy.
    public var result: Int { filters.last?.surface ?? copy }
    /// Every surface the command makes, in order.
    public var surfaces: [Int] { [copy] + filters.map(\.surface) }

    /// The same copy, filters and draw.
    public static func == (a: BackdropDraw, b: BackdropDraw) -> Bool {
        a.region == b.region && a.copy == b.copy && a.draw == b.draw
            && a.filters.elementsEqual(b.filters) { $0.surface == $1.surface && $0.filter == $1.filter }
    }
}

/// What fills a polygon.
package enum PolygonFill: Equatable, Sendable {
    /// A solid colour.
    case color(RGBA)
    /// A texture mapped so that `localRect` shows the texture's `uvRect`
    /// (unit coordinates, v growing down the picture), multiplied by `tint`
    /// (white leaves it as it is).
    case texture(TextureSource, localRect: CGRect, uvRect: CGRect, filter: TextureFilter, tint: RGBA)
    /// A texture whose alpha alone is used, painted with `color` (shadows).
    case alphaTint(TextureSource, localRect: CGRect, color: RGBA)
    /// `source` multiplied by the alpha of `mask` (by one minus it when
    /// `inverted`); both cover `localRect`.
    case masked(source: TextureSource, mask: TextureSource, localRect: CGRect, inverted: Bool)
    /// A gradient in local coordinates, read at each pixel's local point.
    case gradient(GradientFill)
}

/// A texture a draw samples.
package enum TextureSource: Hashable, Sendable {
    case image(ImageID)
    case surface(SurfaceID)
}

/// A convex polygon fill.
package struct PolygonDraw: Equatable, Sendable {
    /// Local space to target pixels (row-vector convention).
    public var matrix: CATransform3D
    /// A convex polygon in local coordinates, already clipped at the near
    /// plane and to the target (plus a guard band). Its edges are drawn
    /// anti-aliased.
    public var polygon: [CGPoint]
    /// What the polygon is filled with.
    public var fill: PolygonFill
    /// Extra coverage: a rounded rectangle or a border ring.
    public var coverage: RoundedRectCoverage?
    /// Multiplies the fill's alpha (and premultiplied colour), in 0...1.
    public var opacity: Double
    /// Where one draw was cut into pieces (depth sorting split its plane, a
    /// nine-part `contentsCenter` split its picture), the part this piece
    /// keeps, in local coordinates. The pieces share the polygon and differ
    /// in their cuts, and a pixel belongs to the piece whose cuts own its
    /// centre (`HalfPlane.owns`): the pieces tile the draw exactly, every
    /// pixel once, so no seam shows where they meet (anti-aliasing each
    /// piece's edges would let the background through, as `a + (1-a)·a < 1`).
    /// A backend may instead clip the polygon by the cuts and sample the
    /// result as it samples any edge (GL's multisampling), which partitions
    /// the samples the same way.
    public var cuts: [HalfPlane]
    /// How the fill meets what the target holds under it: source-over, or
    /// the blend mode of a layer's `compositingFilter` (a layer's surface,
    /// or the one draw of a layer that draws once: an additive emitter's
    /// particle).
    public var blend: BlendMode
    /// A path whose coverage, times its colour's alpha, scales the
    /// polygon's, as `PathFillDraw.mask` scales a path's: a gradient masked
    /// by its shape (as lottie-ios masks every gradient fill) drawn without
    /// surfaces. Only with a colour or a gradient, source-over, uncut.
    public var mask: Indirect<PathFillDraw>?

    /// A draw of `polygon` through `matrix`, filled with `fill`.
    public init(matrix: CATransform3D, polygon: [CGPoint], fill: PolygonFill, coverage: RoundedRectCoverage? = nil,
                opacity: Double = 1, cuts: [HalfPlane] = [], blend: BlendMode = .normal) {
        self.matrix = matrix; self.polygon = polygon; self.fill = fill
        self.coverage = coverage; self.opacity = opacity; self.cuts = cuts; self.blend = blend
    }

    /// The polygon cut to this piece's part (for a backend that clips
    /// geometry instead of testing pixels).
    public var piecePolygon: [CGPoint] { cuts.isEmpty ? polygon : PolygonClipper.clip(polygon, to: cuts) }
}

/// Closed polygons (flattened path outlines, stroke outlines) filled with
/// one colour under a fill rule: a backend may stencil them or rasterise
/// their coverage, but never draws an overlap twice.
package struct PathFillDraw: Equatable, Sendable {
    /// Local space to target pixels (row-vector convention).
    public var matrix: CATransform3D
    /// Closed contours in local coordinates.
    public var contours: [[CGPoint]] {
        didSet { bounds = nil }
    }
    /// A box holding every point of `contours`, each of them finite, when
    /// it is known (the planner's outlines carry theirs: `FlatOutline`);
    /// nil when not. With it the plan's validation tests the box's corners
    /// rather than every point. Forgotten when `contours` change.
    public private(set) var bounds: CGRect?
    /// True for the even-odd rule, false for non-zero winding.
    public var evenOdd: Bool
    /// In 0...1.
    public var color: RGBA
    /// Half-planes in local coordinates that clip the fill (the near plane,
    /// the target's guard band): the plan's validation cuts the contours by
    /// them, so a backend finds none left.
    public var clipPlanes: [HalfPlane]
    /// The part of a split draw this piece keeps, as `PolygonDraw.cuts`.
    public var cuts: [HalfPlane]
    /// Another path whose coverage, times its colour's alpha, scales this
    /// one's at every pixel (its colour's other channels are not read):
    /// a layer's one path masked by its mask's one path, drawn without the
    /// two surfaces and the masked composite a mask otherwise takes. Only a
    /// planner told that its backend draws them makes one
    /// (`RenderPlannerOptions.fillsMaskedPaths`); never cut.
    public var mask: Indirect<PathFillDraw>?
    /// A fill of `contours` through `matrix` in `color`.
    public init(matrix: CATransform3D, contours: [[CGPoint]], evenOdd: Bool, color: RGBA,
                clipPlanes: [HalfPlane] = [], cuts: [HalfPlane] = []) {
        self.matrix = matrix; self.contours = contours; self.evenOdd = evenOdd
        self.color = color; self.clipPlanes = clipPlanes; self.cuts = cuts
    }
    /// A fill of `outline`'s contours, its box known, through `matrix` in `color`.
    public init(matrix: CATransform3D, outline: FlatOutline, evenOdd: Bool, color: RGBA,
                clipPlanes: [HalfPlane] = [], cuts: [HalfPlane] = []) {
        self.init(matrix: matrix, contours: outline.contours, evenOdd: evenOdd, color: color,
                  clipPlanes: clipPlanes, cuts: cuts)
        bounds = outline.bounds
    }
}

extension PathFillDraw {
    /// The contours cut by `clipPlanes`, in local coordinates. A concave
    /// contour may come out with edges running both ways along a cut; they
    /// cancel in the winding sum (and enclose no area under even-odd), so
    /// the fill stays exact.
    public var clippedContours: [[CGPoint]] { Self.clip(contours, to: clipPlanes) }

    /// The contours cut to this piece's part (for a backend that clips
    /// geometry instead of testing pixels).
    public var pieceContours: [[CGPoint]] { Self.clip(clippedContours, to: cuts) }

    private static func clip(_ contours: [[CGPoint]], to planes: [HalfPlane]) -> [[CGPoint]] {
        guard !planes.isEmpty else { return contours }
        // Contour by contour, each by the planes its box straddles alone. A
        // new list only from the first contour that changes: wholly inside
        // (a path within the target's guard band, the usual case), the
        // contours themselves.
        var clipped: [[CGPoint]]?
        for (i, contour) in contours.enumerated() {
            let piece = clip(contour, to: planes)
            if clipped == nil {
                if case .whole = piece { continue }
                clipped = Array(contours[..<i])
            }
            switch piece {
            case .whole: clipped?.append(contour)
            case .part(let part): clipped?.append(part)
            case .nothing: break
            }
        }
        return clipped ?? contours
    }

    /// What clipping leaves of one contour.
    private enum ClippedContour {
        case whole, nothing, part([CGPoint])
    }

    /// `contour` clipped by `planes` as `PolygonClipper` clips it (nothing
    /// of fewer than three points). The contour's box first: a plane that
    /// holds its corners holds every point (clipping by it changes
    /// nothing), one with all four corners strictly outside leaves nothing,
    /// so a contour of hundreds of points is clipped only by the planes
    /// that cross it, and tested point by point only there.
    private static func clip(_ contour: [CGPoint], to planes: [HalfPlane]) -> ClippedContour {
        guard contour.count >= 3 else { return .nothing }
        guard let box = BoxAccumulator(finite: contour)?.rect else {
            let part = PolygonClipper.clip(contour, to: planes)
            return part.isEmpty ? .nothing : .part(part)
        }
        var part = contour, cut = false
        for plane in planes where !plane.holds(box) {
            if plane.strictlyExcludes(box) { return .nothing }
            part = PolygonClipper.clip(part, to: plane)
            if part.isEmpty { return .nothing }
            cut = true
        }
        // (The clipper hands back the contour itself where a plane that
        // crosses its box holds each of its points.)
        return cut && part != contour ? .part(part) : .whole
    }
}

extension PolygonFill {
    /// Whether the fill is a colour or a gradient (no picture): what a
    /// polygon through a mask path may be filled with.
    var isColourOrGradient: Bool {
        switch self {
        case .color, .gradient: true
        case .texture, .alphaTint, .masked: false
        }
    }
}
