import Synchronization
import Foundation
import LaminaJSON

/// One key of a layer object: the layer types that have it, how its JSON
/// value is read into a layer, and how it is written back.
///
/// The tables of these (`SceneKeys`) are the one place that says what a
/// layer object may hold, so the decoder and the encoder cannot drift apart:
/// a key that can be read can be written, in the tables' order, which is the
/// canonical order of the encoder's output.
final class SceneKey: Sendable {
    typealias Decode = @Sendable (DecodingContext, JSONValue, JSONPath, CALayer) throws(SceneError) -> Void
    typealias Encode = @Sendable (CALayer, EncodingContext, JSONPath) throws(SceneError) -> JSONValue?

    let name: String
    /// The layer types that have this key; nil for every type.
    let types: Set<LayerType>?
    /// Reads the value into the layer, reporting problems to the context.
    let decode: Decode
    /// The value to write, or nil when the layer holds the default (or, for
    /// keys that are only a way of writing another key, always nil).
    let encode: Encode

    /// `types` as one bit per type (the order of `LayerType.allCases`),
    /// asked once per member of every layer.
    private let typeBits: UInt32

    init(_ name: String, types: Set<LayerType>? = nil, decode: @escaping Decode, encode: @escaping Encode) {
        self.name = name
        self.types = types
        self.decode = decode
        self.encode = encode
        typeBits = types.map { $0.reduce(0) { $0 | $1.bit } } ?? ~0
    }

    func applies(to type: LayerType) -> Bool { typeBits & type.bit != 0 }
}

// Builders for the common shapes of key: a stored property of one value
// type, read by a `DecodingContext` reader and written by a value encoder,
// left out when it holds Core Animation's default. A key of the format *is*
// the property of that name: its default and its range come from LaminaCore's
// property table (`CALayer.layerProperty(named:)`), not from here.
extension SceneKey {
    /// The layer type a key path's root class belongs to: nil (every type)
    /// for `CALayer` itself.
    private static func types<L: CALayer>(of _: L.Type) -> Set<LayerType>? {
        let type = LayerType(of: L())
        return type == .layer ? nil : [type]
    }

    /// Keys whose table row did not give a setter of the key path's types,
    /// set through the key path instead (a test holds this empty).
    static let keyPathSetters = Mutex<[String]>([])

    /// The row of `name` in `L`'s property table.
    static func tableRow<L: CALayer>(_ name: String, of _: L.Type) -> LayerPropertyInfo {
        guard let row = L.layerProperty(named: name) else {
            preconditionFailure("\"\(name)\" is not in the property table of \(L.self)")
        }
        return row
    }

    /// A property read by `read` and written by `write`, omitted when it
    /// holds its default.
    static func property<L: CALayer, V: Sendable>(
        _ name: String,
        _ keyPath: ReferenceWritableKeyPath<L, V> & Sendable,
        read: @escaping @Sendable (DecodingContext, JSONValue, JSONPath) throws(SceneError) -> V?,
        write: @escaping @Sendable (V) -> JSONValue
    ) -> SceneKey {
        let row = tableRow(name, of: L.self)
        // The table's own setter: setting through the key path costs the
        // runtime's generic projection, about 1,500 instructions a property.
        let set = row.setter(of: L.self, V.self)
        if set == nil { keyPathSetters.withLock { $0.append(name) } }
        return SceneKey(
            name, types: types(of: L.self),
            decode: { context, value, path, layer throws(SceneError) in
                guard let layer = layer as? L, let v = try read(context, value, path) else { return }
                if let set { set(layer, v) } else { layer[keyPath: keyPath] = v }
            },
            encode: { layer, _, _ in
                guard let layer = layer as? L, !row.holdsDefault(layer) else { return nil }
                return write(layer[keyPath: keyPath])
            })
    }

    /// A number within the property's range.
    static func number<L: CALayer, V: BinaryFloatingPoint & Sendable>(
        _ name: String, _ keyPath: ReferenceWritableKeyPath<L, V> & Sendable
    ) -> SceneKey {
        let range = tableRow(name, of: L.self).range ?? .any
        return property(
            name, keyPath,
            read: { c, v, p throws(SceneError) in try c.number(v, at: p, range).map { V($0) } },
            write: JSONValue.number(floatingPoint:))
    }

    static func bool<L: CALayer>(_ name: String, _ keyPath: ReferenceWritableKeyPath<L, Bool> & Sendable) -> SceneKey {
        property(name, keyPath, read: { c, v, p throws(SceneError) in try c.bool(v, at: p) }, write: { .bool($0) })
    }

    static func point<L: CALayer>(_ name: String, _ keyPath: ReferenceWritableKeyPath<L, CGPoint> & Sendable) -> SceneKey {
        property(name, keyPath, read: { c, v, p throws(SceneError) in try c.point(v, at: p) }, write: GeometryValue.encode)
    }

    static func rect<L: CALayer>(_ name: String, _ keyPath: ReferenceWritableKeyPath<L, CGRect> & Sendable) -> SceneKey {
        property(name, keyPath, read: { c, v, p throws(SceneError) in try c.rect(v, at: p) }, write: GeometryValue.encode)
    }

    static func transform<L: CALayer>(
        _ name: String, _ keyPath: ReferenceWritableKeyPath<L, CATransform3D> & Sendable
    ) -> SceneKey {
        property(name, keyPath, read: { c, v, p throws(SceneError) in try c.transform(v, at: p) }, write: TransformValue.encode)
    }

    /// A colour that the format cannot set to "none": a nil colour (only
    /// possible from code) is written as `"clear"`, which draws the same.
    static func color<L: CALayer>(_ name: String, _ keyPath: ReferenceWritableKeyPath<L, CGColor?> & Sendable) -> SceneKey {
        property(name, keyPath,
                 read: { c, v, p throws(SceneError) in try c.color(v, at: p).map { .some($0) } },
                 write: { $0.map(ColorValue.encode) ?? .string("clear") })
    }

    /// A colour that may be `null` (none), as `fillColor` and `strokeColor`.
    static func optionalColor<L: CALayer>(
        _ name: String, _ keyPath: ReferenceWritableKeyPath<L, CGColor?> & Sendable
    ) -> SceneKey {
        property(name, keyPath,
                 read: { c, v, p throws(SceneError) in try c.optionalColor(v, at: p) },
                 write: { $0.map(ColorValue.encode) ?? .null })
    }

    /// One of a fixed set of names, each standing for a constant.
    /// `property` names the table's row where the format spells the key
    /// otherwise (`gradientType` is `type`).
    static func names<L: CALayer, V: RawRepresentable & Equatable & Sendable>(
        _ name: String, _ keyPath: ReferenceWritableKeyPath<L, V> & Sendable, _ table: [(String, V)],
        property: String? = nil
    ) -> SceneKey where V.RawValue == String {
        let names = table.map(\.0)
        let row = tableRow(property ?? name, of: L.self)
        let set = row.setter(of: L.self, V.self)
        if set == nil { keyPathSetters.withLock { $0.append(name) } }
        return SceneKey(
            name, types: types(of: L.self),
            decode: { context, value, path, layer throws(SceneError) in
                guard let layer = layer as? L, let constant = try context.named(value, at: path, from: table)
                else { return }
                if let set { set(layer, constant) } else { layer[keyPath: keyPath] = constant }
            },
            encode: { layer, _, path throws(SceneError) in
                guard let layer = layer as? L, !row.holdsDefault(layer) else { return nil }
                let v = layer[keyPath: keyPath]
                guard let n = table.first(where: { $0.1 == v })?.0 else {
                    // Only code can set a constant the format has no name for.
                    throw SceneError(.invalidValue, at: path.description,
                                     "\(JSONWriter.quoted(v.rawValue)) has no name in the scene format; "
                                        + "expected one of \(DecodingContext.list(names))")
                }
                return .string(n)
            })
    }

    /// A key that has a meaning only while decoding (such as `affineTransform`,
    /// which sets `transform`): it is never written.
    static func decodeOnly(
        _ name: String, types: Set<LayerType>? = nil,
        _ decode: @escaping Decode
    ) -> SceneKey {
        SceneKey(name, types: types, decode: decode, encode: { _, _, _ in nil })
    }
}
