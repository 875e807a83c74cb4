import CEGL

extension GLPainter {
    /// Blurs `source` into `destination` with a Gaussian of standard deviation
    /// `sigma` source pixels (Core Animation uses `shadowRadius` as that
    /// deviation), replacing what `destination` held.
    ///
    /// The blur is separable: a horizontal pass into a pooled target, then a
    /// vertical pass into `destination`, which is scaled to fit if its size
    /// differs. Outside `source` counts as transparent; leave a margin of 3σ
    /// around the content so that nothing is cut off. Beyond σ = 42 the source
    /// is first halved (2x2 box averages) until σ fits the kernel, and the
    /// last pass scales back up.
    /// - Throws: `GLError.invalidArgument` for a σ that is negative or not
    ///   finite, targets of another context, or `source` being `destination`.
    public func blur(_ source: any GLTextureSource, into destination: GLRenderTarget, sigma: Double) throws {
        guard sigma.isFinite, sigma >= 0 else {
            throw GLError.invalidArgument("a blur needs a finite, non-negative sigma, got \(sigma)")
        }
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
        var scaledSigma = sigma
        while scaledSigma > GaussianKernel.maximumSigma, current.width > 1 || current.height > 1 {
            let half = try targets.acquire(width: (current.width + 1) / 2, height: (current.height + 1) / 2)
            borrowed.append(half)
            try blurPass(current, into: half, step: (0, 0), kernel: GaussianKernel(sigma: 0))
            current = half
            scaledSigma /= 2
        }
        let kernel = GaussianKernel(sigma: scaledSigma)
        let horizontal = try targets.acquire(width: current.width, height: current.height)
        borrowed.append(horizontal)
        try blurPass(current, into: horizontal, step: (1 / Float(current.width), 0), kernel: kernel)
        try blurPass(horizontal, into: destination, step: (0, 1 / Float(horizontal.height)), kernel: kernel)
    }

    /// One pass of `blur.frag` covering the whole of `target`.
    private func blurPass(
        _ source: any GLTextureSource, into target: GLRenderTarget, step: (Float, Float), kernel: GaussianKernel
    ) throws {
        let texture = try source.textureForSampling(mipmaps: false)
        let program = try programs.program(.fullscreenVertex, .blur)
        try target.bindForDrawing()
        applyFixedState(blending: false)
        glUseProgram(program.name)
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glBindSampler(0, samplers.sampler(.linear))
        program.set("u_source", 0)
        program.set("u_texelStep", step.0, step.1)
        program.set("u_tapCount", kernel.taps.count)
        program.set("u_taps", vec2Array: kernel.uniformValues)
        stream.drawFullscreenTriangle()
    }
}
