import Foundation
import LaminaJSON

// Transforms: 16 numbers in CATransform3D field order, or an array of
// operations applied in order to the identity, each exactly as the matching
// Core Animation call applied to the result so far.
extension DecodingContext {
    static let transformOperations = [
        "translate", "scale", "rotate", "rotateDegrees", "perspective", "set", "matrix", "affine",
    ]

    func transform(_ value: JSONValue, at path: JSONPath) throws(SceneError) -> CATransform3D? {
        guard let elements = value.array else {
            try wrongType(value, at: path, expected: "a transform (16 numbers or an array of operations)")
            return nil
        }
        let t: CATransform3D
        if let first = elements.first, first.number != nil {
            // The matrix form; every element must be a number.
            guard let fields = try numbers(value, at: path, count: 16, form: "a matrix [m11, m12, ..., m44]"),
                  let m = CATransform3D(fields: fields)
            else { return nil }
            t = m
        } else {
            var result = CATransform3D.identity
            for (k, element) in elements.enumerated() {
                if applyCommonOperation(element, to: &result) { continue }
                guard let next = try transformOperation(element, at: path / k, applyingTo: result) else {
                    return nil
                }
                result = next
            }
            t = result
        }
        guard t.isFinite else {
            try report(.nonFinite, value, at: path, "the transform overflows: its matrix has non-finite fields")
            return nil
        }
        return t
    }

    /// `[a, b, c, d, tx, ty]`.
    func affineTransform(_ value: JSONValue, at path: JSONPath) throws(SceneError) -> CGAffineTransform? {
        guard let n = try numbers(value, at: path, count: 6, form: "an affine transform [a, b, c, d, tx, ty]")
        else { return nil }
        return CGAffineTransform(a: n[0], b: n[1], c: n[2], d: n[3], tx: n[4], ty: n[5])
    }

    /// The operations of most scenes (translate, scale, rotate by radians
    /// or degrees) when written correctly, applied to `t` without making a
    /// path, a string or an array; false (and `t` unchanged) for anything
    /// else, which `transformOperation(_:at:applyingTo:)` reads and reports
    /// on. `t` is updated in place: a transform is 128 bytes to copy.
    private func applyCommonOperation(_ value: JSONValue, to t: inout CATransform3D) -> Bool {
        guard let op = value.object, op.count == 1 else { return false }
        let member = op.members[0]
        guard let name = Self.commonOperations[member] else { return false }
        switch name {
        case .translate:
            guard let v = fewNumbers(member.value, count: 3) else { return false }
            t = CATransform3DTranslate(t, v[0], v[1], v[2])
        case .scale:
            guard let v = fewNumbers(member.value, count: 3) else { return false }
            t = CATransform3DScale(t, v[0], v[1], v[2])
        case .rotate, .rotateDegrees:
            guard let v = fewNumbers(member.value, count: 4), v[1] != 0 || v[2] != 0 || v[3] != 0 else { return false }
            t = CATransform3DRotate(t, name == .rotate ? v[0] : v[0] * .pi / 180, v[1], v[2], v[3])
        }
        return true
    }

    private enum CommonOperation { case translate, scale, rotate, rotateDegrees }

    private static let commonOperations = JSONKeyTable<CommonOperation>([
        ("translate", .translate), ("scale", .scale), ("rotate", .rotate), ("rotateDegrees", .rotateDegrees),
    ])

    private func transformOperation(
        _ value: JSONValue, at path: JSONPath, applyingTo t: CATransform3D
    ) throws(SceneError) -> CATransform3D? {
        guard let op = value.object else {
            try wrongType(value, at: path, expected: "a transform operation such as {\"rotate\": [angle, x, y, z]}")
            return nil
        }
        guard op.count == 1, let member = op.members.first else {
            let found = op.isEmpty ? "none" : op.keys.map { "'\($0)'" }.joined(separator: ", ")
            try report(.wrongType, value, at: path,
                       "a transform operation has exactly one key (its name), found \(found)")
            return nil
        }
        let argument = member.value
        let at = path / member.key
        switch member.key {
        case "translate":
            guard let v = try numbers(argument, at: at, count: 3, form: "[tx, ty, tz]") else { return nil }
            return CATransform3DTranslate(t, v[0], v[1], v[2])
        case "scale":
            guard let v = try numbers(argument, at: at, count: 3, form: "[sx, sy, sz]") else { return nil }
            return CATransform3DScale(t, v[0], v[1], v[2])
        case "rotate", "rotateDegrees":
            guard let v = try numbers(argument, at: at, count: 4, form: "[angle, x, y, z]") else { return nil }
            guard v[1] != 0 || v[2] != 0 || v[3] != 0 else {
                try report(.invalidValue, argument, at: at, "the rotation axis [0, 0, 0] has no direction")
                return nil
            }
            let angle = member.key == "rotate" ? v[0] : v[0] * .pi / 180
            return CATransform3DRotate(t, angle, v[1], v[2], v[3])
        case "perspective":
            guard let d = try number(argument, at: at) else { return nil }
            guard d != 0 else {
                try report(.invalidValue, argument, at: at,
                           "a perspective distance of 0 has no meaning (the eye would sit on the plane)")
                return nil
            }
            return CATransform3DConcat(CATransform3D(perspectiveDistance: d), t)
        case "set":
            guard let fields = try object(argument, at: at, "an object of fields such as {\"m34\": -0.002}") else {
                return nil
            }
            var result = t
            var ok = true
            for field in fields.members {
                guard let index = CATransform3D.fieldNames.firstIndex(of: field.key) else {
                    try report(.unknownKey, at: at / field.key, field.keyPosition,
                               "unknown transform field '\(field.key)'; fields are m11 ... m44"
                                + Suggestion.didYouMean(field.key, in: CATransform3D.fieldNames))
                    ok = false
                    continue
                }
                guard let v = try number(field.value, at: at / field.key) else { ok = false; continue }
                result[index] = v
            }
            return ok ? result : nil
        case "matrix":
            guard let v = try numbers(argument, at: at, count: 16, form: "a matrix [m11, m12, ..., m44]"),
                  let m = CATransform3D(fields: v)
            else { return nil }
            return CATransform3DConcat(m, t)
        case "affine":
            guard let m = try affineTransform(argument, at: at) else { return nil }
            return CATransform3DConcat(CATransform3DMakeAffineTransform(m), t)
        default:
            try report(.unknownName, at: at, member.keyPosition,
                       "unknown transform operation '\(member.key)'; expected one of "
                        + Self.list(Self.transformOperations)
                        + Suggestion.didYouMean(member.key, in: Self.transformOperations))
            return nil
        }
    }
}

/// The JSON form of transforms: always the 16 numbers, which read back
/// exactly.
enum TransformValue {
    static func encode(_ t: CATransform3D) -> JSONValue { .numbers(t.fields) }
    static func encode(_ t: CGAffineTransform) -> JSONValue { .numbers([t.a, t.b, t.c, t.d, t.tx, t.ty]) }
}
