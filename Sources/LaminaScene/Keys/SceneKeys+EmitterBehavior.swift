import Foundation
import LaminaJSON

/// Emitter behaviours as the scene format writes them: objects with a
/// `type` (`CAEmitterBehavior.Kind`), an optional `name` and `enabled`, and
/// the parameters of that type (see `CAEmitterBehavior`).
///
/// ```json
/// "emitterBehaviors": [{"type": "drag", "drag": 0.8},
///                      {"type": "valueOverLife", "keyPath": "color.alpha", "values": [1, 1, 0]}]
/// ```
enum EmitterBehaviorValue {
    /// What a parameter holds.
    enum Parameter {
        /// A number; `"infinity"` for an infinite one (JSON has none).
        case number
        /// `count` numbers (a point, a vector).
        case vector(Int)
        /// Any number of numbers.
        case numbers
        /// Colours.
        case colors
        /// One of these names.
        case name([String])
    }

    /// The parameters of each kind.
    static let parameters: [CAEmitterBehavior.Kind: [String: Parameter]] = [
        .wave: ["force": .vector(3), "frequency": .number],
        .drag: ["drag": .number],
        .attractor: ["attractorType": .name(["radial", "axial", "planar"]), "position": .vector(2), "zPosition": .number,
                     "radius": .number, "stiffness": .number, "falloff": .number, "falloffDistance": .number,
                     "orientationLongitude": .number, "orientationLatitude": .number],
        .alignToMotion: ["rotation": .number],
        .valueOverLife: ["keyPath": .name(["scale", "color.alpha", "color.red", "color.green", "color.blue"]),
                         "values": .numbers, "locations": .numbers],
        .colorOverLife: ["colors": .colors, "locations": .numbers],
    ]

    static func encode(_ behaviors: [CAEmitterBehavior], at path: JSONPath) throws(SceneError) -> JSONValue {
        var items: [JSONValue] = []
        for (k, behavior) in behaviors.enumerated() {
            var members: [(String, JSONValue)] = [("type", .string(behavior.type.rawValue))]
            if let name = behavior.name { members.append(("name", .string(name))) }
            if !behavior.isEnabled { members.append(("enabled", .bool(false))) }
            let table = parameters[behavior.type] ?? [:]
            for key in behavior.parameterKeys {
                guard let parameter = table[key], let value = behavior.value(forKey: key) else { continue }
                switch parameter {
                case .number:
                    guard let n = behavior.number(key) else { continue }
                    members.append((key, n.isFinite ? .number(n) : .string(n > 0 ? "infinity" : "-infinity")))
                case .vector, .numbers:
                    guard let n = behavior.numbers(key) else { continue }
                    members.append((key, .array(n.map { .number($0) })))
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
    /// `emitterBehaviors`: an array of behaviour objects, each parameter
    /// checked against its kind's table. Each counts as a layer against the
    /// scene's layer limit.
    func emitterBehaviors(_ value: JSONValue, at path: JSONPath) throws(SceneError) -> [CAEmitterBehavior]? {
        guard let items = try array(value, at: path, of: "emitter behaviours (objects)") else { return nil }
        let kinds = CAEmitterBehavior.Kind.all.map(\.rawValue)
        var behaviors: [CAEmitterBehavior] = []
        for (k, item) in items.enumerated() {
            let itemPath = path / k
            layerCount += 1
            guard layerCount <= limits.layerCount else {
                throw fatal(.limitExceeded, at: itemPath, item.position, "the scene has more than \(limits.layerCount) layers, emitter cells and behaviours (the limit)")
            }
            guard let object = try object(item, at: itemPath, "an emitter behaviour (an object)") else { continue }
            guard let typeValue = object["type"] else {
                try report(.missingKey, item, at: itemPath, "an emitter behaviour needs a type (\(Self.list(kinds)))")
                continue
            }
            guard let typeName = try name(typeValue, at: itemPath / "type", from: kinds) else { continue }
            let behavior = CAEmitterBehavior(type: CAEmitterBehavior.Kind(typeName))
            let table = EmitterBehaviorValue.parameters[behavior.type] ?? [:]
            for member in object.members where member.key != "type" {
                let p = itemPath / member
                let v = member.value
                switch member.key {
                case "name": if let s = try string(v, at: p) { behavior.name = s }; continue
                case "enabled": if let b = try bool(v, at: p) { behavior.isEnabled = b }; continue
                default: break
                }
                guard let parameter = table[member.key] else {
                    try report(.unknownKey, at: p, member.keyPosition,
                               "unknown key '\(member.key)' for a \(typeName) behaviour"
                                + Suggestion.didYouMean(member.key, in: ["type", "name", "enabled"] + table.keys.sorted()))
                    continue
                }
                switch parameter {
                case .number:
                    if let s = v.string, s == "infinity" || s == "-infinity" {
                        behavior.setValue(s == "infinity" ? Double.infinity : -Double.infinity, forKey: member.key)
                    } else if let n = try number(v, at: p) {
                        behavior.setValue(n, forKey: member.key)
                    }
                case .vector(let count):
                    if let n = try numbers(v, at: p, count: count, form: "\(count) numbers") {
                        behavior.setValue((0..<count).map { Double(n[$0]) }, forKey: member.key)
                    }
                case .numbers:
                    if let n = try numberList(v, at: p) { behavior.setValue(n.map(Double.init), forKey: member.key) }
                case .colors:
                    if let c = try colorList(v, at: p) { behavior.setValue(c, forKey: member.key) }
                case .name(let names):
                    if let s = try name(v, at: p, from: names) { behavior.setValue(s, forKey: member.key) }
                }
            }
            behaviors.append(behavior)
        }
        return behaviors
    }
}
