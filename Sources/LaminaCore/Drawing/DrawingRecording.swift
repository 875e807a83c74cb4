import Foundation

/// What a `CGContext` was asked to draw, resolved into self-contained
/// commands in device space: a plain `Sendable` value that a rasterizer
/// (`ContextRasterizer`, on LaminaRaster's stages) or the renderer executes in
/// order, knowing nothing of graphics states.
///
/// ## Device space
///
/// Core Graphics' bitmap device space: units are pixels, the origin is the
/// bottom-left corner of the bitmap and y grows *up*. The image that the
/// recording stands for has `height` rows, top row first, so pixel row `r`
/// covers device y from `height - r - 1` to `height - r`. (A layer's
/// `display()` flips its context's CTM, so that the layer's drawing code sees
/// y growing down, as on iOS.)
///
/// Each command carries the clip that was current when it was recorded, and
/// colours carry the context's `setAlpha` already multiplied in.
package struct DrawingRecording: Hashable, Sendable {
    /// The bitmap's width in pixels.
    public var width: Int
    /// The bitmap's height in pixels.
    public var height: Int
    /// The commands, in drawing order, starting from a transparent bitmap.
    public var commands: [DrawingCommand]

    /// A recording for a `width` x `height` bitmap.
    public init(width: Int, height: Int, commands: [DrawingCommand] = []) {
        self.width = width
        self.height = height
        self.commands = commands
    }
}

/// One drawing command of a `DrawingRecording`.
package enum DrawingCommand: Hashable, Sendable {
    /// Paints the inside of a device-space path.
    case fill(FillCommand)
    /// Paints the stroke of a path.
    case stroke(StrokeCommand)
    /// Paints an image.
    case image(ImageCommand)
    /// Makes the inside of a device-space path transparent (`clear(_:)`).
    case clear(ClearCommand)
}

/// The area that drawing may touch: the intersection of the insides of its
/// regions, each a device-space path with its fill rule. No regions means the
/// whole bitmap.
package struct DrawingClip: Hashable, Sendable {
    /// One clipping shape.
    public struct Region: Hashable, Sendable {
        /// The shape, in device space.
        public var path: PathData
        /// Which points of `path` are inside.
        public var rule: CGPathFillRule

        /// The region inside `path` under `rule`.
        public init(path: PathData, rule: CGPathFillRule) {
            self.path = path
            self.rule = rule
        }
    }

    /// The regions, intersected.
    public var regions: [Region]

    /// No clipping: the whole bitmap.
    public static let none = DrawingClip(regions: [])

    /// The intersection of `regions`.
    public init(regions: [Region]) {
        self.regions = regions
    }
}

/// Fills `path` with `color` under `clip`.
package struct FillCommand: Hashable, Sendable {
    /// The shape, in device space.
    public var path: PathData
    /// Which points of `path` are inside.
    public var rule: CGPathFillRule
    /// The colour, with the context's alpha multiplied in.
    public var color: CGColor
    /// Where painting is allowed.
    public var clip: DrawingClip
    /// Whether edges are anti-aliased (`setShouldAntialias`).
    public var antialias: Bool

    /// A fill of these parts.
    public init(path: PathData, rule: CGPathFillRule, color: CGColor, clip: DrawingClip, antialias: Bool) {
        self.path = path
        self.rule = rule
        self.color = color
        self.clip = clip
        self.antialias = antialias
    }
}


/// Strokes `path` with `style`, then maps the outline by `transform`.
///
/// Core Graphics strokes in the user space current at the time of the stroke
/// (a CTM that scales x only makes vertical lines thicker), so the path is
/// recorded in that user space, with the CTM that takes it to device space.
package struct StrokeCommand: Hashable, Sendable {
    /// The path in the user space of the stroke.
    public var path: PathData
    /// User space to device space (the CTM at the time of the stroke).
    public var transform: CGAffineTransform
    /// Width, caps, joins, miter limit and dashes.
    public var style: StrokeStyle
    /// The colour, with the context's alpha multiplied in.
    public var color: CGColor
    /// Where painting is allowed.
    public var clip: DrawingClip
    /// Whether edges are anti-aliased (`setShouldAntialias`).
    public var antialias: Bool

    /// A command of these parts.
    public init(
        path: PathData, transform: CGAffineTransform, style: StrokeStyle, color: CGColor,
        clip: DrawingClip, antialias: Bool
    ) {
        self.path = path
        self.transform = transform
        self.style = style
        self.color = color
        self.clip = clip
        self.antialias = antialias
    }
}

/// How an image is sampled when it is scaled.
public enum CGInterpolationQuality: Int32, Hashable, Sendable, CaseIterable {
    case `default` = 0
    case none = 1
    case low = 2
    case high = 3
    case medium = 4
}

/// Draws `image` into `rect` of the user space mapped by `transform`.
///
/// As in Core Graphics, the image's top row lies along `rect.maxY` of user
/// space and its bottom row along `rect.minY` (so in a context flipped to y
/// down, a `CGImage` drawn with `draw(_:in:)` appears upside down, as on iOS).
/// `pixelTransform` gives the resulting map from image pixels to device space.
package struct ImageCommand: Hashable, Sendable {
    /// The picture drawn.
    public var image: CGImage
    /// The user-space rectangle the image fills.
    public var rect: CGRect
    /// User space to device space (the CTM at the time of drawing).
    public var transform: CGAffineTransform
    /// The context's alpha.
    public var alpha: CGFloat
    /// `.none` reads the nearest pixel; anything else interpolates.
    public var interpolationQuality: CGInterpolationQuality
    /// Where painting is allowed.
    public var clip: DrawingClip
    /// Whether the image's edges are anti-aliased.
    public var antialias: Bool

    /// A command of these parts.
    public init(
        image: CGImage, rect: CGRect, transform: CGAffineTransform, alpha: CGFloat,
        interpolationQuality: CGInterpolationQuality, clip: DrawingClip, antialias: Bool
    ) {
        self.image = image
        self.rect = rect
        self.transform = transform
        self.alpha = alpha
        self.interpolationQuality = interpolationQuality
        self.clip = clip
        self.antialias = antialias
    }

    /// Hashes everything but the pixels (equal images have equal sizes).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(image.width)
        hasher.combine(image.height)
        hasher.combine(rect.origin.x); hasher.combine(rect.origin.y)
        hasher.combine(rect.size.width); hasher.combine(rect.size.height)
        hasher.combine(transform)
        hasher.combine(alpha)
        hasher.combine(interpolationQuality)
        hasher.combine(clip)
        hasher.combine(antialias)
    }

    /// Image pixel coordinates (x to the right, y down from the top-left
    /// corner of the top row, in pixels) to device space.
    public var pixelTransform: CGAffineTransform {
        let sx = rect.width / CGFloat(image.width)
        let sy = -rect.height / CGFloat(image.height)
        return CGAffineTransform(a: sx, b: 0, c: 0, d: sy, tx: rect.minX, ty: rect.maxY).concatenating(transform)
    }
}

/// Makes the inside of `path` transparent, under `clip`.
package struct ClearCommand: Hashable, Sendable {
    /// The cleared shape, in device space.
    public var path: PathData
    /// Where clearing is allowed.
    public var clip: DrawingClip

    /// A clear of `path` under `clip`.
    public init(path: PathData, clip: DrawingClip) {
        self.path = path
        self.clip = clip
    }
}
