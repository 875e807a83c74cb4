import LaminaRaster
import CEGL
import Foundation
import LaminaRender

extension GLPainter {
    /// One path fill: closed polygons in local coordinates, their fill
    /// rule, the transform from local to the target's pixels and a colour
    /// (see `fillPath`).
    struct PathFill {
        var contours: [[CGPoint]]
        var evenOdd: Bool
        var transform: CATransform3D
        var color: RGBA
    }

    /// Fills a path, given as closed polygons, with a premultiplied colour
    /// under the nonzero or the even-odd rule.
    ///
    /// The contours may be concave, self-intersecting, nested or overlapping:
    /// a point is filled when its winding number over all contours is not 0
    /// (nonzero) or is odd (`evenOdd`), and every filled pixel is blended
    /// once however many contours cover it, so a stroke's outline or a
    /// translucent shape made of overlapping pieces shows no darker seams.
    ///
    /// Where the painter `fillsPathsByWinding` (and no clip planes are
    /// given), each pixel's coverage is computed exactly, as the CPU
    /// backend computes it (`fillPaths`); elsewhere the path is stencilled
    /// and its edges left to multisampling (`fillByStencil`).
    ///
    /// - Parameters:
    ///   - contours: closed polygons in local coordinates, each implicitly
    ///     closed from its last point back to its first. Contours of fewer
    ///     than 3 points enclose nothing and are skipped.
    ///   - transform: local to the target's pixels, as for every draw. It may
    ///     be projective, but W must stay positive over the contours (and
    ///     their bounding box, which the stencil's cover pass draws).
    ///   - color: straight components in 0...1.
    ///   - clipPlanes: up to `GLDrawOptions.maximumClipPlanes` half-planes
    ///     a·x + b·y + c ≥ 0 in local coordinates; the fill is cut hard along
    ///     them (tested per pixel, as in `fillPolygon`).
    /// - Throws: `GLError.invalidArgument` for a point that is not finite, a
    ///   colour outside 0...1, bad clip planes or a target of another context.
    func fillPath(
        _ contours: [[CGPoint]], evenOdd: Bool, transform: CATransform3D, color: RGBA,
        clipPlanes: [HalfPlane] = [], into target: GLRenderTarget
    ) throws {
        let path = PathFill(contours: contours, evenOdd: evenOdd, transform: transform, color: color)
        guard clipPlanes.isEmpty else {
            try GLDrawOptions(clipPlanes: clipPlanes).validate()
            guard let premultiplied = try prepare(path, into: target) else { return }
            try fillByStencil(path, color: premultiplied, clipPlanes: clipPlanes, into: target)
            return
        }
        try fillPaths([path], into: target)
    }

    /// Fills `paths` in order, each as `fillPath` fills it (no clip
    /// planes), the later over the earlier.
    ///
    /// By winding, each path's coverage is computed at each pixel in two
    /// passes, and the paths of one call share them: the winding passes of
    /// as many paths as the winding buffer holds side by side are one draw
    /// into it, then their colour passes are drawn in turn (a framebuffer
    /// switch costs a software renderer a flush of everything it binned):
    /// 1. winding: each edge drawn as a quad from its left to its contour's
    ///    right onto the path's part of the winding buffer, adding at each
    ///    pixel its direction times the part of the pixel right of it
    ///    (`path_winding.frag`): the pixel's winding number weighted by
    ///    area, exact where no two edges share a pixel;
    /// 2. colour: the path's box, on whole pixels, in the colour times the
    ///    coverage the fill rule makes of that number (`fill_path.frag`).
    ///    Every sample of a multisampled pixel gets the same colour, so the
    ///    resolve keeps the exact coverage.
    /// A path with a point where W is not positive is stencilled, between
    /// the others in its place.
    func fillPaths(_ paths: [PathFill], into target: GLRenderTarget) throws {
        guard fillsPathsByWinding, let buffer = windingBuffer else {
            for path in paths {
                guard let premultiplied = try prepare(path, into: target) else { continue }
                try fillByStencil(path, color: premultiplied, clipPlanes: [], into: target)
            }
            return
        }
        var batch = WindingBatch(limit: min(Self.multisampleTileSide, context.info.maxTargetSide))
        for path in paths {
            guard let premultiplied = try prepare(path, into: target) else { continue }
            switch PathWindingGeometry.make(path.contours, transform: path.transform, within: target.pictureRegion) {
            case .nothingShows:
                continue
            case .needsClipSpace:
                // (A point that is not finite is refused there.)
                try drawByWinding(&batch, buffer: buffer, into: target)
                try fillByStencil(path, color: premultiplied, clipPlanes: [], into: target)
            case .edges(let edges):
                if !batch.add(edges, evenOdd: path.evenOdd, color: premultiplied) {
                    try drawByWinding(&batch, buffer: buffer, into: target)
                    _ = batch.add(edges, evenOdd: path.evenOdd, color: premultiplied)
                }
            }
        }
        try drawByWinding(&batch, buffer: buffer, into: target)
    }

    /// Checks a path's colour and transform and the target; the
    /// premultiplied colour, or nil for a colour of alpha 0, which adds
    /// nothing. (Its points are checked where they are read.)
    private func prepare(_ path: PathFill, into target: GLRenderTarget) throws -> SIMD4<Float>? {
        try path.color.validate("a path colour")
        try path.transform.validateForDrawing()
        try context.makeCurrent(for: "filling a path")
        guard target.context === context else {
            throw GLError.invalidArgument("a render target from another GL context cannot be drawn into here")
        }
        // Nothing to add: premultiplied, a colour of alpha 0 is all zeros.
        let premultiplied = path.color.premultipliedFloats()
        return premultiplied == .zero ? nil : premultiplied
    }

    /// The batch's two passes (`fillPaths`), leaving it empty.
    private func drawByWinding(_ batch: inout WindingBatch, buffer: GLWindingBuffer, into target: GLRenderTarget) throws {
        guard !batch.paths.isEmpty else { return }
        defer { batch.removeAll() }
        try buffer.bindCleared(width: batch.usedWidth, height: batch.usedHeight)
        applyFixedState(blending: true)
        glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE))
        let winding = try programs.program(.pathWindingVertex, .pathWinding)
        glUseProgram(winding.name)
        winding.set("u_size", Float(batch.usedWidth), Float(batch.usedHeight))
        stream.drawEdges(batch.vertices)

        try target.bindForDrawing()
        applyFixedState(blending: true)
        let fill = try programs.program(.localVertex, .fillPath)
        glUseProgram(fill.name)
        fill.set("u_clipFromLocal",
                 matrix: CATransform3D.pixelToClip(width: target.pictureWidth, height: target.pictureHeight).uniformValues)
        setClipPlanes([], on: fill)
        fill.set("u_shapeEnabled", false)
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D), buffer.texture)
        glBindSampler(0, 0)
        fill.set("u_winding", 0)
        // Every path's box uploaded once, each drawn from its four vertices.
        stream.upload(positions: batch.paths.flatMap { path in
            let (left, top) = (Float(path.box.x), Float(path.box.y))
            let (right, bottom) = (Float(path.box.maxX), Float(path.box.maxY))
            return [left, top, right, top, right, bottom, left, bottom]
        }, indices: nil)
        for (i, path) in batch.paths.enumerated() {
            fill.set("u_color", path.color.x, path.color.y, path.color.z, path.color.w)
            fill.set("u_evenOdd", path.evenOdd)
            // The texel of the box's top-left pixel is the path's slot's.
            fill.set("u_windingOrigin", Float(path.box.x - path.slot.x), Float(path.box.y - path.slot.y))
            stream.drawUploaded(mode: GL_TRIANGLE_FAN, firstVertex: 4 * i, vertexCount: 4)
        }
        stream.finishUploadedDraws()
    }

    /// The path stencilled, then covered. Two passes share one upload of
    /// every contour:
    /// 1. stencil: colour writes off, each contour drawn as a triangle fan
    ///    from its first point; nonzero counts front faces up and back faces
    ///    down (`GL_INCR_WRAP` / `GL_DECR_WRAP`), even-odd flips the bits
    ///    (`GL_INVERT`), leaving the winding per sample;
    /// 2. cover: the contours' bounding box, drawn in the colour where the
    ///    stencil passes (nonzero: != 0, even-odd: bit 0 set) and setting the
    ///    stencil back to 0 everywhere it touches, so the next path starts
    ///    from a clean stencil.
    ///
    /// Edges are anti-aliased when `target` is multisampled (the stencil is
    /// kept per sample); on a single-sampled target they are hard.
    private func fillByStencil(_ path: PathFill, color premultiplied: SIMD4<Float>, clipPlanes: [HalfPlane],
                               into target: GLRenderTarget) throws {
        guard let geometry = try PathFillGeometry(contours: path.contours) else { return }
        let (evenOdd, transform) = (path.evenOdd, path.transform)
        let program = try programs.program(.localVertex, .fillSolid)
        try target.bindForDrawingWithStencil()
        applyFixedState(blending: true)
        glUseProgram(program.name)
        program.set(
            "u_clipFromLocal",
            matrix: transform.concatenating(.pixelToClip(width: target.pictureWidth, height: target.pictureHeight)).uniformValues)
        program.set("u_shapeEnabled", false)
        program.set("u_color", premultiplied.x, premultiplied.y, premultiplied.z, premultiplied.w)
        stream.upload(positions: geometry.positions, indices: geometry.fanIndices)

        // Stencil pass. The clip planes apply here, not in the cover pass: a
        // fragment discarded while covering would keep its stencil value and
        // leak it into the next path, whereas one discarded here is never
        // counted at all.
        glEnable(GLenum(GL_STENCIL_TEST))
        glStencilMask(0xFF)
        glStencilFunc(GLenum(GL_ALWAYS), 0, 0xFF)
        if evenOdd {
            glStencilOp(GLenum(GL_KEEP), GLenum(GL_KEEP), GLenum(GL_INVERT))
        } else {
            glStencilOpSeparate(GLenum(GL_FRONT), GLenum(GL_KEEP), GLenum(GL_KEEP), GLenum(GL_INCR_WRAP))
            glStencilOpSeparate(GLenum(GL_BACK), GLenum(GL_KEEP), GLenum(GL_KEEP), GLenum(GL_DECR_WRAP))
        }
        glColorMask(GLboolean(GL_FALSE), GLboolean(GL_FALSE), GLboolean(GL_FALSE), GLboolean(GL_FALSE))
        setClipPlanes(clipPlanes, on: program)
        stream.drawUploaded(mode: GL_TRIANGLES, indexCount: geometry.fanIndices.count)

        // Cover pass. Even-odd leaves 0 or 0xFF (inverted an odd number of
        // times), so bit 0 tells odd from even. Every sample under the quad
        // is zeroed whether it passes or not.
        glColorMask(GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE))
        glStencilFunc(GLenum(GL_NOTEQUAL), 0, evenOdd ? 0x01 : 0xFF)
        glStencilOp(GLenum(GL_ZERO), GLenum(GL_ZERO), GLenum(GL_ZERO))
        setClipPlanes([], on: program)
        stream.drawUploaded(mode: GL_TRIANGLE_FAN, firstVertex: geometry.coverFirstVertex, vertexCount: 4)
        stream.finishUploadedDraws()
        glDisable(GLenum(GL_STENCIL_TEST))
    }
}
