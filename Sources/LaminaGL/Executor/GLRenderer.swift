import Foundation
import LaminaRender
import LaminaRaster

/// The GPU backend: executes a `RenderPlan` with OpenGL ES 3 through EGL.
///
/// One renderer owns one context and keeps its programs, pooled render
/// targets and uploaded images between frames. Like its `GLContext`, it is
/// bound to the thread that created it (use `GLWorkerThread` to drive one
/// from async code); calling it from another thread throws.
package final class GLRenderer: Renderer {
    /// "gl", in messages and benchmarks.
    public let name = "gl"
    let context: GLContext
    let primitives: GLPlanPainter

    /// Makes a context on `platform` (or as `LAMINA_EGL_PLATFORM` and the
    /// automatic order decide) and compiles the shaders. With `multisampled`,
    /// every pass is drawn with `GLInfo.multisampleCount` samples per pixel
    /// (8 where the context offers them), through one tile at a time
    /// (`GLPainter.drawMultisampled`), and resolved into its target.
    public init(platform: EGLPlatformChoice? = nil, multisampled: Bool = true,
                environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        context = try GLContext(platform: platform, environment: environment)
        primitives = GLPlanPainter(context: context, painter: try GLPainter(context: context), multisampled: multisampled)
    }

    /// What the renderer's context has made and read back so far: frames
    /// after the first make nothing and read back once (`GLActivityTests`).
    public var activity: GLActivity { context.activity }

    /// The context's description: driver, version, limits.
    public var info: GLInfo { context.info }

    /// The context a renderer on `platform` would get, described, without
    /// compiling the shaders (`lamina info`).
    public static func describeContext(platform: EGLPlatformChoice?) throws -> GLInfo {
        try GLContext(platform: platform).info
    }

    /// How fast this context hands pictures back, in bytes a second: a
    /// cleared `side` x `side` picture read back twice, the second timed
    /// (the first pays for the driver's first use). Where pictures come
    /// back slower than the CPU backend draws them, the GPU cannot win: a
    /// GPU behind a virtual machine read back at 13 to 17 MB/s where it drew
    /// in a few milliseconds (docs/benchmarks.md, "GL on a GPU").
    public func measureReadback(side: Int = 1024) throws -> Double {
        let target = try primitives.painter.targets.acquire(width: side, height: side)
        defer { try? primitives.painter.targets.recycle(target) }
        try target.clear()
        _ = try target.readPixels()
        let before = context.activity
        _ = try target.readPixels()
        return context.activity.since(before).readbackBytesPerSecond ?? .infinity
    }

    /// The folder the shaders are read from (`ShaderLocator`'s search).
    public static func shaderFolder() throws -> URL { try ShaderLocator.locate() }

    /// Walks the plan with `PlanWalker` on this module's painter.
    public func render(_ plan: RenderPlan, deadline: RenderDeadline?) throws -> CGImage {
        try PlanWalker.render(plan, with: primitives, deadline: deadline)
    }
}

/// The plan's primitives on GL render targets, for `PlanWalker`.
final class GLPlanPainter: SurfacePainter {
    let context: GLContext
    let painter: GLPainter
    let multisampled: Bool
    private var imageCache = ImageTextureCache()

    init(context: GLContext, painter: GLPainter, multisampled: Bool) {
        self.context = context; self.painter = painter; self.multisampled = multisampled
    }

    /// A single-sampled target: the samples are the pass's tile's alone.
    /// Cleared whether asked or not: a clear is one command on the GPU.
    func makeSurface(width: Int, height: Int, cleared: Bool) throws -> GLRenderTarget {
        try painter.targets.acquire(width: width, height: height)
    }

    /// The run, tile by tile when multisampling (see `drawMultisampled`).
    func draw(_ steps: [DrawStep<any GLTextureSource>], into target: inout GLRenderTarget, deadline: RenderDeadline?) throws {
        guard !steps.isEmpty else { return }
        guard multisampled, context.info.multisampleCount > 0 else {
            try drawInOrder(steps, into: target, deadline: deadline)
            return
        }
        try painter.drawMultisampled(into: target) { tile in
            try drawInOrder(steps, into: tile, deadline: deadline)
        }
    }

    /// The steps in order, each run of path fills between two polygons
    /// handed over at once (`GLPainter.fillPaths` shares their passes).
    private func drawInOrder(_ steps: [DrawStep<any GLTextureSource>], into target: GLRenderTarget,
                             deadline: RenderDeadline?) throws {
        var target = target
        var paths: [GLPainter.PathFill] = []
        for step in steps {
            try deadline?.check()
            switch step {
            case .polygon(let draw, let textures):
                if !paths.isEmpty {
                    try painter.fillPaths(paths, into: target)
                    paths.removeAll(keepingCapacity: true)
                }
                try drawPolygon(draw, textures: textures, into: &target)
            case .path(let draw):
                // Its planner is not told to make them (`fillsMaskedPaths`): a
                // masked layer reaches this backend as surfaces.
                guard draw.mask == nil else { throw InvalidRenderPlan("a path fill through a mask path, which the GL backend does not draw") }
                let contours = draw.pieceContours
                guard !contours.isEmpty else { continue }
                paths.append(GLPainter.PathFill(contours: contours, evenOdd: draw.evenOdd, transform: draw.matrix,
                                                color: draw.color))
            }
        }
        if !paths.isEmpty { try painter.fillPaths(paths, into: target) }
    }

    func texture(of surface: GLRenderTarget) -> any GLTextureSource { surface }
    func texture(of image: CGImage) throws -> any GLTextureSource {
        try imageCache.texture(for: image, context: context)
    }
    func release(_ surface: GLRenderTarget) { try? painter.targets.recycle(surface) }
    func endFrame() {
        painter.targets.endFrame()
        imageCache.endFrame()
    }
    func image(of output: GLRenderTarget) throws -> CGImage {
        let bytes = try output.readPixels()
        try context.checkErrors("rendering a frame")
        return CGImage(width: output.width, height: output.height, pooledPremultipliedRGBA: bytes)
    }

    func drawPolygon(_ draw: PolygonDraw, textures: TextureTable<any GLTextureSource>, into target: inout GLRenderTarget) throws {
        // As `fillPath`: its planner makes none.
        guard draw.mask == nil else { throw InvalidRenderPlan("a polygon through a mask path, which the GL backend does not draw") }
        let paint: GLPaint
        switch draw.fill {
        case .color(let c):
            paint = .color(c)
        case .texture(let source, let localRect, let uvRect, let filter, let tint):
            let input = GLTextureInput(try textures[source], mapping: GLTextureMapping(localRect: localRect, uvRect: uvRect),
                                       sampling: sampling(filter))
            paint = tint == .white ? .texture(input) : .tintedTexture(input, tint: tint)
        case .alphaTint(let source, let localRect, let color):
            paint = .alphaTint(GLTextureInput(try textures[source], mapping: GLTextureMapping(localRect: localRect)),
                               color: color)
        case .gradient(let gradient):
            // A picture of the gradient at the density the draw shows it at,
            // over the part of the local plane the polygon keeps.
            guard let rect = CGRect.bounding(draw.polygon), rect.width > 0, rect.height > 0,
                  let image = gradient.image(over: rect, pixelsPerUnit: draw.matrix.maxPixelScale(over: rect))
            else { return }
            let input = GLTextureInput(try imageCache.texture(for: image, context: context),
                                       mapping: GLTextureMapping(localRect: rect, uvRect: CGRect(x: 0, y: 0, width: 1, height: 1)),
                                       sampling: sampling(.linear))
            paint = .texture(input)
        case .masked(let source, let mask, let localRect, let inverted):
            paint = .masked(
                GLTextureInput(try textures[source], mapping: GLTextureMapping(localRect: localRect)),
                mask: GLTextureInput(try textures[mask], mapping: GLTextureMapping(localRect: localRect)), inverted: inverted)
        }
        // Multisampling partitions the samples along a cut as the CPU's
        // pixel ownership does: the pieces of a split draw meet exactly.
        try painter.fillPolygon(draw.piecePolygon, transform: draw.matrix, paint: paint,
                                options: GLDrawOptions(opacity: draw.opacity, coverage: draw.coverage, blend: draw.blend),
                                into: target)
    }

    /// One path alone (`drawInOrder` hands runs of them to the painter).
    func fillPath(_ draw: PathFillDraw, into target: inout GLRenderTarget) throws {
        try drawInOrder([.path(draw)], into: target, deadline: nil)
    }

    /// All four channels: the same result on a white mask, and one shader
    /// for every blur.
    func blurMask(_ source: any GLTextureSource, blur: BlurMethod, into target: inout GLRenderTarget) throws {
        try painter.blur(source, into: target, method: blur)
    }

    /// A blur of every channel (the blur a shadow's mask gets), or a colour
    /// matrix in one full-screen pass.
    func filter(_ source: any GLTextureSource, _ filter: SurfaceFilter, into target: inout GLRenderTarget) throws {
        switch filter {
        case .blur(let method):
            try painter.blur(source, into: target, method: method)
        case .colorMatrix(let matrix):
            try painter.fullscreenPass(.colorMatrix, sampling: source, with: .nearest, into: target) { program in
                // Column-major: column j holds the four rows' j-th numbers.
                let m = matrix.values.map(Float.init)
                program.set("u_matrix", matrix: (0..<4).flatMap { j in (0..<4).map { i in m[i * 5 + j] } })
                program.set("u_offset", m[4], m[9], m[14], m[19])
            }
        }
    }

    /// The region's texels one for one (the shader that fills multisample tiles).
    func copy(_ region: PixelRect, of source: GLRenderTarget, into copy: inout GLRenderTarget) throws {
        try painter.fullscreenPass(.copy, sampling: source, with: .nearest, into: copy) { program in
            program.set("u_origin", Float(region.x), Float(region.y))
        }
    }

    private func sampling(_ filter: TextureFilter) -> GLSampling {
        switch filter {
        case .nearest: return .nearest
        case .linear: return .linear
        case .trilinear: return GLSampling(minification: .trilinear, magnification: .linear)
        // The planner chose it for a magnified draw: every pixel eased.
        case .smoothLinear: return GLSampling(minification: .linear, magnification: .smoothLinear)
        }
    }

}

/// Uploaded images, kept for the next frames while they are still used, so
/// a server drawing the same picture again uploads it once.
private struct ImageTextureCache {
    /// Frames an unused texture survives.
    static let maximumIdleFrames = 8

    private var entries: [ObjectIdentifier: (image: CGImage, texture: GLTexture, idle: Int)] = [:]

    mutating func texture(for image: CGImage, context: GLContext) throws -> GLTexture {
        let key = ObjectIdentifier(image)
        if let entry = entries[key] {
            entries[key]?.idle = 0
            return entry.texture
        }
        let texture = try GLTexture(context: context, width: image.width, height: image.height, premultipliedRGBA: image.pixelBytes)
        // The image is held with its texture, so its identifier is not reused
        // by another image while the entry lives.
        entries[key] = (image, texture, 0)
        return texture
    }

    mutating func endFrame() {
        for (key, entry) in entries {
            if entry.idle >= Self.maximumIdleFrames { entries[key] = nil } else { entries[key]?.idle += 1 }
        }
    }
}
