import Foundation
import LaminaRaster

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

        // Blend modes, for a layer's `compositingFilter`.
        public static let normalBlendMode = Kind("normalBlendMode")
        public static let multiplyBlendMode = Kind("multiplyBlendMode")
        public static let screenBlendMode = Kind("screenBlendMode")
        public static let overlayBlendMode = Kind("overlayBlendMode")
        public static let darkenBlendMode = Kind("darkenBlendMode")
        public static let lightenBlendMode = Kind("lightenBlendMode")
        public static let colorDodgeBlendMode = Kind("colorDodgeBlendMode")
        public static let colorBurnBlendMode = Kind("colorBurnBlendMode")
        public static let softLightBlendMode = Kind("softLightBlendMode")
        public static let hardLightBlendMode = Kind("hardLightBlendMode")
        public static let differenceBlendMode = Kind("differenceBlendMode")
        public static let exclusionBlendMode = Kind("exclusionBlendMode")
        // The non-separable modes: names Core Animation takes, and draws
        // source-over (`nonSeparableBlendModes`).
        public static let hueBlendMode = Kind("hueBlendMode")
        public static let saturationBlendMode = Kind("saturationBlendMode")
        public static let colorBlendMode = Kind("colorBlendMode")
        public static let luminosityBlendMode = Kind("luminosityBlendMode")
        /// Adds the premultiplied colours, up to white (`kCAFilterPlusL`).
        public static let plusL = Kind("plusL")
        /// Source-over (`kCAFilterSourceOver`): what a layer without a compositing filter does.
        public static let sourceOver = Kind("sourceOver")
        /// The blend modes Lamina applies as a `compositingFilter`.
        public static let blendModes: [Kind] = [
            .normalBlendMode, .multiplyBlendMode, .screenBlendMode, .overlayBlendMode, .darkenBlendMode,
            .lightenBlendMode, .colorDodgeBlendMode, .colorBurnBlendMode, .softLightBlendMode, .hardLightBlendMode,
            .differenceBlendMode, .exclusionBlendMode, .plusL, .sourceOver,
        ]

        /// Blend modes Core Animation takes as a `compositingFilter` and does
        /// not apply: the non-separable ones, which trade hue, saturation and
        /// luminosity between two colours. A layer naming one is drawn
        /// source-over, as on a device: Apple's own picture of a layer with
        /// `luminosityBlendMode` shows it drawn so (lottie-ios's
        /// `blend_mode_test`), and WebKit leaves these four modes off the
        /// layers it gives Core Animation, because Core Animation has no
        /// compositing filter for them. The CAML and Lottie readers warn
        /// where a file names one.
        public static let nonSeparableBlendModes: [Kind] = [
            .hueBlendMode, .saturationBlendMode, .colorBlendMode, .luminosityBlendMode,
        ]

        /// Whether this is one of `nonSeparableBlendModes`, which Core
        /// Animation takes and draws source-over.
        package var isNonSeparableBlendMode: Bool { Self.nonSeparableBlendModes.contains(self) }

        /// How a layer with this compositing filter meets what lies under
        /// it; nil for a kind that is no blend mode Lamina applies (a
        /// non-separable one included).
        package var blendMode: BlendMode? {
            switch self {
            case .normalBlendMode, .sourceOver: .normal
            case .multiplyBlendMode: .multiply
            case .screenBlendMode: .screen
            case .overlayBlendMode: .overlay
            case .darkenBlendMode: .darken
            case .lightenBlendMode: .lighten
            case .colorDodgeBlendMode: .colorDodge
            case .colorBurnBlendMode: .colorBurn
            case .softLightBlendMode: .softLight
            case .hardLightBlendMode: .hardLight
            case .differenceBlendMode: .difference
            case .exclusionBlendMode: .exclusion
            case .plusL: .plusLighter
            default: nil
            }
        }

        /// The kind a `compositingFilter` value names: a `CAFilter`'s type,
        /// or the name as a string (Core Animation takes either); nil for
        /// anything else.
        package init?(compositingFilter value: Any?) {
            if let filter = value as? CAFilter { self = filter.type }
            else if let name = value as? String { self.init(name) }
            else { return nil }
            // macOS code names Core Image's filters: CIMultiplyBlendMode is multiplyBlendMode.
            if rawValue.hasPrefix("CI"), rawValue.hasSuffix("BlendMode"), rawValue.count > 11 {
                let rest = rawValue.dropFirst(2)
                let alias = Kind(rest.prefix(1).lowercased() + rest.dropFirst())
                if alias.blendMode != nil || alias.isNonSeparableBlendMode { self = alias }
            }
        }
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

    /// A filter of the same type, name, state and parameters: what an
    /// animation of one of its parameters changes on a presentation layer,
    /// leaving the model's filter as it was.
    open func copy() -> CAFilter {
        let twin = CAFilter(type: type)
        twin.name = name
        twin.isEnabled = isEnabled
        twin.parameters = parameters
        return twin
    }

    /// Whether the key path part `name` names this filter: its `name`, or,
    /// for a filter without one, its type (`filters.gaussianBlur.inputRadius`).
    package func isNamed(_ name: some StringProtocol) -> Bool {
        self.name.map { $0 == name } ?? (type.rawValue == name)
    }

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
