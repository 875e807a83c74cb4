import Foundation

/// What values a layer property takes, as its row in the property table says
/// (`CALayer.layerProperties`): the one description of a property that
/// key-value coding, the scene reader and writer, the animatable key paths
/// and the CAML reader share.
package enum LayerValueKind: Sendable, Equatable {
    /// A number within a range (`opacity` is `.number(.unit)`).
    case number(NumberRange)
    case bool
    case point, size, rect
    case transform
    /// A `CGColor`, or nil.
    case color
    /// A `CGPath`, or nil.
    case path
    /// `contents`: a `CGImage` (or what `display()` drew), or nil.
    case image
    /// A `String`, or nil.
    case string
    /// A string-backed constant (`CALayerContentsGravity`, `CAShapeLayerLineCap`...).
    case constant
    /// `maskedCorners`.
    case cornerMask
    /// An array of numbers within a range, or nil (`lineDashPattern`, `locations`).
    case numbers(NumberRange)
    /// An array of colours, or nil (`colors`).
    case colors
    /// A layer, or nil (`mask`).
    case layer
    /// An array of layers, or nil (`sublayers`).
    case layers
    /// An array of `CAEmitterCell`s, or nil (`emitterCells`).
    case emitterCells
    /// An array of `CAEmitterBehavior`s, or nil (`emitterBehaviors`).
    case emitterBehaviors
    /// An array of `CAFilter`s, or nil (`filters`).
    case filters
    /// Anything (`string` and `font` of a text layer).
    case any
}

/// The numbers a numeric property takes.
package enum NumberRange: Equatable, Sendable {
    case any
    /// ≥ 0: sizes, radii, widths.
    case nonNegative
    /// > 0: scales, font sizes.
    case positive
    /// 0...1: opacities, stroke ends, gradient locations.
    case unit

    /// Whether `x` is in the range.
    public func contains(_ x: Double) -> Bool {
        switch self {
        case .any: true
        case .nonNegative: x >= 0
        case .positive: x > 0
        case .unit: x >= 0 && x <= 1
        }
    }

    /// "a number ≥ 0" and kin, for messages.
    public var expectation: String {
        switch self {
        case .any: "a number"
        case .nonNegative: "a number ≥ 0"
        case .positive: "a number > 0"
        case .unit: "a number from 0 to 1"
        }
    }
}

/// One row of a layer class's property table, as importers read it.
///
/// ```swift
/// let opacity = CALayer.layerProperties.first { $0.name == "opacity" }!
/// opacity.kind            // .number(.unit)
/// opacity.defaultValue    // 1 (a Float)
/// opacity.isAnimatable    // true
/// ```
package struct LayerPropertyInfo: Sendable {
    /// The key, as Core Animation spells it (`"hidden"`, not `"isHidden"`).
    public let name: String
    /// The kind of its values.
    public let kind: LayerValueKind
    /// Whether a `CAPropertyAnimation` may animate it.
    public let isAnimatable: Bool
    /// Whether the class declares it (false for what it inherits).
    public let isOwn: Bool
    private let key: LayerKey

    init(_ key: LayerKey, isOwn: Bool) {
        name = key.name; kind = key.kind; isAnimatable = key.isAnimatable; self.isOwn = isOwn
        self.key = key
    }

    /// Core Animation's default, as the property's Swift type.
    public var defaultValue: Any? { key.defaultValue() }

    /// The range of a number (or of an array's numbers); nil for other kinds.
    public var range: NumberRange? {
        switch kind {
        case .number(let r), .numbers(let r): r
        default: nil
        }
    }

    /// Whether `layer` holds Core Animation's default for this property (a
    /// writer leaves such a value out).
    public func holdsDefault(_ layer: CALayer) -> Bool { key.isDefault(key.read(layer)) }

    /// The property's setter, when `L` and `Value` are the class and type the
    /// table declares it with; nil otherwise. A direct call: what a decoder
    /// setting thousands of properties uses instead of a key path.
    package func setter<L: CALayer, Value>(of _: L.Type, _: Value.Type) -> (@Sendable (L, Value) -> Void)? {
        key.typedSet as? @Sendable (L, Value) -> Void
    }
}

extension CALayer {
    /// The property table of this class: every built-in property, superclass
    /// first, with its kind, default and whether it animates.
    package class var layerProperties: [LayerPropertyInfo] {
        let own = Set(keyTable.keys.map(\.name)).subtracting(self == CALayer.self ? [] : CALayer.keyTable.keys.map(\.name))
        return keyTable.keys.map { LayerPropertyInfo($0, isOwn: self == CALayer.self || own.contains($0.name)) }
    }

    /// The row of `name` in this class's property table, or nil.
    package class func layerProperty(named name: String) -> LayerPropertyInfo? {
        guard let key = keyTable[name] else { return nil }
        let own = self == CALayer.self || CALayer.keyTable[name] == nil
        return LayerPropertyInfo(key, isOwn: own)
    }
}
