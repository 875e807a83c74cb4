import Foundation

/// The shape of a gradient (`CAGradientLayerType`).
public struct CAGradientLayerType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    /// The constant whose string is `rawValue`.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Along the line from `startPoint` to `endPoint` (the default).
    public static let axial = CAGradientLayerType("axial")
    /// An ellipse centred on `startPoint`, reaching `endPoint`'s x and y.
    public static let radial = CAGradientLayerType("radial")
    /// Around `startPoint`, starting in the direction of `endPoint`.
    public static let conic = CAGradientLayerType("conic")
}

/// A layer that fills its bounds with a colour gradient (`CAGradientLayer`).
open class CAGradientLayer: CALayer {
    /// The colours, as `CGColor`s. Default nil (nothing drawn).
    @exclusivity(unchecked) open var colors: [Any]?

    /// Where each colour stops, 0...1 and increasing; nil (the default)
    /// spreads the colours evenly.
    @exclusivity(unchecked) open var locations: [NSNumber]?

    /// The start of the gradient in unit coordinates of the bounds. Default (0.5, 0).
    @exclusivity(unchecked) open var startPoint = CGPoint(x: 0.5, y: 0)

    /// The end of the gradient in unit coordinates of the bounds. Default (0.5, 1).
    @exclusivity(unchecked) open var endPoint = CGPoint(x: 0.5, y: 1)

    /// The shape of the gradient. Default `.axial`.
    @exclusivity(unchecked) open var type: CAGradientLayerType = .axial

    /// A layer with Core Animation's defaults for this class.
    public required init() {
        super.init()
    }

    /// A copy of `layer`'s properties (see `CALayer.init(layer:)`): this
    /// class's rows of the property table included.
    public required init(layer: Any) {
        super.init(layer: layer)
    }

    override class var keyTable: LayerKeyTable { CAGradientLayer.gradientKeyTable }

    private static let gradientKeyTable = LayerKeyTable(inheriting: CALayer.baseKeyTable, adding: [
        .property("colors", LayerValue.array, animatable: true, default: { nil },
                  get: { (l: CAGradientLayer) in l.colors }, set: { $0.colors = $1 }),
        .property("locations", LayerValue.numbers, range: .unit, animatable: true, default: { nil },
                  get: { (l: CAGradientLayer) in l.locations }, set: { $0.locations = $1 }),
        .property("startPoint", LayerValue.point, animatable: true, default: { CGPoint(x: 0.5, y: 0) },
                  get: { (l: CAGradientLayer) in l.startPoint }, set: { $0.startPoint = $1 }),
        .property("endPoint", LayerValue.point, animatable: true, default: { CGPoint(x: 0.5, y: 1) },
                  get: { (l: CAGradientLayer) in l.endPoint }, set: { $0.endPoint = $1 }),
        .property("type", LayerValue.constant(CAGradientLayerType.self), default: { .axial },
                  get: { (l: CAGradientLayer) in l.type }, set: { $0.type = $1 }),
    ])
}
