import CEGL
import LaminaRender

extension GLPainter {
    /// Blurs `source` into `destination` as the plan's `BlurMethod` says,
    /// replacing what `destination` held: `halvings` passes that halve the
    /// picture (bilinear samples at the half picture's texel centres: 2x2 box
    /// averages), a horizontal and a vertical pass of the method's kernel,
    /// and a bilinear pass back up to `destination`'s size. Outside `source`
    /// counts as transparent; the plan leaves a margin of 3σ around the content.
    /// - Throws: `GLError.invalidArgument` for targets of another context, or
    ///   `source` being `destination`.
    func blur(_ source: any GLTextureSource, into destination: GLRenderTarget, method: BlurMethod) throws {
        guard source.context === context, destination.context === context else {
            throw GLError.invalidArgument("a blur's source and destination must belong to the painter's context")
        }
        guard source !== destination else {
            throw GLError.invalidArgument("a blur cannot write into its own source")
        }
        try context.makeCurrent(for: "blurring")
        var borrowed: [GLRenderTarget] = []
        defer { for target in borrowed { try? targets.recycle(target) } }

        var current: any GLTextureSource = source
        // Halvings by exactly 2: an odd side is padded with a transparent
        // texel (the last target texel reads half outside), so each target
        // texel is the mean of a 2x2 box wherever it lies.
        var scale = 1
        for _ in 0..<method.halvings where current.width > 1 || current.height > 1 {
            let half = try targets.acquire(width: BlurMethod.halved(current.width), height: BlurMethod.halved(current.height))
            borrowed.append(half)
            try blurPass(current, into: half, step: (0, 0), kernel: GaussianKernel(sigma: 0),
                         uvScale: (Float(2 * half.width) / Float(current.width), Float(2 * half.height) / Float(current.height)))
            current = half
            scale *= 2
        }
        let kernel = GaussianKernel(weights: method.weights)
        let horizontal = try targets.acquire(width: current.width, height: current.height)
        borrowed.append(horizontal)
        try blurPass(current, into: horizontal, step: (1 / Float(current.width), 0), kernel: kernel)
        // The taps assume they start at a texel centre, so the vertical pass
        // runs at the blurred picture's own size; scaling is a pass of its own.
        let step = (Float(0), 1 / Float(horizontal.height))
        if destination.width == current.width, destination.height == current.height {
            try blurPass(horizontal, into: destination, step: step, kernel: kernel)
        } else {
            let vertical = try targets.acquire(width: current.width, height: current.height)
            borrowed.append(vertical)
            try blurPass(horizontal, into: vertical, step: step, kernel: kernel)
            // Back up by exactly the factor it went down by (a destination of
            // another size than the source is scaled to fit, as before).
            let exact = destination.width == source.width && destination.height == source.height && scale > 1
            let uvScale = exact
                ? (Float(destination.width) / Float(scale * current.width), Float(destination.height) / Float(scale * current.height))
                : (Float(1), Float(1))
            try blurPass(vertical, into: destination, step: (0, 0), kernel: GaussianKernel(sigma: 0), uvScale: uvScale)
        }
    }

    /// A Gaussian blur of deviation `sigma` source pixels (Core Animation
    /// uses `shadowRadius` as that deviation), by the plan's method for it.
    /// - Throws: `GLError.invalidArgument` for a σ that is negative or not
    ///   finite, and as `blur(_:into:method:)`.
    func blur(_ source: any GLTextureSource, into destination: GLRenderTarget, sigma: Double) throws {
        guard sigma.isFinite, sigma >= 0 else {
            throw GLError.invalidArgument("a blur needs a finite, non-negative sigma, got \(sigma)")
        }
        try blur(source, into: destination, method: BlurMethod(sigma: sigma))
    }

    /// One pass of `blur.frag` covering the whole of `target`.
    private func blurPass(
        _ source: any GLTextureSource, into target: GLRenderTarget, step: (Float, Float), kernel: GaussianKernel,
        uvScale: (Float, Float) = (1, 1)
    ) throws {
        try fullscreenPass(.blur, sampling: source, with: .linear, into: target) { program in
            program.set("u_uvScale", uvScale.0, uvScale.1)
            program.set("u_texelStep", step.0, step.1)
            program.set("u_tapCount", kernel.taps.count)
            program.set("u_taps", vec2Array: kernel.uniformValues)
        }
    }

    /// One pass of `fullscreen.vert` and `fragment` over the whole of
    /// `target` (or of the picture its window stands for), replacing its
    /// pixels, with `source` bound as `u_source`; `uniforms` sets the rest.
    func fullscreenPass(_ fragment: ShaderFile, sampling source: any GLTextureSource, with sampling: GLSampling,
                        into target: GLRenderTarget, uniforms: (GLProgram) -> Void) throws {
        let texture = try source.textureForSampling(mipmaps: false)
        let program = try programs.program(.fullscreenVertex, fragment)
        try target.bindForDrawing()
        applyFixedState(blending: false)
        glUseProgram(program.name)
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glBindSampler(0, samplers.sampler(sampling))
        program.set("u_source", 0)
        uniforms(program)
        stream.drawFullscreenTriangle()
    }
}
