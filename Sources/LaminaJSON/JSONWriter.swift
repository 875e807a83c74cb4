/// Writes `JSONValue`s as canonical text: object members in the order they
/// were given, numbers in the shortest form that reads back to the same
/// double, integers without a fraction. The same value always gives the same
/// bytes.
package struct JSONWriter {
    package init(prettyPrinted: Bool = true) { self.prettyPrinted = prettyPrinted }

    /// Indent nested objects and arrays by two spaces and put an array of
    /// scalars (a point, a matrix, a path operation) on one line; when false,
    /// write without any whitespace.
    package var prettyPrinted = true

    package func write(_ value: JSONValue) -> String {
        var out = ""
        append(value, indent: 0, to: &out)
        if prettyPrinted { out += "\n" }
        return out
    }

    private func append(_ value: JSONValue, indent: Int, to out: inout String) {
        switch value.kind {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += Self.number(n)
        case .string(let s): out += Self.quoted(s)
        case .array(let elements):
            if elements.isEmpty {
                out += "[]"
            } else if !prettyPrinted || elements.allSatisfy(\.isScalar) {
                out += "["
                for (k, e) in elements.enumerated() {
                    if k > 0 { out += prettyPrinted ? ", " : "," }
                    append(e, indent: indent, to: &out)
                }
                out += "]"
            } else {
                out += "[\n"
                for (k, e) in elements.enumerated() {
                    if k > 0 { out += ",\n" }
                    out += String(repeating: " ", count: indent + 2)
                    append(e, indent: indent + 2, to: &out)
                }
                out += "\n" + String(repeating: " ", count: indent) + "]"
            }
        case .object(let object):
            if object.isEmpty {
                out += "{}"
            } else if !prettyPrinted {
                out += "{"
                for (k, m) in object.members.enumerated() {
                    if k > 0 { out += "," }
                    out += Self.quoted(m.key) + ":"
                    append(m.value, indent: indent, to: &out)
                }
                out += "}"
            } else {
                out += "{\n"
                for (k, m) in object.members.enumerated() {
                    if k > 0 { out += ",\n" }
                    out += String(repeating: " ", count: indent + 2) + Self.quoted(m.key) + ": "
                    append(m.value, indent: indent + 2, to: &out)
                }
                out += "\n" + String(repeating: " ", count: indent) + "}"
            }
        }
    }

    /// A finite double in the shortest text that reads back to it: `3`,
    /// `0.5`, `1e-05`. (Non-finite numbers never reach the writer; the
    /// encoder refuses them.)
    package static func number(_ n: Double) -> String {
        if n == n.rounded(), abs(n) < 9_007_199_254_740_992 {
            return String(Int64(n))
        }
        return "\(n)"
    }

    /// A string in double quotes with JSON's escapes.
    package static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case let c where c.value < 0x20 || c.value == 0x7F:
                let h = String(c.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - h.count) + h
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

extension JSONValue {
    /// Not an array or an object.
    package var isScalar: Bool {
        switch kind {
        case .array, .object: false
        default: true
        }
    }
}
