import Foundation
import LaminaJSON

// The keys of gradient layers (`"type": "gradient"`).
extension SceneKeys {
    static let gradientTypes: [(String, CAGradientLayerType)] = [
        ("axial", .axial), ("radial", .radial), ("conic", .conic),
    ]

    /// The range of `locations`, as the property table says.
    static let locationsRange = SceneKey.tableRow("locations", of: CAGradientLayer.self).range ?? .any

    static let gradientKeys: [SceneKey] = [
        SceneKey("colors", types: [.gradient], decode: { c, v, p, layer throws(SceneError) in
            if let colors = try c.colorList(v, at: p) { (layer as? CAGradientLayer)?.colors = colors }
        }, encode: { layer, _, path throws(SceneError) in
            guard let colors = (layer as? CAGradientLayer)?.colors else { return nil }
            return try ColorValue.encodeList(colors, at: path)
        }),
        .property("locations", \CAGradientLayer.locations,
                  read: { c, v, p throws(SceneError) in
                      try c.numberList(v, at: p, locationsRange).map { .some($0.map { NSNumber(value: Double($0)) }) }
                  },
                  write: { $0.map { .array($0.map { .number($0.doubleValue) }) } ?? .null }),
        .point("startPoint", \CAGradientLayer.startPoint),
        .point("endPoint", \CAGradientLayer.endPoint),
        .names("gradientType", \CAGradientLayer.type, gradientTypes, property: "type"),
    ]
}

extension DecodingContext {
    /// An array of colours, as `[Any]` of `CGColor` the way `colors` holds them.
    func colorList(_ value: JSONValue, at path: JSONPath) throws(SceneError) -> [Any]? {
        guard let items = try array(value, at: path, of: "colours") else { return nil }
        var colors: [Any] = []
        var ok = true
        for (k, item) in items.enumerated() {
            if let c = try color(item, at: path / k) { colors.append(c) } else { ok = false }
        }
        return ok ? colors : nil
    }
}

extension ColorValue {
    /// An array of `CGColor`s (or `UIColor`s); anything else cannot be written.
    static func encodeList(_ colors: [Any], at path: JSONPath) throws(SceneError) -> JSONValue {
        var out: [JSONValue] = []
        for (k, element) in colors.enumerated() {
            if let c = element as? CGColor {
                out.append(encode(c))
            } else if let c = element as? UIColor {
                out.append(encode(c.cgColor))
            } else {
                throw SceneError(.invalidValue, at: (path / k).description,
                                 "a colour of type \(type(of: element)) cannot be written")
            }
        }
        return .array(out)
    }
}
