import Foundation
import LaminaJSON

/// The scene format's names for Core Animation's, for readers of other
/// formats that name things as Core Animation does (the CAML reader): which
/// layer classes the format has, which key holds a property and what values
/// it takes, and what an animation's key path animates. All of it comes
/// from the same tables the decoder reads with, so an importer cannot offer
/// a key the decoder refuses.
package enum SceneVocabulary {
    /// The format's `type` for a Core Animation class name
    /// (`"CAShapeLayer"` → `"shape"`), or nil for a class it does not have.
    package static func layerType(forClassName name: String) -> String? {
        LayerType.allCases.first { $0.className == name }?.rawValue
    }

    /// The Core Animation class name for the format's `type`
    /// (`"shape"` → `"CAShapeLayer"`), or nil for a type it does not have.
    package static func className(ofType type: String) -> String? {
        LayerType(rawValue: type)?.className
    }

    /// The format's key for the property `name` of a layer of format type
    /// `type`, with the kind of its values; nil when the format has no key
    /// for it. Keys are the property names, except `type` of a gradient
    /// layer, which the format calls `gradientType` (its `type` picks the class).
    package static func key(forProperty name: String, ofType type: String) -> (key: String, kind: LayerValueKind)? {
        guard let layerType = LayerType(rawValue: type) else { return nil }
        let key = layerType == .gradient && name == "type" ? "gradientType" : name
        guard key != "type", !SceneKeys.structuralKeys.contains(key) || ["mask", "sublayers"].contains(key),
              SceneKeys.byName[key]?.applies(to: layerType) ?? ["mask", "sublayers"].contains(key),
              let row = Swift.type(of: layerType.makeLayer()).layerProperty(named: name)
        else { return nil }
        return (key, row.kind)
    }

    /// The kind of the values an animation of `keyPath` takes on a layer of
    /// format type `type` (`"transform.rotation.z"` → a number), or nil when
    /// the key path is not animatable there.
    package static func animatedKind(of keyPath: String, onType type: String) -> LayerValueKind? {
        LayerType(rawValue: type).flatMap { AnimatableProperty.kind(of: keyPath, on: $0) }
    }

    /// The format's JSON for a value that key paths reach into: a number
    /// (any Swift numeric type or `NSNumber`), a `Bool`, a point, a size, a
    /// rectangle or a transform, written as the scene writer writes them;
    /// nil for anything else.
    package static func json(of value: Any) -> JSONValue? {
        if type(of: value) == Bool.self, let b = value as? Bool { return .bool(b) }
        switch value {
        case let p as CGPoint: return GeometryValue.encode(p)
        case let s as CGSize: return GeometryValue.encode(s)
        case let r as CGRect: return GeometryValue.encode(r)
        case let t as CATransform3D: return TransformValue.encode(t)
        default: return AnimationValue.number(value)
        }
    }

    /// The kinds of emitter behaviour the format has (`"drag"`, ...).
    package static var emitterBehaviorTypes: [String] { EmitterBehaviorValue.kind.types.map(\.name) }

    /// The kinds of filter the format has (`"gaussianBlur"`, ...).
    package static var filterTypes: [String] { FilterValue.kind.types.map(\.name) }

    /// The kind of values the parameter `key` of an emitter behaviour of
    /// `type` takes (`"stiffness"` of an attractor: a number), or nil when
    /// the format has no such parameter.
    package static func emitterBehaviorParameter(_ key: String, ofType type: String) -> LayerValueKind? {
        parameterKind(key, EmitterBehaviorValue.kind.parameters(ofType: type))
    }

    /// The kind of values the parameter `key` of a filter of `type` takes
    /// (`"inputRadius"` of a blur: a number), or nil.
    package static func filterParameter(_ key: String, ofType type: String) -> LayerValueKind? {
        parameterKind(key, FilterValue.kind.parameters(ofType: type))
    }

    private static func parameterKind(_ key: String, _ table: [String: KeyedObjectValue.Parameter]?) -> LayerValueKind? {
        if key == "name" { return .string }
        if key == "enabled" { return .bool }
        switch table?[key] {
        case .number?: return .number(.any)
        case .vector?, .numbers?: return .numbers(.any)
        case .color?: return .color
        case .colors?: return .colors
        case .name?: return .constant
        case nil: return nil
        }
    }

    /// A new layer of format type `type` (for working out what a key-path
    /// assignment does to a whole property).
    package static func makeLayer(ofType type: String) -> CALayer? {
        LayerType(rawValue: type)?.makeLayer()
    }
}
