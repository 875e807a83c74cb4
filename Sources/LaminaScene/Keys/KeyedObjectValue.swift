import Foundation
import LaminaJSON

/// Objects of a kind with parameters set by key, as the scene format writes
/// a layer's `filters` and an emitter's `emitterBehaviors`: a `type`, an
/// optional `name` and `enabled`, and the parameters of that type.
///
/// ```json
/// "filters": [{"type": "gaussianBlur", "inputRadius": 8}, {"type": "colorSaturate", "inputAmount": 0}]
/// ```
struct KeyedObjectValue: Sendable {
    /// What a parameter holds.
    enum Parameter: Sendable {
        /// A number; `"infinity"` for an infinite one (JSON has none).
        case number
        /// `count` numbers (a point, a vector, a matrix).
        case vector(Int)
        /// Any number of numbers.
        case numbers
        /// A colour.
        case color
        /// Colours.
        case colors
        /// One of these names.
        case name([String])
    }

    /// What the objects are, for messages ("an emitter behaviour").
    let what: String
    /// The parameters of each type, by the type's name, in the order types are listed.
    let types: [(name: String, parameters: [String: Parameter])]

    func parameters(ofType type: String) -> [String: Parameter]? { types.first { $0.name == type }?.parameters }

    /// The JSON of objects read through `read`: type, name, enabled, then the
    /// parameters set, sorted by key.
    func encode(count: Int, at path: JSONPath,
                read: (Int) -> (type: String, name: String?, enabled: Bool, keys: [String], value: (String) -> Any?)
    ) throws(SceneError) -> JSONValue {
        var items: [JSONValue] = []
        for k in 0..<count {
            let object = read(k)
            var members: [(String, JSONValue)] = [("type", .string(object.type))]
            if let name = object.name { members.append(("name", .string(name))) }
            if !object.enabled { members.append(("enabled", .bool(false))) }
            let table = parameters(ofType: object.type) ?? [:]
            for key in object.keys {
                guard let parameter = table[key], let value = object.value(key) else { continue }
                switch parameter {
                case .number:
                    guard let n = AnimationValue.number(value)?.number else { continue }
                    members.append((key, n.isFinite ? .number(n) : .string(n > 0 ? "infinity" : "-infinity")))
                case .vector, .numbers:
                    let list: [Any] = switch value {
                    case let p as CGPoint: [p.x, p.y]
                    case let s as CGSize: [s.width, s.height]
                    default: value as? [Any] ?? []
                    }
                    members.append((key, .array(list.compactMap { AnimationValue.number($0) })))
                case .color:
                    guard let color = value as? CGColor else { continue }
                    members.append((key, ColorValue.encode(color)))
                case .colors:
                    guard let colors = value as? [Any] else { continue }
                    members.append((key, try ColorValue.encodeList(colors, at: path / k / key)))
                case .name:
                    guard let s = value as? String else { continue }
                    members.append((key, .string(s)))
                }
            }
            items.append(.object(members))
        }
        return .array(items)
    }
}

extension DecodingContext {
    /// An array of `kind`'s objects, each made by `make` from its type and
    /// given its name, enabled flag and parameters through `set`. Each
    /// counts as a layer against the scene's layer limit.
    func keyedObjects<Object>(
        _ value: JSONValue, at path: JSONPath, of kind: KeyedObjectValue,
        make: (String) -> Object, set: (Object, String, Any?) -> Void
    ) throws(SceneError) -> [Object]? {
        guard let items = try array(value, at: path, of: "\(kind.what)s (objects)") else { return nil }
        let typeNames = kind.types.map(\.name)
        var objects: [Object] = []
        for (k, item) in items.enumerated() {
            let itemPath = path / k
            layerCount += 1
            guard layerCount <= limits.layerCount else {
                throw fatal(.limitExceeded, at: itemPath, item.position,
                            "the scene has more than \(limits.layerCount) layers, filters, emitter cells and behaviours (the limit)")
            }
            guard let object = try object(item, at: itemPath, "\(kind.what) (an object)") else { continue }
            guard let typeValue = object["type"] else {
                try report(.missingKey, item, at: itemPath, "\(kind.what) needs a type (\(Self.list(typeNames)))")
                continue
            }
            guard let typeName = try name(typeValue, at: itemPath / "type", from: typeNames) else { continue }
            let made = make(typeName)
            let table = kind.parameters(ofType: typeName) ?? [:]
            for member in object.members where member.key != "type" {
                let p = itemPath / member
                let v = member.value
                switch member.key {
                case "name": if let s = try string(v, at: p) { set(made, "name", s) }; continue
                case "enabled": if let b = try bool(v, at: p) { set(made, "enabled", b) }; continue
                default: break
                }
                guard let parameter = table[member.key] else {
                    try report(.unknownKey, at: p, member.keyPosition,
                               "unknown key '\(member.key)' for a \(typeName) \(kind.what.split(separator: " ").last ?? "")"
                                + Suggestion.didYouMean(member.key, in: ["type", "name", "enabled"] + table.keys.sorted()))
                    continue
                }
                switch parameter {
                case .number:
                    if let s = v.string, s == "infinity" || s == "-infinity" {
                        set(made, member.key, s == "infinity" ? Double.infinity : -Double.infinity)
                    } else if let n = try number(v, at: p) {
                        set(made, member.key, n)
                    }
                case .vector(let count):
                    if let n = try numbers(v, at: p, count: count, form: "\(count) numbers") {
                        set(made, member.key, (0..<count).map { Double(n[$0]) })
                    }
                case .numbers:
                    if let n = try numberList(v, at: p) { set(made, member.key, n.map(Double.init)) }
                case .color:
                    if let c = try color(v, at: p) { set(made, member.key, c) }
                case .colors:
                    if let c = try colorList(v, at: p) { set(made, member.key, c) }
                case .name(let names):
                    if let s = try name(v, at: p, from: names) { set(made, member.key, s) }
                }
            }
            objects.append(made)
        }
        return objects
    }
}
