import Foundation
import Synchronization
import LaminaRaster
import LaminaRender

/// The software backend: executes a `RenderPlan` with the pure-Swift
/// rasterizer and pixel pipeline of this module.
///
/// Runs anywhere, needs no EGL; the same plan gives the same picture as the
/// GL backend (the conformance check holds both to the same references).
package final class CPURenderer: Renderer {
    /// "cpu", in messages and benchmarks.
    public let name = "cpu"
    private let painter = CPUPainter()

    /// Whether each frame is drawn over the picture of a frame before it,
    /// only its damaged rows cleared and redrawn (`PlanDamage`): an
    /// animation's frames drawn in order. The pictures are the same bytes
    /// either way.
    ///
    /// The renderer then keeps its last few frames' plans and pictures, and
    /// draws each frame over the latest one whose picture no one else holds
    /// (a picture handed out never changes): the frame before, when its
    /// picture was let go, as a loop that draws and writes each frame in
    /// turn does; an earlier one while pictures wait to be written (`FrameRenderer`).
    /// A frame is drawn whole when every kept picture is held, when the
    /// plans cannot be compared, or after an error.
    package var drawsOverLastFrame = false {
        didSet { if !drawsOverLastFrame { retireAll() } }
    }

    /// The most frames kept while `drawsOverLastFrame`: a frame renderer's
    /// worker draws at most this many ahead of the writer.
    static let maximumKeptFrames = 4

    /// Frames drawn while `drawsOverLastFrame`, oldest first.
    private var kept: [KeptFrame] = []
    /// How many frames have been drawn over one before (for tests and benchmarks).
    package private(set) var framesDrawnOverLast = 0

    private struct KeptFrame {
        var plan: RenderPlan
        /// Its picture's pixels, which `image` shares.
        var output: Pixmap
        /// The picture handed out; nil once the renderer knows no one else holds it.
        var image: CGImage?
        /// What each of its draws into the output reached, where known (`PlanDamage.drawnPixels`).
        var drawnPixels: [PixelRect]?

        /// Whether someone other than the renderer still holds the picture.
        var isHeldElsewhere: Bool {
            mutating get {
                guard image != nil else { return false }
                return !isKnownUniquelyReferenced(&image!)
            }
        }
    }

    /// A renderer. Between frames it keeps only caches that a frame's
    /// picture does not depend on (the coverage of repeated small shapes
    /// and of paths drawn again, gradients' tables, images' pixels), and,
    /// when `drawsOverLastFrame`, its last frames.
    public init() {}

    /// Walks the plan with `PlanWalker` on this module's painter.
    /// Large loops use the cores no other frame is drawing on (`RowBands`).
    public func render(_ plan: RenderPlan, deadline: RenderDeadline?) throws -> CGImage {
        guard drawsOverLastFrame else {
            return try RowBands.drawingFrame { try PlanWalker.render(plan, with: painter, deadline: deadline) }
        }
        var drawnPixels: [PixelRect]?
        let output: Pixmap = try RowBands.drawingFrame {
            // Taken out of the optional as it is handed over, so that the
            // walker holds the only reference to the pixels it writes.
            var reused = reusableOutput(for: plan)
            if let damage = reused?.damage {
                framesDrawnOverLast += 1
                drawnPixels = damage.drawnPixels
                if damage.rows.isEmpty {
                    // No row differs from the last frame's (an animation
                    // holding still): its pixels are this frame's picture.
                    // The plan is checked as a walk would check it; no
                    // draw ran, so the painter's caches age by nothing.
                    try plan.checkStructure()
                    return reused.take()!.output
                }
                return try PlanWalker.redraw(plan, over: reused.take()!.output, damage: damage, with: painter, deadline: deadline)
            }
            return try PlanWalker.drawOutput(plan, with: painter, deadline: deadline)
        }
        // Shares the pixels: a later frame writes them in place only once this image is gone.
        let image = try CGImage(width: output.width, height: output.height, premultipliedRGBA: output.data)
        kept.append(KeptFrame(plan: plan, output: output, image: image, drawnPixels: drawnPixels))
        if kept.count > Self.maximumKeptFrames { retire(kept.removeFirst()) }
        return image
    }

    /// The pixels of the latest kept frame that no one else holds, taken
    /// from the renderer, with what changed since (the older ones let go:
    /// a later frame is drawn over this one); nil when the frame must be
    /// drawn whole.
    private func reusableOutput(for plan: RenderPlan) -> (output: Pixmap, damage: PlanDamage)? {
        var latest = kept.count - 1
        while latest >= 0, kept[latest].isHeldElsewhere { latest -= 1 }
        guard latest >= 0 else { return nil }
        var frame = kept.remove(at: latest)
        for older in (0..<latest).reversed() where !kept[older].isHeldElsewhere { retire(kept.remove(at: older)) }
        guard let damage = PlanDamage(from: frame.plan, to: plan, previousPixels: frame.drawnPixels) else {
            retire(frame)
            return nil
        }
        // The renderer's are now the only references to the pixels: the
        // frame is drawn into them, not into a copy.
        frame.image = nil
        return (frame.output, damage)
    }

    /// Lets a kept frame go: its pixels back to the pool, unless its
    /// picture is still held (they are freed with it).
    private func retire(_ frame: consuming KeptFrame) {
        guard !frame.isHeldElsewhere else { return }
        frame.image = nil
        BufferPool.pixels.giveBack(frame.output.data, dirty: frame.output.dirtyRegion)
    }

    private func retireAll() {
        while let frame = kept.popLast() { retire(frame) }
    }
}

/// The plan's primitives on pixmaps, for `PlanWalker`.
final class CPUPainter: PartialRedrawPainter {

    /// Uncleared, the pool's pixels as they are: the clear would be
    /// overwritten whole.
    func makeSurface(width: Int, height: Int, cleared: Bool) throws -> Pixmap {
        cleared ? try Pixmap(width: width, height: height) : try Pixmap(unclearedWidth: width, height: height)
    }
    func texture(of surface: Pixmap) -> Pixmap { surface }
    func texture(of image: CGImage) throws -> Pixmap { try imagePixmaps.pixmap(of: image) }
    /// A surface's pixels go back to the pool for the next pass or frame,
    /// except the output's, which the frame's image holds (and gives back
    /// when it is freed).
    func release(_ surface: Pixmap) {
        let address = UInt(bitPattern: surface.data.withUnsafeBytes { $0.baseAddress })
        let isOutput = outputPixels.withLock { $0.remove(address) != nil }
        if !isOutput { BufferPool.pixels.giveBack(surface.data, dirty: surface.dirtyRegion) }
    }

    func endFrame() {
        repeatedShapes.endFrame()
        gradientTables.endFrame()
        pathCoverages.endFrame()
        imagePixmaps.endFrame()
    }

    /// Images' pixels and mipmaps, kept while frames draw them.
    private let imagePixmaps = ImagePixmaps()

    /// Small solid draws' coverage, by shape, kept while frames draw them.
    private let repeatedShapes = RepeatedShapes()
    /// Gradients' colour tables, by stops, kept while frames draw them.
    private let gradientTables = GradientTables()
    /// Path fills' coverage, kept while frames draw them.
    private let pathCoverages = PathCoverages()
    /// The addresses of the outputs' pixels that images hold, until the
    /// frame releases its output (frames on several threads may share a
    /// painter).
    private let outputPixels = Mutex<Set<UInt>>([])

    func image(of output: Pixmap) throws -> CGImage {
        let address = UInt(bitPattern: output.data.withUnsafeBytes { $0.baseAddress })
        outputPixels.withLock { _ = $0.insert(address) }
        return CGImage(width: output.width, height: output.height, pooledPremultipliedRGBA: output.data, dirty: output.dirtyRegion)
    }

    func drawPolygon(_ draw: PolygonDraw, textures: TextureTable<Pixmap>, into target: inout Pixmap) throws {
        if let paint = try paint(of: draw, textures: textures, within: target.bounds) {
            target.paint(paint)
            paint.recycle()
        }
    }

    func fillPath(_ draw: PathFillDraw, into target: inout Pixmap) throws {
        if let paint = try paint(of: draw, within: target.bounds, direct: true) {
            target.paint(paint)
            paint.recycle()
        }
    }

    /// Draws a run of a pass's commands. With idle cores the run is cut into
    /// batches of at most `batchBytes` of coverage and copies: a batch's paints
    /// (coverage, tinted copies, everything but the target's pixels) are made
    /// side by side, then painted in bands of rows, every paint in each band.
    /// A paint depends on its command and the target's size alone, and the
    /// paints are applied in order in every row, so the picture is the same
    /// bytes as drawing the commands one by one (what a busy machine does).
    func draw(_ steps: [DrawStep<Pixmap>], into target: inout Pixmap, deadline: RenderDeadline?) throws {
        try draw(steps, into: &target, rows: nil, deadline: deadline)
    }

    func draw(_ steps: [DrawStep<Pixmap>], into target: inout Pixmap, within rows: RowSpans, deadline: RenderDeadline?) throws {
        try draw(steps, into: &target, rows: rows, deadline: deadline)
    }

    func clear(_ rows: RowSpans, columns: Range<Int>, of surface: inout Pixmap) { surface.clear(rows, columns: columns) }

    /// `rows`: only these rows painted (a frame redrawn where it changed), or all.
    private func draw(_ steps: [DrawStep<Pixmap>], into target: inout Pixmap, rows: RowSpans?, deadline: RenderDeadline?) throws {
        let bounds = target.bounds
        guard steps.count >= 2, RowBands.idleThreads > 1 else {
            for step in steps {
                try deadline?.check()
                if let paint = try paint(of: step, within: bounds, direct: true) {
                    if let rows { target.paint(paint, within: rows) } else { target.paint(paint) }
                    paint.recycle()
                }
            }
            return
        }
        var start = 0
        while start < steps.count {
            // The batch: steps until their coverage passes the budget (at least one).
            var end = start, budget = Self.batchBytes
            while end < steps.count {
                let cost = Self.bytesMadeAhead(of: steps[end], within: bounds)
                if end > start, cost > budget { break }
                budget -= cost
                end += 1
            }
            var made = [AnyRowPaint?](repeating: nil, count: end - start)
            var failures = [(any Error)?](repeating: nil, count: end - start)
            let batch = steps[start..<end]
            made.withUnsafeMutableBufferPointer { paintSlots in
                failures.withUnsafeMutableBufferPointer { failureSlots in
                    // Each job writes its own slots.
                    nonisolated(unsafe) let (paints, failures) = (paintSlots, failureSlots)
                    RowBands.forEachJob(count: batch.count) { j in
                        do {
                            try deadline?.check()
                            paints[j] = try self.paint(of: batch[batch.startIndex + j], within: bounds, direct: false)
                        } catch {
                            failures[j] = error
                        }
                    }
                }
            }
            // The first failure in drawing order is the one reported.
            if let failure = failures.first(where: { $0 != nil }) { throw failure! }
            target.paint(all: made, within: rows)
            for i in made.indices {
                // Out of the list first, so the pool holds the only reference.
                let paint = made[i]
                made[i] = nil
                paint?.recycle()
            }
            start = end
        }
    }

    /// The most bytes of coverage and copies made ahead for one batch of a run.
    static let batchBytes = 64 << 20

    /// What drawing `step` on a target of `bounds` paints; nil when nothing.
    /// `direct`: painted as soon as it is made, on this thread.
    private func paint(of step: DrawStep<Pixmap>, within bounds: PixelRect, direct: Bool) throws -> AnyRowPaint? {
        switch step {
        case .polygon(let draw, let textures): try paint(of: draw, textures: textures, within: bounds)
        case .path(let draw): try paint(of: draw, within: bounds, direct: direct)
        }
    }

    /// About how many bytes of its own drawing `step` makes ahead: coverage
    /// for its projected bounding box within the target, and a copy of the
    /// texture it recolours (four bytes a pixel).
    private static func bytesMadeAhead(of step: DrawStep<Pixmap>, within bounds: PixelRect) -> Int {
        switch step {
        case .polygon(let draw, let textures):
            var bytes = maskPixels(of: CollectionOfOne(draw.polygon), matrix: draw.matrix, width: bounds.width, height: bounds.height)
            switch draw.fill {
            case .color, .gradient: break
            case .texture(let texture, _, _, _, let tint):
                if tint != .white, let pixels = try? textures[texture] { bytes += pixels.data.count }
            case .alphaTint(let texture, _, _), .masked(let texture, _, _, _):
                if let pixels = try? textures[texture] { bytes += pixels.data.count }
            }
            return bytes
        case .path(let draw): return maskPixels(of: draw.contours, matrix: draw.matrix, width: bounds.width, height: bounds.height)
        }
    }

    /// What a polygon draw paints on a target of `bounds`: source-over, or
    /// through its blend mode.
    private func paint(of draw: PolygonDraw, textures: TextureTable<Pixmap>, within bounds: PixelRect) throws -> AnyRowPaint? {
        let paint = try sourceOverPaint(of: draw, textures: textures, within: bounds)
        return draw.blend == .normal ? paint : paint.map { AnyRowPaint(BlendedPaint($0, mode: draw.blend)) }
    }

    /// What a polygon draw paints source-over on a target of `bounds`.
    private func sourceOverPaint(of draw: PolygonDraw, textures: TextureTable<Pixmap>, within bounds: PixelRect) throws -> AnyRowPaint? {
        if let mask = draw.mask?.value {
            // A colour or a gradient through the mask's coverage (the
            // painting's clip), faded by its colour's alpha.
            let source: PaintSource
            switch draw.fill {
            case .color(let c): source = .solid(PremultipliedColor(c))
            case .gradient(let gradient): source = .gradient(gradient)
            case .texture, .alphaTint, .masked: throw InvalidRenderPlan("a picture through a mask path")
            }
            guard let masking = try coverage(of: mask, width: bounds.width, height: bounds.height) else { return nil }
            return try PolygonPainting(PolygonPaint(
                polygon: draw.polygon, transform: draw.matrix, source: source, roundedRect: draw.coverage, cuts: draw.cuts,
                alpha: draw.opacity * mask.color.alpha, clipMask: masking), within: bounds, ramp: gradientTables.ramp(for:))
                .map(AnyRowPaint.init)
        }
        let source: PaintSource
        switch draw.fill {
        case .color(let c):
            if let placement = repeatedShapes.placement(of: draw, within: bounds) {
                return try repeatedShapes.paint(of: draw, at: placement, color: PremultipliedColor(c), within: bounds)
                    .map(AnyRowPaint.init)
            }
            source = .solid(PremultipliedColor(c))
        case .texture(let texture, let localRect, let uvRect, let filter, let tint):
            var pixels = try textures[texture]
            // An image's mipmaps, made once while frames draw it (a surface's
            // pixels are new each frame, and a tinted copy is new each draw).
            var mipmaps: [Pixmap]?
            if tint != .white {
                pixels = multiplied(pixels, by: tint)
            } else if filter == .trilinear {
                mipmaps = imagePixmaps.mipmaps(of: pixels)
            }
            source = .texture(MappedTexture(pixmap: pixels, localRect: localRect, uvRect: uvRect, filter: filter, mipmaps: mipmaps))
        case .alphaTint(let texture, let localRect, let color):
            let mask = try textures[texture]
            let mapped = MappedTexture(pixmap: mask, localRect: localRect)
            if draw.coverage == nil, draw.cuts.isEmpty,
               let placed = Self.pixelAlignedPlacement(of: mapped, polygon: draw.polygon, matrix: draw.matrix) {
                // A shadow landing texel for pixel: its colour through the mask, no tinted copy.
                return try TintedComposite(PremultipliedColor(color), through: mask, atX: placed.x, y: placed.y,
                                           alpha: draw.opacity, within: placed.area.intersection(bounds))
                    .map(AnyRowPaint.init)
            }
            let tinted = mask.tinted(with: PremultipliedColor(color))
            source = .texture(MappedTexture(pixmap: tinted, localRect: localRect))
        case .gradient(let gradient):
            source = .gradient(gradient)
        case .masked(let texture, let mask, let localRect, let inverted):
            let picture = try textures[texture]
            if draw.coverage == nil, draw.cuts.isEmpty,
               let placed = Self.pixelAlignedPlacement(of: MappedTexture(pixmap: picture, localRect: localRect),
                                                       polygon: draw.polygon, matrix: draw.matrix),
               let paint = try MaskedComposite(picture, through: try textures[mask], inverted: inverted, atX: placed.x, y: placed.y,
                                               alpha: draw.opacity, within: placed.area.intersection(bounds)) {
                // A masked surface landing texel for pixel: masked as it is blended, no masked copy.
                return AnyRowPaint(paint)
            }
            var pixels = picture
            pixels.multiplyAlpha(by: try textures[mask], atX: 0, y: 0, inverted: inverted)
            source = .texture(MappedTexture(pixmap: pixels, localRect: localRect))
        }
        if case .texture(let texture) = source, draw.coverage == nil, draw.cuts.isEmpty,
           let placed = Self.pixelAlignedPlacement(of: texture, polygon: draw.polygon, matrix: draw.matrix) {
            // The common case of flat interfaces: a surface or image landing
            // texel for pixel. Blending rows costs a fraction of resampling.
            return try PixmapComposite(texture.pixmap, atX: placed.x, y: placed.y, alpha: draw.opacity,
                                       within: placed.area.intersection(bounds))
                .map(AnyRowPaint.init)
        }
        return try PolygonPainting(PolygonPaint(
            polygon: draw.polygon, transform: draw.matrix, source: source,
            roundedRect: draw.coverage, cuts: draw.cuts, alpha: draw.opacity), within: bounds, ramp: gradientTables.ramp(for:))
            .map(AnyRowPaint.init)
    }

    /// What a path fill paints on a target of `bounds`. `direct`: the
    /// paint is painted as soon as it is made, on this thread, rather than
    /// made ahead beside others; then a fill whose coverage is not kept
    /// is painted straight from its edges (`PathFill`), no mask made.
    private func paint(of draw: PathFillDraw, within bounds: PixelRect, direct: Bool) throws -> AnyRowPaint? {
        let color = PremultipliedColor(draw.color)
        if let mask = draw.mask?.value {
            // Through the mask's coverage, faded by its colour's alpha: each
            // pixel's coverage the product of the two. The draw's own
            // coverage, unless kept, is painted from its edges. (A draw of
            // no contours shows nothing: its mask is not rasterized.)
            guard !draw.clippedContours.isEmpty else { return nil }
            let coverage = try coverage(of: draw, width: bounds.width, height: bounds.height, unlessPaintedFromEdges: direct)
            guard coverage != nil || direct,
                  let masking = try self.coverage(of: mask, width: bounds.width, height: bounds.height)
            else { return nil }
            guard let coverage else {
                return try PathFill(contours: draw.clippedContours, fillRule: draw.evenOdd ? .evenOdd : .nonZero, color: color,
                                    alpha: mask.color.alpha, clip: masking, within: bounds, mapping: draw.matrix.planePointMap)
                    .map(AnyRowPaint.init)
            }
            return try MaskFill(coverage, color: color, alpha: mask.color.alpha, clip: masking, within: bounds).map(AnyRowPaint.init)
        }
        guard let mask = try coverage(of: draw, width: bounds.width, height: bounds.height, unlessPaintedFromEdges: direct) else {
            guard direct else { return nil }
            // Not kept, not a rectangle, not a piece: from its edges.
            return try PathFill(contours: draw.clippedContours, fillRule: draw.evenOdd ? .evenOdd : .nonZero, color: color,
                                within: bounds, mapping: draw.matrix.planePointMap).map(AnyRowPaint.init)
        }
        return try MaskFill(mask, color: color, within: bounds).map(AnyRowPaint.init)
    }

    /// At most how many pixels a mask of `contours` has: their projected
    /// bounding box within the target (the whole target when a point does
    /// not project).
    private static func maskPixels(of contours: some Sequence<[CGPoint]>, matrix: CATransform3D, width: Int, height: Int) -> Int {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for contour in contours {
            for point in contour {
                let h = matrix.apply(x: point.x, y: point.y)
                guard h.w > 0 else { return width * height }
                let x = Double(h.x / h.w), y = Double(h.y / h.w)
                minX = min(minX, x); maxX = max(maxX, x)
                minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite else { return width * height }
        let w = min(Double(width), max(0, maxX.rounded(.up))) - max(0, min(Double(width), minX.rounded(.down)))
        let h = min(Double(height), max(0, maxY.rounded(.up))) - max(0, min(Double(height), minY.rounded(.down)))
        return Int(max(0, w) * max(0, h))
    }

    /// What `draw` covers of a `width` x `height` target (its cuts applied),
    /// or nil when it covers nothing. With `unlessPaintedFromEdges`, also
    /// nil for a whole path whose coverage would be made for this drawing
    /// alone (drawn once: not kept): its caller paints it from its edges.
    private func coverage(of draw: PathFillDraw, width: Int, height: Int, unlessPaintedFromEdges fromEdges: Bool = false) throws -> CoverageMask? {
        let m = draw.matrix
        let contours = draw.clippedContours
        guard !contours.isEmpty else { return nil }
        if draw.cuts.isEmpty, contours.count == 1, contours[0].count <= 5,
           let rectangle = Pixmap.coverage(ofRectangle: contours[0].map { m.apply(to: $0) },
                                           within: PixelRect(x: 0, y: 0, width: width, height: height)) {
            // A rectangle (a shape layer's rect, a mask's): its rows need no accumulating.
            return rectangle
        }
        let rule: FillRule = draw.evenOdd ? .evenOdd : .nonZero
        if draw.cuts.isEmpty {
            func rasterized() throws -> CoverageMask {
                try CoverageRasterizer(width: width, height: height).rasterize(contours: contours, fillRule: rule) { m.apply(to: $0) }
            }
            // Drawn before (a still shape of an animation): its coverage again.
            switch pathCoverages.find(contours, matrix: m, evenOdd: draw.evenOdd, width: width, height: height) {
            case .kept(let mask): return mask
            case .drawnBefore(let key): return pathCoverages.keep(try rasterized(), as: key)
            case .drawnOnce: return fromEdges ? nil : try rasterized()
            }
        }
        // A piece of a split draw: its own pixels of the coverage.
        let mask = try CoverageRasterizer(width: width, height: height)
            .rasterize(contours: contours, fillRule: rule) { m.apply(to: $0) }
        guard let inverse = m.planeHomography.inverted() else { return nil }
        return mask.owned(by: draw.cuts.map { $0.inPixels(through: inverse) })
    }

    /// `source`'s alpha blurred, in white (see `DrawCommand.blurMask`): one
    /// channel blurred instead of four.
    func blurMask(_ source: Pixmap, blur: BlurMethod, into target: inout Pixmap) throws {
        let blurred = try MaskBlur.apply(blur, to: source)
        // The pass's own surface is replaced: its pixels go back to the pool.
        BufferPool.pixels.giveBack(target.data, dirty: target.dirtyRegion)
        target = blurred
    }

    /// `source` through a layer's filter (see `DrawCommand.filter`).
    func filter(_ source: Pixmap, _ filter: SurfaceFilter, into target: inout Pixmap) throws {
        let filtered = SurfaceFilters.apply(filter, to: source)
        BufferPool.pixels.giveBack(target.data, dirty: target.dirtyRegion)
        target = filtered
    }

    /// The pixels of `region` of `source`, one for one (a backdrop).
    func copy(_ region: PixelRect, of source: Pixmap, into copy: inout Pixmap) throws {
        let rowBytes = region.width * 4
        source.data.withUnsafeBytes { from in
            copy.withUnsafeMutableData { $0.withUnsafeMutableBytes { to in
                for row in 0..<region.height {
                    let start = ((region.y + row) * source.width + region.x) * 4
                    to.baseAddress!.advanced(by: row * rowBytes)
                        .copyMemory(from: from.baseAddress!.advanced(by: start), byteCount: rowBytes)
                }
            } }
        }
    }

    /// Where a textured polygon's texture lands when the draw is a plain
    /// copy: the matrix moves the texture by whole pixels without scaling,
    /// rotating or projecting, one texel covers one pixel, and the polygon is
    /// a rectangle of the texture (the whole, or the part the plan kept)
    /// whose edges fall on pixel edges. Then every pixel it touches is one
    /// texel, wholly covered, and sampling at its centre reads that texel
    /// exactly: a copy gives the same bytes. `area` is the polygon's pixels;
    /// nil when any of that is not so.
    private static func pixelAlignedPlacement(
        of texture: MappedTexture, polygon: [CGPoint], matrix m: CATransform3D
    ) -> (x: Int, y: Int, area: PixelRect)? {
        let local = texture.localRect, uv = texture.uvRect
        guard uv == CGRect(x: 0, y: 0, width: 1, height: 1),
              m.m12 == 0, m.m21 == 0, m.m14 == 0, m.m24 == 0, m.m44 == 1, m.m11 > 0, m.m22 > 0,
              polygon.count == 4,
              abs(Double(m.m11) * Double(local.size.width) - Double(texture.pixmap.width)) < 1e-6,
              abs(Double(m.m22) * Double(local.size.height) - Double(texture.pixmap.height)) < 1e-6
        else { return nil }
        // The polygon: an axis-aligned rectangle inside the texture's
        // rectangle: two xs, two ys, four different corners (in registers,
        // not sets: this is asked of every textured draw).
        let p = polygon
        let xs = SIMD4(Double(p[0].x), Double(p[1].x), Double(p[2].x), Double(p[3].x))
        let ys = SIMD4(Double(p[0].y), Double(p[1].y), Double(p[2].y), Double(p[3].y))
        let minX = CGFloat(xs.min()), maxX = CGFloat(xs.max()), minY = CGFloat(ys.min()), maxY = CGFloat(ys.max())
        guard minX < maxX, minY < maxY else { return nil }
        for i in 0..<4 {
            guard xs[i] == Double(minX) || xs[i] == Double(maxX), ys[i] == Double(minY) || ys[i] == Double(maxY) else { return nil }
            for j in (i + 1)..<4 where xs[i] == xs[j] && ys[i] == ys[j] { return nil }
        }
        guard minX >= local.minX, maxX <= local.maxX, minY >= local.minY, maxY <= local.maxY else { return nil }
        /// `v` as a whole number of pixels, or nil.
        func whole(_ v: Double) -> Int? {
            guard abs(v - v.rounded()) < 1e-6, abs(v) < 1e9 else { return nil }
            return Int(v.rounded())
        }
        func pixelX(_ x: CGFloat) -> Int? { whole(Double(x * m.m11 + m.m41)) }
        func pixelY(_ y: CGFloat) -> Int? { whole(Double(y * m.m22 + m.m42)) }
        guard let x = pixelX(local.minX), let y = pixelY(local.minY),
              let left = pixelX(minX), let right = pixelX(maxX), let top = pixelY(minY), let bottom = pixelY(maxY)
        else { return nil }
        return (x, y, PixelRect(x: left, y: top, width: right - left, height: bottom - top))
    }
}

/// A pixmap with every premultiplied channel multiplied by a colour.
private func multiplied(_ pixmap: Pixmap, by tint: RGBA) -> Pixmap {
    var copy = pixmap
    let k = SIMD4(tint.red * tint.alpha, tint.green * tint.alpha, tint.blue * tint.alpha, tint.alpha)
    copy.withUnsafeMutableData { $0.withUnsafeMutableBufferPointer { pixels in
        for i in pixels.indices {
            pixels[i] = UInt8((Double(pixels[i]) * k[i & 3]).rounded())
        }
    } }
    return copy
}
