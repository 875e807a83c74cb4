import Foundation

/// A minimal UIKit view: the layer-backed view pattern of the book, where a
/// view owns a layer of the class its `layerClass` names and forwards its
/// geometry and appearance to it.
///
/// Not bound to the main actor, unlike UIKit's: Lamina runs headless on
/// servers, where there is no main run loop or event loop to protect, and
/// each request builds and renders its own tree on one task. Like `CALayer`,
/// a view is not `Sendable`.
open class UIView: CALayerDelegate {
    /// The class of the layer that backs every view of this class; override
    /// it to back a view with, say, a `CAShapeLayer`. Must be `CALayer` or a
    /// subclass; another class gives a plain `CALayer`.
    open class var layerClass: AnyClass { CALayer.self }

    /// The backing layer, made from `layerClass` when the view is created.
    /// Its delegate is the view, as in UIKit.
    public let layer: CALayer

    /// The subviews, back to front; their layers are this view's layer's
    /// sublayers, in the same order.
    public private(set) var subviews: [UIView] = []

    /// The view that holds this one.
    public private(set) weak var superview: UIView?

    /// A view whose layer's frame is `frame`.
    public init(frame: CGRect) {
        let layerType = Self.layerClass as? CALayer.Type ?? CALayer.self
        layer = layerType.init()
        layer.delegate = self
        layer.frame = frame
    }

    /// A view with a zero frame.
    public convenience init() {
        self.init(frame: .zero)
    }

    // MARK: Geometry, forwarded to the layer

    /// The layer's frame, in the superview's coordinates.
    open var frame: CGRect {
        get { layer.frame }
        set { layer.frame = newValue }
    }

    /// The layer's bounds.
    open var bounds: CGRect {
        get { layer.bounds }
        set { layer.bounds = newValue }
    }

    /// The layer's position (the centre with the default anchor point).
    open var center: CGPoint {
        get { layer.position }
        set { layer.position = newValue }
    }

    /// The layer's transform as an affine transform.
    open var transform: CGAffineTransform {
        get { layer.affineTransform() }
        set { layer.setAffineTransform(newValue) }
    }

    // MARK: Appearance, forwarded to the layer

    /// The layer's background colour.
    open var backgroundColor: UIColor? {
        get { layer.backgroundColor.map(UIColor.init(cgColor:)) }
        set { layer.backgroundColor = newValue?.cgColor }
    }

    /// The layer's opacity.
    open var alpha: CGFloat {
        get { CGFloat(layer.opacity) }
        set { layer.opacity = Float(newValue) }
    }

    /// Whether the layer is hidden.
    open var isHidden: Bool {
        get { layer.isHidden }
        set { layer.isHidden = newValue }
    }

    /// Whether the layer clips its sublayers (`masksToBounds`).
    open var clipsToBounds: Bool {
        get { layer.masksToBounds }
        set { layer.masksToBounds = newValue }
    }

    // MARK: Hierarchy

    /// Adds `view` on top of the subviews, taking it from its old superview.
    /// Adding a view to itself or to one of its subviews' subtrees does
    /// nothing, as the tree would get a cycle.
    open func addSubview(_ view: UIView) {
        insertSubview(view, at: subviews.count)
    }

    /// Inserts `view` at `index` of the subviews (clamped to the ends).
    open func insertSubview(_ view: UIView, at index: Int) {
        guard !isDescendant(of: view) else { return }
        view.removeFromSuperview()
        let clamped = min(max(0, index), subviews.count)
        subviews.insert(view, at: clamped)
        view.superview = self
        layer.insertSublayer(view.layer, at: UInt32(sublayerIndex(forSubviewAt: clamped)))
    }

    /// Takes the view out of its superview.
    open func removeFromSuperview() {
        guard let superview else { return }
        superview.subviews.removeAll { $0 === self }
        layer.removeFromSuperlayer()
        self.superview = nil
    }

    /// Moves `view` to the front of the subviews.
    open func bringSubviewToFront(_ view: UIView) {
        guard view.superview === self else { return }
        addSubview(view)
    }

    /// Moves `view` to the back of the subviews.
    open func sendSubviewToBack(_ view: UIView) {
        guard view.superview === self else { return }
        insertSubview(view, at: 0)
    }

    /// Whether this view is `view` or lies below it.
    open func isDescendant(of view: UIView) -> Bool {
        var node: UIView? = self
        while let current = node {
            if current === view { return true }
            node = current.superview
        }
        return false
    }

    /// The index among the layer's sublayers where the layer of the subview
    /// at `index` goes: just below the next subview's layer, so that layers
    /// added directly to the view's layer keep their places.
    private func sublayerIndex(forSubviewAt index: Int) -> Int {
        let sublayers = layer.sublayers ?? []
        guard index + 1 < subviews.count,
              let next = sublayers.firstIndex(where: { $0 === subviews[index + 1].layer })
        else { return sublayers.count }
        return next
    }
}
