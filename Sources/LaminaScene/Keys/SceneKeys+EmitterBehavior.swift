import Foundation
import LaminaJSON

// An emitter's `emitterBehaviors`: objects with a `type`
// (`CAEmitterBehavior.Kind`), an optional `name` and `enabled`, and the
// parameters of that type (see `CAEmitterBehavior`).
//
//     "emitterBehaviors": [{"type": "drag", "drag": 0.8},
//                          {"type": "valueOverLife", "keyPath": "color.alpha", "values": [1, 1, 0]}]
enum EmitterBehaviorValue {
    static let kind = KeyedObjectValue(what: "an emitter behaviour", types: [
        ("wave", ["force": .vector(3), "frequency": .number]),
        ("drag", ["drag": .number]),
        ("attractor", ["attractorType": .name(["radial", "axial", "planar"]), "position": .vector(2), "zPosition": .number,
                       "radius": .number, "stiffness": .number, "falloff": .number, "falloffDistance": .number,
                       "orientationLongitude": .number, "orientationLatitude": .number]),
        ("alignToMotion", ["rotation": .number]),
        ("valueOverLife", ["keyPath": .name(["scale", "color.alpha", "color.red", "color.green", "color.blue"]),
                           "values": .numbers, "locations": .numbers]),
        ("colorOverLife", ["colors": .colors, "locations": .numbers]),
    ])

    static func encode(_ behaviors: [CAEmitterBehavior], at path: JSONPath) throws(SceneError) -> JSONValue {
        try kind.encode(count: behaviors.count, at: path) { k in
            let b = behaviors[k]
            return (b.type.rawValue, b.name, b.isEnabled, b.parameterKeys, b.value(forKey:))
        }
    }
}

extension DecodingContext {
    /// `emitterBehaviors`: behaviour objects, each parameter checked against its type's table.
    func emitterBehaviors(_ value: JSONValue, at path: JSONPath) throws(SceneError) -> [CAEmitterBehavior]? {
        try keyedObjects(value, at: path, of: EmitterBehaviorValue.kind,
                         make: { CAEmitterBehavior(type: CAEmitterBehavior.Kind($0)) },
                         set: { $0.setValue($2, forKey: $1) })
    }
}
