import Foundation
import LaminaCore
import LaminaRaster

// Layers as planes: what each layer draws in its own plane (background,
// border, contents, shapes) as polygons and paths, clipped and cut.
extension PlanBuilder {
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
        // A gradient whose mask is a gradient laid on it (its opacity
        // stops, as lottie-ios draws them): one gradient, no mask. (Planned
        // as a layer of its own rather than bound in place of `layer`:
        // `fold ?? layer` copied every layer planned, a dozen references
        // retained and released.)
        if layer.mask != nil, let folded = Self.gradientFoldingItsMask(layer) {
            return try emitPlane(folded, matrix: matrix, clipping: clipping, opacity: opacity, tint: tint, into: &commands)
        }
        let alpha = opacity * layer.opacity
        guard alpha > 0 else { return }
        try countPlane(at: layer.path)
        let tint = combine(tint, layer.tint)
        let clippingWithNear = clipping.adding(matrix.nearPlane)
        if !layer.backgroundFilters.isEmpty {
            emitBackdrop(of: layer, matrix: matrix, clipping: clippingWithNear, opacity: alpha, into: &commands)
        }

        let hasShadow = (layer.shadow?.opacity ?? 0) > 0
        let clipsContent = layer.masksToBounds && (!layer.sublayers.isEmpty || !layer.content.isEmpty)
        // Without group opacity the fade reaches every draw on its own:
        // `alpha` is passed down to the content and the sublayers below.
        let groupOpacity = layer.opacity < 1 && layer.allowsGroupOpacity && drawsOverlap(layer)
        let hasFilters = !layer.filters.isEmpty
        let blended = layer.blendMode != .normal
        guard hasShadow || clipsContent || layer.mask != nil || groupOpacity || hasFilters || blended else {
            try emitContent(layer, matrix: matrix, clipping: clippingWithNear, opacity: alpha, tint: tint, into: &commands)
            return
        }
        if blended && !hasShadow && !clipsContent && layer.mask == nil && !hasFilters && drawsDisjointPictures(layer) {
            // Pictures that do not overlap (one, or the parts of a nine-part
            // one) blend each on its own as they would as a group: no
            // surface. An additive emitter's thousand particles are this.
            var drawn: [DrawCommand] = []
            try emitContent(layer, matrix: matrix, clipping: clippingWithNear, opacity: alpha, tint: tint, into: &drawn)
            for case .polygon(var draw) in drawn {
                draw.blend = layer.blendMode
                commands.append(.polygon(draw))
            }
            return
        }
        if clipsContent && !layer.isRounded && !hasShadow && layer.mask == nil && !groupOpacity && !hasFilters && !blended {
            // Square bounds and nothing else: four clip planes cut every draw
            // (sublayers' too, pulled back into their planes), as a surface
            // clipped to the bounds would, without the surface: a
            // wallpaper-sized clip costs no screen-sized picture.
            let b = layer.bounds
            var clipped = clippingWithNear
            for plane in [HalfPlane(a: 1, b: 0, c: -Double(b.minX)), HalfPlane(a: -1, b: 0, c: Double(b.maxX)),
                          HalfPlane(a: 0, b: 1, c: -Double(b.minY)), HalfPlane(a: 0, b: -1, c: Double(b.maxY))] {
                clipped = clipped.adding(plane)
            }
            try emitContent(layer, matrix: matrix, clipping: clipped, opacity: alpha, tint: tint, into: &commands)
            return
        }

        if !hasShadow, !hasFilters, !blended, !groupOpacity, !clipsContent, let masked = maskedSolidAsShape(layer) {
            // A solid masked by a shape (a Lottie solid with a mask, a
            // matte): the shape filled with the solid's colour, cut by the
            // solid's edges (clip planes pulled back into the shape's
            // plane), instead of two surfaces and a masked composite.
            var clipped = clippingWithNear
            for plane in masked.solidEdges { clipped = clipped.adding(plane) }
            let m = masked.shape.transformToSuperlayer
            try emitPlane(masked.shape, matrix: m.concatenating(matrix), clipping: clipped.pulledBack(through: m.planeHomography),
                          opacity: alpha, tint: tint, into: &commands)
            return
        }

        if !hasShadow, !hasFilters, !blended, !groupOpacity, !clipsContent, let sides = convexMaskSides(layer), !drawsOverlap(layer) {
            // A mask that is one convex polygon (a Lottie rectangle mask;
            // lottie-ios masks every gradient with its shape) over draws
            // that do not overlap: its sides cut each draw, anti-aliased as
            // the mask's edge is, as square bounds cut them above: no
            // surface for the layer, none for its mask, no masked
            // composite. (Draws that overlap are masked together: cut one
            // by one, an edge pixel would fade each and let the one below
            // show through the one above.)
            var clipped = clippingWithNear
            for plane in sides { clipped = clipped.adding(plane) }
            try emitContent(layer, matrix: matrix, clipping: clipped, opacity: alpha, tint: tint, into: &commands)
            return
        }

        if options.fillsMaskedPaths, !hasShadow, !hasFilters, !blended, !clipsContent, tint == nil,
           let draw = try drawMaskedByPath(layer, matrix: matrix, clipping: clippingWithNear, opacity: alpha) {
            // One draw masked by one path: the draw through the mask's
            // coverage, no surface for either. (One draw covers each pixel
            // once: faded alone, it fades as its group would.)
            if let draw { commands.append(draw) }
            return
        }

        // Offscreen: the layer in its own 2D coordinates, at the resolution
        // the target sees it, and only as much of it as can show: what lies
        // outside the target (with room for a shadow to blur into view) is
        // never drawn.
        var whole = paintedContentExtent(layer)
        if hasShadow, let path = layer.shadow?.path {
            // A shadow path casts its shadow whatever the layer paints.
            whole = whole.union(path.bounds)
        }
        if !layer.masksToBounds, hasFilters {
            // A blur spreads the picture by its reach: the surface holds the spread too.
            let reach = layer.filters.reduce(0) { $0 + $1.reach }
            whole = whole.insetBy(dx: -reach, dy: -reach)
        }
        if !layer.masksToBounds, layer.mask != nil, hasShadow, let shadow = layer.shadow {
            // The mask cuts the shadow too (below): the shadow must be in the surface it cuts.
            let pad = 3 * shadow.radius
            whole = whole.union(whole.offsetBy(dx: shadow.offset.width, dy: shadow.offset.height).insetBy(dx: -pad, dy: -pad))
        }
        if let mask = layer.mask?.value, !layer.maskIsInverted {
            // Where the mask paints nothing, nothing shows: no surface there.
            whole = whole.intersection(maskedExtent(by: mask))
        }
        guard !whole.isNull, whole.width > 0, whole.height > 0 else { return }
        var margin = 2.0
        if hasShadow, let shadow = layer.shadow {
            let reach = 3 * shadow.radius + Double(hypot(shadow.offset.width, shadow.offset.height))
            margin += reach * matrix.maxPixelScale(over: whole)
        }
        guard let visible = visiblePart(of: whole, matrix: matrix, margin: margin) else { return }
        let frame = surfaceFrame(for: visible, matrix: matrix, clipping: clippingWithNear, inOwnPlane: hasShadow || hasFilters)
        let (extent, scale) = (frame.extent, frame.scale)
        let purpose: SurfacePurpose = layer.mask != nil ? .mask : clipsContent ? .clip : hasShadow ? .shadow
            : hasFilters ? .filter : groupOpacity ? .groupOpacity : .blend
        var content = try renderToSurface(extent: extent, scale: scale, for: layer.path, purpose) { m, cmds throws(RenderRefusal) in
            try self.emitContent(layer, matrix: frame.toPlane.concatenating(m), clipping: .none, opacity: 1, tint: nil, into: &cmds)
        }
        // The filters work on what the layer drew, before its clip, mask and shadow.
        content = filtered(content, by: layer.filters, for: layer.path)
        // The surface's whole pixels cover a little more than `extent`: its
        // texture maps onto this rect, so nothing is stretched to fit.
        let contentRect = content.rect
        // masksToBounds clips what the layer draws (content and sublayers)
        // before its shadow is cast; the mask cuts the layer's whole output.
        // Core Animation clips and masks the shadow with the rest (which is
        // why a shadowed card with masksToBounds sits in a container that
        // casts the shadow): the shadow of what the bounds let through, under
        // it, then cut by the bounds and the mask.
        var cutters: [(surface: Surface, purpose: SurfacePurpose, inverted: Bool)] = []
        if layer.masksToBounds && layer.isRounded {
            let rounded = try renderToSurface(extent: extent, scale: scale, for: layer.path, .roundedClip) { m, cmds in
                let m = frame.toPlane.concatenating(m)
                cmds.append(.polygon(PolygonDraw(
                    matrix: m, polygon: PolygonClipper.clip(self.paddedForCoverage(layer.bounds, matrix: m), to: [m.nearPlane]),
                    fill: .color(.white), coverage: RoundedRectCoverage(rect: layer.bounds, radii: layer.cornerRadii))))
            }
            content = try maskSurface(content, by: rounded, extent: extent, scale: scale, for: layer.path, .roundedClip)
            cutters.append((rounded, .roundedClip, false))
        }
        if let mask = layer.mask?.value {
            let maskSurface = try renderToSurface(extent: extent, scale: scale, for: mask.path, .mask) { m, cmds throws(RenderRefusal) in
                try self.emitPlane(mask, matrix: mask.transformToSuperlayer.concatenating(frame.toPlane).concatenating(m), clipping: .none,
                                   opacity: 1, tint: nil, into: &cmds)
            }
            cutters.append((maskSurface, .mask, layer.maskIsInverted))
        }
        var area = contentRect
        let cutsShadow = layer.masksToBounds || layer.mask != nil
        if hasShadow, let shadow = layer.shadow, cutsShadow || blended {
            // One group, shadow under layer, cut as the layer is. A
            // translucent layer is not grouped with its shadow (below): each
            // is faded by the layer's opacity, so the shadow shows through
            // the layer, as Core Animation draws it (Apple's picture of
            // lottie-ios's pr_2559, a 13%-opaque layer with a drop shadow,
            // is darkened by both, to the level).
            let cast = try shadowSurface(shadow, content: content, scale: scale, for: layer.path)
            // Cut, the group is the surface the cutters cover (`extent`, which
            // reaches as far as a masked shadow can show); a cut surface must
            // cover its cutter's rect.
            let groupRect = cutsShadow ? contentRect : contentRect.union(cast.area)
            var combined = try renderToSurface(extent: groupRect, scale: scale, for: layer.path, .shadow) { m, cmds in
                cmds.append(.polygon(PolygonDraw(matrix: m, polygon: self.corners(of: cast.area),
                                                 fill: .alphaTint(.surface(cast.surface), localRect: cast.area, color: cast.color))))
                cmds.append(.polygon(PolygonDraw(matrix: m, polygon: self.corners(of: contentRect),
                                                 fill: .texture(.surface(content.id), localRect: contentRect, uvRect: CGRect(x: 0, y: 0, width: 1, height: 1),
                                                                filter: .linear, tint: .white))))
            }
            for cutter in cutters {
                combined = try maskSurface(combined, by: cutter.surface, inverted: cutter.inverted, extent: extent, scale: scale,
                                           for: layer.path, cutter.purpose)
            }
            content = combined
            area = combined.rect
        } else {
            let masks = cutters.filter { $0.purpose == .mask }
            if !hasShadow, tint == nil, masks.count == 1, let mask = masks.first {
                // The mask applied as the layer is drawn back: no surface is
                // made for the masked picture alone.
                emitPolygon(area, matrix: frame.drawBack, clipping: frame.clipping,
                            fill: .masked(source: .surface(content.id), mask: .surface(mask.surface.id), localRect: area,
                                          inverted: mask.inverted),
                            coverage: nil, opacity: alpha, blend: layer.blendMode, into: &commands)
                return
            }
            for cutter in masks {
                content = try maskSurface(content, by: cutter.surface, inverted: cutter.inverted, extent: extent, scale: scale,
                                          for: layer.path, .mask)
            }
            if hasShadow, let shadow = layer.shadow {
                let cast = try shadowSurface(shadow, content: content, scale: scale, for: layer.path)
                emitPolygon(cast.area, matrix: frame.drawBack, clipping: frame.clipping,
                            fill: .alphaTint(.surface(cast.surface), localRect: cast.area, color: tinted(cast.color, tint)),
                            coverage: nil, opacity: alpha, into: &commands)
            }
        }
        emitPolygon(area, matrix: frame.drawBack, clipping: frame.clipping,
                    fill: .texture(.surface(content.id), localRect: area, uvRect: CGRect(x: 0, y: 0, width: 1, height: 1),
                                   filter: .linear, tint: tint ?? .white),
                    coverage: nil, opacity: alpha, blend: layer.blendMode, into: &commands)
    }

    /// Whether everything `layer` draws is pictures that do not overlap:
    /// one `contents` image (its nine parts tile) and nothing else, or a
    /// background alone. Blending each draw alone is then blending the group.
    func drawsDisjointPictures(_ layer: RenderLayer) -> Bool {
        guard layer.sublayers.isEmpty, !(layer.borderWidth > 0 && layer.borderColor.alpha > 0) else { return false }
        let hasBackground = (layer.backgroundColor?.alpha ?? 0) > 0
        switch layer.content.count {
        case 0: return true
        case 1:
            switch layer.content[0] {
            case .image, .gradient: return !hasBackground
            case .fill: return false
            }
        default: return false
        }
    }

    /// Background, contents, sublayers, border: the layer drawn straight into
    /// the target.
    func emitContent(_ layer: RenderLayer, matrix: CATransform3D, clipping: Clipping, opacity: Double, tint: RGBA?, into commands: inout [DrawCommand]) throws(RenderRefusal) {
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
                let filter = pixelsPerUnit >= texelsPerUnit ? content.magnificationFilter.magnifying : content.minificationFilter
                let outline = layer.masksToBounds ? layout.rect.intersection(layer.bounds) : layout.rect
                guard !outline.isNull, outline.width > 0, outline.height > 0 else { continue }
                for quad in layout.quads {
                    // Nine parts are one picture: each part keeps its cell of
                    // the whole outline by cuts, so no seam shows between them.
                    emitPolygon(outline, matrix: matrix, clipping: clipping.cut(by: quad.cuts),
                                fill: .texture(.image(id), localRect: quad.local, uvRect: quad.uv, filter: filter,
                                              tint: combine(tint, content.multiplyColor) ?? .white),
                                coverage: nil, opacity: opacity, into: &commands)
                }
            case .gradient(let gradient):
                // Read at each pixel's local point: sharp at any scale, no picture made.
                emitPolygon(layer.bounds, matrix: matrix, clipping: clipping,
                            fill: .gradient(tint.map { gradient.multiplied(by: $0) } ?? gradient),
                            coverage: nil, opacity: opacity, into: &commands)
            case .fill(let fill):
                // Wholly outside a clip or the target (a precomposition's
                // particles outside its bounds): not flattened, not stroked.
                let planes = clipPlanes(for: fill.bounds, matrix: matrix, clipping: clipping)
                if planes.contains(where: { $0.excludes(fill.bounds) }) { continue }
                let pixelsPerUnit = max(matrix.maxPixelScale(over: fill.bounds), 1e-6)
                let outline = contours(of: fill, tolerance: options.curveTolerance / pixelsPerUnit)
                guard !outline.contours.isEmpty else { continue }
                try countSegments(outline.contours, at: layer.path)
                commands.append(.path(PathFillDraw(
                    matrix: matrix, outline: outline, evenOdd: fill.evenOdd,
                    color: tinted(fill.color, tint).withAlpha(times: opacity),
                    clipPlanes: planes, cuts: clipping.cuts)))
            }
        }
        try emitScene(of: layer, matrix: matrix, clipping: clipping, opacity: opacity, tint: tint, into: &commands)
        if layer.borderWidth > 0, layer.borderColor.alpha > 0 {
            emitPolygon(layer.bounds, matrix: matrix, clipping: clipping, fill: .color(tinted(layer.borderColor, tint)),
                        coverage: RoundedRectCoverage(rect: layer.bounds, radii: layer.cornerRadii, borderWidth: layer.borderWidth),
                        opacity: opacity, into: &commands)
        }
    }

    /// Where `layer` shows one square solid (a background colour and
    /// nothing else, itself or through layers that only hold one sublayer:
    /// a Lottie solid's colour layer) under a mask that shows one fill of
    /// one colour (a shape layer's path, itself or in a container: a Lottie
    /// mask), all in the layer's plane: the fill as a layer, placed in
    /// `layer`'s space, filling its shape with the solid's colour at the
    /// solid's and the mask's alphas, and the half-planes of the solid's
    /// edges in `layer`'s space. The masked solid shows exactly that shape,
    /// cut by those edges. Nil for anything else.
    func maskedSolidAsShape(_ layer: RenderLayer) -> (shape: RenderLayer, solidEdges: [HalfPlane])? {
        // The layer itself (its opacity and tint are the caller's), or its one sublayer's.
        let paints = layer.backgroundColor != nil || !layer.content.isEmpty || layer.borderWidth > 0
        guard let mask = layer.mask?.value, !layer.maskIsInverted, layer.effects == nil, !layer.masksToBounds,
              let (solid, toLayer, solidAlpha) = paints ? (layer, .identity, 1)
                : layer.sublayers.count == 1 ? Self.onlyPaintingLayer(in: layer.sublayers[0], placed: layer.sublayers[0].transformToSuperlayer, alpha: 1)
                : nil,
              let color = solid.backgroundColor, solid.content.isEmpty, solid.sublayers.isEmpty, !solid.isRounded,
              solid.borderWidth == 0 || solid.borderColor.alpha == 0,
              let (fillLayer, fillToLayer, maskAlpha) = Self.onlyPaintingLayer(in: mask, placed: mask.transformToSuperlayer, alpha: 1),
              case .fill(var fill)? = Self.onlyContent(of: fillLayer)
        else { return nil }
        // The solid's corners in the layer's space, and the side of each edge they enclose.
        let b = solid.bounds
        let corners = [CGPoint(x: b.minX, y: b.minY), CGPoint(x: b.maxX, y: b.minY), CGPoint(x: b.maxX, y: b.maxY), CGPoint(x: b.minX, y: b.maxY)]
            .map { toLayer.apply(to: $0) }
        guard let edges = Self.inwardSides(of: corners) else { return nil }
        // Every alpha in the fill's colour: one fill, drawn once, fades as
        // its layer would (no group to make).
        let solidOpacity = paints ? 1 : solid.opacity * solidAlpha
        var shape = fillLayer
        fill.color = RGBA(red: color.red, green: color.green, blue: color.blue,
                          alpha: color.alpha * fill.color.alpha * fillLayer.opacity * maskAlpha * solidOpacity)
        shape.content = [.fill(fill)]
        shape.transformToSuperlayer = fillToLayer
        shape.opacity = 1
        return (shape, edges)
    }

    /// The one draw `layer` paints, through `matrix` (its opacity
    /// `opacity`, clipped by `clipping`), with the one path fill its mask
    /// paints as its `mask`: what the layer and its mask draw when each
    /// paints once without a surface (`paintsOnce`: a shape, a gradient
    /// (the layer only), a solid masked by a shape, down through layers
    /// that only hold it), the mask not inverted and the layer unclipped.
    /// Nil when they do not; `.some(nil)` when they do and nothing of it
    /// can show (the layer's draw, or the mask, lies outside the
    /// clipping). Each is planned as it would be drawn into its surface, in
    /// the target's space instead.
    func drawMaskedByPath(_ layer: RenderLayer, matrix: CATransform3D, clipping: Clipping,
                          opacity: Double) throws(RenderRefusal) -> DrawCommand?? {
        guard let mask = layer.mask?.value, !layer.maskIsInverted, layer.effects == nil, !layer.masksToBounds else { return nil }
        // The layer without its mask, its opacity `opacity` already.
        var content = layer
        content.mask = nil
        content.opacity = 1
        guard paintsOnce(content, gradients: true), paintsOnce(mask, gradients: false), mask.transformToSuperlayer.isAffine else { return nil }
        // Counted against the budget as the surfaces would count them:
        // given back when the draws do not come out as two paths and the
        // surfaces are made instead.
        let counted = (planeCount, pathSegments)
        var fills: [DrawCommand] = [], masks: [DrawCommand] = []
        try emitPlane(content, matrix: matrix, clipping: clipping, opacity: opacity, tint: nil, into: &fills)
        // The mask unclipped, as into its surface: the clips cut the
        // layer's draw, once (cut both, a pixel on a clip's edge would be
        // faded by it twice).
        try emitPlane(mask, matrix: mask.transformToSuperlayer.concatenating(matrix), clipping: .none,
                      opacity: 1, tint: nil, into: &masks)
        // Either showing nothing here, nor does the masked layer.
        if fills.isEmpty || masks.isEmpty { return .some(nil) }
        var masked: DrawCommand?
        if fills.count == 1, masks.count == 1, case .path(let maskDraw) = masks[0], maskDraw.cuts.isEmpty, maskDraw.mask == nil {
            switch fills[0] {
            case .path(var draw) where draw.cuts.isEmpty && draw.mask == nil:
                draw.mask = Indirect(maskDraw)
                masked = .path(draw)
            case .polygon(var draw) where draw.cuts.isEmpty && draw.mask == nil && draw.blend == .normal && draw.fill.isColourOrGradient:
                draw.mask = Indirect(maskDraw)
                masked = .polygon(draw)
            default:
                break
            }
        }
        if masked == nil { (planeCount, pathSegments) = counted }
        return masked.map { .some($0) }
    }

    /// Whether `layer` (placed by an affine map, as every layer below it)
    /// paints once, one path fill or stroke (or, with `gradients`, one
    /// gradient) and nothing else, and makes no surface for it: a shape
    /// layer of one fill, a gradient layer, a solid masked by a shape
    /// (`maskedSolidAsShape`), or a layer that paints nothing of its own
    /// holding one such sublayer, none of them with an effect, a clip or a
    /// tint, none single-sided.
    func paintsOnce(_ layer: RenderLayer, gradients: Bool) -> Bool {
        guard !layer.isHidden, layer.opacity > 0, layer.kind == .ordinary, layer.effects == nil, layer.tint == nil,
              !layer.masksToBounds, layer.isDoubleSided, layer.transformToSuperlayer.isAffine, layer.transformToSuperlayer.isFinite
        else { return false }
        if layer.mask != nil {
            if let folded = Self.gradientFoldingItsMask(layer) { return paintsOnce(folded, gradients: gradients) }
            return maskedSolidAsShape(layer) != nil
        }
        let paints = layer.backgroundColor != nil || !layer.content.isEmpty || layer.borderWidth > 0
        if paints {
            switch Self.onlyContent(of: layer) {
            case .fill?: return true
            case .gradient?: return gradients
            case .image?, nil: return false
            }
        }
        return layer.sublayers.count == 1 && paintsOnce(layer.sublayers[0], gradients: gradients)
    }

    /// `layer`, a gradient and nothing else, with its mask folded into its
    /// colours: where the mask is a gradient of the same kind and ends on
    /// the same bounds, placed exactly on the layer (lottie-ios draws a
    /// Lottie gradient's opacity stops as such a mask), the mask's alpha at
    /// each parameter multiplies the gradient's colour there, which is what
    /// masking does at every pixel. Between stops the product is a curve:
    /// the folded gradient has a stop at each of the two's (two where
    /// either jumps there), and seven between each pair, so that it keeps
    /// within a quarter of a level of the product (the error of a chord of
    /// the product of two lines is at most a quarter of their changes'
    /// product over the pieces squared).
    /// Nil for anything else; the layer is then masked as any layer is.
    static func gradientFoldingItsMask(_ layer: RenderLayer) -> RenderLayer? {
        guard let mask = layer.mask?.value, !layer.maskIsInverted, layer.effects == nil, !layer.masksToBounds,
              case .gradient(let colours)? = Self.onlyContent(of: layer),
              !mask.isHidden, mask.kind == .ordinary, mask.mask == nil, mask.effects == nil, mask.tint == nil,
              case .gradient(let alphas)? = Self.onlyContent(of: mask),
              mask.bounds == layer.bounds, mask.transformToSuperlayer.isIdentity,
              alphas.shape == colours.shape, alphas.start == colours.start, alphas.end == colours.end,
              !colours.stops.isEmpty, !alphas.stops.isEmpty
        else { return nil }
        let opacity = min(1, max(0, mask.opacity))
        func product(at t: Double) -> (Double, Double, Double, Double) {
            let c = colours.color(at: t), a = alphas.color(at: t).3 * opacity
            return (c.0 * a, c.1 * a, c.2 * a, c.3 * a)
        }
        var locations = (colours.stops.map(\.location) + alphas.stops.map(\.location)).sorted()
        locations = locations.enumerated().filter { $0.offset == 0 || $0.element != locations[$0.offset - 1] }.map(\.element)
        var stops: [(location: Double, color: (Double, Double, Double, Double))] = []
        stops.reserveCapacity(locations.count * 9)
        for (i, location) in locations.enumerated() {
            // A hard edge (two stops of either at one place) stays one: the
            // colours just before and just after it, both at its place.
            let before = product(at: location.nextDown), after = product(at: location.nextUp)
            let jumps = [before.0 - after.0, before.1 - after.1, before.2 - after.2, before.3 - after.3].contains { abs($0) > 1e-9 }
            if jumps {
                stops.append((location, before))
                stops.append((location, after))
            } else {
                stops.append((location, product(at: location)))
            }
            guard i + 1 < locations.count else { break }
            for k in 1..<8 {
                let t = location + (locations[i + 1] - location) * Double(k) / 8
                stops.append((t, product(at: t)))
            }
        }
        var folded = layer
        var gradient = colours
        gradient.stops = stops
        folded.content = [.gradient(gradient)]
        folded.mask = nil
        return folded
    }

    /// Where `layer`'s mask shows one opaque fill whose region is a convex
    /// polygon of at most eight corners (`PathData.convexPolygon`), placed
    /// in the layer's plane: the half-planes of its sides in the layer's
    /// space, facing in. The mask lets through exactly what lies inside all
    /// of them. Nil for anything else (a curve, a translucent or inverted
    /// mask, a mask of several layers).
    func convexMaskSides(_ layer: RenderLayer) -> [HalfPlane]? {
        guard let mask = layer.mask?.value, !layer.maskIsInverted, layer.effects == nil, !layer.masksToBounds,
              let (fillLayer, fillToLayer, maskAlpha) = Self.onlyPaintingLayer(in: mask, placed: mask.transformToSuperlayer, alpha: 1),
              case .fill(let fill)? = Self.onlyContent(of: fillLayer),
              fill.color.alpha * fillLayer.opacity * maskAlpha == 1, case .fill(let path) = fill.outline,
              let corners = path.convexPolygon(maximumCorners: 8)
        else { return nil }
        return Self.inwardSides(of: corners.map { fillToLayer.apply(to: $0) })
    }

    /// The half-planes of a convex polygon's sides, each facing the side
    /// its centroid lies on; nil where a side has no length or a plane's
    /// coefficients are not finite.
    static func inwardSides(of corners: [CGPoint]) -> [HalfPlane]? {
        let n = corners.count
        let center = CGPoint(x: corners.reduce(0) { $0 + $1.x } / CGFloat(n), y: corners.reduce(0) { $0 + $1.y } / CGFloat(n))
        var sides: [HalfPlane] = []
        sides.reserveCapacity(n)
        for i in 0..<n {
            let (p, q) = (corners[i], corners[(i + 1) % n])
            let a = -Double(q.y - p.y), b = Double(q.x - p.x)
            guard a != 0 || b != 0 else { return nil }
            let plane = HalfPlane(a: a, b: b, c: -(a * Double(p.x) + b * Double(p.y)))
            sides.append(plane.value(at: center) >= 0 ? plane : plane.flipped)
        }
        guard sides.allSatisfy({ $0.a.isFinite && $0.b.isFinite && $0.c.isFinite }) else { return nil }
        return sides
    }

    /// The one layer that paints in `layer`'s subtree, with its matrix to
    /// `layer`'s superlayer's space (`placed` is `layer`'s own) and the
    /// product of the opacities above it: `layer` itself where it paints,
    /// else its one sublayer's, down through layers that only hold it (no
    /// paint, clip, mask or effect of their own). Every matrix is a finite
    /// 2D affine map (`isAffine`); nil otherwise, or where nothing or more than
    /// one layer would paint.
    static func onlyPaintingLayer(in layer: RenderLayer, placed: CATransform3D, alpha: Double) -> (RenderLayer, CATransform3D, Double)? {
        guard !layer.isHidden, layer.kind == .ordinary, layer.mask == nil, layer.effects == nil, layer.tint == nil,
              !layer.masksToBounds, placed.isAffine, placed.isFinite
        else { return nil }
        let paints = layer.backgroundColor != nil || !layer.content.isEmpty || layer.borderWidth > 0
        if paints { return (layer, placed, alpha) }
        guard layer.sublayers.count == 1, let only = layer.sublayers.first else { return nil }
        return onlyPaintingLayer(in: only, placed: only.transformToSuperlayer.concatenating(placed), alpha: alpha * layer.opacity)
    }

    /// The one piece of content `layer` paints when it paints nothing else:
    /// no background, no border that shows, no sublayer.
    static func onlyContent(of layer: RenderLayer) -> RenderContent? {
        guard layer.backgroundColor == nil, layer.borderWidth == 0 || layer.borderColor.alpha == 0,
              layer.sublayers.isEmpty, layer.content.count == 1 else { return nil }
        return layer.content[0]
    }

    /// Draws `rect` (its corners; with `coverage`, a rect a pixel larger,
    /// whose soft edge the coverage draws) cut by the clips and the target.
    func emitPolygon(_ rect: CGRect, matrix: CATransform3D, clipping: Clipping, fill: PolygonFill, coverage: RoundedRectCoverage?, opacity: Double,
                     blend: BlendMode = .normal, into commands: inout [DrawCommand]) {
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
                                             cuts: clipping.cuts, blend: blend)))
    }
}

/// Two replicator tints applied one after the other (nil: no tint).
func combine(_ a: RGBA?, _ b: RGBA?) -> RGBA? {
    switch (a, b) {
    case (nil, nil): return nil
    case (let x?, nil), (nil, let x?): return x
    case (let x?, let y?): return x.multiplied(by: y)
    }
}

/// `color` under a replicator's tint, if any.
func tinted(_ color: RGBA, _ tint: RGBA?) -> RGBA {
    tint.map { color.multiplied(by: $0) } ?? color
}
