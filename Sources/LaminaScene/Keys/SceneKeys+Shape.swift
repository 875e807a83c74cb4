import Foundation
import LaminaJSON

// The keys of shape layers (`"type": "shape"`).
extension SceneKeys {
    static let fillRules: [(String, CAShapeLayerFillRule)] = [("nonZero", .nonZero), ("evenOdd", .evenOdd)]
    static let lineCaps: [(String, CAShapeLayerLineCap)] = [("butt", .butt), ("round", .round), ("square", .square)]
    static let lineJoins: [(String, CAShapeLayerLineJoin)] = [("miter", .miter), ("round", .round), ("bevel", .bevel)]

    /// The range of `lineDashPattern`'s lengths, as the property table says.
    static let dashRange = SceneKey.tableRow("lineDashPattern", of: CAShapeLayer.self).range ?? .any

    static let shapeKeys: [SceneKey] = [
        SceneKey("path", types: [.shape], decode: { c, v, p, layer throws(SceneError) in
            if let path = try c.path(v, at: p) { (layer as? CAShapeLayer)?.path = path }
        }, encode: { layer, _, _ in (layer as? CAShapeLayer)?.path.map(PathValue.encode) }),
        .optionalColor("fillColor", \CAShapeLayer.fillColor),
        .names("fillRule", \CAShapeLayer.fillRule, fillRules),
        .optionalColor("strokeColor", \CAShapeLayer.strokeColor),
        .number("lineWidth", \CAShapeLayer.lineWidth),
        .names("lineCap", \CAShapeLayer.lineCap, lineCaps),
        .names("lineJoin", \CAShapeLayer.lineJoin, lineJoins),
        .number("miterLimit", \CAShapeLayer.miterLimit),
        .property("lineDashPattern", \CAShapeLayer.lineDashPattern,
                  read: { c, v, p throws(SceneError) in try c.dashPattern(v, at: p).map { .some($0) } },
                  write: { $0.map { .array($0.map { .number($0.doubleValue) }) } ?? .null }),
        .number("lineDashPhase", \CAShapeLayer.lineDashPhase),
        .number("strokeStart", \CAShapeLayer.strokeStart),
        .number("strokeEnd", \CAShapeLayer.strokeEnd),
    ]
}

extension DecodingContext {
    /// Dash and gap lengths ≥ 0, not all zero (a pattern of zero length has
    /// no meaning). An empty array is a solid line.
    func dashPattern(_ value: JSONValue, at path: JSONPath) throws(SceneError) -> [NSNumber]? {
        guard let lengths = try numberList(value, at: path, SceneKeys.dashRange) else { return nil }
        if !lengths.isEmpty && lengths.allSatisfy({ $0 == 0 }) {
            try report(.invalidValue, value, at: path, "a dash pattern needs at least one length > 0")
            return nil
        }
        return lengths.map { NSNumber(value: Double($0)) }
    }
}
