import LaminaRaster
import CEGL
import Foundation
import LaminaRender

/// The draw primitives the render-plan executor drives: polygons, meshes and
/// paths (`fillPath`) in painter's order with premultiplied
/// source-over blending, and blurs.
///
/// Every draw gives its vertices in a local 2D space and a `CATransform3D` from
/// local to the target's pixels (top-left origin, y down). No depth buffer is
/// used: what is drawn later covers what was drawn before. A painter owns the
/// programs, samplers, vertex buffers and a pool of render targets for its
/// context; keep one per context for its whole life.
///
/// GL errors are not checked after each draw (that would slow the hot loop);
/// call `context.checkErrors(_:)` at the end of a frame. Reading back or
/// resolving a target checks them too.
final class GLPainter {
    let context: GLContext
    /// Compiled programs.
    let programs: GLProgramCache
    /// Render targets reused across frames (offscreen passes, blur steps).
    let targets: GLRenderTargetPool
    let samplers: GLSamplerCache
    let stream: GLVertexStream
    /// Where path fills sum their edges; nil where the context cannot add
    /// floats by blending (paths are then stencilled).
    let windingBuffer: GLWindingBuffer?
    /// Whether `fillPath` computes each pixel's exact coverage (a winding
    /// pass into `windingBuffer`, then a colour pass), as the CPU backend
    /// does, rather than stencilling the path and leaving its edges to
    /// multisampling: true wherever the context allows it (tests turn it
    /// off to draw both ways).
    var fillsPathsByWinding: Bool

    /// Prepares a painter for `context`, compiling every program now so that
    /// a shader problem shows up here rather than in the middle of a frame.
    /// - Parameter shaders: where the shader files are read; `nil` finds them
    ///   with `ShaderLocator`.
    init(context: GLContext, shaders: ShaderLibrary? = nil) throws {
        self.context = context
        programs = GLProgramCache(context: context, library: try shaders ?? ShaderLibrary())
        targets = GLRenderTargetPool(context: context)
        samplers = GLSamplerCache(context: context)
        stream = try GLVertexStream(context: context)
        windingBuffer = GLWindingBuffer.isSupported(by: context.info) ? GLWindingBuffer(context: context) : nil
        fillsPathsByWinding = windingBuffer != nil
        try programs.compileAll()
    }

    // MARK: - Polygons and meshes

    /// Fills the convex polygon `points` (local coordinates, in order around
    /// the outline) with `paint`.
    /// - Throws: `GLError.invalidArgument` for fewer than 3 points, a value
    ///   that is not finite, bad options, a texture of another context or the
    ///   target sampling itself.
    func fillPolygon(
        _ points: [CGPoint], transform: CATransform3D, paint: GLPaint,
        options: GLDrawOptions = GLDrawOptions(), into target: GLRenderTarget
    ) throws {
        guard points.count >= 3 else {
            throw GLError.invalidArgument("a polygon needs at least 3 points, got \(points.count)")
        }
        try draw(
            mode: GL_TRIANGLE_FAN, positions: try Self.positions(points, "polygon"), indices: nil,
            transform: transform, paint: paint, options: options, target: target)
    }

    /// Fills triangles (local coordinates): consecutive triples of `vertices`,
    /// or of `indices` into `vertices` when given. Meant for tessellated
    /// paths; draw into a multisampled target for anti-aliased edges.
    func fillTriangles(
        _ vertices: [CGPoint], indices: [UInt32]? = nil, transform: CATransform3D, paint: GLPaint,
        options: GLDrawOptions = GLDrawOptions(), into target: GLRenderTarget
    ) throws {
        if let indices {
            guard indices.count % 3 == 0 else {
                throw GLError.invalidArgument("a triangle mesh needs a multiple of 3 indices, got \(indices.count)")
            }
            if let bad = indices.first(where: { Int($0) >= vertices.count }) {
                throw GLError.invalidArgument("a triangle mesh index \(bad) is past its \(vertices.count) vertices")
            }
            if indices.isEmpty { return }
        } else {
            guard vertices.count % 3 == 0 else {
                throw GLError.invalidArgument(
                    "a triangle mesh needs a multiple of 3 vertices, got \(vertices.count)")
            }
            if vertices.isEmpty { return }
        }
        try draw(
            mode: GL_TRIANGLES, positions: try Self.positions(vertices, "triangle mesh"), indices: indices,
            transform: transform, paint: paint, options: options, target: target)
    }

    private static func positions(_ points: [CGPoint], _ what: String) throws -> [Float] {
        var result: [Float] = []
        result.reserveCapacity(points.count * 2)
        for point in points {
            guard point.x.isFinite, point.y.isFinite else {
                throw GLError.invalidArgument("a \(what) has a point that is not finite: \(point)")
            }
            result.append(Float(point.x))
            result.append(Float(point.y))
        }
        return result
    }

    /// A texture read made ready: its name, sampler and uv mapping.
    private struct BoundInput {
        var texture: GLuint
        var sampler: GLuint
        var uvFromLocal: (Float, Float, Float, Float)
        /// The texture's size in texels when the shader eases its reads
        /// (`GLSampling.easesBetweenTexels`), else zero.
        var easedTexels: (Float, Float)
    }

    private func prepare(_ input: GLTextureInput, for target: GLRenderTarget) throws -> BoundInput {
        guard input.source.context === context else {
            throw GLError.invalidArgument("a texture from another GL context cannot be drawn here")
        }
        guard input.source !== target else {
            throw GLError.invalidArgument("a render target cannot be sampled while drawing into it")
        }
        let uv = try input.mapping.uvFromLocal()
        let texture = try input.source.textureForSampling(mipmaps: input.sampling.needsMipmaps)
        let eased = input.sampling.easesBetweenTexels ? (Float(input.source.width), Float(input.source.height)) : (0, 0)
        return BoundInput(texture: texture, sampler: samplers.sampler(input.sampling), uvFromLocal: uv, easedTexels: eased)
    }

    private func draw(
        mode: Int32, positions: [Float], indices: [UInt32]?, transform: CATransform3D, paint: GLPaint,
        options: GLDrawOptions, target: GLRenderTarget
    ) throws {
        try options.validate()
        try transform.validateForDrawing()
        try context.makeCurrent(for: "drawing")
        guard target.context === context else {
            throw GLError.invalidArgument("a render target from another GL context cannot be drawn into here")
        }
        let opacity = Float(options.opacity)
        // An advanced blend equation needs the program variant that allows it.
        let advanced = Self.advancedEquations[options.blend] != nil

        // Textures are made ready (resolved, mipmapped) before the target is
        // bound: resolving rebinds framebuffers.
        let program: GLProgram
        var inputs: [BoundInput] = []
        var color: SIMD4<Float>?
        var tint: SIMD4<Float>?
        var maskInverted: Bool?
        switch paint {
        case let .color(paintColor):
            try paintColor.validate("a fill colour")
            program = try programs.program(.localVertex, .fillSolid, advancedBlend: advanced)
            color = paintColor.premultipliedFloats(times: opacity)
        case let .texture(input):
            program = try programs.program(.localVertex, .fillTexture, advancedBlend: advanced)
            inputs = [try prepare(input, for: target)]
            tint = RGBA.white.premultipliedFloats()
        case let .tintedTexture(input, tintColor):
            try tintColor.validate("a texture tint")
            program = try programs.program(.localVertex, .fillTexture, advancedBlend: advanced)
            inputs = [try prepare(input, for: target)]
            tint = tintColor.premultipliedFloats()
        case let .alphaTint(input, tint):
            try tint.validate("a tint colour")
            program = try programs.program(.localVertex, .tintAlpha, advancedBlend: advanced)
            inputs = [try prepare(input, for: target)]
            color = tint.premultipliedFloats(times: opacity)
        case let .masked(input, mask, inverted):
            program = try programs.program(.localVertex, .mask, advancedBlend: advanced)
            inputs = [try prepare(input, for: target), try prepare(mask, for: target)]
            maskInverted = inverted
        }
        // Nothing to add: skip, now that the input is known to be valid.
        if opacity == 0 { return }
        if let color, color == .zero { return }

        try target.bindForDrawing()
        applyFixedState(blending: true)
        if options.blend != .normal { try applyBlendMode(options.blend) }
        glUseProgram(program.name)
        program.set(
            "u_clipFromLocal",
            matrix: transform.concatenating(.pixelToClip(width: target.pictureWidth, height: target.pictureHeight)).uniformValues)
        setCoverage(options, on: program)
        if let color {
            program.set("u_color", color.x, color.y, color.z, color.w)
        }
        if let tint {
            program.set("u_tint", tint.x, tint.y, tint.z, tint.w)
        }
        program.set("u_opacity", opacity)
        if let maskInverted {
            program.set("u_maskInverted", maskInverted)
        }
        let uniforms = [("u_texture", "u_uvFromLocal", "u_easedTexels"), ("u_mask", "u_maskUVFromLocal", "u_maskEasedTexels")]
        for (unit, (input, names)) in zip(inputs, uniforms).enumerated() {
            glActiveTexture(GLenum(GL_TEXTURE0 + Int32(unit)))
            glBindTexture(GLenum(GL_TEXTURE_2D), input.texture)
            glBindSampler(GLuint(unit), input.sampler)
            program.set(names.0, unit)
            let uv = input.uvFromLocal
            program.set(names.1, uv.0, uv.1, uv.2, uv.3)
            program.set(names.2, input.easedTexels.0, input.easedTexels.1)
        }
        stream.draw(mode: mode, positions: positions, indices: indices)
    }

    private func setCoverage(_ options: GLDrawOptions, on program: GLProgram) {
        setClipPlanes(options.clipPlanes, on: program)
        guard let shape = options.coverage else {
            program.set("u_shapeEnabled", false)
            return
        }
        program.set("u_shapeEnabled", true)
        program.set(
            "u_shapeRect", Float(shape.rect.minX), Float(shape.rect.minY), Float(shape.rect.maxX),
            Float(shape.rect.maxY))
        program.set(
            "u_shapeRadii", Float(shape.radii.minXMinY), Float(shape.radii.maxXMinY), Float(shape.radii.maxXMaxY),
            Float(shape.radii.minXMaxY))
        program.set("u_shapeBorder", Float(shape.borderWidth ?? 0))
    }

    /// Sets the clip half-planes of `coverage.glsl` (already validated).
    func setClipPlanes(_ planes: [HalfPlane], on program: GLProgram) {
        program.set("u_clipPlaneCount", planes.count)
        if !planes.isEmpty {
            program.set("u_clipPlanes", vec3Array: planes.flatMap { [Float($0.a), Float($0.b), Float($0.c)] })
        }
    }

    /// Sets the blend of a draw with a blend mode (after `applyFixedState`,
    /// which the next draw calls again): `plusLighter` adds, clamped by the
    /// target's bytes; the others are OpenGL ES 3.2's advanced equations,
    /// the W3C's formulas that `BlendMode` computes on the CPU. They read
    /// the target as it stands only after a barrier (the non-coherent form).
    private func applyBlendMode(_ mode: BlendMode) throws {
        if mode == .plusLighter {
            glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE))
            return
        }
        guard let equation = Self.advancedEquations[mode] else { return }
        guard let barrier = blendBarrier else {
            throw GLError.unsupported("drawing a blend mode (\(mode.rawValue)) needs OpenGL ES 3.2 or KHR_blend_equation_advanced, which this context lacks")
        }
        glBlendEquation(GLenum(equation))
        barrier()
    }

    /// `glBlendBarrierKHR` (or 3.2's `glBlendBarrier`), where the context
    /// has the advanced blend equations.
    private lazy var blendBarrier: PFNGLBLENDBARRIERKHRPROC? = {
        guard context.info.hasExtension("GL_KHR_blend_equation_advanced") else { return nil }
        return EGLExtensionFunctions.load("glBlendBarrierKHR", as: PFNGLBLENDBARRIERKHRPROC.self)
            ?? EGLExtensionFunctions.load("glBlendBarrier", as: PFNGLBLENDBARRIERKHRPROC.self)
    }()

    private static let advancedEquations: [BlendMode: Int32] = [
        .multiply: GL_MULTIPLY_KHR, .screen: GL_SCREEN_KHR, .overlay: GL_OVERLAY_KHR, .darken: GL_DARKEN_KHR,
        .lighten: GL_LIGHTEN_KHR, .colorDodge: GL_COLORDODGE_KHR, .colorBurn: GL_COLORBURN_KHR,
        .hardLight: GL_HARDLIGHT_KHR, .softLight: GL_SOFTLIGHT_KHR, .difference: GL_DIFFERENCE_KHR,
        .exclusion: GL_EXCLUSION_KHR,
    ]

    /// The state every LaminaGL draw assumes: no depth, stencil, culling,
    /// scissor or dithering; premultiplied source-over when blending. Path
    /// fills turn the stencil test on for their own two passes only.
    func applyFixedState(blending: Bool) {
        glDisable(GLenum(GL_DEPTH_TEST))
        glDisable(GLenum(GL_STENCIL_TEST))
        glDisable(GLenum(GL_CULL_FACE))
        glDisable(GLenum(GL_SCISSOR_TEST))
        glDisable(GLenum(GL_DITHER))
        glColorMask(GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE))
        if blending {
            glEnable(GLenum(GL_BLEND))
            glBlendEquation(GLenum(GL_FUNC_ADD))
            glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        } else {
            glDisable(GLenum(GL_BLEND))
        }
    }
}
