import Foundation

/// A strict JSON reader (RFC 8259) that keeps the source position of every
/// value, which Foundation's `JSONSerialization` does not.
///
/// It refuses what JSON refuses (NaN and Infinity, trailing commas, comments,
/// single quotes, unescaped control characters, lone surrogates, invalid
/// UTF-8) plus what a scene must not have: duplicate keys, numbers that
/// overflow a double, anything after the document, and nesting deeper than a
/// limit. It does not recurse, so hostile nesting cannot exhaust the stack.
/// Every refusal is a `JSONError` with the JSON location and the line and
/// column.
package struct JSONParser: ~Copyable {
    /// The document's bytes, which the parsed document keeps.
    private let source: [UInt8]
    /// The same bytes, read without an array's checks on every byte (the
    /// parser checks `i < bytes.count` itself).
    private let bytes: UnsafeBufferPointer<UInt8>
    private let maxNesting: Int
    private var i = 0
    /// Asked every `checkpointStride` bytes of progress whether to go on:
    /// what it throws stops the read (a request's deadline, say).
    private let checkpoint: Checkpoint?
    private var nextDeadlineCheck = 0
    private static let checkpointStride = 64 << 10

    /// See `parse(_:maxNesting:checkpoint:)`.
    package typealias Checkpoint = () throws(any Error & Sendable) -> Void

    // The document being written (see `JSONDocument`), in buffers that
    // append without an array's bookkeeping (`GrowableBuffer`).
    private var nodes: GrowableBuffer<JSONDocument.Node>
    private var children: GrowableBuffer<UInt32>
    /// Unescaped strings, stored after the source bytes.
    private var unescaped: [UInt8] = []
    /// The byte where each line starts. Lines only end in whitespace (JSON
    /// strings cannot hold a raw newline), so they are noted there.
    private var lineStarts: [UInt32] = [0]

    /// One array or object being read.
    private struct Frame {
        var isObject: Bool
        /// Its node, whose payload is written when it closes.
        var node: Int
        /// Where its children's node numbers start in `pending`.
        var firstPending: Int
        /// The key whose value is being read (-1 while a key is read).
        var keyNode = -1
    }

    /// The innermost open container, kept out of `outer` so that reading
    /// into it is a plain write to the parser's own fields.
    private var top = Frame(isObject: false, node: 0, firstPending: 0)
    /// The containers around `top`, outermost first.
    private var outer = GrowableBuffer<Frame>(capacity: 16)
    /// How many containers are open (`top` and `outer`).
    private var depth = 0
    /// The keys of large open objects by text, by the objects' nodes: an
    /// object with more than `indexedKeyCount` keys checks duplicates by
    /// hashing, so a hostile object stays linear.
    private var keyIndexes: [Int: [String: Int]] = [:]
    /// The node numbers of the open containers' children so far, innermost
    /// last: copied to `children` in one piece when a container closes.
    private var pending = GrowableBuffer<UInt32>(capacity: 64)

    /// Objects with more keys than this check duplicates by hashing.
    private static let indexedKeyCount = 16

    /// `{}`: for readers that treat an absent object as an empty one.
    package static let emptyObject: JSONObject = {
        // A constant document: it always parses.
        guard let object = (try? parse(Array("{}".utf8)))?.object else { preconditionFailure("{} is JSON") }
        return object
    }()

    /// Parses one JSON document. `maxNesting` is how many arrays and objects
    /// may be open at once; `checkpoint` is called every 64 KiB of progress,
    /// and an error it throws stops the read with an `interrupted` error at
    /// the place it had reached.
    ///
    /// ```swift
    /// let value = try JSONParser.parse(Array(#"{"width": 200}"#.utf8))
    /// value.object?["width"]?.number   // 200
    /// ```
    package static func parse(_ bytes: [UInt8], maxNesting: Int = 512, checkpoint: Checkpoint? = nil) throws(JSONError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONError) -> JSONValue in
            let parser = JSONParser(source: bytes, bytes: buffer, maxNesting: maxNesting, checkpoint: checkpoint)
            return try parser.parseDocument()
        }
    }

    private init(source: [UInt8], bytes: UnsafeBufferPointer<UInt8>, maxNesting: Int, checkpoint: Checkpoint?) {
        self.source = source
        self.bytes = bytes
        self.maxNesting = max(1, maxNesting)
        self.checkpoint = checkpoint
        nextDeadlineCheck = checkpoint == nil ? Int.max : 0
        // A scene has about one value per eight or nine bytes: room for
        // more, so that the buffers rarely grow.
        nodes = GrowableBuffer(capacity: bytes.count / 5 + 16)
        children = GrowableBuffer(capacity: bytes.count / 6 + 16)
    }

    // MARK: - The document

    private consuming func parseDocument() throws(JSONError) -> JSONValue {
        guard bytes.count < Int(UInt32.max) else {
            throw JSONError(.limitExceeded, at: "$", "the document has \(bytes.count) bytes; at most 4 GiB can be read")
        }
        // A UTF-8 byte order mark is allowed and ignored (RFC 8259, 8.1).
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            i = 3
            lineStarts = [3]
        }
        skipWhitespace()
        guard i < bytes.count else { throw error("the document is empty; expected a JSON object") }

        while true {
            if i >= nextDeadlineCheck { try checkDeadline() }
            guard var completed = try parseScalarOrOpen() else { continue }  // opened a container
            // Attach the finished value to its parent, closing every
            // container that ends right after it.
            while true {
                guard depth > 0 else {
                    skipWhitespace()
                    if i < bytes.count {
                        throw error("unexpected \(describeByte(at: i)) after the end of the document")
                    }
                    return finish()
                }
                let isObject = top.isObject
                // An object lists its keys: each key's node is the one
                // before its value's.
                pending.append(UInt32(truncatingIfNeeded: isObject ? completed - 1 : completed))
                skipWhitespace()
                guard i < bytes.count else { throw endInsideContainer() }
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
                guard c == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { throw missingSeparator() }
                i += 1
                completed = close()
            }
        }
    }

    /// The finished document's root.
    private consuming func finish() -> JSONValue {
        let text = unescaped.isEmpty ? source : source + unescaped
        let document = JSONDocument(taking: nodes.take(), children: children.take(), text: text,
                                    lineStarts: lineStarts, positions: nil)
        return JSONValue(document: document, index: 0)
    }

    /// Closes the innermost container: its children's node numbers move to
    /// `children`, and its node learns where they are.
    @inline(__always)
    private mutating func close() -> Int {
        let frame = top
        depth -= 1
        if depth > 0 { top = outer.removeLast() }
        if !keyIndexes.isEmpty { keyIndexes[frame.node] = nil }
        let count = pending.count - frame.firstPending
        let start = children.count
        children.append(from: pending, frame.firstPending..<pending.count)
        // Keeps the storage: the next container writes over it.
        pending.removeAll(from: frame.firstPending)
        nodes[frame.node].payload = JSONDocument.Node.span(start: start, count: count)
        return frame.node
    }

    @inline(__always)
    private mutating func open(_ frame: Frame) {
        if depth > 0 { outer.append(top) }
        top = frame
        depth += 1
    }

    @inline(__always)
    private mutating func append(_ node: JSONDocument.Node) -> Int {
        nodes.append(node)
        return nodes.count - 1
    }

    /// Reads a value at the current place. A scalar, or an empty array or
    /// object, is written and its node returned; a non-empty container is
    /// written and opened (with its first key read, for an object) and nil
    /// returned.
    private mutating func parseScalarOrOpen() throws(JSONError) -> Int? {
        skipWhitespace()
        guard i < bytes.count else { throw error("the document ends where a value was expected") }
        let offset = UInt32(truncatingIfNeeded: i)
        switch bytes[i] {
        case UInt8(ascii: "{"):
            try checkNesting()
            i += 1
            skipWhitespace()
            let node = append(JSONDocument.Node(.object, offset: offset))
            if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
                i += 1
                return node
            }
            open(Frame(isObject: true, node: node, firstPending: pending.count))
            try readKey(afterComma: false)
            return nil
        case UInt8(ascii: "["):
            try checkNesting()
            i += 1
            skipWhitespace()
            let node = append(JSONDocument.Node(.array, offset: offset))
            if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
                i += 1
                return node
            }
            open(Frame(isObject: false, node: node, firstPending: pending.count))
            return try readNumberElements()
        case UInt8(ascii: "\""):
            return try readString()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let n: Double
            if let short = readShortNumber() { n = short } else { n = try readNumber() }
            return append(JSONDocument.Node(.number, offset: offset, payload: n.bitPattern))
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return append(JSONDocument.Node(.true, offset: offset))
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return append(JSONDocument.Node(.false, offset: offset))
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return append(JSONDocument.Node(.null, offset: offset))
        default:
            throw notAValue()
        }
    }

    /// Reads the elements of the array just opened while they are numbers,
    /// the commonest array of a scene (rectangles, points, colours, paths),
    /// in one loop: the array's node if it closes, or nil at the first
    /// element that is not a number, for the general loop to go on from.
    /// Refuses what the general loop refuses, with the same messages.
    @inline(__always)
    private mutating func readNumberElements() throws(JSONError) -> Int? {
        while i < bytes.count {
            let c = bytes[i]
            guard c == UInt8(ascii: "-") || c &- UInt8(ascii: "0") <= 9 else { return nil }
            let offset = UInt32(truncatingIfNeeded: i)
            let n: Double
            if let short = readShortNumber() { n = short } else { n = try readNumber() }
            pending.append(UInt32(truncatingIfNeeded: append(JSONDocument.Node(.number, offset: offset, payload: n.bitPattern))))
            skipWhitespace()
            guard i < bytes.count else { throw endInsideContainer() }
            switch bytes[i] {
            case UInt8(ascii: ","):
                i += 1
                skipWhitespace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "]") { throw error("a trailing comma is not allowed in JSON") }
            case UInt8(ascii: "]"):
                i += 1
                return close()
            default:
                throw missingSeparator()
            }
        }
        return nil
    }

    /// Refuses an array or object that would nest deeper than the limit
    /// (empty ones count too). `mutating` though it changes nothing: called
    /// on a borrowed parser, the compiler copies the whole parser first.
    @inline(__always)
    private mutating func checkNesting() throws(JSONError) {
        guard depth < maxNesting else { throw nestingTooDeep() }
    }

    /// Reads `"key" :` into the innermost frame, refusing a key the object already has.
    @inline(__always)
    private mutating func readKey(afterComma: Bool) throws(JSONError) {
        top.keyNode = -1
        guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw notAKey(afterComma: afterComma) }
        let keyNode = try readString()
        top.keyNode = keyNode
        if let earlier = earlierKey(matching: keyNode) { throw duplicateKey(keyNode, earlier: earlier) }
        skipWhitespace()
        guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw missingColon(after: keyNode) }
        i += 1
    }

    /// The node of an earlier key of the innermost object with the same
    /// text as `keyNode`, if any.
    @inline(__always)
    private mutating func earlierKey(matching keyNode: Int) -> Int? {
        let first = top.firstPending
        let count = pending.count - first
        if count > Self.indexedKeyCount { return earlierKeyByHashing(matching: keyNode) }
        let key = nodes[keyNode]
        let length = key.count
        let source = bytes.baseAddress!
        for p in first..<pending.count {
            let k = Int(pending[p])
            let other = nodes[k]
            guard other.count == length else { continue }
            // Both keys in the source (the rule): their bytes there. A key
            // that had escapes (the exception) is compared as text.
            let same = key.start < bytes.count && other.start < bytes.count
                ? length == 0 || memcmp(source + key.start, source + other.start, length) == 0
                : string(at: keyNode) == string(at: k)
            if same { return k }
        }
        return nil
    }

    /// `earlierKey(matching:)` for an object with many keys.
    @inline(never)
    private mutating func earlierKeyByHashing(matching keyNode: Int) -> Int? {
        let first = top.firstPending
        if keyIndexes[top.node] == nil {
            var index: [String: Int] = [:]
            for p in first..<pending.count { index[string(at: Int(pending[p]))] = Int(pending[p]) }
            keyIndexes[top.node] = index
        }
        let key = string(at: keyNode)
        if let earlier = keyIndexes[top.node]?[key] { return earlier }
        keyIndexes[top.node]?[key] = keyNode
        return nil
    }

    private func string(at node: Int) -> String {
        let node = nodes[node]
        if node.start < bytes.count {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[node.start..<(node.start + node.count)]), as: UTF8.self)
        }
        let start = node.start - bytes.count
        return String(decoding: unescaped[start..<(start + node.count)], as: UTF8.self)
    }

    // MARK: - Scalars

    private mutating func expectLiteral(_ word: StaticString) throws(JSONError) {
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
    private mutating func readNumber() throws(JSONError) -> Double {
        let start = i
        let negative = bytes[i] == UInt8(ascii: "-")
        if negative {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "I"), hasPrefix("Infinity") {
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
        var end = readDigits(from: i, into: &mantissa)
        digits += end - i
        i = end
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard i < bytes.count, isDigit(bytes[i]) else {
                throw error("expected a digit after the decimal point, found \(describeByte(at: i))")
            }
            end = readDigits(from: i, into: &mantissa)
            digits += end - i
            scale -= end - i
            i = end
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

    /// Reads the numbers most scenes are made of, `-12`, `0.5` or `240`
    /// (at most 15 digits, no exponent), or returns nil having read nothing,
    /// for `readNumber()` to read and check by the whole grammar. Such a
    /// number is its digits over a power of ten, both exact doubles, so
    /// one division rounds it correctly.
    @inline(__always)
    private mutating func readShortNumber() -> Double? {
        let count = bytes.count
        var j = i
        let negative = bytes[j] == UInt8(ascii: "-")
        if negative { j += 1 }
        let integerStart = j
        var mantissa: UInt64 = 0
        j = readDigits(from: j, into: &mantissa)
        let integerDigits = j - integerStart
        // A leading zero is only allowed alone.
        guard integerDigits > 0, integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else { return nil }
        var fractionDigits = 0
        if j < count, bytes[j] == UInt8(ascii: ".") {
            let fractionStart = j + 1
            j = readDigits(from: fractionStart, into: &mantissa)
            fractionDigits = j - fractionStart
            guard fractionDigits > 0 else { return nil }
        }
        guard integerDigits + fractionDigits <= 15 else { return nil }
        if j < count, bytes[j] | 0x20 == UInt8(ascii: "e") { return nil }
        i = j
        var magnitude = Double(mantissa)
        if fractionDigits > 0 { magnitude /= DecimalConversion.powersOfTen[fractionDigits] }
        return negative ? -magnitude : magnitude
    }

    private func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    /// Reads the digits from byte `k` on into `mantissa` (exact for 19
    /// digits, wrapping after), returning where they end. The index is a
    /// local: the loop runs in registers.
    @inline(__always)
    private func readDigits(from k: Int, into mantissa: inout UInt64) -> Int {
        var j = k, m = mantissa
        let count = bytes.count
        while j < count {
            let d = bytes[j] &- UInt8(ascii: "0")
            if d > 9 { break }
            m = m &* 10 &+ UInt64(d)
            j += 1
        }
        mantissa = m
        return j
    }


    /// Reads a string starting at its opening quote, checking that it is
    /// valid UTF-8 without lone surrogates, and writes its node: a string
    /// without escapes points at the source bytes; one with escapes is
    /// unescaped after them (`readEscapedString`).
    private mutating func readString() throws(JSONError) -> Int {
        let open = i
        let count = bytes.count
        var j = i + 1
        while true {
            j = plainASCIIRun(from: j)
            i = j
            guard j < count else { throw unterminatedString(openedAt: open) }
            let b = bytes[j]
            if b == UInt8(ascii: "\"") {
                i = j + 1
                return append(JSONDocument.Node(.string, offset: UInt32(truncatingIfNeeded: open),
                                                start: open + 1, count: j - open - 1))
            }
            if b == UInt8(ascii: "\\") { return try readEscapedString(openedAt: open) }
            if b < 0x20 { throw controlCharacterInString(b) }
            let length = utf8SequenceLength(at: j)
            guard length > 0 else { throw error("the text is not valid UTF-8 here") }
            j += length
        }
    }

    /// Where the run of bytes that a string holds as they are (printable
    /// ASCII but `"` and `\\`) starting at `start` ends: eight bytes at a
    /// time ("SWAR": each byte's test is done on all eight at once in one
    /// 64-bit word), then byte by byte. The index stays in a register.
    @inline(__always)
    private mutating func plainASCIIRun(from start: Int) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let raw = UnsafeRawPointer(bytes.baseAddress!)
        var j = start
        while j + 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: j, as: UInt64.self)
            // A byte's high bit is set in `zero(x)` if the byte of x is 0
            // (exact for the lowest such byte, which is all that is asked).
            func zero(_ x: UInt64) -> UInt64 { (x &- ones) & ~x }
            let quote = zero(word ^ (ones &* 0x22))
            let backslash = zero(word ^ (ones &* 0x5C))
            let control = (word &- ones &* 0x20) & ~word  // bytes below 0x20
            let stops = (quote | backslash | control | word) & highBits
            if stops != 0 { return j + stops.trailingZeroBitCount >> 3 }
            j += 8
        }
        while j < bytes.count {
            // `b - 0x20 >= 0x60`: a control character or a non-ASCII byte.
            let b = bytes[j]
            if b &- 0x20 >= 0x60 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") { break }
            j += 1
        }
        return j
    }

    /// The rest of a string with escapes, from its first backslash: its
    /// text is unescaped into `unescaped`.
    @inline(never)
    private mutating func readEscapedString(openedAt open: Int) throws(JSONError) -> Int {
        var out = Array(bytes[(open + 1)..<i])
        while true {
            let runStart = i
            i = plainASCIIRun(from: i)
            out.append(contentsOf: bytes[runStart..<i])
            guard i < bytes.count else { throw unterminatedString(openedAt: open) }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                i += 1
                let start = bytes.count + unescaped.count
                unescaped.append(contentsOf: out)
                return append(JSONDocument.Node(.string, offset: UInt32(truncatingIfNeeded: open), start: start, count: out.count))
            } else if b == UInt8(ascii: "\\") {
                try readEscape(into: &out)
            } else if b < 0x20 {
                throw controlCharacterInString(b)
            } else {
                let length = utf8SequenceLength(at: i)
                guard length > 0 else { throw error("the text is not valid UTF-8 here") }
                out.append(contentsOf: bytes[i..<(i + length)])
                i += length
            }
        }
    }

    private mutating func readEscape(into out: inout [UInt8]) throws(JSONError) {
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

    private mutating func readHex4() throws(JSONError) -> UInt32 {
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

    /// Skips spaces, tabs and line ends. Inlined: most calls find a value
    /// or a single space at once.
    @inline(__always)
    private mutating func skipWhitespace() {
        if i < bytes.count, bytes[i] > UInt8(ascii: " ") { return }
        if i + 1 < bytes.count, bytes[i] == UInt8(ascii: " "), bytes[i + 1] > UInt8(ascii: " ") {
            i += 1
            return
        }
        skipWhitespaceRun()
    }

    private mutating func skipWhitespaceRun() {
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                i += 1
            case UInt8(ascii: "\n"):
                i += 1
                lineStarts.append(UInt32(truncatingIfNeeded: i))
            default:
                return
            }
        }
    }

    /// The line and column of byte `index` (on a line read already).
    private mutating func checkDeadline() throws(JSONError) {
        nextDeadlineCheck = i + Self.checkpointStride
        do {
            try checkpoint?()
        } catch {
            throw JSONError(.interrupted, at: "$", position: position(at: i), "the read stopped here: \(error)", cause: error)
        }
    }

    private func position(at index: Int) -> SourcePosition {
        JSONDocument.position(ofByte: min(index, bytes.count), in: source, lineStarts: lineStarts)
    }

    private func position(ofNode node: Int) -> SourcePosition {
        position(at: Int(nodes[node].offset))
    }

    // MARK: - Errors

    // Each refusal is built by a function of its own, kept out of line:
    // the reading loops stay small, and no message is formatted unless the
    // document is refused.

    /// The location of the value being read, from the open containers.
    private var currentPath: JSONPath {
        var path = JSONPath.root
        let frames = depth > 0 ? outer.array() + [top] : []
        for (level, frame) in frames.enumerated() {
            // The children read so far: those of inner frames come after.
            let end = level + 1 < frames.count ? frames[level + 1].firstPending : pending.count
            if !frame.isObject {
                path = path / (end - frame.firstPending)
            } else if frame.keyNode >= 0 {
                path = path / string(at: frame.keyNode)
            }
        }
        return path
    }

    /// An error at byte `index` (the current byte if not given).
    @inline(never)
    private func error(_ message: @autoclosure () -> String, at index: Int? = nil) -> JSONError {
        error(.syntax, message(), at: index)
    }

    @inline(never)
    private func error(_ kind: JSONError.Kind, _ message: @autoclosure () -> String, at index: Int? = nil) -> JSONError {
        let place = position(at: min(index ?? i, bytes.count))
        return JSONError(kind, at: currentPath.description, position: place, message())
    }

    @inline(never)
    private func endInsideContainer() -> JSONError {
        error("the document ends inside \(top.isObject ? "an object" : "an array") opened at \(position(ofNode: top.node))")
    }

    @inline(never)
    private func missingSeparator() -> JSONError {
        let expected = top.isObject ? "',' or '}' after a member" : "',' or ']' after an element"
        return error("expected \(expected), found \(describeByte(at: i))")
    }

    @inline(never)
    private func notAValue() -> JSONError {
        if hasPrefix("NaN") || hasPrefix("Infinity") {
            return error(.nonFinite, "NaN and Infinity are not JSON numbers; every number must be finite")
        }
        if bytes[i] == UInt8(ascii: ".") { return error("a number needs a digit before the decimal point") }
        return error("expected a value, found \(describeByte(at: i))")
    }

    @inline(never)
    private func nestingTooDeep() -> JSONError {
        JSONError(.limitExceeded, at: currentPath.description, position: position(at: i),
                   "arrays and objects nest more than \(maxNesting) levels deep (the limit)")
    }

    @inline(never)
    private func notAKey(afterComma: Bool) -> JSONError {
        guard i < bytes.count else { return error("the document ends where a key was expected") }
        if afterComma, bytes[i] == UInt8(ascii: "}") { return error("a trailing comma is not allowed in JSON") }
        return error("expected a key in double quotes, found \(describeByte(at: i))")
    }

    @inline(never)
    private func duplicateKey(_ keyNode: Int, earlier: Int) -> JSONError {
        JSONError(.duplicateKey, at: currentPath.description, position: position(ofNode: keyNode),
                   "duplicate key '\(string(at: keyNode))' (first given at \(position(ofNode: earlier)))")
    }

    @inline(never)
    private func missingColon(after keyNode: Int) -> JSONError {
        error("expected ':' after the key '\(string(at: keyNode))', found \(describeByte(at: i))")
    }

    @inline(never)
    private func unterminatedString(openedAt open: Int) -> JSONError {
        error("the document ends inside a string opened at \(position(at: open))")
    }

    @inline(never)
    private func controlCharacterInString(_ b: UInt8) -> JSONError {
        let hint = b == 0x0A ? " (is the string missing its closing quote?)" : ""
        return error("a control character (U+\(hex4(UInt32(b)))) must be escaped in a string\(hint)")
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
