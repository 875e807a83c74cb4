import Foundation

/// How values of one Swift type travel through key-value coding: boxed as
/// `Any?` on the way out, checked and converted on the way in.
///
/// Reads return the property's own Swift type (`CGFloat`, `Float`, `Bool`,
/// `CGPoint`, `CATransform3D`, `CGColor`...), where Core Animation on Apple
/// platforms wraps scalars and structs in `NSNumber` and `NSValue`: on Linux
/// `NSNumber` does not cast to `CGFloat`, so native values are the ones that
/// `as? CGFloat` can read. Writes are lenient about numbers: any Swift
/// integer or floating-point type or an `NSNumber` sets a numeric property.
struct LayerValueType<Value>: Sendable {
    /// What the property table says of such values (a number's range is the
    /// property's own: `LayerKey.property(_:_:range:...)`).
    let kind: LayerValueKind
    let expected: String
    let box: @Sendable (Value) -> Any?
    let unbox: @Sendable (Any?) -> Value?
    let equal: @Sendable (Value, Value) -> Bool
    /// An animation's value as this type, without boxing it first: what
    /// `unbox` makes of the value an animation answers
    /// (`AnimatableValue.toAny(like:)`), for the values of the property's
    /// own shape; nil for any other (the boxed path then decides). Nil for
    /// types whose properties animations rarely drive.
    var fromAnimated: (@Sendable (AnimatableValue) -> Value?)? = nil
}

/// The value types of the layer classes' properties.
enum LayerValue {

    // MARK: Numbers and flags

    static let cgFloat = LayerValueType<CGFloat>(
        kind: .number(.any), expected: "a number", box: { $0 }, unbox: { number($0).map { CGFloat($0) } }, equal: { $0 == $1 },
        fromAnimated: { $0.asNumber.map { CGFloat($0) } })

    static let float = LayerValueType<Float>(
        kind: .number(.any), expected: "a number", box: { $0 }, unbox: { number($0).map { Float($0) } }, equal: { $0 == $1 },
        fromAnimated: { $0.asNumber.map { Float($0) } })

    static let double = LayerValueType<Double>(
        kind: .number(.any), expected: "a number", box: { $0 }, unbox: { number($0) }, equal: { $0 == $1 },
        fromAnimated: { $0.asNumber })

    static let int = LayerValueType<Int>(
        kind: .number(.any), expected: "an integer", box: { $0 },
        unbox: { value in
            // Integers directly: through a Double, those beyond 2^53 lose
            // their value (Int.max became no integer at all).
            guard let value else { return nil }
            if let i = value as? Int { return i }
            if type(of: value) != Bool.self, let i = value as? any BinaryInteger { return Int(exactly: i) }
            return number(value).flatMap { Int(exactly: $0) }
        },
        equal: { $0 == $1 })

    static let bool = LayerValueType<Bool>(
        kind: .bool, expected: "a Bool", box: { $0 },
        unbox: { value in
            if let b = value as? Bool { return b }
            return number(value).map { $0 != 0 }
        },
        equal: { $0 == $1 },
        fromAnimated: { if case let .opaque(v) = $0, type(of: v) == Bool.self { v as? Bool } else { nil } })

    // MARK: Geometry

    static let point = LayerValueType<CGPoint>(
        kind: .point, expected: "a CGPoint", box: { $0 }, unbox: { $0 as? CGPoint }, equal: { $0 == $1 },
        fromAnimated: { $0.asPoint })

    static let size = LayerValueType<CGSize>(
        kind: .size, expected: "a CGSize", box: { $0 }, unbox: { $0 as? CGSize }, equal: { $0 == $1 },
        fromAnimated: { $0.asSize })

    static let rect = LayerValueType<CGRect>(
        kind: .rect, expected: "a CGRect", box: { $0 }, unbox: { $0 as? CGRect }, equal: { $0 == $1 },
        fromAnimated: { $0.asRect })

    static let transform = LayerValueType<CATransform3D>(
        kind: .transform, expected: "a CATransform3D", box: { $0 }, unbox: { $0 as? CATransform3D }, equal: { $0 == $1 },
        fromAnimated: { if case let .transform(t) = $0 { t } else { nil } })

    static let cornerMask = LayerValueType<CACornerMask>(
        kind: .cornerMask, expected: "a CACornerMask", box: { $0 },
        unbox: { value in
            if let mask = value as? CACornerMask { return mask }
            return number(value).flatMap { UInt(exactly: $0) }.map { CACornerMask(rawValue: $0) }
        },
        equal: { $0 == $1 })

    // MARK: Objects

    /// A colour or nil; a `UIColor` is taken as its `cgColor`.
    static let color = LayerValueType<CGColor?>(
        kind: .color, expected: "a CGColor or nil", box: { $0 },
        unbox: { value in
            guard let value else { return .some(nil) }
            if let color = value as? CGColor { return color }
            if let color = value as? UIColor { return color.cgColor }
            return nil
        },
        equal: { $0 == $1 },
        fromAnimated: { value -> CGColor?? in value.asColor.map { .some($0) } })

    /// A path or nil; a `UIBezierPath` is taken as its `cgPath`.
    static let path = LayerValueType<CGPath?>(
        kind: .path, expected: "a CGPath or nil", box: { $0 },
        unbox: { value in
            guard let value else { return .some(nil) }
            if let path = value as? CGPath { return path }
            if let path = value as? UIBezierPath { return path.cgPath }
            return nil
        },
        equal: { $0 == $1 },
        fromAnimated: { value -> CGPath?? in
            guard case let .path(data) = value else { return nil }
            return .some(CGPath(data))
        })

    static let string = LayerValueType<String?>(
        kind: .string, expected: "a String or nil", box: { $0 },
        unbox: { value in
            guard let value else { return .some(nil) }
            return (value as? String).map { .some($0) }
        },
        equal: { $0 == $1 })

    static let layer = LayerValueType<CALayer?>(
        kind: .layer, expected: "a CALayer or nil", box: { $0 },
        unbox: { value in
            guard let value else { return .some(nil) }
            return (value as? CALayer).map { .some($0) }
        },
        equal: { $0 === $1 })

    static let layers = LayerValueType<[CALayer]?>(
        kind: .layers, expected: "an array of CALayer or nil", box: { $0 },
        unbox: { value in
            guard let value else { return .some(nil) }
            if let layers = value as? [CALayer] { return layers }
            guard let array = value as? [Any] else { return nil }
            let layers = array.compactMap { $0 as? CALayer }
            return layers.count == array.count ? layers : nil
        },
        equal: { lhs, rhs in
            (lhs ?? []).count == (rhs ?? []).count && zip(lhs ?? [], rhs ?? []).allSatisfy { $0 === $1 }
        })

    /// Emitter cells, or nil (`emitterCells`).
    static let emitterCells = LayerValueType<[CAEmitterCell]?>(
        kind: .emitterCells, expected: "an array of CAEmitterCell or nil", box: { $0 },
        unbox: { value in
            guard let value else { return .some(nil) }
            if let cells = value as? [CAEmitterCell] { return cells }
            guard let array = value as? [Any] else { return nil }
            let cells = array.compactMap { $0 as? CAEmitterCell }
            return cells.count == array.count ? cells : nil
        },
        equal: { lhs, rhs in
            (lhs ?? []).count == (rhs ?? []).count && zip(lhs ?? [], rhs ?? []).allSatisfy { $0 === $1 }
        })

    /// Emitter behaviours, or nil (`emitterBehaviors`).
    static let emitterBehaviors = LayerValueType<[CAEmitterBehavior]?>(
        kind: .emitterBehaviors, expected: "an array of CAEmitterBehavior or nil", box: { $0 },
        unbox: { value in
            guard let value else { return .some(nil) }
            if let behaviors = value as? [CAEmitterBehavior] { return behaviors }
            guard let array = value as? [Any] else { return nil }
            let behaviors = array.compactMap { $0 as? CAEmitterBehavior }
            return behaviors.count == array.count ? behaviors : nil
        },
        equal: { lhs, rhs in
            (lhs ?? []).count == (rhs ?? []).count && zip(lhs ?? [], rhs ?? []).allSatisfy { $0 === $1 }
        })

    /// Filters, or nil (`filters`): `CAFilter`s, as Core Animation keeps
    /// them in an array of `Any`.
    static let filters = LayerValueType<[Any]?>(
        kind: .filters, expected: "an array of CAFilter or nil", box: { $0 },
        unbox: { value in
            guard let value else { return .some(nil) }
            guard let array = value as? [Any], array.allSatisfy({ $0 is CAFilter }) else { return nil }
            return array
        },
        equal: { lhs, rhs in
            (lhs ?? []).count == (rhs ?? []).count
                && zip(lhs ?? [], rhs ?? []).allSatisfy { ($0 as? CAFilter) === ($1 as? CAFilter) }
        })

    /// A compositing filter, or nil: a `CAFilter` or its type's name.
    static let compositingFilter = LayerValueType<Any?>(
        kind: .constant, expected: "a CAFilter, a filter's name or nil", box: { $0 },
        unbox: { value in
            guard let value else { return .some(nil) }
            return value is CAFilter || value is String ? .some(value) : nil
        },
        equal: { lhs, rhs in
            switch (lhs, rhs) {
            case (nil, nil): true
            case (let l?, let r?): CAFilter.Kind(compositingFilter: l) == CAFilter.Kind(compositingFilter: r)
                && (l as? CAFilter) === (r as? CAFilter)
            default: false
            }
        })

    /// A plain string constant of an emitter cell (a sprite sheet's frame
    /// mode, a particle type).
    static let frameMode = LayerValueType<String>(
        kind: .constant, expected: "a String", box: { $0 }, unbox: { $0 as? String }, equal: { $0 == $1 })

    /// A random seed: a whole number from 0 to 2^32 - 1.
    static let seed = LayerValueType<UInt32>(
        kind: .number(.nonNegative), expected: "an integer from 0 to 4294967295", box: { $0 },
        unbox: { value in
            if let s = value as? UInt32 { return s }
            return number(value).flatMap { UInt32(exactly: $0) }
        },
        equal: { $0 == $1 })

    /// Anything, nil included (`contents`, `string`, `font`).
    static let any = LayerValueType<Any?>(
        kind: .any, expected: "any value", box: { $0 }, unbox: { .some($0) }, equal: { $0 == nil && $1 == nil })

    /// An array of anything (colours), or nil (`colors`).
    static let array = LayerValueType<[Any]?>(
        kind: .colors, expected: "an array or nil", box: { $0 },
        unbox: { value in
            guard let value else { return .some(nil) }
            return (value as? [Any]).map { .some($0) }
        },
        equal: { $0 == nil && $1 == nil })

    /// An array of numbers or nil, stored as `[NSNumber]` as Core Animation
    /// does (`lineDashPattern`, `locations`).
    static let numbers = LayerValueType<[NSNumber]?>(
        kind: .numbers(.any), expected: "an array of numbers or nil", box: { $0 },
        unbox: { value in
            guard let value else { return .some(nil) }
            guard let array = value as? [Any] else { return nil }
            var numbers: [NSNumber] = []
            for element in array {
                guard let d = number(element) else { return nil }
                numbers.append(NSNumber(value: d))
            }
            return numbers
        },
        equal: { lhs, rhs in
            lhs?.map(\.doubleValue) == rhs?.map(\.doubleValue)
        })

    /// A string-backed constant such as `CALayerContentsGravity`; a plain
    /// `String` is accepted as its raw value.
    static func constant<T: RawRepresentable & Hashable & Sendable>(
        _ type: T.Type
    ) -> LayerValueType<T> where T.RawValue == String {
        LayerValueType<T>(
            kind: .constant, expected: "a \(T.self) or String", box: { $0 },
            unbox: { value in
                if let constant = value as? T { return constant }
                return (value as? String).flatMap { T(rawValue: $0) }
            },
            equal: { $0 == $1 })
    }

    // MARK: Conversions

    /// The value of any Swift number or `NSNumber`, or nil. A `Bool` is not
    /// a number here, so that a flag given for a number is reported.
    static func number(_ value: Any?) -> Double? {
        guard let value, type(of: value) != Bool.self else { return nil }
        return switch value {
        case let v as CGFloat: Double(v)
        case let v as Double: v
        case let v as Float: Double(v)
        case let v as Int: Double(v)
        case let v as NSNumber: v.doubleValue
        case let v as any BinaryInteger: Double(v)
        case let v as any BinaryFloatingPoint: Double(v)
        default: nil
        }
    }
}
