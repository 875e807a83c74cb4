/// How large a scene document may be. A scene over any limit is refused with
/// a `SceneError` of kind `.limitExceeded` that names the limit, so that a
/// server can take scenes from strangers without running out of memory or
/// time while reading them. The defaults are generous for real drawings and
/// small enough for a server; every limit can be changed.
///
/// What drawing a scene may cost (the canvas's pixels and side, offscreen
/// surfaces, layers after replication) is the renderer's `RenderBudget`,
/// checked once before the frame is drawn; a scene with a huge canvas reads
/// quickly and is refused there.
public struct SceneLimits: Hashable, Sendable {
    /// The size of the JSON text in bytes.
    public var documentBytes: Int
    /// How deeply arrays and objects may nest in the JSON text. The reader
    /// does not recurse, so this protects what comes after it.
    public var jsonNesting: Int
    /// Layers in the tree, masks included, with each replicator's sublayers
    /// counted once per instance (that is what gets drawn).
    public var layerCount: Int
    /// Layers from the root to the deepest layer, the root being 1; a mask
    /// is one level below the layer it masks.
    public var treeDepth: Int
    /// Elements (moves, lines, curves, closes) of one path.
    public var pathElements: Int
    /// Elements of all paths of the scene together.
    public var totalPathElements: Int
    /// Bytes of one encoded image (the PNG, after base64 decoding).
    public var imageBytes: Int
    /// Pixels of one image.
    public var imagePixels: Int
    /// Pixels of all images of the scene together.
    public var totalImagePixels: Int
    /// Characters of one text layer's string (all runs together).
    public var textLength: Int
    /// Animations of the whole scene.
    public var animationCount: Int
    /// Values of one keyframe animation.
    public var keyframeCount: Int

    /// The defaults: 32 MiB of JSON nested 512 deep, 10,000 layers 100
    /// deep, 100,000 elements a path and a million in all, 16 MiB and 16
    /// megapixels an image and 64 megapixels in all, 100,000 characters of
    /// text, 1,000 animations of up to 10,000 keyframes.
    public init(
        documentBytes: Int = 32 << 20,
        jsonNesting: Int = 512,
        layerCount: Int = 10_000,
        treeDepth: Int = 100,
        pathElements: Int = 100_000,
        totalPathElements: Int = 1_000_000,
        imageBytes: Int = 16 << 20,
        imagePixels: Int = 16_777_216,
        totalImagePixels: Int = 64_000_000,
        textLength: Int = 100_000,
        animationCount: Int = 1_000,
        keyframeCount: Int = 10_000
    ) {
        self.documentBytes = documentBytes
        self.jsonNesting = jsonNesting
        self.layerCount = layerCount
        self.treeDepth = treeDepth
        self.pathElements = pathElements
        self.totalPathElements = totalPathElements
        self.imageBytes = imageBytes
        self.imagePixels = imagePixels
        self.totalImagePixels = totalImagePixels
        self.textLength = textLength
        self.animationCount = animationCount
        self.keyframeCount = keyframeCount
    }

    /// The default limits.
    public static let `default` = SceneLimits()

    /// No practical limit on anything but nesting, for trusted input.
    /// Nesting stays bounded because the decoder and encoder walk the layer
    /// tree recursively.
    public static let trusted = SceneLimits(
        documentBytes: .max, jsonNesting: 1024,
        layerCount: .max, treeDepth: 400, pathElements: .max, totalPathElements: .max,
        imageBytes: .max, imagePixels: .max, totalImagePixels: .max, textLength: .max,
        animationCount: .max, keyframeCount: .max)
}
