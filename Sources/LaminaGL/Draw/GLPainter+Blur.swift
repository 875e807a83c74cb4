import CEGL

extension GLPainter {
    /// Blurs `source` into `destination` with a Gaussian of standard deviation
    /// `sigma` source pixels (Core Animation uses `shadowRadius` as that
    /// deviation), replacing what `destination` held.
    ///
    /// The blur is separable: a horizontal pass into a pooled target, then a
    /// vertical pass into `destination` (through one more pooled target and
    /// a bilinear scaling pass when the sizes differ). Outside `source` counts as transparent; leave a margin of 3σ
    /// around the content so that nothing is cut off. Beyond σ = 8 the source
    /// is first halved (2x2 box averages), as often as it takes to bring σ
    /// down to 4...8 smaller pixels, the blur runs there (σ reduced by the
    /// variance the halving and the final bilinear upscale add) and a last
    /// pass scales back up: on llvmpipe that makes a σ = 40 blur of a
    /// 1200x630 picture about ten times faster, for differences of a level or
    /// two out of 255.
    /// - Throws: `GLError.invalidArgument` for a σ that is negative or not
    ///   finite, targets of another context, or `source` being `destination`.
    func blur(_ source: any GLTextureSource, into destination: GLRenderTarget, sigma: Double) throws {
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

        // Wide blurs run on a smaller copy: halving the picture quarters the
        // pixels and halves the taps, and a Gaussian this wide has nothing
        // left at the frequencies the smaller copy cannot hold.
        var current: any GLTextureSource = source
        var scale = 1.0
        var prefilterVariance = 0.0
        while sigma / scale > Self.downsampleAboveSigma, current.width > 1 || current.height > 1 {
            let half = try targets.acquire(width: (current.width + 1) / 2, height: (current.height + 1) / 2)
            borrowed.append(half)
            try blurPass(current, into: half, step: (0, 0), kernel: GaussianKernel(sigma: 0))
            current = half
            // A 2x2 box of texels `scale` wide blurs by variance (2 scale)² / 12.
            prefilterVariance += scale * scale / 3
            scale *= 2
        }
        // Bilinear upsampling in the last pass is a tent of half-width `scale`.
        let upsampleVariance = scale > 1 ? scale * scale / 6 : 0
        let scaledSigma = (max(sigma * sigma - prefilterVariance - upsampleVariance, 0)).squareRoot() / scale
        let kernel = GaussianKernel(sigma: scaledSigma)
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
            try blurPass(vertical, into: destination, step: (0, 0), kernel: GaussianKernel(sigma: 0))
        }
    }

    /// The σ, in pixels of the picture being blurred, above which the picture
    /// is halved first.
    static let downsampleAboveSigma = 8.0

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
