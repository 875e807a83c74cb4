import Foundation
import LaminaRaster
import LaminaCore
import LaminaRender
import LaminaGL
import LaminaCPU
import LaminaScene
import LaminaText

/// Which backend draws.
public enum RenderBackend: String, Sendable, CaseIterable {
    /// OpenGL ES 3 through EGL: a GPU, or Mesa's llvmpipe on the CPU.
    case gl
    /// The pure-Swift rasterizer and compositor.
    case cpu
}

/// What a `LayerRenderer` really draws with: the backend, and for `gl` the
/// EGL platform and driver (`egl-surfaceless`, "llvmpipe (LLVM 15.0.6, 256 bits)").
public struct BackendIdentity: Sendable, Hashable, CustomStringConvertible {
    /// The backend that drew (GL, or the CPU it fell back to).
    public var backend: RenderBackend
    /// `egl-device`, `egl-gbm`, `egl-surfaceless`, or `none` for the CPU backend.
    public var platform: String
    /// The driver's `GL_RENDERER`, or `lamina cpu`.
    public var renderer: String
    /// Whether the pixels are drawn by the CPU (the CPU backend, or GL on llvmpipe).
    public var isSoftware: Bool

    package init(backend: RenderBackend, platform: String, renderer: String, isSoftware: Bool) {
        (self.backend, self.platform, self.renderer, self.isSoftware) = (backend, platform, renderer, isSoftware)
    }

    /// The identity in the words of `lamina info`.
    public var description: String {
        backend == .cpu ? "cpu" : "gl (\(platform), \(renderer))"
    }
}

/// Renders layer trees and scenes to pictures: snapshot, plan, backend.
///
/// Keeps its backend (and a GL context with its resources) between frames.
/// Use it from one thread at a time, the thread that created it for `gl`.
public final class LayerRenderer {
    /// The backend that draws: the one asked for, or `cpu` when `gl` was
    /// asked for and no EGL context could be made.
    public let backend: RenderBackend
    /// The backend's renderer, which executes plans.
    package let renderer: any Renderer
    /// The planner, with the budget and limits this renderer was made with.
    package var planner = RenderPlanner()
    /// Draws text layers' text: the shared `TextRenderer`, or nil (text
    /// layers then show only their `contents`) when fontconfig or FreeType
    /// could not start.
    public var textRasterizer: (any CATextLayerRasterizing)?

    /// Prepares `backend`. When `gl` is asked for and no EGL context can be
    /// made, falls back to `cpu` and says why through `warn` (unless
    /// `fallBack` is false, then the error is thrown).
    ///
    /// `environment` is where `LAMINA_EGL_PLATFORM` is read (the process's
    /// own by default). `budget` bounds the work of every frame (see `RenderBudget`): a frame
    /// that asks for more is refused with a `RenderRefusal` before it is drawn.
    /// `text` says whose caches text layers use: the process's shared
    /// `TextRenderer` (one lock for every renderer), or this renderer's own
    /// (a render server's workers, which must not wait on each other).
    public init(backend: RenderBackend = .gl, eglPlatform: EGLPlatformChoice? = nil, fallBack: Bool = true,
                budget: RenderBudget = .default, text: TextCaches = .shared,
                environment: [String: String] = ProcessInfo.processInfo.environment,
                warn: (String) -> Void = { FileHandle.standardError.write(Data(("lamina: " + $0 + "\n").utf8)) }) throws {
        planner.options.budget = budget
        switch backend {
        case .cpu:
            self.backend = .cpu
            renderer = CPURenderer()
            planner.options.fillsMaskedPaths = true
        case .gl:
            do {
                let gl = try GLRenderer(platform: eglPlatform, environment: environment)
                // What this GPU can hold: larger images are averaged down,
                // larger surfaces drawn coarser, a larger canvas refused.
                let side = gl.info.maxTargetSide
                planner.options.maxImageSide = min(planner.options.maxImageSide, side)
                planner.options.maxSurfaceSide = min(planner.options.maxSurfaceSide, side)
                planner.options.budget.canvasSide = min(planner.options.budget.canvasSide, side)
                // Each pass is a multisampled tile filled and resolved: a
                // layer's surfaces are drawn back in one pass, unless that
                // would hold more surfaces than the budget allows.
                planner.options.drawsSurfacesWhereUsed = false
                gpuSide = side
                renderer = gl
                self.backend = .gl
            } catch {
                guard fallBack else { throw error }
                warn("no EGL context (\(Self.firstLine(of: error))); rendering on the CPU instead")
                renderer = CPURenderer()
                planner.options.fillsMaskedPaths = true
                self.backend = .cpu
            }
        }
        do {
            switch text {
            case .shared: textRasterizer = try TextRenderer.shared
            case .own: textRasterizer = try TextRenderer()
            }
        } catch {
            warn("no text rendering (\(Self.firstLine(of: error))); text layers will show no text")
        }
    }

    /// Whether each frame is drawn over the picture of the frame before,
    /// only the rows where what is drawn changed cleared and redrawn, as
    /// Core Animation's render server redraws only what changed: for an
    /// animation's frames drawn in order (`lamina frames` draws them so).
    /// The pictures are the same bytes either way.
    ///
    /// While it is on, the CPU backend keeps the last frame's plan and
    /// picture (one picture's memory), and draws a frame whole when the
    /// picture before it is still held (a picture handed out never
    /// changes). The GL backend draws every frame whole.
    ///
    /// ```swift
    /// let renderer = try LayerRenderer(backend: .cpu)
    /// renderer.drawsOnlyChanges = true
    /// for frame in 0..<90 {
    ///     try write(renderer.render(root, canvas: canvas, time: Double(frame) / 30))
    /// }
    /// ```
    public var drawsOnlyChanges: Bool {
        get { (renderer as? CPURenderer)?.drawsOverLastFrame ?? false }
        set {
            (renderer as? CPURenderer)?.drawsOverLastFrame = newValue
            frameSnapshots = newValue && renderer is CPURenderer ? frameSnapshots ?? FrameSnapshots() : nil
        }
    }

    /// While `drawsOnlyChanges`, what each frame's snapshot hands on to the
    /// next: an animation's frames in turn are trees of much the same shape.
    private var frameSnapshots: FrameSnapshots?

    /// Draws `layer` (the root of its tree) on a canvas, with animations
    /// sampled at `time`.
    /// - Throws: `RenderRefusal` (the budget, or memory the process cannot
    ///   get), or the backend's error.
    public func render(_ layer: CALayer, canvas: RenderCanvas, time: CFTimeInterval = 0) throws -> CGImage {
        try draw(prepare(layer, canvas: canvas, time: time))
    }

    /// Draws `layer` in its own coordinate space, as Core Animation's
    /// `render(in:)` draws a layer into a context: the picture shows its
    /// bounds, from their origin, `size` points wide and high (the bounds'
    /// size by default), at `scale` pixels per point. The layer's place in
    /// its superlayer (position, anchor point, transform) plays no part;
    /// everything it draws itself (opacity, mask, shadow, sublayers) does,
    /// and what falls outside the picture is cut off. With no `time`, the
    /// tree shows its model values, as `render(in:)` ignores animations;
    /// with one, its animations are sampled at `time`.
    ///
    /// ```swift
    /// let card = CALayer()
    /// card.frame = CGRect(x: 40, y: 40, width: 300, height: 180)
    /// card.backgroundColor = UIColor.systemBlue.cgColor
    /// let picture = try LayerRenderer(backend: .cpu).renderInOwnBounds(card, scale: 2)  // 600 x 360 pixels
    /// ```
    /// - Throws: `RenderRefusal` (an empty or too large picture, the
    ///   budget, memory), or the backend's error.
    public func renderInOwnBounds(_ layer: CALayer, scale: Double = 1, size: CGSize? = nil,
                                  time: CFTimeInterval? = nil) throws -> CGImage {
        // The bounds as drawn at `time` (a presentation copy only when they are needed and may be animated).
        let size = size ?? (time.map { layer.treeHasAnimations ? layer.presentation(atTime: $0) : layer } ?? layer).bounds.size
        let canvas = RenderCanvas(width: Double(size.width), height: Double(size.height), scale: scale)
        var root = try snapshot(layer, canvas: canvas, time: time ?? 0, animated: time != nil)
        root.transformToSuperlayer = CATransform3D(translationX: -root.bounds.minX, y: -root.bounds.minY, z: 0)
        return try draw(plan(root, canvas: canvas))
    }

    /// Draws a decoded scene. `scale` and `time` override the scene's own.
    public func render(_ scene: Scene, scale: Double? = nil, time: CFTimeInterval? = nil) throws -> CGImage {
        try draw(prepare(scene, scale: scale, time: time))
    }

    /// Whose font and glyph caches a renderer's text layers use.
    public enum TextCaches: Sendable {
        /// `TextRenderer.shared`: one set of caches for the process, behind one lock.
        case shared
        /// A `TextRenderer` of this renderer's own.
        case own
    }

    /// Draws a frame that `prepare` planned, once the memory it needs is
    /// known to be there. `deadline` is checked between passes.
    /// - Throws: `RenderRefusal` (memory), `RenderInterruption`, or the backend's error.
    public func draw(_ plan: RenderPlan, deadline: RenderDeadline? = nil) throws -> CGImage {
        try plan.checkMemoryAvailable()
        return try renderer.render(plan, deadline: deadline)
    }

    /// The plan for a frame of `layer`'s tree: presentation values at `time`,
    /// frozen, planned. What `render` hands its backend.
    /// - Throws: `RenderRefusal` when the frame asks for more than the
    ///   budget allows (checked first for the canvas, so an absurd one costs
    ///   nothing).
    public func prepare(_ layer: CALayer, canvas: RenderCanvas, time: CFTimeInterval = 0) throws(RenderRefusal) -> RenderPlan {
        guard let frameSnapshots, layer.treeHasAnimations else {
            return try plan(try snapshot(layer, canvas: canvas, time: time), canvas: canvas)
        }
        try planner.options.budget.check(canvas)
        return try frameSnapshots.plan(ofModel: layer, options: snapshotOptions(canvas: canvas, time: time)) {
            (tree) throws(RenderRefusal) in try plan(tree, canvas: canvas)
        }
    }

    /// The first half of `prepare`: the tree at `time`, frozen (layers that
    /// need display draw first, as a transaction commit does; text and
    /// `draw(in:)` content become images).
    package func snapshot(_ layer: CALayer, canvas: RenderCanvas, time: CFTimeInterval = 0,
                          animated: Bool = true) throws(RenderRefusal) -> RenderLayer {
        try planner.options.budget.check(canvas)
        // The snapshot reads the model tree (it writes nothing but the
        // contents of layers that need display, drawn as it reaches them,
        // as a transaction commit does; a hidden subtree is not reached): with
        // animations, each animated layer is read from a copy of it alone
        // at `time`, so a thousand-layer tree is not copied for the few
        // layers that move; without them, the model as it is.
        let options = snapshotOptions(canvas: canvas, time: time)
        if animated && layer.treeHasAnimations {
            return try RenderLayer(snapshotOfModel: layer, options: options)
        }
        return try RenderLayer(snapshotOf: layer, options: options)
    }

    /// How a tree is frozen for `canvas` at `time`.
    private func snapshotOptions(canvas: RenderCanvas, time: CFTimeInterval) -> SnapshotOptions {
        SnapshotOptions(textRasterizer: textRasterizer, contentsFlipped: canvas.originBottomLeft,
                        budget: planner.options.budget, time: time)
    }

    /// The second half of `prepare`: a frozen tree planned for `canvas`.
    package func plan(_ snapshot: RenderLayer, canvas: RenderCanvas) throws(RenderRefusal) -> RenderPlan {
        try planner.plan(snapshot, canvas: canvas)
    }

    /// The budget every frame is held to.
    /// (A canvas side over what the GPU can hold stays refused.)
    public var budget: RenderBudget {
        get { planner.options.budget }
        set {
            planner.options.budget = newValue
            planner.options.budget.canvasSide = min(newValue.canvasSide, gpuSide)
        }
    }

    /// The largest texture or renderbuffer side of the GL backend's GPU.
    private var gpuSide = Int.max

    /// The plan for a frame of a scene.
    public func prepare(_ scene: Scene, scale: Double? = nil, time: CFTimeInterval? = nil) throws(RenderRefusal) -> RenderPlan {
        try prepare(scene.rootLayer, canvas: scene.canvas(scale: scale), time: time ?? scene.time)
    }

    /// What draws this renderer's frames, in the words of `lamina info`.
    public var identity: BackendIdentity {
        if let gl = renderer as? GLRenderer {
            let info = gl.info
            return BackendIdentity(backend: .gl, platform: "egl-" + info.eglPlatform.rawValue, renderer: info.renderer,
                                   isSoftware: info.isSoftwareRenderer)
        }
        return BackendIdentity(backend: backend, platform: "none", renderer: "lamina cpu", isSoftware: true)
    }

    /// For the GL backend, how fast the GPU hands pictures back, in bytes
    /// a second (`GLRenderer.measureReadback`: a 1024 x 1024 picture read
    /// back twice); nil for the CPU backend, or where the probe fails.
    package func measureReadback() -> Double? {
        guard let gl = renderer as? GLRenderer else { return nil }
        return try? gl.measureReadback()
    }

    static func firstLine(of error: any Error) -> String {
        String(describing: error).split(separator: "\n").first.map(String.init) ?? "unknown error"
    }
}

extension Scene {
    /// The canvas the scene is drawn on, at `scale` instead of its own.
    public func canvas(scale: Double? = nil) -> RenderCanvas {
        RenderCanvas(width: Double(width), height: Double(height), scale: scale ?? Double(self.scale),
                     originBottomLeft: origin == .bottomLeft)
    }
}

extension LayerRenderer {
    /// The most threads one frame is drawn and encoded on, for the whole
    /// process; nil (the default) for every core no other frame is drawing
    /// on. A server whose workers already fill the cores may set 1, so that
    /// each request stays on one core (`lamina serve --frame-threads`).
    public static var threadsPerFrame: Int? {
        get { RowBands.threadsPerFrame }
        set { RowBands.threadsPerFrame = newValue }
    }
}
