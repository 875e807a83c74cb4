import Foundation

/// A layer that draws a path (`CAShapeLayer`): filled, then stroked, above
/// the background and below the sublayers.
///
/// The path is in the layer's own space and is not clipped to the bounds
/// (unless `masksToBounds`). Hit testing still uses the bounds, as in Core
/// Animation: override `contains(_:)` to test the path instead.
open class CAShapeLayer: CALayer {
    /// The stored values of the properties below, as one value: a
    /// presentation copy of a shape layer (one for every animated shape of
    /// every frame) copies them in one assignment (`ShapeProperties`).
    @exclusivity(unchecked) var shape = ShapeProperties()

    /// The shape, in the layer's own space. A mutable path is copied on
    /// assignment, as in Core Animation. Default nil.
    open var path: CGPath? {
        get { shape.path }
        set { shape.path = (newValue as? CGMutablePath)?.copy() ?? newValue }
    }

    /// The fill colour; nil for no fill. Default opaque black.
    open var fillColor: CGColor? { get { shape.fillColor } set { shape.fillColor = newValue } }

    /// Which points of the path are filled. Default `.nonZero`.
    open var fillRule: CAShapeLayerFillRule { get { shape.fillRule } set { shape.fillRule = newValue } }

    /// The stroke colour; nil (the default) for no stroke.
    open var strokeColor: CGColor? { get { shape.strokeColor } set { shape.strokeColor = newValue } }

    /// The stroke width. Default 1.
    open var lineWidth: CGFloat { get { shape.lineWidth } set { shape.lineWidth = newValue } }

    /// The stroke's end caps. Default `.butt`.
    open var lineCap: CAShapeLayerLineCap { get { shape.lineCap } set { shape.lineCap = newValue } }

    /// The stroke's corners. Default `.miter`.
    open var lineJoin: CAShapeLayerLineJoin { get { shape.lineJoin } set { shape.lineJoin = newValue } }

    /// The longest miter, as a multiple of the line width. Default 10.
    open var miterLimit: CGFloat { get { shape.miterLimit } set { shape.miterLimit = newValue } }

    /// Alternating dash and gap lengths; nil (the default) for a solid line.
    open var lineDashPattern: [NSNumber]? { get { shape.lineDashPattern } set { shape.lineDashPattern = newValue } }

    /// How far into the dash pattern the stroke starts. Default 0.
    open var lineDashPhase: CGFloat { get { shape.lineDashPhase } set { shape.lineDashPhase = newValue } }

    /// Where the stroke starts along the path, 0...1. Default 0.
    open var strokeStart: CGFloat { get { shape.strokeStart } set { shape.strokeStart = newValue } }

    /// Where the stroke ends along the path, 0...1. Default 1.
    open var strokeEnd: CGFloat { get { shape.strokeEnd } set { shape.strokeEnd = newValue } }

    /// A layer with Core Animation's defaults for this class.
    public required init() {
        super.init()
    }

    /// A copy of `layer`'s properties (see `CALayer.init(layer:)`): this
    /// class's rows of the property table included.
    public required init(layer: Any) {
        super.init(layer: layer)
    }

    override class var keyTable: LayerKeyTable { CAShapeLayer.shapeKeyTable }

    private static let shapeKeyTable = LayerKeyTable(inheriting: CALayer.baseKeyTable, storedAsOne: { to, from in
        unsafeDowncast(to, to: CAShapeLayer.self).shape = unsafeDowncast(from, to: CAShapeLayer.self).shape
    }, adding: [
        .property("path", LayerValue.path, animatable: true, default: { nil },
                  get: { (l: CAShapeLayer) in l.path }, set: { $0.path = $1 }),
        .property("fillColor", LayerValue.color, animatable: true, default: { CGColor.black },
                  get: { (l: CAShapeLayer) in l.fillColor }, set: { $0.fillColor = $1 }),
        .property("fillRule", LayerValue.constant(CAShapeLayerFillRule.self), default: { .nonZero },
                  get: { (l: CAShapeLayer) in l.fillRule }, set: { $0.fillRule = $1 }),
        .property("strokeColor", LayerValue.color, animatable: true, default: { nil },
                  get: { (l: CAShapeLayer) in l.strokeColor }, set: { $0.strokeColor = $1 }),
        .property("lineWidth", LayerValue.cgFloat, range: .nonNegative, animatable: true, default: { 1 },
                  get: { (l: CAShapeLayer) in l.lineWidth }, set: { $0.lineWidth = $1 }),
        .property("lineCap", LayerValue.constant(CAShapeLayerLineCap.self), default: { .butt },
                  get: { (l: CAShapeLayer) in l.lineCap }, set: { $0.lineCap = $1 }),
        .property("lineJoin", LayerValue.constant(CAShapeLayerLineJoin.self), default: { .miter },
                  get: { (l: CAShapeLayer) in l.lineJoin }, set: { $0.lineJoin = $1 }),
        .property("miterLimit", LayerValue.cgFloat, animatable: true, default: { 10 },
                  get: { (l: CAShapeLayer) in l.miterLimit }, set: { $0.miterLimit = $1 }),
        .property("lineDashPattern", LayerValue.numbers, range: .nonNegative, animatable: true, default: { nil },
                  get: { (l: CAShapeLayer) in l.lineDashPattern }, set: { $0.lineDashPattern = $1 }),
        .property("lineDashPhase", LayerValue.cgFloat, animatable: true, default: { 0 },
                  get: { (l: CAShapeLayer) in l.lineDashPhase }, set: { $0.lineDashPhase = $1 }),
        .property("strokeStart", LayerValue.cgFloat, range: .unit, animatable: true, default: { 0 },
                  get: { (l: CAShapeLayer) in l.strokeStart }, set: { $0.strokeStart = $1 }),
        .property("strokeEnd", LayerValue.cgFloat, range: .unit, animatable: true, default: { 1 },
                  get: { (l: CAShapeLayer) in l.strokeEnd }, set: { $0.strokeEnd = $1 }),
    ])
}

/// `CAShapeLayer`'s own properties, with their defaults: the storage behind
/// its public properties, which document them (as `LayerProperties` is
/// `CALayer`'s).
struct ShapeProperties {
    var path: CGPath?
    var fillColor: CGColor? = CGColor.black
    var fillRule: CAShapeLayerFillRule = .nonZero
    var strokeColor: CGColor?
    var lineWidth: CGFloat = 1
    var lineCap: CAShapeLayerLineCap = .butt
    var lineJoin: CAShapeLayerLineJoin = .miter
    var miterLimit: CGFloat = 10
    var lineDashPattern: [NSNumber]?
    var lineDashPhase: CGFloat = 0
    var strokeStart: CGFloat = 0
    var strokeEnd: CGFloat = 1
}
