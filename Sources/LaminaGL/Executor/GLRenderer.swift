import Foundation
import LaminaRender

/// The GPU backend: executes a `RenderPlan` with OpenGL ES 3 through EGL.
///
/// One renderer owns one context and keeps its programs, pooled render
/// targets and uploaded images between frames. Like its `GLContext`, it is
/// bound to the thread that created it (use `GLWorkerThread` to drive one
/// from async code); calling it from another thread throws.
public final class GLRenderer: Renderer {
    public let name = "gl"
    public let context: GLContext
    public let painter: GLPainter
    /// Every target is drawn with this many samples per pixel when the
    /// context offers them (4x MSAA), then resolved.
    public let multisampled: Bool
    private var imageCache = ImageTextureCache()

    /// Makes a context on `platform` (or as `LAMINA_EGL_PLATFORM` and the
    /// automatic order decide) and compiles the shaders.
    public init(platform: EGLPlatformChoice? = nil, multisampled: Bool = true,
                environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        context = try GLContext(platform: platform, environment: environment)
        painter = try GLPainter(context: context)
        self.multisampled = multisampled
    }

    public func render(_ plan: RenderPlan, deadline: RenderDeadline?) throws -> CGImage {
        guard plan.width > 0, plan.height > 0 else {
            throw GLError.invalidArgument("a render plan of \(plan.width)x\(plan.height) pixels has nothing to draw")
        }
        var surfaces: [Int: GLRenderTarget] = [:]
        defer {
            for target in surfaces.values { try? painter.targets.recycle(target) }
            painter.targets.endFrame()
            imageCache.endFrame()
        }
        var output: GLRenderTarget?
        for pass in plan.passes {
            try deadline?.check()
            let size: (Int, Int)
            switch pass.target {
            case .output: size = (plan.width, plan.height)
            case .offscreen(let i):
                guard plan.surfaces.indices.contains(i) else {
                    throw GLError.invalidArgument("a render pass targets unknown surface \(i)")
                }
                size = (plan.surfaces[i].width, plan.surfaces[i].height)
            }
            let target = try painter.targets.acquire(width: size.0, height: size.1, multisampled: multisampled)
            switch pass.target {
            case .output:
                if let old = output { try painter.targets.recycle(old) }
                output = target
            case .offscreen(let i): surfaces[i] = target
            }
            for command in pass.commands {
                try deadline?.check()
                try execute(command, into: target, plan: plan, surfaces: surfaces)
            }
            // Surfaces no later pass samples go back to the pool now, so a
            // frame holds only what it still needs (and reuses it).
            for i in pass.releasedSurfaces {
                if let done = surfaces.removeValue(forKey: i) { try painter.targets.recycle(done) }
            }
        }
        guard let output else {
            throw GLError.invalidArgument("a render plan has no pass that targets the output")
        }
        defer { try? painter.targets.recycle(output) }
        let bytes = try output.readPixels()
        try context.checkErrors("rendering a frame")
        return try CGImage(width: plan.width, height: plan.height, premultipliedRGBA: bytes)
    }

    private func execute(_ command: DrawCommand, into target: GLRenderTarget, plan: RenderPlan, surfaces: [Int: GLRenderTarget]) throws {
        switch command {
        case .polygon(let draw):
            let paint: GLPaint
            switch draw.fill {
            case .color(let c):
                paint = .color(glColor(c))
            case .texture(let source, let localRect, let uvRect, let filter, let tint):
                let input = GLTextureInput(try texture(source, plan: plan, surfaces: surfaces),
                                           mapping: GLTextureMapping(localRect: localRect, uvRect: uvRect),
                                           sampling: sampling(filter))
                paint = tint == .white ? .texture(input) : .tintedTexture(input, tint: glColor(tint))
            case .alphaTint(let source, let localRect, let color):
                paint = .alphaTint(GLTextureInput(try texture(source, plan: plan, surfaces: surfaces),
                                                  mapping: GLTextureMapping(localRect: localRect)),
                                   color: glColor(color))
            case .masked(let source, let mask, let localRect):
                paint = .masked(
                    GLTextureInput(try texture(source, plan: plan, surfaces: surfaces), mapping: GLTextureMapping(localRect: localRect)),
                    mask: GLTextureInput(try texture(mask, plan: plan, surfaces: surfaces), mapping: GLTextureMapping(localRect: localRect)))
            }
            let coverage = draw.coverage.map { c in
                GLRoundedRectCoverage(
                    rect: c.rect,
                    radii: GLCornerRadii(topLeft: c.radii[0], topRight: c.radii[1], bottomRight: c.radii[2], bottomLeft: c.radii[3]),
                    borderWidth: c.borderWidth ?? 0)
            }
            try painter.fillPolygon(draw.polygon, transform: try GLMatrix4(draw.matrix), paint: paint,
                                    options: GLDrawOptions(opacity: min(1, max(0, draw.opacity)), coverage: coverage),
                                    into: target)
        case .path(let draw):
            let contours = draw.clippedContours
            guard !contours.isEmpty else { return }
            try painter.fillPath(contours, evenOdd: draw.evenOdd, transform: try GLMatrix4(draw.matrix),
                                 color: glColor(draw.color), into: target)
        case .blurMask(let source, let sigma):
            // All four channels: the same result on a white mask, and one
            // shader for every blur.
            try painter.blur(try texture(.surface(source), plan: plan, surfaces: surfaces), into: target, sigma: sigma)
        }
    }

    private func texture(_ source: TextureSource, plan: RenderPlan, surfaces: [Int: GLRenderTarget]) throws -> any GLTextureSource {
        switch source {
        case .surface(.output):
            throw GLError.invalidArgument("a render plan samples the output while drawing it")
        case .surface(.offscreen(let i)):
            guard let target = surfaces[i] else {
                throw GLError.invalidArgument("a render plan samples surface \(i) before its pass")
            }
            return target
        case .image(let id):
            guard plan.images.indices.contains(id.index) else {
                throw GLError.invalidArgument("a render plan names unknown image \(id.index)")
            }
            return try imageCache.texture(for: plan.images[id.index], context: context)
        }
    }

    private func sampling(_ filter: TextureFilter) -> GLSampling {
        switch filter {
        case .nearest: return .nearest
        case .linear: return .linear
        case .trilinear: return GLSampling(minification: .trilinear, magnification: .linear)
        }
    }

    private func glColor(_ c: RGBA) -> GLColor {
        func clamp(_ v: Double) -> Float { Float(min(1, max(0, v))) }
        return GLColor(straightRed: clamp(c.red), green: clamp(c.green), blue: clamp(c.blue), alpha: clamp(c.alpha))
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

extension GLMatrix4 {
    /// The same matrix as a Core Animation transform, field for field.
    init(_ t: CATransform3D) throws {
        try self.init(rowMajor: t.fields.map { Double($0) })
    }
}
