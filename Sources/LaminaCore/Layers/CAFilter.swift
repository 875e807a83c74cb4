import Foundation

/// A filter of a layer's `filters` (`CAFilter`: Core Animation's own filter
/// class, which iOS uses where macOS takes Core Image filters, and which CAML
/// files name): a blur, or a change of colour. A layer with filters is drawn
/// offscreen, and the filters apply in order to what it and its sublayers
/// drew, before its mask, shadow and opacity.
///
/// ```swift
/// let blur = CAFilter(type: .gaussianBlur)
/// blur.setValue(12, forKey: "inputRadius")
/// let grey = CAFilter(type: .colorSaturate)
/// grey.setValue(0, forKey: "inputAmount")
/// background.filters = [blur, grey]
/// ```
///
/// The kinds and their keys:
/// - `gaussianBlur`: `inputRadius`, the blur's standard deviation in points
///   (as `shadowRadius`).
/// - `colorMatrix`: `inputColorMatrix`, 20 numbers, four rows of five: each
///   output channel (red, green, blue, alpha) is the row's first four times
///   the input's straight channels, plus the fifth.
/// - `colorSaturate`: `inputAmount` (1: unchanged, 0: grey), as SVG's saturate.
/// - `colorHueRotate`: `inputAngle`, radians, as SVG's hueRotate.
/// - `colorContrast`: `inputAmount` (1: unchanged), about mid grey.
/// - `colorBrightness`: `inputAmount`, added to each colour channel.
/// - `colorInvert`: each colour channel `1 - c`.
/// - `colorMonochrome`: the luminance in `inputColor`, mixed in by
///   `inputAmount` (default 1).
/// - `luminanceToAlpha`: alpha from luminance, black colour, as SVG's.
open class CAFilter {
    /// What a filter does (`kCAFilter...`).
    public struct Kind: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The constant whose string is `rawValue`.
        public init(_ rawValue: String) { self.rawValue = rawValue }

        public static let gaussianBlur = Kind("gaussianBlur")
        public static let colorMatrix = Kind("colorMatrix")
        public static let colorSaturate = Kind("colorSaturate")
        public static let colorHueRotate = Kind("colorHueRotate")
        public static let colorContrast = Kind("colorContrast")
        public static let colorBrightness = Kind("colorBrightness")
        public static let colorInvert = Kind("colorInvert")
        public static let colorMonochrome = Kind("colorMonochrome")
        public static let luminanceToAlpha = Kind("luminanceToAlpha")
        /// The kinds Lamina applies.
        public static let all: [Kind] = [.gaussianBlur, .colorMatrix, .colorSaturate, .colorHueRotate, .colorContrast,
                                         .colorBrightness, .colorInvert, .colorMonochrome, .luminanceToAlpha]
    }

    /// What the filter does.
    public let type: Kind
    /// Its name, for key paths (`filters.NAME.inputRadius`). Default nil.
    open var name: String?
    /// Whether it applies. Default true.
    open var isEnabled = true
    private var parameters = KeyedParameters()

    /// A filter of `type` with no parameters set (each takes its default).
    public init(type: Kind) { self.type = type }

    /// A new filter, as Objective-C's `+filterWithType:`.
    public class func filter(withType type: String) -> CAFilter { CAFilter(type: Kind(type)) }

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

    /// The colour at `key`, or nil.
    package func color(_ key: String) -> CGColor? { parameters.color(key) }
}
