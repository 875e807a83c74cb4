import LaminaScene
import LaminaJSON

/// A small, strict XML reader for CAML: elements, attributes, character
/// data, CDATA sections, comments and processing instructions, with the five
/// predefined entities and character references.
///
/// A document type declaration that only names an external DTD (Apple's
/// property lists start with `<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST
/// 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">`) declares
/// nothing and is skipped; the DTD is never loaded. It refuses what CAML
/// never needs and an attacker would use: an internal subset that declares
/// entities (how "billion laughs" documents expand), unknown entities,
/// nesting deeper than the limit, and more elements or attributes than the
/// limits allow. It does
/// not recurse, so a deep document cannot exhaust the stack. Every error
/// names the line and column.
///
/// ```swift
/// let root = try XMLReader(limits: .init()).read(Array("<a b='1'><c/></a>".utf8))
/// root.name                 // "a"
/// root["b"]      // "1"
/// ```
struct XMLReader {
    struct Limits: Sendable {
        /// Elements from the root to the deepest, the root being 1.
        var depth = 256
        /// Elements in the document.
        var elements = 2_000_000
        /// Attributes of one element.
        var attributesPerElement = 256
    }

    var limits: Limits
    /// When to stop reading (a request's deadline): checked every 256 elements.
    var deadline: RenderDeadline? = nil

    /// The document's root element.
    /// - Throws: `SceneError` of kind `.syntax` (or `.limitExceeded`) at the
    ///   place in the text where the document goes wrong.
    func read(_ bytes: [UInt8]) throws(SceneError) -> XMLElement {
        var scanner = Scanner(bytes: bytes, limits: limits, deadline: deadline)
        return try scanner.document()
    }
}

private struct Scanner {
    let bytes: [UInt8]
    let limits: XMLReader.Limits
    let deadline: RenderDeadline?
    var i = 0
    var line = 1
    var column = 1
    var elementCount = 0

    init(bytes: [UInt8], limits: XMLReader.Limits, deadline: RenderDeadline?) {
        self.bytes = bytes
        self.limits = limits
        self.deadline = deadline
        // A UTF-8 byte order mark.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
    }

    // MARK: Positions and errors

    /// The place of the next byte; columns count Unicode scalars.
    var here: SourcePosition { SourcePosition(line: line, column: column) }

    func error(_ message: String, at position: SourcePosition? = nil, kind: SceneError.Kind = .syntax) -> SceneError {
        SceneError(kind, at: "xml", position: position ?? here, message)
    }

    // MARK: Bytes

    var atEnd: Bool { i >= bytes.count }

    func peek(_ offset: Int = 0) -> UInt8? {
        i + offset < bytes.count ? bytes[i + offset] : nil
    }

    /// Whether the text at the current byte is `text` (compared in place:
    /// the reader asks this at nearly every byte).
    func looking(at text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard i + count <= bytes.count else { return false }
        return text.withUTF8Buffer { expected in
            for k in 0..<count where bytes[i + k] != expected[k] { return false }
            return true
        }
    }

    /// Moves past one byte, keeping the line count.
    mutating func advance() {
        let b = bytes[i]
        if b == UInt8(ascii: "\n") {
            line += 1
            column = 1
        } else if b & 0xC0 != 0x80 {  // not a UTF-8 continuation byte
            column += 1
        }
        i += 1
    }

    mutating func advance(_ n: Int) {
        for _ in 0..<n { advance() }
    }

    mutating func skipSpace() {
        while let b = peek(), b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { advance() }
    }

    mutating func expect(_ text: StaticString) throws(SceneError) {
        guard looking(at: text) else { throw error("expected '\(text)'") }
        advance(text.utf8CodeUnitCount)
    }

    /// Moves to just past `terminator`; the text before it is returned.
    /// `opened` is where the construct began, for the error.
    mutating func skip(past terminator: StaticString, what: String, opened: SourcePosition? = nil) throws(SceneError) -> ArraySlice<UInt8> {
        let start = i, startPosition = opened ?? here
        while !atEnd {
            if looking(at: terminator) {
                let body = bytes[start..<i]
                advance(terminator.utf8CodeUnitCount)
                return body
            }
            advance()
        }
        throw error("\(what) that is never closed (no '\(terminator)')", at: startPosition)
    }

    // MARK: Document

    mutating func document() throws(SceneError) -> XMLElement {
        try misc()
        guard !atEnd else { throw error("the document has no root element") }
        guard peek() == UInt8(ascii: "<") else { throw error("expected '<' to start the root element") }
        let root = try element()
        try misc()
        guard atEnd else { throw error("only one root element is allowed; found more after it") }
        return root
    }

    /// Whether the prolog's document type declaration has been read.
    var sawDocumentType = false

    /// Whitespace, comments, processing instructions and (before the root,
    /// once) a document type declaration.
    mutating func misc() throws(SceneError) {
        while true {
            skipSpace()
            if looking(at: "<?") {
                _ = try skip(past: "?>", what: "a processing instruction")
            } else if looking(at: "<!--") {
                try comment()
            } else if looking(at: "<!DOCTYPE") || looking(at: "<!doctype") {
                guard !sawDocumentType, elementCount == 0 else {
                    throw error("a document type declaration may only come once, before the root element")
                }
                try documentType()
                sawDocumentType = true
            } else {
                return
            }
        }
    }

    /// `<!DOCTYPE name PUBLIC "id" "uri">` and the like, skipped: an external
    /// identifier names a DTD that is never loaded, so it declares nothing.
    /// An internal subset (`[...]`) is read only to refuse entity
    /// declarations; its other declarations (element and attribute lists,
    /// comments) change nothing CAML reads.
    mutating func documentType() throws(SceneError) {
        let opened = here
        advance(9)
        var inSubset = false
        while let b = peek() {
            switch b {
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                // A literal: an identifier, or a value in the subset, may hold '>' or ']'.
                let literal = here
                advance()
                while let c = peek(), c != b { advance() }
                guard !atEnd else { throw error("a quoted literal that is never closed", at: literal) }
                advance()
            case UInt8(ascii: "["):
                guard !inSubset else { throw error("'[' inside the document type's internal subset") }
                inSubset = true
                advance()
            case UInt8(ascii: "]") where inSubset:
                inSubset = false
                advance()
            case UInt8(ascii: "<") where inSubset:
                if looking(at: "<!--") {
                    try comment()
                } else if looking(at: "<!ENTITY") {
                    throw error("an entity declaration is refused: CAML needs none, and entities can expand without bound")
                } else {
                    advance()
                }
            case UInt8(ascii: "%") where inSubset:
                throw error("a parameter entity reference is refused: it could load or expand declarations")
            case UInt8(ascii: ">") where !inSubset:
                advance()
                return
            default:
                advance()
            }
        }
        throw error("a document type declaration that is never closed (no '>')", at: opened)
    }

    mutating func comment() throws(SceneError) {
        let opened = here
        advance(4)
        _ = try skip(past: "-->", what: "a comment", opened: opened)
    }

    // MARK: Elements

    /// An element and everything inside it, without recursion: open
    /// elements wait on a stack.
    mutating func element() throws(SceneError) -> XMLElement {
        var stack: [(element: XMLElement, rawName: String, text: [UInt8])] = []
        while true {
            // At '<' of a start tag.
            let (open, rawName, selfClosing) = try startTag()
            if selfClosing {
                if stack.isEmpty { return open }
                stack[stack.count - 1].element.children.append(open)
            } else {
                guard stack.count < limits.depth else {
                    throw error("elements nest deeper than \(limits.depth) levels (the limit)", kind: .limitExceeded)
                }
                stack.append((open, rawName, []))
            }
            // Content until the next start tag, or end tags closing elements.
            while true {
                guard !stack.isEmpty else { break }
                guard !atEnd else {
                    throw error("the element <\(stack[stack.count - 1].rawName)> is never closed")
                }
                if looking(at: "</") {
                    let tagStart = here
                    advance(2)
                    let name = try self.name()
                    skipSpace()
                    try expect(">")
                    var (done, expected, text) = stack.removeLast()
                    guard name == expected else {
                        throw error("</\(name)> closes <\(expected)>, which needs </\(expected)>", at: tagStart)
                    }
                    done.text = try string(text, at: done.position)
                    if stack.isEmpty { return done }
                    stack[stack.count - 1].element.children.append(done)
                } else if looking(at: "<!--") {
                    try comment()
                } else if looking(at: "<![CDATA[") {
                    let opened = here
                    advance(9)
                    stack[stack.count - 1].text += try skip(past: "]]>", what: "a CDATA section", opened: opened)
                } else if looking(at: "<?") {
                    _ = try skip(past: "?>", what: "a processing instruction")
                } else if looking(at: "<!") {
                    throw error("declarations are not allowed inside elements")
                } else if peek() == UInt8(ascii: "<") {
                    break  // a child's start tag
                } else {
                    stack[stack.count - 1].text += try characterData(until: UInt8(ascii: "<"))
                }
            }
        }
    }

    /// `<name attr="value" ...>` or `.../>`.
    mutating func startTag() throws(SceneError) -> (XMLElement, String, Bool) {
        let start = here
        try expect("<")
        let rawName = try name()
        elementCount += 1
        guard elementCount <= limits.elements else {
            throw error("the document has more than \(limits.elements) elements (the limit)", kind: .limitExceeded)
        }
        if elementCount & 255 == 0 { try deadline?.check(at: "xml", position: start) }
        var element = XMLElement(name: Self.localName(rawName), attributes: [], children: [], text: "", position: start)
        while true {
            let hadSpace = peek().map { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D } ?? false
            skipSpace()
            if looking(at: "/>") { advance(2); return (element, rawName, true) }
            if looking(at: ">") { advance(); return (element, rawName, false) }
            guard hadSpace else { throw error("expected whitespace, '>' or '/>' in the tag <\(rawName)>") }
            let attributeStart = here
            let attributeName = try name()
            skipSpace()
            try expect("=")
            skipSpace()
            guard let quote = peek(), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                throw error("the value of '\(attributeName)' must be quoted")
            }
            advance()
            let raw = try characterData(until: quote, inAttribute: true)
            guard peek() == quote else { throw error("the value of '\(attributeName)' is never closed") }
            advance()
            let local = Self.localName(attributeName)
            guard !element.attributes.contains(where: { $0.name == local }) else {
                throw error("the attribute '\(attributeName)' is given twice", at: attributeStart)
            }
            guard element.attributes.count < limits.attributesPerElement else {
                throw error("<\(rawName)> has more than \(limits.attributesPerElement) attributes (the limit)",
                            kind: .limitExceeded)
            }
            element.attributes.append(
                XMLAttribute(name: local, value: try string(raw, at: attributeStart), position: attributeStart))
        }
    }

    /// `prefix:local` keeps `local`: CAML has one namespace.
    static func localName(_ name: String) -> String {
        name.split(separator: ":").last.map(String.init) ?? name
    }

    mutating func name() throws(SceneError) -> String {
        let start = i, startPosition = here
        while let b = peek(), Self.isNameByte(b, first: i == start) { advance() }
        guard i > start else { throw error("expected a name") }
        return try string(bytes[start..<i], at: startPosition)
    }

    static func isNameByte(_ b: UInt8, first: Bool) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "_"), UInt8(ascii: ":"), 0x80...0xFF:
            return true
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."):
            return !first
        default:
            return false
        }
    }

    /// Text up to `terminator` (not consumed), entities resolved.
    mutating func characterData(until terminator: UInt8, inAttribute: Bool = false) throws(SceneError) -> [UInt8] {
        var out: [UInt8] = []
        while let b = peek(), b != terminator {
            if b == UInt8(ascii: "&") {
                out += try entity()
            } else if inAttribute && b == UInt8(ascii: "<") {
                throw error("'<' is not allowed in an attribute value")
            } else {
                // Attribute values normalize whitespace to spaces (XML 1.0, 3.3.3).
                out.append(inAttribute && (b == 0x09 || b == 0x0A || b == 0x0D) ? 0x20 : b)
                advance()
            }
        }
        return out
    }

    /// `&lt;`, `&gt;`, `&amp;`, `&quot;`, `&apos;`, `&#N;`, `&#xN;`.
    mutating func entity() throws(SceneError) -> [UInt8] {
        let start = here
        advance()
        var body: [UInt8] = []
        while let b = peek(), b != UInt8(ascii: ";"), body.count < 12 {
            body.append(b)
            advance()
        }
        guard peek() == UInt8(ascii: ";") else { throw error("an entity reference that does not end with ';'", at: start) }
        advance()
        let name = String(decoding: body, as: UTF8.self)
        switch name {
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "amp": return [UInt8(ascii: "&")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        default:
            var code: UInt32?
            if name.hasPrefix("#x") { code = UInt32(name.dropFirst(2), radix: 16) }
            else if name.hasPrefix("#") { code = UInt32(name.dropFirst(1)) }
            else {
                throw error("unknown entity '&\(name);': only &lt; &gt; &amp; &quot; &apos; and character references are read",
                            at: start)
            }
            guard let code, code != 0, let scalar = Unicode.Scalar(code) else {
                throw error("'&\(name);' is not a character", at: start)
            }
            return Array(String(Character(scalar)).utf8)
        }
    }

    /// UTF-8 bytes as a string; invalid UTF-8 is an error.
    func string<C: Collection>(_ bytes: C, at position: SourcePosition) throws(SceneError) -> String
    where C.Element == UInt8 {
        guard let s = String(validating: bytes, as: UTF8.self) else {
            throw SceneError(.syntax, at: "xml", position: position, "the text is not valid UTF-8")
        }
        return s
    }
}
