import Foundation
import LaminaJSON

// Colours: "#rgb", "#rrggbb", "#rrggbbaa", [r, g, b], [r, g, b, a] with
// components 0...1, or "clear".
extension DecodingContext {
    /// Every component of a colour is from 0 to 1.
    static let unitRange: [NumberRange] = [.unit]

    func color(_ value: JSONValue, at path: JSONPath) throws(SceneError) -> CGColor? {
        // The common forms, read without making a string or an array.
        if let color = ColorValue.hex(value) { return color }
        if let a = value.array, a.count == 3 || a.count == 4, let c = fewNumbers(value, count: a.count, ranges: Self.unitRange) {
            return CGColor(red: c[0], green: c[1], blue: c[2], alpha: a.count == 4 ? c[3] : 1)
        }
        switch value.kind {
        case .string(let s):
            if s == "clear" { return CGColor.clear }
            guard let color = ColorValue.hex(s) else {
                let hint = s.hasPrefix("#") ? "" : Suggestion.didYouMean(s, in: ["clear"], asValue: true)
                try report(.invalidValue, value, at: path,
                           "\(JSONWriter.quoted(String(s.prefix(40)))) is not a colour; expected \"#rgb\", \"#rrggbb\", "
                            + "\"#rrggbbaa\", \"clear\" or [r, g, b(, a)]" + hint)
                return nil
            }
            return color
        case .array(let a):
            guard a.count == 3 || a.count == 4 else {
                try report(.wrongType, value, at: path,
                           "expected a colour [r, g, b] or [r, g, b, a], found an array of \(a.count)")
                return nil
            }
            guard let c = try numbers(
                value, at: path, count: a.count, form: a.count == 3 ? "[r, g, b]" : "[r, g, b, a]",
                ranges: Array(repeating: .unit, count: a.count))
            else { return nil }
            return CGColor(red: c[0], green: c[1], blue: c[2], alpha: c.count == 4 ? c[3] : 1)
        default:
            try wrongType(value, at: path, expected: "a colour (\"#rrggbb\", [r, g, b] or \"clear\")")
            return nil
        }
    }

    /// A colour or `null` (no colour), for `fillColor` and `strokeColor`.
    func optionalColor(_ value: JSONValue, at path: JSONPath) throws(SceneError) -> CGColor?? {
        if value.isNull { return .some(nil) }
        guard let c = try color(value, at: path) else { return nil }
        return .some(c)
    }
}

/// The JSON forms of colours.
package enum ColorValue {
    /// A colour in any of the format's forms, read without checks (for
    /// writers of other formats, which take what the encoder wrote); nil
    /// for anything else.
    package static func decode(_ value: JSONValue) -> CGColor? {
        if value.string == "clear" { return CGColor.clear }
        if let color = hex(value) { return color }
        guard let items = value.array, items.count == 3 || items.count == 4 else { return nil }
        let c = items.compactMap(\.number)
        guard c.count == items.count else { return nil }
        return CGColor(red: c[0], green: c[1], blue: c[2], alpha: c.count == 4 ? c[3] : 1)
    }

    /// Parses `#rgb`, `#rrggbb` and `#rrggbbaa` (either case).
    static func hex(_ s: String) -> CGColor? {
        var s = s
        return s.withUTF8(hex(bytes:))
    }

    /// A string value in a hex form; nil for anything else (`"clear"` included).
    static func hex(_ value: JSONValue) -> CGColor? {
        value.withStringBytes(hex(bytes:)) ?? nil
    }

    /// Parses the UTF-8 bytes of `#rgb`, `#rrggbb` or `#rrggbbaa`.
    private static func hex(bytes: UnsafeBufferPointer<UInt8>) -> CGColor? {
        let digits = bytes.count - 1
        guard bytes.first == UInt8(ascii: "#"), digits == 3 || digits == 6 || digits == 8 else { return nil }
        func digit(_ d: UInt8) -> Int? {
            switch d {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(d - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(d - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(d - UInt8(ascii: "A")) + 10
            default: nil
            }
        }
        // Each component's byte value: one digit repeated, or two digits.
        var c = SIMD4<Double>(0, 0, 0, 255)
        let width = digits == 3 ? 1 : 2
        for k in 0..<(digits / width) {
            guard let high = digit(bytes[1 + k * width]) else { return nil }
            guard let low = width == 1 ? high : digit(bytes[2 + k * width]) else { return nil }
            c[k] = Double(high * 16 + low)
        }
        return CGColor(red: c[0] / 255, green: c[1] / 255, blue: c[2] / 255, alpha: c[3] / 255)
    }

    /// The canonical form: `"clear"` for transparent black, `"#rrggbb"` or
    /// `"#rrggbbaa"` when every component is a whole number of 255ths (so
    /// that it reads back exactly), `[r, g, b(, a)]` otherwise.
    static func encode(_ color: CGColor) -> JSONValue {
        let c = [color.red, color.green, color.blue, color.alpha]
        if c == [0, 0, 0, 0] { return .string("clear") }
        let bytes = c.map { ($0 * 255).rounded() }
        if zip(bytes, c).allSatisfy({ $0 / 255 == $1 }) {
            let shown = color.alpha == 1 ? bytes.dropLast() : bytes[...]
            return .string("#" + shown.map { hexByte(Int($0)) }.joined())
        }
        return .numbers(color.alpha == 1 ? Array(c.dropLast()) : c)
    }

    /// The RGBA bytes a test image made from this colour holds (as the
    /// reference renderer rounds them).
    static func bytes(_ color: CGColor) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        func byte(_ v: CGFloat) -> UInt8 { UInt8(max(0, min(255, (v * 255).rounded()))) }
        return (byte(color.red), byte(color.green), byte(color.blue), byte(color.alpha))
    }

    private static func hexByte(_ v: Int) -> String {
        let s = String(v, radix: 16)
        return s.count == 1 ? "0" + s : s
    }
}
