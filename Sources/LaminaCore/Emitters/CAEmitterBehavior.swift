import Foundation

/// Something that acts on every particle of an emitter as it lives
/// (`CAEmitterBehavior`, which Core Animation has without publishing it and
/// wallpaper editors write into CAML): a force, drag, a turn to face the
/// motion, or a value or colour that changes over a particle's life.
///
/// Parameters are set by key, as Core Animation's are:
///
/// ```swift
/// let drag = CAEmitterBehavior(type: .drag)
/// drag.setValue(0.8, forKey: "drag")            // velocity lost per second, relative
/// let fade = CAEmitterBehavior(type: .valueOverLife)
/// fade.setValue("color.alpha", forKey: "keyPath")
/// fade.setValue([1.0, 1.0, 0.0], forKey: "values")
/// emitter.emitterBehaviors = [drag, fade]
/// ```
///
/// The kinds and what Lamina does with their keys:
/// - `wave`: `force` (`[x, y, z]`, points a second squared) times
///   `sin(2π · frequency · age)`.
/// - `drag`: `drag`, the fraction of its velocity a particle loses a second
///   (`dv/dt = -drag · v`).
/// - `attractor`: pulls particles towards `position` (and `zPosition`) with
///   acceleration `stiffness` times their distance (`attractorType` `radial`:
///   to the point; `axial`: to the line through it along
///   `orientationLongitude`; `planar`: to the plane through it), only beyond
///   `radius`, fading as `exp(-(distance - falloffDistance) / falloff)`
///   beyond `falloffDistance` (`falloff` infinite: no fading).
/// - `alignToMotion`: a particle turns to face where it moves, plus `rotation`.
/// - `valueOverLife`: `keyPath` (`scale`, `color.alpha`, `color.red`,
///   `color.green`, `color.blue`) takes `values` over the particle's life,
///   at `locations` (0...1; evenly spread when absent), multiplying the
///   particle's own value.
/// - `colorOverLife`: `colors` (`CGColor`s) over the particle's life at
///   `locations`, multiplying its colour.
open class CAEmitterBehavior {
    /// What a behaviour does (`kCAEmitterBehavior...`).
    public struct Kind: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The constant whose string is `rawValue`.
        public init(_ rawValue: String) { self.rawValue = rawValue }

        public static let wave = Kind("wave")
        public static let drag = Kind("drag")
        public static let attractor = Kind("attractor")
        public static let alignToMotion = Kind("alignToMotion")
        public static let valueOverLife = Kind("valueOverLife")
        public static let colorOverLife = Kind("colorOverLife")
        /// The kinds Lamina runs.
        public static let all: [Kind] = [.wave, .drag, .attractor, .alignToMotion, .valueOverLife, .colorOverLife]
    }

    /// What the behaviour does.
    public let type: Kind
    /// Its name (for key paths). Default nil.
    open var name: String?
    /// Whether it acts. Default true.
    open var isEnabled = true
    private var parameters = KeyedParameters()

    /// A behaviour of `type`, with no parameters set.
    public init(type: Kind) { self.type = type }

    /// The parameter `key` (or `type`, `name`, `enabled`), or nil.
    open func value(forKey key: String) -> Any? {
        parameters.value(forKey: key, type: type.rawValue, name: name, isEnabled: isEnabled)
    }

    /// Sets the parameter `key` (nil removes it), or `name` or `enabled`.
    open func setValue(_ value: Any?, forKey key: String) {
        parameters.setValue(value, forKey: key, name: &name, isEnabled: &isEnabled)
    }

    /// The keys set, sorted.
    open var parameterKeys: [String] { parameters.keys }

    /// The number at `key`, or nil.
    package func number(_ key: String) -> Double? { parameters.number(key) }

    /// The numbers at `key` (an array of numbers, a point or a size), or nil.
    package func numbers(_ key: String) -> [Double]? { parameters.numbers(key) }
}
