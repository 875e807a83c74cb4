import Foundation

/// A layer of Core Animation's model: a rectangle in 3D space with a
/// background, border, shadow, contents and sublayers.
///
/// `CALayer` follows QuartzCore's names, defaults and behaviour so that code
/// written for iOS ports line by line. It is a plain class and not `Sendable`:
/// a layer tree is built and changed on one task; rendering works on a copy.
/// The extensions in this folder add the layer tree (`addSublayer` and kin),
/// geometry (`frame`, `convert`, `hitTest`), key-value coding, drawing
/// (`display()`, `draw(in:)`) and animations.
///
/// Subclasses override `init()` and `init(layer:)`; both are `required`, so
/// that `UIView.layerClass` and presentation copies can create any subclass
/// (Swift asks for `required` where Objective-C code wrote `override`).
open class CALayer {
    // The Core Animation properties declared here keep their values in
    // `properties`, one `LayerProperties` value: a presentation copy, made
    // for each animated layer of every frame, takes them in one assignment
    // instead of forty getter and setter calls (a tenth of an animated
    // Lottie frame). Subclasses keep their own properties stored as usual.
    //
    // Stored properties are `@exclusivity(unchecked)`. Swift checks each
    // access to a class's stored property at run time for an overlapping
    // write; a frame reads dozens per layer and a presentation copy writes
    // as many, and those checks were a fifth of an animated Lottie frame.
    // No property is written while it is being written: setters write
    // other properties (`bounds` marks the layer for display), and a layer
    // tree is changed on one task at a time (what crosses to rendering is
    // the `RenderLayer` snapshot).

    // MARK: Geometry

    /// The layer's own coordinate space: its origin and size. Default zero.
    open var bounds: CGRect {
        get { properties.bounds }
        set {
            let old = properties.bounds
            properties.bounds = newValue
            if needsDisplayOnBoundsChange && newValue != old { setNeedsDisplay() }
        }
    }

    /// Where the anchor point lands in the superlayer's sublayer space.
    open var position: CGPoint { get { properties.position } set { properties.position = newValue } }

    /// The z component of `position`. Default 0.
    open var zPosition: CGFloat { get { properties.zPosition } set { properties.zPosition = newValue } }

    /// The point of the bounds, in unit coordinates, that `position` places
    /// and that `transform` turns about. Default (0.5, 0.5).
    open var anchorPoint: CGPoint { get { properties.anchorPoint } set { properties.anchorPoint = newValue } }

    /// The z component of the anchor point, in points. Default 0.
    open var anchorPointZ: CGFloat { get { properties.anchorPointZ } set { properties.anchorPointZ = newValue } }

    /// The transform applied to the layer about its anchor point. Default identity.
    open var transform: CATransform3D { get { properties.transform } set { properties.transform = newValue } }

    /// The transform applied to the sublayers, about this layer's anchor
    /// point (typically a perspective). Default identity.
    open var sublayerTransform: CATransform3D { get { properties.sublayerTransform } set { properties.sublayerTransform = newValue } }

    /// Whether this layer's sublayers and drawn content use a vertically
    /// flipped coordinate system (y grows up on iOS). Images in `contents`
    /// keep their orientation. Default false.
    open var isGeometryFlipped: Bool { get { properties.isGeometryFlipped } set { properties.isGeometryFlipped = newValue } }

    // MARK: Visibility and compositing

    /// Hides the layer and its sublayers (they are not hit either). Default false.
    open var isHidden: Bool { get { properties.isHidden } set { properties.isHidden = newValue } }

    /// Whether the back of the layer is drawn when it faces away. Default true.
    open var isDoubleSided: Bool { get { properties.isDoubleSided } set { properties.isDoubleSided = newValue } }

    /// The opacity, 0...1. Default 1.
    open var opacity: Float { get { properties.opacity } set { properties.opacity = newValue } }

    /// Whether `opacity` applies to the layer and its sublayers as one group
    /// (true, the default on iOS) or to each separately.
    open var allowsGroupOpacity: Bool { get { properties.allowsGroupOpacity } set { properties.allowsGroupOpacity = newValue } }

    /// A hint that `draw(in:)` fills the whole bounds opaquely. Default false.
    open var isOpaque: Bool { get { properties.isOpaque } set { properties.isOpaque = newValue } }

    // MARK: Background and border

    /// The background fill. Default nil (none).
    open var backgroundColor: CGColor? { get { properties.backgroundColor } set { properties.backgroundColor = newValue } }

    /// The radius of the rounded corners of the background, border and (with
    /// `masksToBounds`) the clip. Default 0.
    open var cornerRadius: CGFloat { get { properties.cornerRadius } set { properties.cornerRadius = newValue } }

    /// Which corners `cornerRadius` rounds. Default all four.
    open var maskedCorners: CACornerMask { get { properties.maskedCorners } set { properties.maskedCorners = newValue } }

    /// The width of the border, drawn inside the bounds above the contents
    /// and sublayers. Default 0.
    open var borderWidth: CGFloat { get { properties.borderWidth } set { properties.borderWidth = newValue } }

    /// The border colour. Default opaque black.
    open var borderColor: CGColor? { get { properties.borderColor } set { properties.borderColor = newValue } }

    /// Whether sublayers and contents are clipped to the (rounded) bounds. Default false.
    open var masksToBounds: Bool { get { properties.masksToBounds } set { properties.masksToBounds = newValue } }

    // MARK: Shadow

    /// The shadow colour. Default opaque black.
    open var shadowColor: CGColor? { get { properties.shadowColor } set { properties.shadowColor = newValue } }

    /// The shadow opacity; a shadow is drawn only when it is above 0. Default 0.
    open var shadowOpacity: Float { get { properties.shadowOpacity } set { properties.shadowOpacity = newValue } }

    /// The shadow offset. Default (0, -3): on iOS the shadow is cast upward.
    open var shadowOffset: CGSize { get { properties.shadowOffset } set { properties.shadowOffset = newValue } }

    /// The shadow's blur radius. Default 3.
    open var shadowRadius: CGFloat { get { properties.shadowRadius } set { properties.shadowRadius = newValue } }

    /// The outline of the shadow, in the layer's own space, filled with the
    /// non-zero rule; nil (the default) makes the shadow follow the layer's
    /// composited alpha. A mutable path is copied on assignment, as in Core
    /// Animation.
    open var shadowPath: CGPath? {
        get { properties.shadowPath }
        set { properties.shadowPath = (newValue as? CGMutablePath)?.copy() ?? newValue }
    }

    // MARK: Contents

    /// The layer's image: a `CGImage`, or a `CABackingStore` after `display()`
    /// drew the layer. Default nil.
    open var contents: Any? { get { properties.contents } set { properties.contents = newValue } }

    /// How `contents` is laid out in the bounds. Default `.resize`.
    open var contentsGravity: CALayerContentsGravity { get { properties.contentsGravity } set { properties.contentsGravity = newValue } }

    /// Pixels per point of `contents` and of the backing store that
    /// `display()` draws into. Default 1.
    open var contentsScale: CGFloat { get { properties.contentsScale } set { properties.contentsScale = newValue } }

    /// The part of `contents` shown, in unit coordinates. Default (0, 0, 1, 1).
    open var contentsRect: CGRect { get { properties.contentsRect } set { properties.contentsRect = newValue } }

    /// The stretchable centre of `contents` for nine-part scaling, in unit
    /// coordinates. Default (0, 0, 1, 1): everything stretches.
    open var contentsCenter: CGRect { get { properties.contentsCenter } set { properties.contentsCenter = newValue } }

    /// Filters applied, in order, to what the layer and its sublayers draw
    /// (`CAFilter`s), before its mask, shadow and opacity. Default nil.
    open var filters: [Any]? { get { properties.filters } set { properties.filters = newValue } }

    /// Filters applied, in order, to what lies behind the layer (what its
    /// superlayer has drawn under it), shown within its bounds (rounded by
    /// `cornerRadius`) under its background: frosted glass. `CAFilter`s, as
    /// `filters`. Default nil.
    ///
    /// ```swift
    /// let frost = CAFilter(type: .gaussianBlur)
    /// frost.setValue(20, forKey: "inputRadius")
    /// panel.backgroundFilters = [frost]
    /// ```
    open var backgroundFilters: [Any]? { get { properties.backgroundFilters } set { properties.backgroundFilters = newValue } }

    /// How the layer, with its sublayers, shadow and mask, meets what is
    /// drawn under it: a blend mode, as a `CAFilter` or its type's name
    /// (`"multiplyBlendMode"`, `CAFilter.Kind.blendModes`). Default nil:
    /// source-over. A layer with one is drawn as a group, then blended.
    ///
    /// ```swift
    /// shade.compositingFilter = "multiplyBlendMode"
    /// glow.compositingFilter = CAFilter(type: .screenBlendMode)
    /// ```
    open var compositingFilter: Any? { get { properties.compositingFilter } set { properties.compositingFilter = newValue } }

    /// A colour that multiplies `contents` (its alpha fades them), and
    /// nothing else the layer draws. Default nil: the contents as they are.
    /// Core Animation's own (unpublished) property, which PosterBoard
    /// wallpapers and their editors use.
    open var contentsMultiplyColor: CGColor? { get { properties.contentsMultiplyColor } set { properties.contentsMultiplyColor = newValue } }

    /// The filter used when `contents` is drawn smaller. Default `.linear`.
    open var minificationFilter: CALayerContentsFilter { get { properties.minificationFilter } set { properties.minificationFilter = newValue } }

    /// The filter used when `contents` is drawn larger. Default `.linear`.
    open var magnificationFilter: CALayerContentsFilter { get { properties.magnificationFilter } set { properties.magnificationFilter = newValue } }

    /// The level-of-detail bias of trilinear minification. Default 0.
    open var minificationFilterBias: Float { get { properties.minificationFilterBias } set { properties.minificationFilterBias = newValue } }

    // MARK: Identity and drawing

    /// A name for the layer, used in errors, hit-test reports and animation
    /// targets. Default nil.
    open var name: String? { get { properties.name } set { properties.name = newValue } }

    /// Whether a change of `bounds` calls `setNeedsDisplay()`. Default false.
    open var needsDisplayOnBoundsChange: Bool { get { properties.needsDisplayOnBoundsChange } set { properties.needsDisplayOnBoundsChange = newValue } }

    /// The object that draws the layer's content, if any. Not retained.
    open weak var delegate: (any CALayerDelegate)?

    // MARK: Overridable behaviour
    //
    // Swift lets subclasses override only what the class body declares, so
    // the members that Core Animation subclasses override live here and
    // delegate to the extensions of this folder, where the documentation of
    // each topic is.

    /// The layer's rectangle in its superlayer's sublayer space; see
    /// `LayerGeometry.frame` and `LayerGeometry.setFrame(_:)`. Setting it sets
    /// `position` and `bounds.size`.
    open var frame: CGRect {
        get { geometry.frame }
        set { applyFrame(newValue) }
    }

    /// The sublayers, back to front; nil when there are none. Setting it
    /// replaces them (see `CALayer+Hierarchy.swift`).
    open var sublayers: [CALayer]? {
        get { sublayerStorage.isEmpty ? nil : sublayerStorage }
        set { replaceSublayers(with: newValue ?? []) }
    }

    /// The layer whose alpha masks this layer and its sublayers, in this
    /// layer's own coordinates. Its `superlayer` is this layer. A layer that
    /// would make a cycle (this layer or an ancestor) is ignored.
    open var mask: CALayer? {
        get { maskStorage }
        set { setMask(newValue) }
    }

    /// The farthest descendant containing `point`, given in the space of the
    /// nearest ancestor that is not a transform layer; see
    /// `CALayer+HitTesting.swift` for the rules.
    open func hitTest(_ point: CGPoint) -> CALayer? {
        defaultHitTest(point)
    }

    /// Whether `point`, in the layer's own space, is inside `bounds`
    /// (minimum edges included, maximum edges excluded).
    open func contains(_ point: CGPoint) -> Bool {
        bounds.contains(point)
    }

    /// The default value of a property: Core Animation's default for the
    /// class's own keys, nil for other keys. A subclass may override it to
    /// change the defaults of new instances (new layers take the overridden
    /// defaults of built-in keys) or to give custom keys a value before one
    /// is set.
    open class func defaultValue(forKey key: String) -> Any? {
        keyTable[key]?.defaultValue()
    }

    /// Whether a change of `key` through key-value coding (which is how
    /// animations and dynamic properties reach a layer) calls
    /// `setNeedsDisplay()`. False for every key unless a subclass says so.
    open class func needsDisplay(forKey key: String) -> Bool {
        false
    }

    /// The value of a property by its Core Animation key (`"opacity"`,
    /// `"hidden"`), or of a custom key. See `CALayer+KeyValueCoding.swift`.
    open func value(forKey key: String) -> Any? {
        readValue(forKey: key)
    }

    /// Sets a property by its key, or stores a custom key. A value of the
    /// wrong type for a property leaves it unchanged; `setCheckedValue(_:forKey:)`
    /// reports why.
    open func setValue(_ value: Any?, forKey key: String) {
        try? writeValue(value, forKey: key)
    }

    /// The value at a key path such as `"position.x"` or
    /// `"transform.rotation.z"`, or nil when the path leads nowhere.
    open func value(forKeyPath keyPath: String) -> Any? {
        readValue(forKeyPath: keyPath)
    }

    /// Sets the value at a key path such as `"bounds.size.width"` or
    /// `"sublayerTransform.rotation.y"`. A value that does not fit leaves the
    /// layer unchanged; `setCheckedValue(_:forKeyPath:)` reports why.
    open func setValue(_ value: Any?, forKeyPath keyPath: String) {
        try? writeValue(value, forKeyPath: keyPath)
    }

    /// Updates the layer's content. The default calls the delegate's
    /// `display(_:)` when there is a delegate (whose default draws), and
    /// otherwise draws into a new backing store through `draw(in:)`; see
    /// `CALayer+Display.swift`. Subclasses may override it to set `contents`
    /// directly.
    open func display() {
        performDisplay()
    }

    /// Draws the layer's content into `ctx`, in the layer's own space. The
    /// default calls the delegate's `draw(_:in:)`.
    open func draw(in ctx: CGContext) {
        delegate?.draw(self, in: ctx)
    }

    /// Marks the layer for `display()` at the next `displayIfNeeded()`.
    open func setNeedsDisplay() {
        needsDisplayFlag = true
    }

    /// Marks the layer for `display()`. Lamina redraws the whole layer (Core
    /// Animation may redraw more than `rect` too); an empty or null `rect`
    /// marks nothing.
    open func setNeedsDisplay(_ rect: CGRect) {
        if !rect.isNull && !rect.isEmpty { needsDisplayFlag = true }
    }

    /// Whether the layer is marked for `display()`.
    open func needsDisplay() -> Bool {
        needsDisplayFlag
    }

    /// Calls `display()` if the layer is marked, and clears the mark.
    open func displayIfNeeded() {
        guard needsDisplayFlag else { return }
        needsDisplayFlag = false
        display()
    }

    /// The key-value table of this class (its keys and its superclass's).
    class var keyTable: LayerKeyTable { CALayer.baseKeyTable }

    // MARK: Storage behind the extensions

    /// The values of the properties above, in one value: a presentation
    /// copy takes them all in one assignment (`init(layer:)`).
    @exclusivity(unchecked) var properties = LayerProperties()

    /// The sublayers, back to front.
    @exclusivity(unchecked) var sublayerStorage: [CALayer] = []

    /// The layer that holds this one in its sublayers or as its mask.
    ///
    /// Not a `weak` reference: a weakly referenced object keeps its counts
    /// in a side table, and every retain and release of a layer with
    /// sublayers took that slower path, as the renderer walks the tree
    /// each frame. The superlayer holds this layer, so it outlives the
    /// link: it is cleared when the layer leaves (`CALayer+Hierarchy.swift`)
    /// and by the superlayer's `deinit`.
    @exclusivity(unchecked) unowned(unsafe) var superlayerStorage: CALayer?

    /// The mask layer; its `superlayerStorage` is this layer.
    @exclusivity(unchecked) var maskStorage: CALayer?

    /// Whether `mask` shows this layer where the mask is clear and hides it
    /// where the mask is opaque: what Core Animation draws for a mask made of
    /// an opaque, unbounded black layer with the mask's content composited
    /// onto it with the `xor` compositing filter (lottie-ios's inverted track
    /// mattes). Not Apple API: the Lottie reader sets it.
    @exclusivity(unchecked) package var invertsMask = false

    /// Values of keys that are not properties, set through key-value coding.
    @exclusivity(unchecked) var customValues: [String: Any] = [:]

    /// Whether `display()` is due.
    @exclusivity(unchecked) var needsDisplayFlag = false

    /// Whether this is one of Lamina's own layer classes, whose properties
    /// are exactly their storage (an app's subclass may answer a getter its
    /// own way): told once, when the layer is made, for the renderer's
    /// reads of every layer of every frame (`setsNoEffects`,
    /// `placementTransform`...).
    @exclusivity(unchecked) private(set) var isLaminaClassInstance = false

    /// For a presentation copy, the layer it was copied from.
    @exclusivity(unchecked) var modelLayerReference: CALayer?

    /// The attached animations, in the order they apply.
    @exclusivity(unchecked) var animationEntries: [(key: String?, animation: CAAnimation)] = [] {
        didSet { animatesHidden = animationEntries.contains { $0.animation.writesHiddenAnywhere } }
    }

    /// Whether an attached animation (or one in an attached group) is of
    /// `hidden`: kept as animations come and go, so that a renderer asking
    /// whether the layer shows (`isHiddenWhenPresented`) neither walks them
    /// nor writes to the model while frames are drawn.
    @exclusivity(unchecked) private(set) var animatesHidden = false

    // MARK: Creation

    deinit {
        // The sublayers and the mask may live on, held elsewhere: they no
        // longer have a superlayer (`superlayerStorage` is not weak).
        for sublayer in sublayerStorage { sublayer.superlayerStorage = nil }
        maskStorage?.superlayerStorage = nil
    }

    /// A layer with Core Animation's defaults, or with the defaults that the
    /// class's `defaultValue(forKey:)` returns where a subclass overrides it.
    public required init() {
        isLaminaClassInstance = Self.isLaminaClass(type(of: self))
        applyClassDefaults()
    }

    /// A copy of `layer`'s properties, used for presentation copies as in
    /// Core Animation: every row of the class's property table (a built-in
    /// subclass's own rows included; a custom subclass copies its own stored
    /// properties, then calls `super.init(layer:)`). The copy has no superlayer, sublayers, mask,
    /// animations or delegate, and does not need display; `contents` and the
    /// values of custom keys are shared. Anything but a `CALayer` gives a
    /// layer with the defaults.
    public required init(layer: Any) {
        isLaminaClassInstance = Self.isLaminaClass(type(of: self))
        guard let other = layer as? CALayer else {
            applyClassDefaults()
            return
        }
        // CALayer's own properties in one assignment; a subclass's rows of
        // the table typed where the two are of one class (a presentation
        // copy always is), else boxed, each key read where `other` has it.
        properties = other.properties
        let table = type(of: self).keyTable
        if type(of: other) == type(of: self) {
            for copy in table.subclassCopiers { copy(self, other) }
        } else {
            for key in table.subclassKeys {
                _ = key.write(self, key.read(other))
            }
        }
        customValues = other.customValues
        invertsMask = other.invertsMask
        // A subclass's setters may have asked for display.
        needsDisplayFlag = false
    }
}
