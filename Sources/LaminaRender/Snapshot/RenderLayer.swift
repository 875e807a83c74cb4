import Foundation
import LaminaCore
import LaminaRaster

/// A frozen, `Sendable` copy of one layer with everything the renderer needs,
/// resolved: presentation values at the frame's time, colours as `RGBA`,
/// the matrix to the superlayer, replicator instances expanded.
///
/// Layer trees are built and mutated on one task; a `RenderLayer` tree is
/// what crosses into rendering, so a renderer never sees a layer change under
/// it.
package struct RenderLayer: Sendable {
    /// Ordinary layers draw themselves and flatten their sublayers into their
    /// plane; transform layers draw nothing and pass their sublayers into the
    /// enclosing 3D scene.
    public enum Kind: Sendable { case ordinary, transform }

    /// The layer's `name`, for messages.
    public var name: String?
    /// Where the layer is in the tree it was frozen from (replicator copies
    /// keep the path of the sublayer they copy): refusals name it.
    public var path = LayerPath.root
    /// An ordinary layer, or a transform layer (no plane of its own).
    public var kind: Kind = .ordinary
    /// The layer's own coordinate space: `bounds.origin` is its top-left.
    public var bounds: CGRect = .zero
    /// Local (bounds) coordinates to the superlayer's local coordinates in
    /// 3D, including the superlayer's `sublayerTransform` and
    /// `geometryFlipped` (row-vector convention).
    public var transformToSuperlayer: CATransform3D = .identity
    /// `isHidden`: nothing of the layer or its sublayers is drawn.
    public var isHidden = false
    /// `opacity`, 0...1.
    public var opacity: Double = 1
    /// False: the layer's opacity reaches its content and each sublayer
    /// separately (overlapping sublayers show through each other) instead
    /// of fading the composited group once.
    public var allowsGroupOpacity = true
    /// `isDoubleSided`: false hides the layer seen from behind.
    public var isDoubleSided = true

    /// `backgroundColor`, nil for none.
    public var backgroundColor: RGBA?
    /// `cornerRadius` with `maskedCorners` applied, not yet fitted to the
    /// bounds.
    public var cornerRadii: CornerRadii = .zero
    /// `borderWidth` in points, at least 0.
    public var borderWidth: Double = 0
    /// `borderColor`.
    public var borderColor: RGBA = .black
    /// `masksToBounds`: content and sublayers clipped to the (rounded) bounds.
    public var masksToBounds = false
    /// The mask layer, in this layer's coordinates.
    public var mask: Indirect<RenderLayer>?
    /// The mask hides the layer where it is opaque instead (`CALayer.invertsMask`).
    public var maskIsInverted = false
    /// Its shadow, filters and blend mode, which few layers have: out of
    /// line, so that the many without them stay small (a frame copies its
    /// layers as it walks them). Nil: none of them.
    public var effects: Indirect<RenderEffects>?

    /// The shadow, when `shadowOpacity` is above 0.
    public var shadow: RenderShadow? {
        get { effects?.value.shadow }
        set { changeEffects { $0.shadow = newValue } }
    }
    /// `filters`, in order: applied to what the layer and its sublayers
    /// drew, before its mask, shadow and opacity.
    public var filters: [RenderFilter] {
        get { effects?.value.filters ?? [] }
        set { changeEffects { $0.filters = newValue } }
    }
    /// `backgroundFilters`, in order: applied to what lies under the layer
    /// in its target, drawn back within its bounds under its background.
    public var backgroundFilters: [RenderFilter] {
        get { effects?.value.backgroundFilters ?? [] }
        set { changeEffects { $0.backgroundFilters = newValue } }
    }
    /// How the layer's drawing (sublayers, shadow and mask included) meets
    /// what lies under it in its target: its `compositingFilter`.
    public var blendMode: BlendMode {
        get { effects?.value.blendMode ?? .normal }
        set { changeEffects { $0.blendMode = newValue } }
    }

    /// Replaces `effects` with a changed copy (nil when nothing is left).
    private mutating func changeEffects(_ change: (inout RenderEffects) -> Void) {
        var changed = effects?.value ?? RenderEffects()
        change(&changed)
        effects = changed.isEmpty ? nil : Indirect(changed)
    }

    /// What the layer draws between its background and its sublayers.
    public var content: [RenderContent] = []
    /// A colour multiplied into everything this layer and its sublayers draw
    /// (replicator instance colours).
    public var tint: RGBA?

    /// The sublayers, back to front in the array's order.
    public var sublayers: [RenderLayer] = []

    /// A layer with Core Animation's defaults and nothing in it.
    public init() {}

    /// This layer, its mask and everything below, counted.
    public var subtreeCount: Int {
        1 + (mask?.value.subtreeCount ?? 0) + sublayers.reduce(0) { $0 + $1.subtreeCount }
    }

    /// Whether any corner is rounded.
    public var isRounded: Bool { cornerRadii.fitted(to: bounds).isRounded }
}

/// What a layer casts and how it composites, beyond opacity and masks: its
/// shadow, its filters and background filters, its blend mode.
package struct RenderEffects: Sendable {
    public var shadow: RenderShadow?
    public var filters: [RenderFilter] = []
    public var backgroundFilters: [RenderFilter] = []
    public var blendMode: BlendMode = .normal

    /// None of them.
    public init() {}

    /// Whether the layer has none of them.
    public var isEmpty: Bool { shadow == nil && filters.isEmpty && backgroundFilters.isEmpty && blendMode == .normal }
}

/// A shadow as Core Animation draws it: the layer's composited alpha (or
/// `path`), blurred with a Gaussian of standard deviation `radius`, moved by
/// `offset` in the layer's own coordinates, painted in `color` times
/// `opacity`.
package struct RenderShadow: Sendable {
    /// `shadowColor`.
    public var color: RGBA
    /// `shadowOpacity`.
    public var opacity: Double
    /// `shadowOffset`, in the layer's coordinates.
    public var offset: CGSize
    /// `shadowRadius`: the blur's deviation in points.
    public var radius: Double
    /// `shadowPath` as a white region (non-zero rule) that flattens itself
    /// for the scale the planner draws it at.
    public var path: FillContent?
    /// A shadow of these properties.
    public init(color: RGBA, opacity: Double, offset: CGSize, radius: Double, path: FillContent? = nil) {
        self.color = color; self.opacity = opacity; self.offset = offset; self.radius = radius; self.path = path
    }
}

/// One of a layer's filters, resolved.
package enum RenderFilter: Hashable, Sendable {
    /// A Gaussian blur of standard deviation `sigma` points.
    case blur(sigma: Double)
    /// A colour transform (the colour filters, consecutive ones as one matrix).
    case colorMatrix(ColorMatrix)

    /// How far the filter spreads a picture, in points (3 sigma).
    var reach: Double {
        if case .blur(let sigma) = self { return 3 * sigma }
        return 0
    }
}

/// One piece of a layer's own content.
package enum RenderContent: Sendable {
    /// `contents`: an image placed by gravity, rect and centre.
    case image(ImageContent)
    /// A filled region (shape fills, stroke outlines, glyphs): closed contours
    /// in local coordinates, flattened finely enough for `flatteningScale`
    /// pixels per point, or re-flattened by the planner.
    case fill(FillContent)
    /// A `CAGradientLayer`'s gradient over the bounds, in local points.
    case gradient(GradientFill)
}

/// `contents` with its placement properties.
package struct ImageContent: Sendable {
    /// The picture.
    public var image: CGImage
    /// `contentsGravity`.
    public var gravity: CALayerContentsGravity
    /// `contentsRect`: the part of the picture shown, in unit coordinates.
    public var contentsRect: CGRect = CGRect(x: 0, y: 0, width: 1, height: 1)
    /// `contentsCenter`: the part that stretches, in unit coordinates.
    public var contentsCenter: CGRect = CGRect(x: 0, y: 0, width: 1, height: 1)
    /// Pixels of the image per point.
    public var contentsScale: Double = 1
    /// `contentsMultiplyColor`: multiplies the picture, nil for none.
    public var multiplyColor: RGBA?
    /// `minificationFilter`.
    public var minificationFilter: TextureFilter = .linear
    /// `magnificationFilter`.
    public var magnificationFilter: TextureFilter = .linear
    /// Shows the picture's first row at the layer's max-Y edge instead of
    /// its min-Y edge (trees drawn with y up).
    public var isFlipped = false
    /// `image` placed by `gravity`, the other properties at their defaults.
    public init(image: CGImage, gravity: CALayerContentsGravity) { self.image = image; self.gravity = gravity }
}

/// A region filled with one colour.
package struct FillContent: Sendable {
    /// What the region is: a path's fill, its stroke, or fixed polygons.
    /// Curves are flattened for the scale they are finally seen at, by the
    /// planner (which keeps what it flattened for the next frame).
    public var outline: FillOutline
    /// True for the even-odd rule, false for non-zero winding.
    public var evenOdd: Bool
    /// The fill's colour.
    public var color: RGBA
    /// A conservative bounding box of the region, in local coordinates.
    public var bounds: CGRect
    /// The region `outline` filled with `color`.
    public init(outline: FillOutline, evenOdd: Bool, color: RGBA, bounds: CGRect) {
        self.outline = outline; self.evenOdd = evenOdd; self.color = color; self.bounds = bounds
    }

    /// The closed contours of the region at `tolerance` (the most a
    /// flattened curve may stray from the true one, in local units).
    public func contours(_ tolerance: Double) -> [[CGPoint]] { outline.contours(tolerance: tolerance) }
}

/// The shape of a filled region, as a value: two regions with equal
/// outlines flatten to the same contours at the same tolerance, which is
/// what lets the planner keep contours from one frame for the next
/// (`OutlineCache`).
package enum FillOutline: Hashable, Sendable {
    /// The area a path's fill covers: its flattened subpaths (those of
    /// fewer than three points have no area and are dropped).
    case fill(PathData)
    /// The area a path's stroke covers (`PathData.strokeOutline`).
    case stroke(PathData, StrokeStyle)
    /// Closed polygons, the same at every tolerance.
    case polygons([[CGPoint]])

    /// The closed contours at `tolerance`, in local units.
    public func contours(tolerance: Double) -> [[CGPoint]] {
        switch self {
        case .fill(let path): path.fillContours(tolerance: tolerance)
        case .stroke(let path, let style): path.strokeOutline(style: style, tolerance: CGFloat(tolerance))
        case .polygons(let polygons): polygons
        }
    }
}

/// A box that lets a value type hold a value of its own type.
package final class Indirect<Value: Sendable>: Sendable {
    /// The value held.
    public let value: Value
    /// A box holding `value`.
    public init(_ value: Value) { self.value = value }
}

extension Indirect: Equatable where Value: Equatable {
    /// The same box, or boxes of equal values.
    package static func == (a: Indirect, b: Indirect) -> Bool { a === b || a.value == b.value }
}
