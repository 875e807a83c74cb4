import Foundation

/// One property of a layer class as key-value coding sees it: how to read,
/// write and compare its value, and its Core Animation default.
///
/// Each layer class keeps a `LayerKeyTable` of these (its own keys plus its
/// superclass's), which backs `value(forKey:)`, `setValue(_:forKey:)`,
/// `defaultValue(forKey:)` and `layerPropertyKeys`.
struct LayerKey: Sendable {
    /// The key, as Core Animation spells it (`"hidden"`, not `"isHidden"`).
    let name: String
    /// What a write accepts, for error messages ("a CGPoint").
    let expected: String
    /// Reads the value, boxed as the property's Swift type.
    let read: @Sendable (CALayer) -> Any?
    /// Writes a value; false when it has the wrong type.
    let write: @Sendable (CALayer, Any?) -> Bool
    /// Core Animation's default, boxed.
    let defaultValue: @Sendable () -> Any?
    /// Whether a boxed value equals Core Animation's default.
    let isDefault: @Sendable (Any?) -> Bool

    /// A key for the property of `L` read by `get` and written by `set`.
    static func property<L: CALayer, Value>(
        _ name: String,
        _ type: LayerValueType<Value>,
        default defaultValue: @escaping @Sendable () -> Value,
        get: @escaping @Sendable (L) -> Value,
        set: @escaping @Sendable (L, Value) -> Void
    ) -> LayerKey {
        LayerKey(
            name: name,
            expected: type.expected,
            read: { layer in
                guard let layer = layer as? L else { return nil }
                return type.box(get(layer))
            },
            write: { layer, value in
                guard let layer = layer as? L, let unboxed = type.unbox(value) else { return false }
                set(layer, unboxed)
                return true
            },
            defaultValue: { type.box(defaultValue()) },
            isDefault: { value in
                guard let unboxed = type.unbox(value) else { return false }
                return type.equal(unboxed, defaultValue())
            })
    }
}

/// The keys of one layer class, in declaration order, superclass first.
struct LayerKeyTable: Sendable {
    let keys: [LayerKey]
    private let index: [String: Int]

    init(_ keys: [LayerKey]) {
        self.keys = keys
        var index: [String: Int] = [:]
        for (i, key) in keys.enumerated() { index[key.name] = i }
        self.index = index
    }

    /// The superclass's keys followed by `keys`.
    init(inheriting base: LayerKeyTable, adding keys: [LayerKey]) {
        self.init(base.keys + keys)
    }

    subscript(name: String) -> LayerKey? {
        index[name].map { keys[$0] }
    }
}
