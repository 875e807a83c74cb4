import Foundation
import LaminaJSON

// Readers of the scalar values. Each reports a problem at the value's place
// and returns nil, so that decoding goes on.
extension DecodingContext {
    /// A number in `range`. The path is made only for a report, so an
    /// element's (`path / k`) costs nothing while the numbers are good.
    func number(_ value: JSONValue, at path: @autoclosure () -> JSONPath, _ range: NumberRange = .any) throws(SceneError) -> Double? {
        guard let n = value.number else {
            try wrongType(value, at: path(), expected: range.expectation)
            return nil
        }
        guard range.contains(n) else {
            try report(.outOfRange, value, at: path(), "expected \(range.expectation), found \(JSONWriter.number(n))")
            return nil
        }
        return n
    }

    /// A whole number no smaller than `minimum`.
    func integer(_ value: JSONValue, at path: JSONPath, minimum: Int) throws(SceneError) -> Int? {
        let what = minimum == 0 ? "a whole number ≥ 0" : "a whole number ≥ \(minimum)"
        guard let n = value.number else {
            try wrongType(value, at: path, expected: what)
            return nil
        }
        guard n == n.rounded(), abs(n) < 1e15 else {
            try report(.wrongType, value, at: path, "expected \(what), found \(JSONWriter.number(n))")
            return nil
        }
        guard n >= Double(minimum) else {
            try report(.outOfRange, value, at: path, "expected \(what), found \(JSONWriter.number(n))")
            return nil
        }
        return Int(n)
    }

    func bool(_ value: JSONValue, at path: JSONPath) throws(SceneError) -> Bool? {
        guard let b = value.bool else {
            try wrongType(value, at: path, expected: "true or false")
            return nil
        }
        return b
    }

    func string(_ value: JSONValue, at path: JSONPath) throws(SceneError) -> String? {
        guard let s = value.string else {
            try wrongType(value, at: path, expected: "a string")
            return nil
        }
        return s
    }

    /// One of a fixed set of names, such as a line cap.
    func name(_ value: JSONValue, at path: JSONPath, from names: [String]) throws(SceneError) -> String? {
        guard let s = value.string else {
            try wrongType(value, at: path, expected: "one of " + Self.list(names))
            return nil
        }
        guard names.contains(s) else {
            try report(.unknownName, value, at: path,
                       "unknown value \(JSONWriter.quoted(s)); expected one of \(Self.list(names))"
                        + Suggestion.didYouMean(s, in: names, asValue: true))
            return nil
        }
        return s
    }

    /// What `table` pairs with the name `value` holds: a name checked as
    /// `name(_:at:from:)` checks it, among the table's names.
    func named<T>(_ value: JSONValue, at path: JSONPath, from table: [(String, T)]) throws(SceneError) -> T? {
        guard let n = try name(value, at: path, from: table.map(\.0)) else { return nil }
        return table.first { $0.0 == n }?.1
    }

    /// `"a", "b" or "c"`.
    static func list(_ names: [String]) -> String {
        let quoted = names.map { JSONWriter.quoted($0) }
        guard quoted.count > 1 else { return quoted.first ?? "" }
        return quoted.dropLast().joined(separator: ", ") + " or " + quoted[quoted.count - 1]
    }

    /// An array, whatever it holds.
    func array(_ value: JSONValue, at path: JSONPath, of what: String) throws(SceneError) -> JSONArray? {
        guard let a = value.array else {
            try wrongType(value, at: path, expected: "an array of \(what)")
            return nil
        }
        return a
    }

    /// An object, whatever it holds.
    func object(_ value: JSONValue, at path: JSONPath, _ what: String) throws(SceneError) -> JSONObject? {
        guard let o = value.object else {
            try wrongType(value, at: path, expected: what)
            return nil
        }
        return o
    }

    /// Up to four numbers, exactly `count` of them, each in its range (the
    /// first range repeats when only one is given); nil, reporting nothing,
    /// when the value is anything else. The readers of points, rectangles,
    /// colours and transform steps try this first (no array is made) and
    /// fall back to `numbers(_:at:count:form:ranges:)`, which says what is
    /// wrong.
    func fewNumbers(_ value: JSONValue, count: Int, ranges: [NumberRange]? = nil) -> SIMD4<Double>? {
        guard let out = value.smallNumberArray(count: count) else { return nil }
        if let ranges {
            for k in 0..<count where !ranges[ranges.count == 1 ? 0 : k].contains(out[k]) { return nil }
        }
        return out
    }

    /// Exactly `count` numbers, such as `[x, y]`; `form` names them for the
    /// message. Each number is checked against its range.
    func numbers(
        _ value: JSONValue, at path: JSONPath, count: Int, form: String, ranges: [NumberRange]? = nil
    ) throws(SceneError) -> [CGFloat]? {
        guard let a = value.array else {
            try wrongType(value, at: path, expected: "\(form) (\(count) numbers)")
            return nil
        }
        guard a.count == count else {
            try report(.wrongType, value, at: path,
                       "expected \(form) (\(count) numbers), found an array of \(a.count)")
            return nil
        }
        var out: [CGFloat] = []
        out.reserveCapacity(count)
        for (k, element) in a.enumerated() {
            guard let n = try number(element, at: path / k, ranges?[k] ?? .any) else { return nil }
            out.append(CGFloat(n))
        }
        return out
    }

    /// Any number of numbers, each in `range`.
    func numberList(_ value: JSONValue, at path: JSONPath, _ range: NumberRange = .any) throws(SceneError) -> [CGFloat]? {
        guard let a = try array(value, at: path, of: "numbers") else { return nil }
        var out: [CGFloat] = []
        out.reserveCapacity(a.count)
        var ok = true
        for (k, element) in a.enumerated() {
            if let n = try number(element, at: path / k, range) { out.append(CGFloat(n)) } else { ok = false }
        }
        return ok ? out : nil
    }
}
