import Foundation
import LaminaCore

/// How much work one frame may ask for, checked before the work is done.
///
/// A scene can ask for absurd amounts of work while every value in it looks
/// reasonable: a replicator of 10^14 instances, a hundred nested masks, three
/// hundred planes cutting each other, a dash pattern of a millionth of a
/// point along a long path. Rendering strangers' scenes (the render server)
/// needs every kind of work bounded, so that one request cannot take the
/// memory or the time of all the others. Each field bounds one kind; a frame
/// over any of them is refused with a `RenderRefusal` that names the layer
/// that asked for it, before the pixels are touched.
///
/// The defaults keep one frame under about 1 GB on the CPU backend (the
/// canvas, the offscreen surfaces alive at once, the generated backing
/// images, and the encoder's copy of the picture), and are generous for real
/// drawings. The GL backend's surfaces are textures of the same sizes; its
/// multisampling adds one tile of at most 2048 x 2048 pixels (144 MiB at 4
/// samples), whatever the canvas:
///
/// ```swift
/// var budget = RenderBudget.default
/// budget.surfacePixels = 16_000_000        // a smaller server
/// let renderer = try LayerRenderer(backend: .cpu, budget: budget)
/// ```
public struct RenderBudget: Hashable, Sendable {
    /// Pixels of the output picture: `ceil(width * scale) * ceil(height * scale)`.
    public var canvasPixels: Int
    /// The longest side of the output picture, in pixels.
    public var canvasSide: Int
    /// Pixels of the offscreen surfaces (group opacity, masks, clips,
    /// shadows) alive at the same time during the frame. A surface lives
    /// from its pass to the last pass that samples it.
    public var surfacePixels: Int
    /// Pixels of the backing images made while freezing the tree: text
    /// layers' text, what `draw(in:)` drew, gradients, all together.
    public var backingPixels: Int
    /// Layers after replicators are expanded: each instance counts its
    /// sublayers' subtrees, and at least one even when it has none.
    public var layers: Int
    /// Polygons of all 3D scenes after depth sorting splits them.
    public var depthFragments: Int
    /// Line segments of all filled and stroked paths after flattening and
    /// dashing, as drawn.
    public var pathSegments: Int
    /// Draw commands of the whole plan.
    public var drawCommands: Int
    /// Particles an emitter works out for one frame: those alive, and those
    /// that have died but whose sub-cells' particles may still live.
    /// Particles drawn count as layers too.
    public var particles: Int

    /// The defaults: a 64-megapixel canvas up to 16384 pixels a side, 64
    /// megapixels of offscreen surfaces alive at once, 32 megapixels of
    /// backing images, 100,000 layers after replication, 100,000 depth
    /// fragments, 4 million path segments, a million draw commands, 100,000
    /// particles.
    public init(
        canvasPixels: Int = 64_000_000,
        canvasSide: Int = 16384,
        surfacePixels: Int = 64_000_000,
        backingPixels: Int = 32_000_000,
        layers: Int = 100_000,
        depthFragments: Int = 100_000,
        pathSegments: Int = 4_000_000,
        drawCommands: Int = 1_000_000,
        particles: Int = 100_000
    ) {
        self.canvasPixels = canvasPixels
        self.canvasSide = canvasSide
        self.surfacePixels = surfacePixels
        self.backingPixels = backingPixels
        self.layers = layers
        self.depthFragments = depthFragments
        self.pathSegments = pathSegments
        self.drawCommands = drawCommands
        self.particles = particles
    }

    /// The default budget.
    public static let `default` = RenderBudget()

    /// No practical limit, for trusted input that is known to be sane.
    public static let unlimited = RenderBudget(
        canvasPixels: .max, canvasSide: .max, surfacePixels: .max, backingPixels: .max,
        layers: .max, depthFragments: .max, pathSegments: .max, drawCommands: .max, particles: .max)

    /// Refuses a canvas over the budget (or one whose size is not a finite,
    /// positive number of pixels) before anything is allocated for it.
    public func check(_ canvas: RenderCanvas) throws(RenderRefusal) {
        let w = Double(canvas.width) * canvas.scale, h = Double(canvas.height) * canvas.scale
        guard w.isFinite, h.isFinite, w > 0, h > 0, canvas.scale.isFinite, canvas.scale > 0 else {
            throw RenderRefusal(at: .root, "the canvas \(Quoted.number(canvas.width)) x \(Quoted.number(canvas.height)) points at scale \(Quoted.number(canvas.scale)) is not a picture of finite, positive size")
        }
        let side = max(w.rounded(.up), h.rounded(.up))
        if side > Double(canvasSide) {
            throw RenderRefusal(at: .root, "the canvas would be \(Quoted.number(w.rounded(.up))) x \(Quoted.number(h.rounded(.up))) pixels; its longest side may be at most \(canvasSide) pixels")
        }
        let pixels = w.rounded(.up) * h.rounded(.up)
        if pixels > Double(canvasPixels) {
            throw RenderRefusal(at: .root, "the canvas would be \(Quoted.number(w.rounded(.up))) x \(Quoted.number(h.rounded(.up))) pixels, over the limit of \(canvasPixels) pixels")
        }
    }
}

/// Where a layer is in its tree: the sublayer indices and mask steps from the
/// root, written as the scene format's JSON path (`$.sublayers[2].mask`), so
/// that a refusal of a scene points into the document that asked for it.
/// Replicator instances share the path of the sublayer they copy.
///
/// Every layer of every frame carries one, so a path of up to eight steps
/// is held inline (no heap block); deeper ones keep a list.
public struct LayerPath: Hashable, Sendable, CustomStringConvertible {
    /// One step down the tree.
    public enum Step: Hashable, Sendable {
        case sublayer(Int)
        case mask
    }

    /// The steps, held one of two ways. Which is decided by the steps alone
    /// (`packed` whenever they fit), so equal paths hold equal storage and
    /// the synthesized `==` and hash compare the steps.
    private enum Storage: Hashable, Sendable {
        /// Each step's `code` in order, zero past the last: sixteen steps
        /// without an allocation (a Lottie file's precomps and groups nest
        /// deeper than eight).
        case packed(SIMD16<UInt16>)
        /// More than sixteen steps, or an index too large to pack.
        case list([Step])
    }
    private var storage: Storage

    /// The steps from the root, in order.
    public var steps: [Step] {
        get {
            switch storage {
            case .list(let steps): return steps
            case .packed(let codes):
                var steps: [Step] = []
                steps.reserveCapacity(16)
                for i in 0..<16 where codes[i] != 0 { steps.append(codes[i] == 1 ? .mask : .sublayer(Int(codes[i]) - 2)) }
                return steps
            }
        }
        set { self = LayerPath(newValue) }
    }

    /// The path of these steps; none is the root.
    public init(_ steps: [Step] = []) {
        var codes = SIMD16<UInt16>()
        guard steps.count <= 16 else {
            storage = .list(steps)
            return
        }
        for (i, step) in steps.enumerated() {
            guard let code = Self.code(step) else {
                storage = .list(steps)
                return
            }
            codes[i] = code
        }
        storage = .packed(codes)
    }

    /// A step as a nonzero word: 1 for the mask, 2 + i for sublayer i; nil
    /// when i does not fit.
    private static func code(_ step: Step) -> UInt16? {
        switch step {
        case .mask: 1
        case .sublayer(let i): i >= 0 && i < Int(UInt16.max) - 2 ? UInt16(i + 2) : nil
        }
    }

    /// The root layer (the scene's top-level object).
    public static let root = LayerPath()

    /// This path one step further.
    public func appending(_ step: Step) -> LayerPath {
        if case .packed(var codes) = storage, codes[15] == 0, let code = Self.code(step) {
            var depth = 0
            while codes[depth] != 0 { depth += 1 }
            codes[depth] = code
            var longer = self
            longer.storage = .packed(codes)
            return longer
        }
        // A deep path: one allocation (`steps + [step]` makes two).
        var longer = steps
        longer.reserveCapacity(longer.count + 1)
        longer.append(step)
        return LayerPath(longer)
    }

    /// As a JSON path: `$.sublayers[2].mask`.
    public var description: String {
        var s = "$"
        for step in steps {
            switch step {
            case .sublayer(let i): s += ".sublayers[\(i)]"
            case .mask: s += ".mask"
            }
        }
        return s
    }
}

/// A frame refused before it was drawn: it asks for more than the
/// `RenderBudget` allows, or for something no picture can be. Names the
/// layer that asked and says what it asked for in the scene's own words.
public struct RenderRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// The layer that asked for the work.
    public var layer: LayerPath
    /// What was asked, and the limit.
    public var message: String

    /// A refusal of `layer`'s frame, saying why in `message`.
    public init(at layer: LayerPath, _ message: String) {
        self.layer = layer
        self.message = message
    }

    /// The layer's path, then why.
    public var description: String { "\(layer): \(message)" }
}
