/// A strict JSON reader (RFC 8259) that keeps the source position of every
/// value, which Foundation's `JSONSerialization` does not.
///
/// It refuses what JSON refuses (NaN and Infinity, trailing commas, comments,
/// single quotes, unescaped control characters, lone surrogates, invalid
/// UTF-8) plus what a scene must not have: duplicate keys, numbers that
/// overflow a double, anything after the document, and nesting deeper than a
/// limit. It does not recurse, so hostile nesting cannot exhaust the stack.
/// Every refusal is a `SceneError` with the JSON location and the line and
/// column.
struct JSONParser {
    private let bytes: [UInt8]
    private let maxNesting: Int
    private var i = 0

    // Line and column bookkeeping. Lines only end in whitespace (JSON strings
    // cannot hold a raw newline); columns are counted lazily, from the last
    // place one was asked for, so a document on one long line stays linear.
    private var line = 1
    private var columnIndex = 0
    private var column = 1
    private var lineStart = 0

    /// One array or object being read: a value on the parser's own stack
    /// (not an object of its own), so reading into it is a plain write.
    private struct Frame {
        var isObject: Bool
        var start: SourcePosition
        var elements: [JSONValue] = []
        var object = JSONObject()
        /// The key whose value is being read; nil while a key is read.
        var key: String?
        var keyPosition = SourcePosition(line: 0, column: 0)

        init(isObject: Bool, start: SourcePosition) {
            self.isObject = isObject
            self.start = start
        }

        /// Its value.
        consuming func take() -> JSONValue {
            isObject ? JSONValue(.object(object), at: start) : JSONValue(.array(elements), at: start)
        }
    }

    private var stack: [Frame] = []

    /// Parses one JSON document. `maxNesting` is how many arrays and objects
    /// may be open at once.
    static func parse(_ bytes: [UInt8], maxNesting: Int = 512) throws(SceneError) -> JSONValue {
        var parser = JSONParser(bytes: bytes, maxNesting: maxNesting)
        return try parser.parseDocument()
    }

    private init(bytes: [UInt8], maxNesting: Int) {
        self.bytes = bytes
        self.maxNesting = max(1, maxNesting)
    }

    // MARK: - The document

    private mutating func parseDocument() throws(SceneError) -> JSONValue {
        // A UTF-8 byte order mark is allowed and ignored (RFC 8259, 8.1).
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            i = 3; columnIndex = 3; lineStart = 3
        }
        skipWhitespace()
        guard i < bytes.count else { throw error("the document is empty; expected a JSON object") }

        while true {
            guard var completed = try parseScalarOrOpen() else { continue }  // opened a container
            // Attach the finished value to its parents, closing every
            // container that ends right after it.
            while true {
                guard !stack.isEmpty else {
                    skipWhitespace()
                    if i < bytes.count {
                        throw error("unexpected \(describeByte(at: i)) after the end of the document")
                    }
                    return completed
                }
                let top = stack.count - 1
                let isObject = stack[top].isObject
                if isObject {
                    stack[top].object.appendNew(JSONMember(key: stack[top].key ?? "", keyPosition: stack[top].keyPosition, value: completed))
                } else {
                    // Most arrays of a scene are short (points, colours, path operations).
                    if stack[top].elements.isEmpty { stack[top].elements.reserveCapacity(4) }
                    stack[top].elements.append(completed)
                }
                skipWhitespace()
                guard i < bytes.count else {
                    throw error("the document ends inside \(isObject ? "an object" : "an array") opened at \(stack[top].start)")
                }
                let c = bytes[i]
                if c == UInt8(ascii: ",") {
                    i += 1
                    skipWhitespace()
                    if isObject {
                        try readKey(afterComma: true)
                    } else if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
                        throw error("a trailing comma is not allowed in JSON")
                    }
                    break
                }
                let closer = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                guard c == closer else {
                    let expected = isObject ? "',' or '}' after a member" : "',' or ']' after an element"
                    throw error("expected \(expected), found \(describeByte(at: i))")
                }
                i += 1
                completed = stack.removeLast().take()
            }
        }
    }

    /// Reads a value at the current place. A scalar, or an empty array or
    /// object, is returned; a non-empty container is pushed on the stack
    /// (with its first key read, for an object) and nil returned.
    private mutating func parseScalarOrOpen() throws(SceneError) -> JSONValue? {
        skipWhitespace()
        guard i < bytes.count else { throw error("the document ends where a value was expected") }
        let start = position(at: i)
        switch bytes[i] {
        case UInt8(ascii: "{"):
            try checkNesting(at: start)
            i += 1
            skipWhitespace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
                i += 1
                return JSONValue(.object(JSONObject()), at: start)
            }
            try open(isObject: true, at: start)
            try readKey(afterComma: false)
            return nil
        case UInt8(ascii: "["):
            try checkNesting(at: start)
            i += 1
            skipWhitespace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
                i += 1
                return JSONValue(.array([]), at: start)
            }
            try open(isObject: false, at: start)
            return nil
        case UInt8(ascii: "\""):
            return JSONValue(.string(try readString()), at: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONValue(.number(try readNumber()), at: start)
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return JSONValue(.bool(true), at: start)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return JSONValue(.bool(false), at: start)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return JSONValue(.null, at: start)
        case UInt8(ascii: "N") where hasPrefix("NaN"), UInt8(ascii: "I") where hasPrefix("Infinity"):
            throw error(.nonFinite, "NaN and Infinity are not JSON numbers; every number must be finite")
        case UInt8(ascii: "."):
            throw error("a number needs a digit before the decimal point")
        case UInt8(ascii: "]"), UInt8(ascii: "}"):
            throw error("expected a value, found \(describeByte(at: i))")
        default:
            throw error("expected a value, found \(describeByte(at: i))")
        }
    }

    /// Refuses an array or object that would nest deeper than the limit
    /// (empty ones count too).
    private func checkNesting(at start: SourcePosition) throws(SceneError) {
        guard stack.count < maxNesting else {
            throw SceneError(
                .limitExceeded, at: currentPath.description, position: start,
                "arrays and objects nest more than \(maxNesting) levels deep (the limit)")
        }
    }

    private mutating func open(isObject: Bool, at start: SourcePosition) throws(SceneError) {
        stack.append(Frame(isObject: isObject, start: start))
    }

    /// Reads `"key" :` into the innermost frame, refusing a key the object already has.
    private mutating func readKey(afterComma: Bool) throws(SceneError) {
        let frame = stack.count - 1
        stack[frame].key = nil
        guard i < bytes.count else { throw error("the document ends where a key was expected") }
        guard bytes[i] == UInt8(ascii: "\"") else {
            if afterComma, bytes[i] == UInt8(ascii: "}") {
                throw error("a trailing comma is not allowed in JSON")
            }
            throw error("expected a key in double quotes, found \(describeByte(at: i))")
        }
        let keyPosition = position(at: i)
        let key = try readString()
        if let earlier = stack[frame].object.member(key) {
            stack[frame].key = key
            throw SceneError(
                .duplicateKey, at: currentPath.description, position: keyPosition,
                "duplicate key '\(key)' (first given at \(earlier.keyPosition))")
        }
        stack[frame].key = key
        stack[frame].keyPosition = keyPosition
        skipWhitespace()
        guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else {
            throw error("expected ':' after the key '\(key)', found \(describeByte(at: i))")
        }
        i += 1
    }

    // MARK: - Scalars

    private mutating func expectLiteral(_ word: StaticString) throws(SceneError) {
        let start = i
        let ok = word.withUTF8Buffer { w in
            i + w.count <= bytes.count && bytes[i..<(i + w.count)].elementsEqual(w)
        }
        guard ok else {
            throw error("expected a value, found \(describeWord(at: start))")
        }
        i += word.utf8CodeUnitCount
    }

    private func hasPrefix(_ word: String) -> Bool {
        let w = Array(word.utf8)
        return i + w.count <= bytes.count && bytes[i..<(i + w.count)].elementsEqual(w)
    }

    /// Reads a number by JSON's grammar and converts it; numbers too large
    /// for a double are refused, not turned into infinity.
    private mutating func readNumber() throws(SceneError) -> Double {
        let start = i
        let negative = bytes[i] == UInt8(ascii: "-")
        if negative {
            i += 1
            if hasPrefix("Infinity") {
                throw error(.nonFinite, "-Infinity is not a JSON number; every number must be finite", at: start)
            }
        }
        guard i < bytes.count, isDigit(bytes[i]) else {
            throw error("expected a digit, found \(describeByte(at: i))")
        }
        if bytes[i] == UInt8(ascii: "0"), i + 1 < bytes.count, isDigit(bytes[i + 1]) {
            throw error("a number may not start with a leading zero")
        }
        // The digits as an integer (exact while there are at most 19) and a power of
        // ten, for the fast path below.
        var mantissa: UInt64 = 0, digits = 0, scale = 0
        while i < bytes.count, isDigit(bytes[i]) {
            mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- UInt8(ascii: "0"))
            digits += 1
            i += 1
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard i < bytes.count, isDigit(bytes[i]) else {
                throw error("expected a digit after the decimal point, found \(describeByte(at: i))")
            }
            while i < bytes.count, isDigit(bytes[i]) {
                mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- UInt8(ascii: "0"))
                digits += 1
                scale -= 1
                i += 1
            }
        }
        var exponentIsSimple = true
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            var exponentNegative = false
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
                exponentNegative = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            guard i < bytes.count, isDigit(bytes[i]) else {
                throw error("expected a digit in the exponent, found \(describeByte(at: i))")
            }
            var exponent = 0
            while i < bytes.count, isDigit(bytes[i]) {
                if exponent < 10_000 { exponent = exponent * 10 + Int(bytes[i] &- UInt8(ascii: "0")) } else { exponentIsSimple = false }
                i += 1
            }
            scale += exponentNegative ? -exponent : exponent
        }
        // Most numbers convert here (`DecimalConversion`); the rest, by strtod.
        if exponentIsSimple, digits <= 19, let magnitude = DecimalConversion.double(digits: mantissa, scale: scale) {
            return negative ? -magnitude : magnitude
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw error(.nonFinite, "the number \(text.prefix(40)) is too large for a double", at: start)
        }
        return value
    }

    private func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }


    /// Reads a string starting at its opening quote, unescaping it and
    /// checking that it is valid UTF-8 without lone surrogates.
    private mutating func readString() throws(SceneError) -> String {
        let open = position(at: i)
        i += 1
        var out: [UInt8] = []
        while true {
            // Copy a run of plain ASCII in one go.
            let runStart = i
            while i < bytes.count {
                let b = bytes[i]
                if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b < 0x20 || b >= 0x80 { break }
                i += 1
            }
            // Most strings (keys, names, colours) are one plain run: made
            // from the document's bytes directly, without the copy.
            if out.isEmpty, i < bytes.count, bytes[i] == UInt8(ascii: "\"") {
                let string = String(decoding: bytes[runStart..<i], as: UTF8.self)
                i += 1
                return string
            }
            out.append(contentsOf: bytes[runStart..<i])
            guard i < bytes.count else {
                throw error("the document ends inside a string opened at \(open)")
            }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                i += 1
                return String(decoding: out, as: UTF8.self)
            } else if b == UInt8(ascii: "\\") {
                try readEscape(into: &out)
            } else if b < 0x20 {
                let hint = b == 0x0A ? " (is the string missing its closing quote?)" : ""
                throw error("a control character (U+\(hex4(UInt32(b)))) must be escaped in a string\(hint)")
            } else {
                let length = utf8SequenceLength(at: i)
                guard length > 0 else { throw error("the text is not valid UTF-8 here") }
                out.append(contentsOf: bytes[i..<(i + length)])
                i += length
            }
        }
    }

    private mutating func readEscape(into out: inout [UInt8]) throws(SceneError) {
        i += 1
        guard i < bytes.count else { throw error("the document ends inside an escape sequence") }
        let c = bytes[i]
        i += 1
        switch c {
        case UInt8(ascii: "\""): out.append(0x22)
        case UInt8(ascii: "\\"): out.append(0x5C)
        case UInt8(ascii: "/"): out.append(0x2F)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try readHex4()
            if (0xD800...0xDBFF).contains(scalar) {
                guard hasPrefix("\\u") else {
                    throw error("a lone surrogate \\u\(hex4(scalar)) is not a character", at: i - 6)
                }
                i += 2
                let low = try readHex4()
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error("a lone surrogate \\u\(hex4(scalar)) is not a character", at: i - 12)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw error("a lone surrogate \\u\(hex4(scalar)) is not a character", at: i - 6)
            }
            guard let s = Unicode.Scalar(scalar) else { throw error("\\u escape is not a character") }
            out.append(contentsOf: Array(String(Character(s)).utf8))
        default:
            throw error("unknown escape sequence \\\(describeRawByte(c)) in a string", at: i - 2)
        }
    }

    private mutating func readHex4() throws(SceneError) -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard i < bytes.count else { throw error("the document ends inside a \\u escape") }
            let b = bytes[i]
            let d: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw error("expected four hex digits after \\u, found \(describeByte(at: i))")
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    /// The length of the well-formed UTF-8 sequence at `index`, or 0 if it
    /// is not well formed (Unicode, table 3-7).
    private func utf8SequenceLength(at index: Int) -> Int {
        let b0 = bytes[index]
        func byte(_ k: Int, in range: ClosedRange<UInt8>) -> Bool {
            index + k < bytes.count && range.contains(bytes[index + k])
        }
        let tail: ClosedRange<UInt8> = 0x80...0xBF
        switch b0 {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: return byte(1, in: tail) ? 2 : 0
        case 0xE0: return byte(1, in: 0xA0...0xBF) && byte(2, in: tail) ? 3 : 0
        case 0xE1...0xEC, 0xEE...0xEF: return byte(1, in: tail) && byte(2, in: tail) ? 3 : 0
        case 0xED: return byte(1, in: 0x80...0x9F) && byte(2, in: tail) ? 3 : 0
        case 0xF0: return byte(1, in: 0x90...0xBF) && byte(2, in: tail) && byte(3, in: tail) ? 4 : 0
        case 0xF1...0xF3: return byte(1, in: tail) && byte(2, in: tail) && byte(3, in: tail) ? 4 : 0
        case 0xF4: return byte(1, in: 0x80...0x8F) && byte(2, in: tail) && byte(3, in: tail) ? 4 : 0
        default: return 0
        }
    }

    // MARK: - Whitespace and positions

    private mutating func skipWhitespace() {
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                i += 1
            case UInt8(ascii: "\n"):
                i += 1
                line += 1
                lineStart = i
                columnIndex = i
                column = 1
            default:
                return
            }
        }
    }

    /// The line and column of byte `index` on the current line.
    private mutating func position(at index: Int) -> SourcePosition {
        if index < columnIndex {
            columnIndex = lineStart
            column = 1
        }
        // Every byte but a UTF-8 continuation byte (10xxxxxx) starts a
        // column: counted eight bytes at a time.
        let end = min(index, bytes.count)
        var columns = column
        bytes.withUnsafeBytes { raw in
            var k = columnIndex
            while k + 8 <= end {
                let word = raw.loadUnaligned(fromByteOffset: k, as: UInt64.self)
                let continuation = word & ~(word << 1) & 0x8080_8080_8080_8080
                columns += 8 - continuation.nonzeroBitCount
                k += 8
            }
            while k < end {
                if raw[k] & 0xC0 != 0x80 { columns += 1 }
                k += 1
            }
        }
        column = columns
        columnIndex = index
        return SourcePosition(line: line, column: column)
    }

    // MARK: - Errors

    /// The location of the value being read, from the open containers.
    private var currentPath: JSONPath {
        var path = JSONPath.root
        for frame in stack {
            if !frame.isObject {
                path = path / frame.elements.count
            } else if let key = frame.key {
                path = path / key
            }
        }
        return path
    }

    /// An error at byte `index` (the current byte if not given).
    private mutating func error(_ message: String, at index: Int? = nil) -> SceneError {
        error(.syntax, message, at: index)
    }

    private mutating func error(_ kind: SceneError.Kind, _ message: String, at index: Int? = nil) -> SceneError {
        let place = position(at: min(index ?? i, bytes.count))
        return SceneError(kind, at: currentPath.description, position: place, message)
    }

    private func describeByte(at index: Int) -> String {
        guard index < bytes.count else { return "the end of the document" }
        let b = bytes[index]
        if b >= 0x80 {
            let length = utf8SequenceLength(at: index)
            if length > 0 {
                return "'" + String(decoding: bytes[index..<(index + length)], as: UTF8.self) + "'"
            }
            return "a byte that is not UTF-8 (0x\(String(b, radix: 16, uppercase: true)))"
        }
        return describeRawByte(b)
    }

    private func describeRawByte(_ b: UInt8) -> String {
        if b < 0x20 || b == 0x7F { return "U+\(hex4(UInt32(b)))" }
        return "'\(Character(Unicode.Scalar(b)))'"
    }

    /// The bare word at `index` (for `tru`, `None`, `undefined`).
    private func describeWord(at index: Int) -> String {
        var end = index
        while end < bytes.count, end - index < 20,
              (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[end])
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(bytes[end]) {
            end += 1
        }
        guard end > index else { return describeByte(at: index) }
        return "'" + String(decoding: bytes[index..<end], as: UTF8.self) + "'"
    }

    private func hex4(_ v: UInt32) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
}
