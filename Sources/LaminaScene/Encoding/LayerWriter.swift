import Foundation
import LaminaJSON

// Layers into layer objects.
extension EncodingContext {
    func layerMembers(
        _ layer: CALayer, at path: JSONPath, depth: Int, isRoot: Bool = false
    ) throws(SceneError) -> [(String, JSONValue)] {
        guard depth <= limits.treeDepth else {
            throw SceneError(.limitExceeded, at: path.description,
                             "layers nest more than \(limits.treeDepth) levels deep (the limit)")
        }
        let type = LayerType(of: layer)
        var members: [(String, JSONValue)] = []
        if type != .layer { members.append(("type", .string(type.rawValue))) }
        for key in SceneKeys.all where key.applies(to: type) {
            if isRoot && (key.name == "bounds" || key.name == "position") { continue }
            guard let value = try key.encode(layer, self, path / key.name) else { continue }
            try Self.checkFinite(value, at: path / key.name)
            members.append((key.name, value))
        }
        if let mask = layer.mask {
            members.append(("mask", .object(try layerMembers(mask, at: path / "mask", depth: depth + 1))))
        }
        if let animations = try animations(of: layer, type: type, at: path / "animations") {
            try Self.checkFinite(animations, at: path / "animations")
            members.append(("animations", animations))
        }
        if let sublayers = layer.sublayers, !sublayers.isEmpty {
            var items: [JSONValue] = []
            for (k, sublayer) in sublayers.enumerated() {
                items.append(.object(try layerMembers(sublayer, at: path / "sublayers" / k, depth: depth + 1)))
            }
            members.append(("sublayers", .array(items)))
        }
        return members
    }

    /// JSON has no NaN or infinity: refuse them where they are.
    static func checkFinite(_ value: JSONValue, at path: JSONPath) throws(SceneError) {
        switch value.kind {
        case .number(let n) where !n.isFinite:
            throw SceneError(.nonFinite, at: path.description, "\(n) cannot be written; JSON numbers are finite")
        case .array(let items):
            for (k, item) in items.enumerated() { try checkFinite(item, at: path / k) }
        case .object(let object):
            for member in object.members { try checkFinite(member.value, at: path / member.key) }
        default:
            break
        }
    }
}
