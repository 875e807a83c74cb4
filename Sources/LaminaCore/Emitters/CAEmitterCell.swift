import Foundation

/// One kind of particle an emitter makes (`CAEmitterCell`): how many a
/// second, how long they live, how they move, turn, grow and change colour,
/// and what they look like.
///
/// Properties with a mean and a range (`velocity` and `velocityRange`) give
/// each particle a value drawn uniformly from `mean - range/2 ... mean +
/// range/2`, as Core Animation's header says. A cell is also timed
/// (`CAMediaTiming`): it emits only while active in its emitter's time, so
/// `beginTime = -15` shows the emitter as it is after fifteen seconds.
///
/// ```swift
/// let spark = CAEmitterCell()
/// spark.contents = dot                   // a CGImage
/// spark.birthRate = 50
/// spark.lifetime = 2
/// spark.velocity = 120
/// spark.emissionRange = 2 * .pi          // every direction
/// spark.alphaSpeed = -0.5                // fades over two seconds
/// spark.color = UIColor.orange.cgColor
/// ```
open class CAEmitterCell: CAMediaTiming {
    /// The cell's name (for key paths such as `emitterCells.spark.birthRate`). Default nil.
    open var name: String?
    /// Whether the cell emits. Default true.
    open var isEnabled = true
    /// Particles a second. Default 0.
    open var birthRate: Float = 0
    /// Seconds a particle lives: the mean. Default 0.
    open var lifetime: Float = 0
    /// Seconds a particle lives: the range about the mean. Default 0.
    open var lifetimeRange: Float = 0
    /// The emission direction's angle from the z-axis, in radians (0 keeps
    /// the direction in the layer's plane). Default 0.
    open var emissionLatitude: CGFloat = 0
    /// The emission direction's angle in the xy-plane from the x-axis, in radians. Default 0.
    open var emissionLongitude: CGFloat = 0
    /// The cone, in radians, that directions spread over about the
    /// emission direction (2π: every direction). Default 0.
    open var emissionRange: CGFloat = 0
    /// Points a second at birth: the mean. Default 0.
    open var velocity: CGFloat = 0
    /// Points a second at birth: the range. Default 0.
    open var velocityRange: CGFloat = 0
    /// Acceleration along x, points a second squared. Default 0.
    open var xAcceleration: CGFloat = 0
    /// Acceleration along y. Default 0.
    open var yAcceleration: CGFloat = 0
    /// Acceleration along z. Default 0.
    open var zAcceleration: CGFloat = 0
    /// The size of a particle relative to its contents: the mean. Default 1.
    open var scale: CGFloat = 1
    /// The scale's range. Default 0.
    open var scaleRange: CGFloat = 0
    /// How fast the scale changes, a second. Default 0.
    open var scaleSpeed: CGFloat = 0
    /// Turns, in radians a second: the mean. Default 0.
    open var spin: CGFloat = 0
    /// Turns: the range. Default 0.
    open var spinRange: CGFloat = 0
    /// The colour that multiplies the contents: the mean. Default opaque white.
    open var color: CGColor? = CGColor.white
    /// The red component's range. Default 0.
    open var redRange: Float = 0
    /// The green component's range. Default 0.
    open var greenRange: Float = 0
    /// The blue component's range. Default 0.
    open var blueRange: Float = 0
    /// The alpha's range. Default 0.
    open var alphaRange: Float = 0
    /// How fast red changes, a second. Default 0.
    open var redSpeed: Float = 0
    /// How fast green changes, a second. Default 0.
    open var greenSpeed: Float = 0
    /// How fast blue changes, a second. Default 0.
    open var blueSpeed: Float = 0
    /// How fast alpha changes, a second. Default 0.
    open var alphaSpeed: Float = 0
    /// The particle's picture, a `CGImage`. Default nil (nothing drawn).
    open var contents: Any?
    /// The part of the picture shown, in unit coordinates. Default the whole.
    open var contentsRect = CGRect(x: 0, y: 0, width: 1, height: 1)
    /// Pixels of the picture per point of the particle at scale 1. Default 1.
    open var contentsScale: CGFloat = 1
    /// The filter when a particle shows its picture smaller. Default `.linear`.
    open var minificationFilter: CALayerContentsFilter = .linear
    /// The filter when a particle shows its picture larger. Default `.linear`.
    open var magnificationFilter: CALayerContentsFilter = .linear
    /// The level-of-detail bias of minification. Default 0.
    open var minificationFilterBias: Float = 0
    /// How many frames `contentsRect` holds, side by side from left to
    /// right, for a sprite-sheet particle. Default 1. (Core Animation's
    /// unpublished key, which wallpapers use.)
    open var contentsFrameCount = 1
    /// Frames a second a particle steps through. Default 0 (no stepping).
    open var contentsFramesPerSecond: Double = 0
    /// Which frames a particle shows: `"single"` (the default: the first
    /// frame, or stepping through them at `contentsFramesPerSecond`, once),
    /// `"loop"` (stepping round for ever) or `"random"` (a frame drawn at
    /// random, stepping on from it and round).
    open var contentsFrameMode = "single"
    /// `"sprite"` (the default: each particle faces the viewer) or
    /// `"plane"`: each particle is a plane in 3D, turned as the orientation
    /// keys say and seen foreshortened. (Core Animation's unpublished key,
    /// which wallpapers use, as the orientation and rotation keys below.)
    open var particleType = "sprite"
    /// A plane particle's facing: its normal's angle in the xy-plane from x, in radians. Default 0.
    open var orientationLongitude: CGFloat = 0
    /// A plane particle's facing: its normal's angle from the z-axis (0 faces the viewer), in radians. Default 0.
    open var orientationLatitude: CGFloat = 0
    /// The cone, in radians, that plane particles' normals spread over. Default 0.
    open var orientationRange: CGFloat = 0
    /// A particle's turn at birth, in radians: the mean. Default 0.
    open var rotation: CGFloat = 0
    /// A particle's turn at birth: the range. Default 0.
    open var rotationRange: CGFloat = 0
    /// Cells that every particle of this cell emits in turn, from where it is
    /// and relative to its direction, inheriting its scale and colour. Default nil.
    open var emitterCells: [CAEmitterCell]?
    /// Extra values, as a layer's `style`. Default nil.
    open var style: [String: Any]?

    // MARK: CAMediaTiming

    /// When the cell starts emitting, in its emitter's time. Default 0.
    open var beginTime: CFTimeInterval = 0
    /// How long the cell emits, in its own time; 0 (the default) for ever.
    open var duration: CFTimeInterval = 0
    /// How fast the cell's time runs. Default 1.
    open var speed: Float = 1
    /// A shift of the cell's time. Default 0.
    open var timeOffset: CFTimeInterval = 0
    /// How many times `duration` repeats. Default 0 (once).
    open var repeatCount: Float = 0
    /// How long the cell repeats for. Default 0.
    open var repeatDuration: CFTimeInterval = 0
    /// Whether each repetition plays back too. Default false.
    open var autoreverses = false
    /// Held for compatibility: a cell emits only in its active time.
    open var fillMode: CAMediaTimingFillMode = .removed

    /// A cell with Core Animation's defaults (it emits nothing until it has
    /// a `birthRate` and a `lifetime`).
    public init() {}

    /// A new cell, as Objective-C's `+emitterCell`.
    public class func emitterCell() -> CAEmitterCell { CAEmitterCell() }

    /// Core Animation's default for `key`, or nil.
    open class func defaultValue(forKey key: String) -> Any? { properties[key]?.defaultValue() }

    /// The value of the property `key`, or nil (an unknown key, or a property that holds nil).
    open func value(forKey key: String) -> Any? { Self.properties[key]?.read(self) ?? style?[key] }

    /// Sets the property `key`; a key the cell does not have is kept in
    /// `style`, as Core Animation keeps unknown keys.
    open func setValue(_ value: Any?, forKey key: String) {
        if let property = Self.properties[key] {
            _ = property.write(self, value)
        } else {
            var s = style ?? [:]
            s[key] = value
            style = s
        }
    }
}
