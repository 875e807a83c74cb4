/// A `Content-Type` header's value as RFC 9110 (section 8.3.1) writes it:
/// `type "/" subtype *( OWS ";" OWS [ name "=" ( token / quoted-string ) ] )`,
/// the type, subtype and parameter names compared without case.
/// (Hummingbird's `MediaType` keeps one parameter and reads leniently.)
///
/// A header that does not parse (empty, `;`, no subtype, a stray character)
/// is nil, so a route answers 415 instead of guessing.
///
/// ```swift
/// let type = ContentType("Application/JSON; charset=\"utf-8\"")
/// type?.essence                 // "application/json"
/// type?.parameters["charset"]   // "utf-8"
/// ContentType(";") == nil         // true
/// ```
struct ContentType: Sendable, Hashable {
    /// The type, lowercased (`application`).
    var type: String
    /// The subtype, lowercased (`json`).
    var subtype: String
    /// The parameters by lowercased name; a quoted value without its quotes and escapes.
    var parameters: [String: String]

    /// `type/subtype`, lowercased.
    var essence: String { "\(type)/\(subtype)" }

    init?(_ text: String) {
        var scanner = Scanner(Array(text.utf8))
        scanner.skipWhitespace()
        guard let type = scanner.token(), scanner.take(UInt8(ascii: "/")), let subtype = scanner.token() else { return nil }
        var parameters: [String: String] = [:]
        while true {
            scanner.skipWhitespace()
            if scanner.atEnd { break }
            guard scanner.take(UInt8(ascii: ";")) else { return nil }
            scanner.skipWhitespace()
            // `;` with nothing after it is allowed (an empty parameter).
            if scanner.atEnd || scanner.peek == UInt8(ascii: ";") { continue }
            guard let name = scanner.token(), scanner.take(UInt8(ascii: "=")),
                  let value = scanner.peek == UInt8(ascii: "\"") ? scanner.quotedString() : scanner.token()
            else { return nil }
            // The first of a repeated parameter counts.
            let key = name.lowercased()
            if parameters[key] == nil { parameters[key] = value }
        }
        self.type = type.lowercased()
        self.subtype = subtype.lowercased()
        self.parameters = parameters
    }

    private struct Scanner {
        let bytes: [UInt8]
        var i = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { i >= bytes.count }
        var peek: UInt8? { atEnd ? nil : bytes[i] }

        mutating func take(_ b: UInt8) -> Bool {
            guard peek == b else { return false }
            i += 1
            return true
        }

        mutating func skipWhitespace() {
            while let b = peek, b == 0x20 || b == 0x09 { i += 1 }
        }

        /// `1*tchar`.
        mutating func token() -> String? {
            let start = i
            while let b = peek, Self.isTokenByte(b) { i += 1 }
            return i > start ? String(decoding: bytes[start..<i], as: UTF8.self) : nil
        }

        /// `DQUOTE *( qdtext / quoted-pair ) DQUOTE`, unescaped.
        mutating func quotedString() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            var out: [UInt8] = []
            while let b = peek {
                i += 1
                switch b {
                case UInt8(ascii: "\""):
                    return String(decoding: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard let escaped = peek, escaped == 0x09 || (0x20...0x7E).contains(escaped) || escaped >= 0x80 else { return nil }
                    out.append(escaped)
                    i += 1
                case 0x09, 0x20...0x7E, 0x80...0xFF:
                    out.append(b)
                default:
                    return nil
                }
            }
            return nil
        }

        static func isTokenByte(_ b: UInt8) -> Bool {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return true
            default:
                return "!#$%&'*+-.^_`|~".utf8.contains(b)
            }
        }
    }
}
