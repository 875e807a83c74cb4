import Foundation
import LaminaJSON

// Points, sizes and rectangles: `[x, y]`, `[w, h]`, `[x, y, width, height]`.
extension DecodingContext {
    /// A rectangle's origin may be anywhere; its size is not negative.
    static let rectRanges: [NumberRange] = [.any, .any, .nonNegative, .nonNegative]

    func point(_ value: JSONValue, at path: JSONPath) throws(SceneError) -> CGPoint? {
        if let n = fewNumbers(value, count: 2) { return CGPoint(x: n[0], y: n[1]) }
        guard let n = try numbers(value, at: path, count: 2, form: "a point [x, y]") else { return nil }
        return CGPoint(x: n[0], y: n[1])
    }

    /// A size that may be negative, such as `shadowOffset`.
    func offset(_ value: JSONValue, at path: JSONPath) throws(SceneError) -> CGSize? {
        if let n = fewNumbers(value, count: 2) { return CGSize(width: n[0], height: n[1]) }
        guard let n = try numbers(value, at: path, count: 2, form: "[width, height]") else { return nil }
        return CGSize(width: n[0], height: n[1])
    }

    /// A rectangle whose width and height are ≥ 0.
    func rect(_ value: JSONValue, at path: JSONPath) throws(SceneError) -> CGRect? {
        if let n = fewNumbers(value, count: 4, ranges: Self.rectRanges) {
            return CGRect(x: n[0], y: n[1], width: n[2], height: n[3])
        }
        guard let n = try numbers(
            value, at: path, count: 4, form: "a rectangle [x, y, width, height]", ranges: Self.rectRanges)
        else { return nil }
        return CGRect(x: n[0], y: n[1], width: n[2], height: n[3])
    }
}

/// The JSON forms of geometry, for the encoder.
enum GeometryValue {
    static func encode(_ p: CGPoint) -> JSONValue { .numbers([p.x, p.y]) }
    static func encode(_ s: CGSize) -> JSONValue { .numbers([s.width, s.height]) }
    static func encode(_ r: CGRect) -> JSONValue { .numbers([r.origin.x, r.origin.y, r.size.width, r.size.height]) }
}
