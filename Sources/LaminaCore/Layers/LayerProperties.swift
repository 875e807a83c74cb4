import Foundation

/// The values of `CALayer`'s own Core Animation properties, with their
/// defaults: the storage behind its public properties, which document them.
///
/// Why one value: a presentation copy (`init(layer:)`) is made of every
/// animated layer for every frame drawn, and copying this value is one
/// assignment. Subclasses store their own properties as usual, and copy
/// them through the property table.
struct LayerProperties {
    var bounds: CGRect = .zero
    var position: CGPoint = .zero
    var zPosition: CGFloat = 0
    var anchorPoint: CGPoint = CGPoint(x: 0.5, y: 0.5)
    var anchorPointZ: CGFloat = 0
    var transform: CATransform3D = .identity
    var sublayerTransform: CATransform3D = .identity { didSet { sublayerTransformIsIdentity = sublayerTransform.isIdentity } }
    var isGeometryFlipped: Bool = false
    var isHidden: Bool = false
    var isDoubleSided: Bool = true
    var opacity: Float = 1
    var allowsGroupOpacity: Bool = true
    var isOpaque: Bool = false
    var backgroundColor: CGColor?
    var cornerRadius: CGFloat = 0
    var maskedCorners: CACornerMask = .allCorners
    var borderWidth: CGFloat = 0
    var borderColor: CGColor? = CGColor.black
    var masksToBounds: Bool = false
    var shadowColor: CGColor? = CGColor.black
    var shadowOpacity: Float = 0
    var shadowOffset: CGSize = CGSize(width: 0, height: -3)
    var shadowRadius: CGFloat = 3
    var shadowPath: CGPath?
    var contents: Any? { didSet { hasContents = contents != nil } }
    var contentsGravity: CALayerContentsGravity = .resize
    var contentsScale: CGFloat = 1
    var contentsRect: CGRect = CGRect(x: 0, y: 0, width: 1, height: 1)
    var contentsCenter: CGRect = CGRect(x: 0, y: 0, width: 1, height: 1)
    var filters: [Any]?
    var backgroundFilters: [Any]?
    var compositingFilter: Any? { didSet { hasCompositingFilter = compositingFilter != nil } }
    var contentsMultiplyColor: CGColor?
    var minificationFilter: CALayerContentsFilter = .linear
    var magnificationFilter: CALayerContentsFilter = .linear
    var minificationFilterBias: Float = 0
    var name: String?
    var needsDisplayOnBoundsChange: Bool = false

    /// Whether `contents` and `compositingFilter` are set, kept as they are
    /// set: a snapshot asks of every layer it reads, and looking at an
    /// optional existential copied it out and destroyed it again.
    private(set) var hasContents = false, hasCompositingFilter = false
    /// Whether `sublayerTransform` is the identity, kept as it is set: every
    /// layer's sublayer space is asked for every frame, and most have none.
    private(set) var sublayerTransformIsIdentity = true
}
