import Foundation

/// One row of a layer class's property table: the property's key, the kind
/// and range of its values, its Core Animation default, whether it animates,
/// and how to read, write and compare it.
///
/// Each layer class keeps a `LayerKeyTable` of these (its own keys plus its
/// superclass's). It is the one list of a class's properties: it backs
/// `value(forKey:)`, `setValue(_:forKey:)`, `defaultValue(forKey:)`,
/// `layerPropertyKeys` and `init(layer:)` here, and, through
/// `layerProperties`, the scene reader and writer and the animatable key
/// paths of LaminaScene (and any other importer). Adding a property is its
/// stored property on the class plus one row here; its meaning (what the
/// snapshot makes of it) is the only other code it needs.
///
/// A class: every animation frame looks rows up (a write by key), and a
/// row handed out is one reference, not a copy of its eight closures.
final class LayerKey: Sendable {
    /// The key, as Core Animation spells it (`"hidden"`, not `"isHidden"`).
    let name: String
    let kind: LayerValueKind
    /// Whether a `CAPropertyAnimation` may animate it.
    let isAnimatable: Bool
    /// Whether `init(layer:)` copies it (false for the tree, `sublayers` and
    /// `mask`, and for `frame`, which only restates `bounds` and `position`).
    /// `CALayer`'s own copied rows are exactly the fields of
    /// `LayerProperties`, copied as that one value; a subclass's copied rows
    /// are copied one by one (`LayerKeyTable.subclassCopiers`).
    let isCopied: Bool
    /// What a write accepts, for error messages ("a CGPoint").
    let expected: String
    /// Reads the value, boxed as the property's Swift type.
    let read: @Sendable (CALayer) -> Any?
    /// Writes a value; false when it has the wrong type.
    let write: @Sendable (CALayer, Any?) -> Bool
    /// Writes an animation's value as `write` writes it boxed, without the
    /// box (`LayerValueType.fromAnimated`); false, having written nothing,
    /// for a value it does not take that way.
    let writeAnimated: @Sendable (CALayer, AnimatableValue) -> Bool
    /// Core Animation's default, boxed.
    let defaultValue: @Sendable () -> Any?
    /// Whether a boxed value equals Core Animation's default.
    let isDefault: @Sendable (Any?) -> Bool
    /// The setter with its own types, `@Sendable (L, Value) -> Void`: a
    /// reader that knows them writes without boxing (`LayerPropertyInfo.setter`).
    let typedSet: any Sendable
    /// Copies the value from the second layer to the first, both of the
    /// class that declares the key (the caller has checked): without
    /// boxing, which a presentation copy of a thousand-layer tree pays for
    /// each of a subclass's properties of each layer (`CALayer`'s own rows
    /// have it too, unused: `init(layer:)` copies them as one value).
    let copyUnchecked: @Sendable (CALayer, CALayer) -> Void

    init(name: String, kind: LayerValueKind, isAnimatable: Bool, isCopied: Bool, expected: String,
         read: @escaping @Sendable (CALayer) -> Any?, write: @escaping @Sendable (CALayer, Any?) -> Bool,
         writeAnimated: @escaping @Sendable (CALayer, AnimatableValue) -> Bool = { _, _ in false },
         defaultValue: @escaping @Sendable () -> Any?, isDefault: @escaping @Sendable (Any?) -> Bool,
         typedSet: any Sendable, copyUnchecked: @escaping @Sendable (CALayer, CALayer) -> Void) {
        self.name = name
        self.kind = kind
        self.isAnimatable = isAnimatable
        self.isCopied = isCopied
        self.expected = expected
        self.read = read
        self.write = write
        self.writeAnimated = writeAnimated
        self.defaultValue = defaultValue
        self.isDefault = isDefault
        self.typedSet = typedSet
        self.copyUnchecked = copyUnchecked
    }

    /// A key for the property of `L` read by `get` and written by `set`.
    /// `range` narrows a number's kind; `kind` replaces the value type's
    /// (`contents` is `.image` although any value may be stored).
    static func property<L: CALayer, Value>(
        _ name: String,
        _ type: LayerValueType<Value>,
        range: NumberRange? = nil,
        kind: LayerValueKind? = nil,
        animatable: Bool = false,
        copied: Bool = true,
        default defaultValue: @escaping @Sendable () -> Value,
        get: @escaping @Sendable (L) -> Value,
        set: @escaping @Sendable (L, Value) -> Void
    ) -> LayerKey {
        var resolved = kind ?? type.kind
        if let range {
            switch resolved {
            case .number: resolved = .number(range)
            case .numbers: resolved = .numbers(range)
            default: preconditionFailure("a range for \(name), which is not a number")
            }
        }
        return LayerKey(
            name: name,
            kind: resolved,
            isAnimatable: animatable,
            isCopied: copied,
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
            writeAnimated: typedAnimatedWrite(type.fromAnimated, set),
            defaultValue: { type.box(defaultValue()) },
            isDefault: { value in
                guard let unboxed = type.unbox(value) else { return false }
                return type.equal(unboxed, defaultValue())
            },
            typedSet: set,
            copyUnchecked: { to, from in set(unsafeDowncast(to, to: L.self), get(unsafeDowncast(from, to: L.self))) })
    }
}

/// `LayerKey.writeAnimated` for a property of `L` that `set` writes: the
/// value as `fromAnimated` reads it, or nothing without one.
private func typedAnimatedWrite<L: CALayer, Value>(
    _ fromAnimated: (@Sendable (AnimatableValue) -> Value?)?, _ set: @escaping @Sendable (L, Value) -> Void
) -> @Sendable (CALayer, AnimatableValue) -> Bool {
    guard let fromAnimated else { return { _, _ in false } }
    return { layer, value in
        guard let layer = layer as? L, let typed = fromAnimated(value) else { return false }
        set(layer, typed)
        return true
    }
}

/// The keys of one layer class, in declaration order, superclass first.
struct LayerKeyTable: Sendable {
    let keys: [LayerKey]
    private let index: [String: Int]
    /// The copied keys that subclasses of `CALayer` add, in the table's
    /// order: what `init(layer:)` copies key by key, after `CALayer`'s own
    /// properties, which it copies as one `LayerProperties` value.
    let subclassKeys: [LayerKey]
    /// What copies them: their typed copies, one a key, or one for a
    /// class that stores its keys as one value.
    let subclassCopiers: [@Sendable (CALayer, CALayer) -> Void]

    /// `CALayer`'s own table: its keys are stored in `LayerProperties`.
    init(_ keys: [LayerKey]) {
        self.init(keys: keys, subclassKeys: [])
    }

    /// The superclass's keys followed by `keys`.
    init(inheriting base: LayerKeyTable, adding keys: [LayerKey]) {
        let added = keys.filter(\.isCopied)
        self.init(keys: base.keys + keys, subclassKeys: base.subclassKeys + added,
                  subclassCopiers: base.subclassCopiers + added.map(\.copyUnchecked))
    }

    /// The superclass's keys followed by `keys`, which the class stores as
    /// one value (`CAShapeLayer`'s `ShapeProperties`): `copy` copies that
    /// value, instead of a copy key by key.
    init(inheriting base: LayerKeyTable, storedAsOne copy: @escaping @Sendable (CALayer, CALayer) -> Void,
         adding keys: [LayerKey]) {
        self.init(keys: base.keys + keys, subclassKeys: base.subclassKeys + keys.filter(\.isCopied),
                  subclassCopiers: base.subclassCopiers + [copy])
    }

    private init(keys: [LayerKey], subclassKeys: [LayerKey], subclassCopiers: [@Sendable (CALayer, CALayer) -> Void] = []) {
        self.keys = keys
        var index: [String: Int] = [:]
        for (i, key) in keys.enumerated() { index[key.name] = i }
        self.index = index
        self.subclassKeys = subclassKeys
        self.subclassCopiers = subclassCopiers
    }

    subscript(name: String) -> LayerKey? {
        index[name].map { keys[$0] }
    }
}
