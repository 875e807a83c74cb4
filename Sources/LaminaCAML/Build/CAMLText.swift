import Foundation
import LaminaCore
import LaminaScene

/// How CAML writes values in attribute text: numbers, space-separated
/// geometry, `r g b [a]` colours, and transforms as 16 or 6 numbers or as
/// the function strings editors write (`rotate(45deg) scale(2)`).
///
/// Each parser returns nil for text that is not such a value, and the
/// caller reports it with the place it came from.
enum CAMLText {
    /// One number; `inf` only where `allowsInfinity` (repeat counts).
    static func number(_ text: String, allowsInfinity: Bool = false) -> Double? {
        let t = text.trimmingCharacters(in: .whitespaces)
        if allowsInfinity, ["inf", "+inf", "infinity", "INFINITY"].contains(t) { return .infinity }
        // Double(_:) also reads "nan", "inf" and hexadecimal floats; CAML writes none of them.
        guard !t.isEmpty, t.allSatisfy({ "0123456789+-.eE".contains($0) }), let n = Double(t), n.isFinite else {
            return nil
        }
        return n
    }

    /// Numbers separated by whitespace or commas (`"0 0 100 50"`).
    static func numbers(_ text: String) -> [Double]? {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\n" || $0 == ";" })
        var out: [Double] = []
        out.reserveCapacity(parts.count)
        for p in parts {
            guard let n = number(String(p)) else { return nil }
            out.append(n)
        }
        return out
    }

    /// `1`/`0`, `true`/`false`, `YES`/`NO`.
    static func bool(_ text: String) -> Bool? {
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "1", "true", "yes": true
        case "0", "false", "no": false
        default: nil
        }
    }

    /// A transform: 16 numbers in `CATransform3D` order, 6 affine numbers
    /// `a b c d tx ty`, or functions applied in order as the matching Core
    /// Animation call applied to the result so far (so `translate(10, 0, 0)
    /// rotate(90deg)` is `CATransform3DRotate(CATransform3DTranslate(.identity, 10, 0, 0), π/2, 0, 0, 1)`).
    /// Angles take `deg`, `rad`, `grad` or `turn`; a bare angle is in radians.
    static func transform(_ text: String) -> CATransform3D? {
        guard text.contains("(") else {
            guard let n = numbers(text) else { return nil }
            switch n.count {
            case 16: return matrix(n)
            case 6: return CATransform3DMakeAffineTransform(CGAffineTransform(a: n[0], b: n[1], c: n[2], d: n[3], tx: n[4], ty: n[5]))
            default: return nil
            }
        }
        var t = CATransform3DIdentity
        var rest = Substring(text)
        while true {
            rest = rest.drop(while: { $0.isWhitespace || $0 == "," })
            if rest.isEmpty { return t }
            guard let open = rest.firstIndex(of: "("), let close = rest.firstIndex(of: ")"), open < close else { return nil }
            let name = rest[..<open].trimmingCharacters(in: .whitespaces)
            let arguments = rest[rest.index(after: open)..<close]
                .split(whereSeparator: { $0 == "," || $0.isWhitespace }).map(String.init)
            guard let next = apply(name, arguments, to: t) else { return nil }
            t = next
            rest = rest[rest.index(after: close)...]
        }
    }

    private static func apply(_ name: String, _ arguments: [String], to t: CATransform3D) -> CATransform3D? {
        func lengths() -> [CGFloat]? {
            var out: [CGFloat] = []
            for a in arguments {
                let s = a.hasSuffix("px") ? String(a.dropLast(2)) : a
                guard let n = number(s) else { return nil }
                out.append(CGFloat(n))
            }
            return out
        }
        switch name {
        case "translate", "translate3d":
            guard let v = lengths(), (1...3).contains(v.count) else { return nil }
            return CATransform3DTranslate(t, v[0], v.count > 1 ? v[1] : 0, v.count > 2 ? v[2] : 0)
        case "translateX", "translateY", "translateZ":
            guard let v = lengths(), v.count == 1 else { return nil }
            return CATransform3DTranslate(t, name == "translateX" ? v[0] : 0, name == "translateY" ? v[0] : 0,
                                          name == "translateZ" ? v[0] : 0)
        case "scale", "scale3d":
            guard let v = lengths(), (1...3).contains(v.count) else { return nil }
            return CATransform3DScale(t, v[0], v.count > 1 ? v[1] : v[0], v.count > 2 ? v[2] : 1)
        case "scaleX", "scaleY", "scaleZ":
            guard let v = lengths(), v.count == 1 else { return nil }
            return CATransform3DScale(t, name == "scaleX" ? v[0] : 1, name == "scaleY" ? v[0] : 1, name == "scaleZ" ? v[0] : 1)
        case "rotate", "rotateX", "rotateY", "rotateZ":
            guard let first = arguments.first, let a = angle(first) else { return nil }
            var axis: [CGFloat] = switch name {
            case "rotateX": [1, 0, 0]
            case "rotateY": [0, 1, 0]
            default: [0, 0, 1]
            }
            if arguments.count == 4, name == "rotate" {
                var v: [CGFloat] = []
                for s in arguments.dropFirst() {
                    guard let n = number(s) else { return nil }
                    v.append(CGFloat(n))
                }
                axis = v
            } else if arguments.count != 1 {
                return nil
            }
            return CATransform3DRotate(t, a, axis[0], axis[1], axis[2])
        case "rotate3d":
            guard arguments.count == 4, let a = angle(arguments[3]),
                  let x = number(arguments[0]), let y = number(arguments[1]), let z = number(arguments[2])
            else { return nil }
            return CATransform3DRotate(t, a, x, y, z)
        case "perspective":
            guard let v = lengths(), v.count == 1, v[0] != 0 else { return nil }
            var p = CATransform3DIdentity
            p.m34 = -1 / v[0]
            return CATransform3DConcat(p, t)
        case "matrix", "matrix3d":
            guard let v = lengths() else { return nil }
            let m: CATransform3D
            switch v.count {
            case 16: m = matrix(v.map(Double.init))
            case 6: m = CATransform3DMakeAffineTransform(CGAffineTransform(a: v[0], b: v[1], c: v[2], d: v[3], tx: v[4], ty: v[5]))
            default: return nil
            }
            return CATransform3DConcat(m, t)
        default:
            return nil
        }
    }

    /// `45deg`, `0.5rad`, `50grad`, `0.25turn`, or radians.
    static func angle(_ text: String) -> CGFloat? {
        let units: [(String, Double)] = [("deg", .pi / 180), ("grad", .pi / 200), ("rad", 1), ("turn", 2 * .pi)]
        for (suffix, factor) in units where text.hasSuffix(suffix) {
            return number(String(text.dropLast(suffix.count))).map { CGFloat($0 * factor) }
        }
        return number(text).map { CGFloat($0) }
    }

    static func matrix(_ n: [Double]) -> CATransform3D {
        let c = n.map { CGFloat($0) }
        return CATransform3D(m11: c[0], m12: c[1], m13: c[2], m14: c[3], m21: c[4], m22: c[5], m23: c[6], m24: c[7],
                             m31: c[8], m32: c[9], m33: c[10], m34: c[11], m41: c[12], m42: c[13], m43: c[14], m44: c[15])
    }
}
