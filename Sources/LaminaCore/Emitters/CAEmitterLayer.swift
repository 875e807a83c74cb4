import Foundation

/// The shape particles are emitted from (`CAEmitterLayerEmitterShape`).
public struct CAEmitterLayerEmitterShape: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The constant whose string is `rawValue`.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// One point, `emitterPosition` (the default).
    public static let point = CAEmitterLayerEmitterShape("point")
    /// A line along x, `emitterSize.width` long, centred on `emitterPosition`.
    public static let line = CAEmitterLayerEmitterShape("line")
    /// A rectangle of `emitterSize` centred on `emitterPosition`.
    public static let rectangle = CAEmitterLayerEmitterShape("rectangle")
    /// A box of `emitterSize` and `emitterDepth`.
    public static let cuboid = CAEmitterLayerEmitterShape("cuboid")
    /// A circle of radius `emitterSize.width`.
    public static let circle = CAEmitterLayerEmitterShape("circle")
    /// A sphere of radius `emitterSize.width`.
    public static let sphere = CAEmitterLayerEmitterShape("sphere")

    /// The six shapes Core Animation defines.
    public static let all: [CAEmitterLayerEmitterShape] = [.point, .line, .rectangle, .cuboid, .circle, .sphere]
}

/// Where on the shape particles start (`CAEmitterLayerEmitterMode`).
public struct CAEmitterLayerEmitterMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The constant whose string is `rawValue`.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// The shape's corners (a line's ends; the centre of a point, circle or sphere).
    public static let points = CAEmitterLayerEmitterMode("points")
    /// The shape's edges (a circle's circumference).
    public static let outline = CAEmitterLayerEmitterMode("outline")
    /// The shape's faces (a cuboid's six faces, a sphere's surface; the area of a flat shape).
    public static let surface = CAEmitterLayerEmitterMode("surface")
    /// Anywhere inside the shape (the default).
    public static let volume = CAEmitterLayerEmitterMode("volume")

    /// The four modes Core Animation defines.
    public static let all: [CAEmitterLayerEmitterMode] = [.points, .outline, .surface, .volume]
}

/// How particles are composited (`CAEmitterLayerRenderMode`).
public struct CAEmitterLayerRenderMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The constant whose string is `rawValue`.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// In no promised order (the default); Lamina draws the oldest first.
    public static let unordered = CAEmitterLayerRenderMode("unordered")
    /// The oldest particle first, so the newest is on top.
    public static let oldestFirst = CAEmitterLayerRenderMode("oldestFirst")
    /// The oldest particle last, on top.
    public static let oldestLast = CAEmitterLayerRenderMode("oldestLast")
    /// Sorted by z, the farthest first.
    public static let backToFront = CAEmitterLayerRenderMode("backToFront")
    /// Added together (`plus` compositing) instead of source-over.
    public static let additive = CAEmitterLayerRenderMode("additive")

    /// The five modes Core Animation defines.
    public static let all: [CAEmitterLayerRenderMode] = [.unordered, .oldestFirst, .oldestLast, .backToFront, .additive]
}

/// A layer that emits, moves and draws particles (`CAEmitterLayer`).
///
/// Each of `emitterCells` emits particles at its `birthRate` (times the
/// layer's), from `emitterShape` as `emitterMode` says, for as long as the
/// cell is active; every particle then moves, spins, grows and changes
/// colour for its lifetime. The particles are drawn above the layer's
/// background and border and below its sublayers.
///
/// A frame is a function of the layer and its time alone: the simulation
/// starts at time 0 of the layer's tree, and each particle's randomness comes
/// from `seed`, the cell and the particle's number. So a frame is the same
/// whether it is drawn alone, in order or in parallel with others.
///
/// ```swift
/// let snow = CAEmitterCell()
/// snow.contents = flake             // a CGImage
/// snow.birthRate = 20
/// snow.lifetime = 8
/// snow.velocity = 60
/// snow.emissionLongitude = .pi / 2  // down the screen
/// snow.emissionRange = .pi / 4
/// let emitter = CAEmitterLayer()
/// emitter.frame = CGRect(x: 0, y: 0, width: 400, height: 600)
/// emitter.emitterShape = .line
/// emitter.emitterPosition = CGPoint(x: 200, y: -10)
/// emitter.emitterSize = CGSize(width: 400, height: 0)
/// emitter.emitterCells = [snow]
/// ```
open class CAEmitterLayer: CALayer {
    /// The cells that emit particles, or nil (the default).
    open var emitterCells: [CAEmitterCell]?
    /// What acts on every particle as it lives (Core Animation's unpublished
    /// `emitterBehaviors`, which wallpapers use), or nil (the default).
    open var emitterBehaviors: [CAEmitterBehavior]?
    /// Multiplies every cell's `birthRate`. Default 1.
    open var birthRate: Float = 1
    /// Multiplies every cell's lifetime and its range. Default 1.
    open var lifetime: Float = 1
    /// The centre of the emission shape, in the layer's coordinates. Default (0, 0).
    open var emitterPosition: CGPoint = .zero
    /// The z of the emission shape's centre. Default 0.
    open var emitterZPosition: CGFloat = 0
    /// The emission shape's width and height. Default (0, 0).
    open var emitterSize: CGSize = .zero
    /// The emission shape's depth (a cuboid's). Default 0.
    open var emitterDepth: CGFloat = 0
    /// The emission shape. Default `.point`.
    open var emitterShape: CAEmitterLayerEmitterShape = .point
    /// Where on the shape particles start. Default `.volume`.
    open var emitterMode: CAEmitterLayerEmitterMode = .volume
    /// The order and compositing of the particles. Default `.unordered`.
    open var renderMode: CAEmitterLayerRenderMode = .unordered
    /// Whether particles keep their z in the superlayer's 3D space instead of
    /// being flattened into the layer's plane. Default false.
    open var preservesDepth = false
    /// Multiplies every cell's velocity. Default 1.
    open var velocity: Float = 1
    /// Multiplies every cell's scale. Default 1.
    open var scale: Float = 1
    /// Multiplies every cell's spin. Default 1.
    open var spin: Float = 1
    /// Core Animation's unpublished `spinBias`, which wallpapers made with
    /// Apple's tools carry (values near 1). What it changes is not
    /// published, so Lamina keeps it (key-value coding, the scene format and
    /// CAML read and write it) and draws spins as the cells and `spin` say.
    /// Default 0.
    open var spinBias: Float = 0
    /// Seeds the particles' randomness: the same seed gives the same
    /// particles. Default 0.
    open var seed: UInt32 = 0

    /// A layer with Core Animation's defaults for this class.
    public required init() {
        super.init()
    }

    /// A copy of `layer`'s properties (see `CALayer.init(layer:)`): this
    /// class's rows of the property table included. The cells are shared,
    /// as Core Animation's presentation layers share them.
    public required init(layer: Any) {
        super.init(layer: layer)
    }

    override class var keyTable: LayerKeyTable { CAEmitterLayer.emitterKeyTable }

    private static let emitterKeyTable = LayerKeyTable(inheriting: CALayer.baseKeyTable, adding: [
        .property("emitterCells", LayerValue.emitterCells, default: { nil },
                  get: { (l: CAEmitterLayer) in l.emitterCells }, set: { $0.emitterCells = $1 }),
        .property("emitterBehaviors", LayerValue.emitterBehaviors, default: { nil },
                  get: { (l: CAEmitterLayer) in l.emitterBehaviors }, set: { $0.emitterBehaviors = $1 }),
        .property("birthRate", LayerValue.float, range: .nonNegative, animatable: true, default: { 1 },
                  get: { (l: CAEmitterLayer) in l.birthRate }, set: { $0.birthRate = $1 }),
        .property("lifetime", LayerValue.float, range: .nonNegative, animatable: true, default: { 1 },
                  get: { (l: CAEmitterLayer) in l.lifetime }, set: { $0.lifetime = $1 }),
        .property("emitterPosition", LayerValue.point, animatable: true, default: { .zero },
                  get: { (l: CAEmitterLayer) in l.emitterPosition }, set: { $0.emitterPosition = $1 }),
        .property("emitterZPosition", LayerValue.cgFloat, animatable: true, default: { 0 },
                  get: { (l: CAEmitterLayer) in l.emitterZPosition }, set: { $0.emitterZPosition = $1 }),
        .property("emitterSize", LayerValue.size, animatable: true, default: { .zero },
                  get: { (l: CAEmitterLayer) in l.emitterSize }, set: { $0.emitterSize = $1 }),
        .property("emitterDepth", LayerValue.cgFloat, animatable: true, default: { 0 },
                  get: { (l: CAEmitterLayer) in l.emitterDepth }, set: { $0.emitterDepth = $1 }),
        .property("emitterShape", LayerValue.constant(CAEmitterLayerEmitterShape.self), default: { .point },
                  get: { (l: CAEmitterLayer) in l.emitterShape }, set: { $0.emitterShape = $1 }),
        .property("emitterMode", LayerValue.constant(CAEmitterLayerEmitterMode.self), default: { .volume },
                  get: { (l: CAEmitterLayer) in l.emitterMode }, set: { $0.emitterMode = $1 }),
        .property("renderMode", LayerValue.constant(CAEmitterLayerRenderMode.self), default: { .unordered },
                  get: { (l: CAEmitterLayer) in l.renderMode }, set: { $0.renderMode = $1 }),
        .property("preservesDepth", LayerValue.bool, default: { false },
                  get: { (l: CAEmitterLayer) in l.preservesDepth }, set: { $0.preservesDepth = $1 }),
        .property("velocity", LayerValue.float, animatable: true, default: { 1 },
                  get: { (l: CAEmitterLayer) in l.velocity }, set: { $0.velocity = $1 }),
        .property("scale", LayerValue.float, animatable: true, default: { 1 },
                  get: { (l: CAEmitterLayer) in l.scale }, set: { $0.scale = $1 }),
        .property("spin", LayerValue.float, animatable: true, default: { 1 },
                  get: { (l: CAEmitterLayer) in l.spin }, set: { $0.spin = $1 }),
        .property("spinBias", LayerValue.float, default: { 0 },
                  get: { (l: CAEmitterLayer) in l.spinBias }, set: { $0.spinBias = $1 }),
        .property("seed", LayerValue.seed, default: { 0 },
                  get: { (l: CAEmitterLayer) in l.seed }, set: { $0.seed = $1 }),
    ])
}
