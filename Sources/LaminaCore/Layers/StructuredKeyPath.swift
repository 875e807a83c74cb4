import Foundation

/// The parts of struct values that Core Animation's key paths reach into:
/// `x`/`y` of a `CGPoint`, `width`/`height` of a `CGSize`, `origin`/`size`
/// (and their parts) of a `CGRect`, and the `TransformKeyPath`s of a
/// `CATransform3D` (`rotation.z`, `scale`, `translation.x`...).
enum StructuredKeyPath {

    /// The value at `path` inside `value`, or nil when there is none.
    static func value(at path: Substring, in value: Any?) -> Any? {
        let (head, rest) = split(path)
        switch value {
        case let p as CGPoint:
            guard rest == nil else { return nil }
            switch head {
            case "x": return p.x
            case "y": return p.y
            default: return nil
            }
        case let s as CGSize:
            guard rest == nil else { return nil }
            switch head {
            case "width": return s.width
            case "height": return s.height
            default: return nil
            }
        case let r as CGRect:
            let part: Any
            switch head {
            case "origin": part = r.origin
            case "size": part = r.size
            default: return nil
            }
            return rest.map { self.value(at: $0, in: part) } ?? part
        case let t as CATransform3D:
            guard let key = TransformKeyPath(keyPath: String(path)) else { return nil }
            return key.isSizeValued ? t.translationSize : t.value(for: key)
        default:
            return nil
        }
    }

    /// `value` with the part at `path` replaced by `newPart`, or the reason
    /// why that cannot be done.
    static func setting(
        _ newPart: Any?, at path: Substring, in value: Any?
    ) -> Result<Any, Failure> {
        let (head, rest) = split(path)
        switch value {
        case var p as CGPoint:
            guard rest == nil, head == "x" || head == "y" else { return .failure(.noComponent(path, "CGPoint")) }
            guard let n = LayerValue.number(newPart) else { return .failure(.expected("a number", describe(newPart))) }
            if head == "x" { p.x = CGFloat(n) } else { p.y = CGFloat(n) }
            return .success(p)
        case var s as CGSize:
            guard rest == nil, head == "width" || head == "height" else {
                return .failure(.noComponent(path, "CGSize"))
            }
            guard let n = LayerValue.number(newPart) else { return .failure(.expected("a number", describe(newPart))) }
            if head == "width" { s.width = CGFloat(n) } else { s.height = CGFloat(n) }
            return .success(s)
        case var r as CGRect:
            switch head {
            case "origin":
                let result = rest.map { setting(newPart, at: $0, in: r.origin) }
                    ?? (newPart is CGPoint ? .success(newPart as Any) : .failure(.expected("a CGPoint", describe(newPart))))
                return result.map { r.origin = $0 as? CGPoint ?? r.origin; return r }
            case "size":
                let result = rest.map { setting(newPart, at: $0, in: r.size) }
                    ?? (newPart is CGSize ? .success(newPart as Any) : .failure(.expected("a CGSize", describe(newPart))))
                return result.map { r.size = $0 as? CGSize ?? r.size; return r }
            default:
                return .failure(.noComponent(path, "CGRect"))
            }
        case let t as CATransform3D:
            guard let key = TransformKeyPath(keyPath: String(path)) else {
                return .failure(.noComponent(path, "CATransform3D"))
            }
            if key.isSizeValued, let size = newPart as? CGSize {
                return .success(t.setting(translation: size))
            }
            guard let n = LayerValue.number(newPart) else {
                return .failure(.expected(key.isSizeValued ? "a CGSize or a number" : "a number", describe(newPart)))
            }
            return .success(t.setting(key, to: CGFloat(n)))
        default:
            let typeName = value.map { String(describing: type(of: $0)) } ?? "nil"
            return .failure(.noComponent(path, typeName))
        }
    }

    /// Why a write into a struct failed.
    enum Failure: Error {
        case noComponent(Substring, String)
        case expected(String, String)

        var reason: String {
            switch self {
            case let .noComponent(path, typeName): "\(typeName) has no component '\(path)'"
            case let .expected(expected, got): "expects \(expected), got \(got)"
            }
        }
    }

    /// The first component of a dotted path and the rest, if any.
    private static func split(_ path: Substring) -> (Substring, Substring?) {
        guard let dot = path.firstIndex(of: ".") else { return (path, nil) }
        return (path[..<dot], path[path.index(after: dot)...])
    }
}

/// A short description of a value's type for error messages.
func describe(_ value: Any?) -> String {
    guard let value else { return "nil" }
    return String(describing: type(of: value))
}
