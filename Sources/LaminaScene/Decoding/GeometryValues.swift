import Foundation

// Points, sizes and rectangles: `[x, y]`, `[w, h]`, `[x, y, width, height]`.
extension DecodingContext {
    func point(_ value: JSONValue, at path: JSONPath) throws(SceneError) -> CGPoint? {
        guard let n = try numbers(value, at: path, count: 2, form: "a point [x, y]") else { return nil }
        return CGPoint(x: n[0], y: n[1])
    }

    /// A size that may be negative, such as `shadowOffset`.
    func offset(_ value: JSONValue, at path: JSONPath) throws(SceneError) -> CGSize? {
        guard let n = try numbers(value, at: path, count: 2, form: "[width, height]") else { return nil }
        return CGSize(width: n[0], height: n[1])
    }

    /// A rectangle whose width and height are ≥ 0.
    func rect(_ value: JSONValue, at path: JSONPath) throws(SceneError) -> CGRect? {
        guard let n = try numbers(
            value, at: path, count: 4, form: "a rectangle [x, y, width, height]",
            ranges: [.any, .any, .nonNegative, .nonNegative])
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
