import Foundation
import LaminaCore
import LaminaRaster

// Offscreen surfaces: group opacity, masks, clips and shadows drawn into a
// surface of their own, at the scale they are seen at, then drawn as one
// textured polygon.
extension PlanBuilder {
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
    func clipPlanes(for bounds: CGRect, matrix: CATransform3D, clipping: Clipping) -> [HalfPlane] {
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

    /// `extent` grown to whole pixels of the target, and the scale that
    /// maps it onto them, where `matrix` only scales (the same both ways,
    /// either sign) and moves: the surface's pixels then land on the
    /// target's, and drawing it back copies them. Otherwise a surface whose
    /// corner falls between pixels is resampled on the way back, which
    /// blurs every edge in it by up to a pixel (a masked shape's outline,
    /// say). Nil for any other matrix, or a surface the budget would shrink.
    func pixelAligned(_ extent: CGRect, matrix m: CATransform3D) -> (extent: CGRect, scale: Double)? {
        let (sx, sy) = (Double(m.m11), Double(m.m22))
        guard m.m12 == 0, m.m21 == 0, m.m14 == 0, m.m24 == 0, m.m44 == 1,
              abs(sx) > 1e-6, abs(abs(sx) - abs(sy)) <= 1e-9 * abs(sx) else { return nil }
        let scale = abs(sx)
        guard limitedScale(scale, for: extent) == scale else { return nil }
        let xs = [Double(extent.minX) * sx + Double(m.m41), Double(extent.maxX) * sx + Double(m.m41)]
        let ys = [Double(extent.minY) * sy + Double(m.m42), Double(extent.maxY) * sy + Double(m.m42)]
        // Whole pixels, past a rounding error's width of slack.
        let (x0, x1) = ((xs.min()! + 1e-6).rounded(.down), (xs.max()! - 1e-6).rounded(.up))
        let (y0, y1) = ((ys.min()! + 1e-6).rounded(.down), (ys.max()! - 1e-6).rounded(.up))
        let lx = [(x0 - Double(m.m41)) / sx, (x1 - Double(m.m41)) / sx]
        let ly = [(y0 - Double(m.m42)) / sy, (y1 - Double(m.m42)) / sy]
        let aligned = CGRect(x: lx.min()!, y: ly.min()!, width: abs(lx[1] - lx[0]), height: abs(ly[1] - ly[0]))
        return aligned.width > 0 && aligned.height > 0 ? (aligned, scale) : nil
    }

    /// The plane a layer's offscreen surfaces are drawn in, and how they
    /// are drawn back.
    struct SurfaceFrame {
        /// The layer's local coordinates → the surfaces' plane.
        var toPlane: CATransform3D
        /// The surfaces' plane → the target.
        var drawBack: CATransform3D
        /// What limits the draw back, in the surfaces' plane.
        var clipping: Clipping
        /// The part of the plane the surfaces cover, at `scale` pixels per unit.
        var extent: CGRect
        var scale: Double
    }

    /// Where to draw the offscreen surfaces of a layer whose `visible` part
    /// (local units) `matrix` maps to the target, under `clipping`.
    ///
    /// In the layer's own plane, at the density the target sees it (laid on
    /// the target's pixels where the matrix only scales and moves:
    /// `pixelAligned`). But a layer the matrix turns or skews in the
    /// target's plane would be resampled, turned, on the way back, which
    /// softens every edge in it (a masked shape's outline, a matte's): its
    /// surfaces are drawn in the target's pixels instead, the layer's matrix
    /// applied as it is drawn into them, and drawing them back copies
    /// pixels, as drawing the layer directly would have placed them.
    /// A mirrored layer's surfaces are drawn mirrored, for the same reason.
    /// `inOwnPlane` keeps the layer's plane: shadows and filters are worked
    /// out there (their offsets and radii are the layer's).
    func surfaceFrame(for visible: CGRect, matrix: CATransform3D, clipping: Clipping, inOwnPlane: Bool) -> SurfaceFrame {
        if let (extent, scale) = pixelAligned(visible, matrix: matrix) {
            let aligned = SurfaceFrame(toPlane: .identity, drawBack: matrix, clipping: clipping, extent: extent, scale: scale)
            // A mirrored layer (a negative scale: artwork flipped) is drawn
            // mirrored into its surfaces, so that they are drawn back the
            // right way round, copied texel for pixel instead of resampled.
            let (flipsX, flipsY) = (matrix.m11 < 0, matrix.m22 < 0)
            guard !inOwnPlane, flipsX || flipsY else { return aligned }
            let mirror = CATransform3D(scaleX: flipsX ? -1 : 1, y: flipsY ? -1 : 1, z: 1)
            let mirrored = CGRect(x: flipsX ? -visible.maxX : visible.minX, y: flipsY ? -visible.maxY : visible.minY,
                                  width: visible.width, height: visible.height)
            let drawBack = mirror.concatenating(matrix)
            guard let (planeExtent, planeScale) = pixelAligned(mirrored, matrix: drawBack) else { return aligned }
            return SurfaceFrame(toPlane: mirror, drawBack: drawBack, clipping: clipping.pulledBack(through: mirror.planeHomography),
                                extent: planeExtent, scale: planeScale)
        }
        let own = SurfaceFrame(toPlane: .identity, drawBack: matrix, clipping: clipping, extent: visible,
                               scale: surfaceScale(matrix: matrix, extent: visible))
        guard !inOwnPlane, matrix.m14 == 0, matrix.m24 == 0, matrix.m44 == 1,
              let box = CGRect.bounding(visible.cornerPolygon.map { CGPoint(x: $0.x * matrix.m11 + $0.y * matrix.m21 + matrix.m41,
                                                                            y: $0.x * matrix.m12 + $0.y * matrix.m22 + matrix.m42) }),
              box.minX.isFinite, box.minY.isFinite, box.maxX.isFinite, box.maxY.isFinite,
              let toLocal = matrix.planeHomography.inverted()
        else { return own }
        // Whole target pixels, past a rounding error's width of slack, and
        // only those of the target: the box of a turned layer's visible
        // part reaches past the target's corners, and no pixel there shows
        // (a layer of nested turned masks held surfaces of many canvases).
        let target = viewport.integral
        let x0 = max((Double(box.minX) + 1e-6).rounded(.down), Double(target.minX))
        let x1 = min((Double(box.maxX) - 1e-6).rounded(.up), Double(target.maxX))
        let y0 = max((Double(box.minY) + 1e-6).rounded(.down), Double(target.minY))
        let y1 = min((Double(box.maxY) - 1e-6).rounded(.up), Double(target.maxY))
        let extent = CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        guard extent.width > 0, extent.height > 0, limitedScale(1, for: extent) == 1 else { return own }
        return SurfaceFrame(toPlane: matrix, drawBack: .identity, clipping: clipping.pulledBack(through: toLocal),
                            extent: extent, scale: 1)
    }

    func surfaceScale(matrix: CATransform3D, extent: CGRect) -> Double {
        limitedScale(max(matrix.maxPixelScale(over: extent), 1e-3), for: extent)
    }

    /// `scale` lowered as far as needed for a surface over `extent` to keep
    /// within the largest side and the pixel budget: no more pixels than a
    /// few times the target it is drawn into (more only shows where
    /// perspective magnifies a sliver), and never more than the options allow.
    func limitedScale(_ scale: Double, for extent: CGRect) -> Double {
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
    func renderToSurface(
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

    /// `source` times the alpha of `mask` (times one minus it, `inverted`),
    /// both made over `extent` at `scale` (so of one size, covering one rect).
    func maskSurface(_ source: Surface, by mask: Surface, inverted: Bool = false, extent: CGRect, scale: Double,
                     for layer: LayerPath, _ purpose: SurfacePurpose) throws(RenderRefusal) -> Surface {
        try renderToSurface(extent: extent, scale: scale, for: layer, purpose) { m, cmds in
            cmds.append(.polygon(PolygonDraw(
                matrix: m, polygon: self.corners(of: source.rect),
                fill: .masked(source: .surface(source.id), mask: .surface(mask.id), localRect: source.rect, inverted: inverted))))
        }
    }

    /// The shadow: the layer's alpha (or its `shadowPath`) blurred, moved by
    /// the offset, to be painted in `color` below the layer. `area` is where
    /// the surface lands in the layer's local space.
    func shadowSurface(_ shadow: RenderShadow, content: Surface, scale: Double, for layer: LayerPath)
        throws(RenderRefusal) -> (surface: SurfaceID, area: CGRect, color: RGBA)
    {
        let pad = 3 * shadow.radius
        var shape = content.rect
        // Flattened for the surface's pixels, as every path of the plan is.
        let pathOutline = shadow.path.map { contours(of: $0, tolerance: options.curveTolerance / max(scale, 1e-6)) }
        if let pathOutline {
            try countSegments(pathOutline.contours, at: layer)
            shape = pathOutline.bounds ?? .zero
        }
        let area = shape.insetBy(dx: -pad, dy: -pad)
        let alpha = try renderToSurface(extent: area, scale: scale, for: layer, .shadow) { m, cmds in
            if let pathOutline {
                cmds.append(.path(PathFillDraw(matrix: m, outline: pathOutline, evenOdd: false, color: .white)))
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

    /// `content` through each of `filters` in turn: one pass a filter, each
    /// into a new surface of the same size covering the same rect. A blur's
    /// deviation in points becomes the surface's pixels (it may have come
    /// out coarser than asked: its pixel budget).
    func filtered(_ content: Surface, by filters: [RenderFilter], for layer: LayerPath) -> Surface {
        var current = content
        for filter in filters {
            let size = surfaces[surfaceIndex(current.id)]
            let next = SurfaceID.offscreen(surfaces.count)
            surfaces.append(SurfaceDescription(width: size.width, height: size.height, purpose: .filter, layer: layer))
            let pass: SurfaceFilter
            switch filter {
            case .blur(let sigma):
                // At most a sixth of the surface's side (its padding is 3σ a
                // side; the validation holds every blur to this): a radius of
                // 1e300 blurs as widely as the surface allows.
                let pixelsPerPoint = Double(size.width) / Double(current.rect.width)
                let limit = Double(max(size.width, size.height, 1)) / 6
                let pixels = sigma * pixelsPerPoint
                pass = .blur(BlurMethod(sigma: pixels.isFinite ? min(pixels, limit) : limit))
            case .colorMatrix(let matrix):
                pass = .colorMatrix(matrix)
            }
            passes.append(RenderPass(target: next, commands: [.filter(source: current.id, pass)]))
            current = Surface(id: next, rect: current.rect)
        }
        return current
    }

    func surfaceIndex(_ id: SurfaceID) -> Int {
        if case .offscreen(let i) = id { return i }
        return 0
    }

    func imageID(_ image: CGImage) -> ImageID {
        let key = ObjectIdentifier(image)
        if let i = imageIndex[key] { return ImageID(i) }
        images.append(image.downscaled(toFit: options.maxImageSide))
        imageIndex[key] = images.count - 1
        return ImageID(images.count - 1)
    }
}
