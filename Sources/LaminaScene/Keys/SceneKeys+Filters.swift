import Foundation
import LaminaJSON

// A layer's `filters`: objects with a `type` (`CAFilter.Kind`), an optional
// `name` and `enabled`, and the parameters of that type (see `CAFilter`).
//
//     "filters": [{"type": "gaussianBlur", "inputRadius": 8}, {"type": "colorSaturate", "inputAmount": 0}]
enum FilterValue {
    static let kind = KeyedObjectValue(what: "a filter", types: [
        ("gaussianBlur", ["inputRadius": .number]),
        ("colorMatrix", ["inputColorMatrix": .vector(20)]),
        ("colorSaturate", ["inputAmount": .number]),
        ("colorHueRotate", ["inputAngle": .number]),
        ("colorContrast", ["inputAmount": .number]),
        ("colorBrightness", ["inputAmount": .number]),
        ("colorInvert", [:]),
        ("colorMonochrome", ["inputColor": .color, "inputAmount": .number]),
        ("luminanceToAlpha", [:]),
    ])

    static func encode(_ filters: [Any], at path: JSONPath) throws(SceneError) -> JSONValue {
        let list = filters.compactMap { $0 as? CAFilter }
        guard list.count == filters.count else {
            throw SceneError(.invalidValue, at: path.description, "filters other than CAFilters cannot be written")
        }
        return try kind.encode(count: list.count, at: path) { k in
            let f = list[k]
            return (f.type.rawValue, f.name, f.isEnabled, f.parameterKeys, f.value(forKey:))
        }
    }
}

extension SceneKeys {
    static let filtersKey = filterList("filters", \.filters)
    /// `backgroundFilters`: filters of the same kinds, on what lies behind the layer.
    static let backgroundFiltersKey = filterList("backgroundFilters", \.backgroundFilters)

    private static func filterList(_ name: String, _ keyPath: ReferenceWritableKeyPath<CALayer, [Any]?> & Sendable) -> SceneKey {
        SceneKey(name, decode: { c, v, p, layer throws(SceneError) in
            guard let filters = try c.keyedObjects(v, at: p, of: FilterValue.kind,
                                                   make: { CAFilter(type: CAFilter.Kind($0)) },
                                                   set: { $0.setValue($2, forKey: $1) })
            else { return }
            layer[keyPath: keyPath] = filters
        }, encode: { layer, _, path throws(SceneError) in
            guard let filters = layer[keyPath: keyPath] else { return nil }
            return try FilterValue.encode(filters, at: path)
        })
    }
}

extension SceneKeys {
    /// `compositingFilter`: a blend mode's name (`"multiplyBlendMode"`), a
    /// non-separable one included (kept, and drawn source-over as Core
    /// Animation draws it).
    static let compositingFilterKey: SceneKey = {
        let table = (CAFilter.Kind.blendModes + CAFilter.Kind.nonSeparableBlendModes).map { ($0.rawValue, $0) }
        return SceneKey("compositingFilter", decode: { c, v, p, layer throws(SceneError) in
            guard let kind = try c.named(v, at: p, from: table) else { return }
            layer.compositingFilter = kind.rawValue
        }, encode: { layer, _, path throws(SceneError) in
            guard let value = layer.compositingFilter else { return nil }
            guard let kind = CAFilter.Kind(compositingFilter: value), table.contains(where: { $0.1 == kind }) else {
                throw SceneError(.invalidValue, at: path.description,
                                 "a compositingFilter that is no blend mode cannot be written; expected one of "
                                    + DecodingContext.list(table.map(\.0)))
            }
            return .string(kind.rawValue)
        })
    }()
}
