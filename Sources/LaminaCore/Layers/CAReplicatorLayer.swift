import Foundation

/// A layer that draws its sublayers several times (`CAReplicatorLayer`):
/// instance `i` (from 0) is drawn with `instanceTransform` applied `i` times
/// (about the replicator's anchor point, in its sublayer space), its colour
/// multiplied by `instanceColor` plus `i` times the colour offsets, and its
/// animations delayed by `i * instanceDelay`.
open class CAReplicatorLayer: CALayer {
    /// How many copies are drawn, the original included. Default 1.
    @exclusivity(unchecked) open var instanceCount = 1

    /// Seconds by which each instance's animations lag the previous one's. Default 0.
    @exclusivity(unchecked) open var instanceDelay: CFTimeInterval = 0

    /// The transform from one instance to the next. Default identity.
    @exclusivity(unchecked) open var instanceTransform: CATransform3D = .identity

    /// The colour that multiplies every instance. Default opaque white.
    @exclusivity(unchecked) open var instanceColor: CGColor? = CGColor.white

    /// Added to the red component of the colour of instance `i`, `i` times. Default 0.
    @exclusivity(unchecked) open var instanceRedOffset: Float = 0
    /// Added to the green component, per instance. Default 0.
    @exclusivity(unchecked) open var instanceGreenOffset: Float = 0
    /// Added to the blue component, per instance. Default 0.
    @exclusivity(unchecked) open var instanceBlueOffset: Float = 0
    /// Added to the alpha component, per instance. Default 0.
    @exclusivity(unchecked) open var instanceAlphaOffset: Float = 0

    /// Whether the instances are depth-sorted as one 3D scene, like a
    /// transform layer's sublayers, rather than flattened. Default false.
    @exclusivity(unchecked) open var preservesDepth = false

    /// A layer with Core Animation's defaults for this class.
    public required init() {
        super.init()
    }

    /// A copy of `layer`'s properties (see `CALayer.init(layer:)`): this
    /// class's rows of the property table included.
    public required init(layer: Any) {
        super.init(layer: layer)
    }

    override class var keyTable: LayerKeyTable { CAReplicatorLayer.replicatorKeyTable }

    private static let replicatorKeyTable = LayerKeyTable(inheriting: CALayer.baseKeyTable, adding: [
        .property("instanceCount", LayerValue.int, range: .nonNegative, default: { 1 },
                  get: { (l: CAReplicatorLayer) in l.instanceCount }, set: { $0.instanceCount = $1 }),
        .property("instanceDelay", LayerValue.double, animatable: true, default: { 0 },
                  get: { (l: CAReplicatorLayer) in l.instanceDelay }, set: { $0.instanceDelay = $1 }),
        .property("instanceTransform", LayerValue.transform, animatable: true, default: { .identity },
                  get: { (l: CAReplicatorLayer) in l.instanceTransform }, set: { $0.instanceTransform = $1 }),
        .property("instanceColor", LayerValue.color, animatable: true, default: { CGColor.white },
                  get: { (l: CAReplicatorLayer) in l.instanceColor }, set: { $0.instanceColor = $1 }),
        .property("instanceRedOffset", LayerValue.float, animatable: true, default: { 0 },
                  get: { (l: CAReplicatorLayer) in l.instanceRedOffset }, set: { $0.instanceRedOffset = $1 }),
        .property("instanceGreenOffset", LayerValue.float, animatable: true, default: { 0 },
                  get: { (l: CAReplicatorLayer) in l.instanceGreenOffset }, set: { $0.instanceGreenOffset = $1 }),
        .property("instanceBlueOffset", LayerValue.float, animatable: true, default: { 0 },
                  get: { (l: CAReplicatorLayer) in l.instanceBlueOffset }, set: { $0.instanceBlueOffset = $1 }),
        .property("instanceAlphaOffset", LayerValue.float, animatable: true, default: { 0 },
                  get: { (l: CAReplicatorLayer) in l.instanceAlphaOffset }, set: { $0.instanceAlphaOffset = $1 }),
        .property("preservesDepth", LayerValue.bool, default: { false },
                  get: { (l: CAReplicatorLayer) in l.preservesDepth }, set: { $0.preservesDepth = $1 }),
    ])
}
