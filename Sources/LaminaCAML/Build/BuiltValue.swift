import Foundation
import LaminaCore
import LaminaScene

/// A property value on its way from CAML text to the scene format: either
/// already in the format's JSON form (colours, paths, images, names), or a
/// Swift value of a kind that key paths reach into (numbers, booleans,
/// points, sizes, rectangles, transforms), kept as such until the layer is
/// written so that `position.y` or `transform.rotation.z` can change part
/// of it through Core Animation's own key-value coding.
enum BuiltValue {
    case json(JSONValue)
    case native(Any)

    /// The value in the scene format, placed at `position` for errors.
    func json(at position: SourcePosition) -> JSONValue {
        switch self {
        case .json(var v):
            v.position = position
            return v
        case .native(let value):
            return JSONValue(Self.encode(value).kind, at: position)
        }
    }

    private static func encode(_ value: Any) -> JSONValue {
        func n(_ x: CGFloat) -> JSONValue { .number(Double(x)) }
        switch value {
        case let b as Bool: return .bool(b)
        case let x as CGFloat: return n(x)
        case let x as Double: return .number(x)
        case let x as Float: return .number(floatingPoint: x)
        case let x as NSNumber: return .number(x.doubleValue)
        case let p as CGPoint: return .array([n(p.x), n(p.y)])
        case let s as CGSize: return .array([n(s.width), n(s.height)])
        case let r as CGRect: return .array([n(r.origin.x), n(r.origin.y), n(r.size.width), n(r.size.height)])
        case let t as CATransform3D:
            return .array([t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24,
                           t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44].map(n))
        default: return .null
        }
    }
}

extension JSONValue {
    /// An object from members that carry positions.
    static func object(members: [(String, JSONValue, SourcePosition)], at position: SourcePosition) -> JSONValue {
        JSONValue(.object(JSONObject(members.map { JSONMember(key: $0.0, keyPosition: $0.2, value: $0.1) })), at: position)
    }
}
