import Foundation

/// A place in the source text: 1-based line and column. Columns count
/// Unicode scalars, not bytes, so that they match what an editor shows.
public struct SourcePosition: Hashable, Sendable, CustomStringConvertible {
    /// The line, from 1.
    public var line: Int
    /// The column, from 1, in Unicode scalars.
    public var column: Int

    /// The place at `line`, `column`.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// "line L, column C".
    public var description: String { "line \(line), column \(column)" }

    /// The position of values built in code, which come from no text.
    package static let none = SourcePosition(line: 0, column: 0)
}

/// A JSON document stored flat: every value is one `Node` in an array (a
/// "tape", as simdjson calls it), containers list their children's node
/// numbers in one shared table, and strings are byte ranges.
///
/// Why: a tree of enums, arrays and strings costs a heap allocation, a
/// reference count and a free per value, which was most of what reading a
/// scene cost (a 1,000-layer scene holds 17,000 values). Parsed once into
/// three arrays, a document is allocated a handful of times and freed at
/// once; values are views (`JSONValue`: the document and a node number).
///
/// A parsed document keeps the source bytes and where each line starts:
/// a value's line and column are worked out only when an error asks. A
/// document built in code (the encoder, the CAML reader) keeps each value's
/// position as given.
///
/// It is `@unchecked Sendable`: every field is set once in `init` and never
/// written again, and the two buffers are its own.
package final class JSONDocument: @unchecked Sendable {
    /// What a node is.
    package enum Tag: UInt8, BitwiseCopyable {
        case null, `false`, `true`, number, string, array, object
    }

    /// One value. `payload` is a number's bits; for a string its first
    /// byte in `text` and its length; for an array or object its first
    /// entry in `children` and its count (an object's entries are its keys'
    /// nodes; each key's value is the node right after it).
    package struct Node: BitwiseCopyable {
        var tag: Tag
        /// Where the value starts in the source text (parsed documents).
        var offset: UInt32
        var payload: UInt64

        init(_ tag: Tag, offset: UInt32, payload: UInt64 = 0) {
            self.tag = tag
            self.offset = offset
            self.payload = payload
        }

        init(_ tag: Tag, offset: UInt32, start: Int, count: Int) {
            self.init(tag, offset: offset, payload: Self.span(start: start, count: count))
        }

        /// A string's or container's payload: its first byte or entry, and its count.
        static func span(start: Int, count: Int) -> UInt64 {
            UInt64(UInt32(truncatingIfNeeded: start)) | UInt64(count) << 32
        }

        var start: Int { Int(payload & 0xFFFF_FFFF) }
        var count: Int { Int(payload >> 32) }
    }

    /// The nodes, owned by the document (freed with it). Not an array: a
    /// parsed document takes the parser's buffers as they are, where an
    /// array would have been one more copy of every node.
    package let nodes: UnsafeBufferPointer<Node>
    package let children: UnsafeBufferPointer<UInt32>
    /// String bytes: for a parsed document the source text, then the
    /// strings that needed unescaping.
    package let text: [UInt8]
    /// Parsed documents: the byte where each line starts, line 1 first.
    package let lineStarts: [UInt32]
    /// Built documents: each node's position.
    package let positions: [SourcePosition]?

    /// A document that takes ownership of `nodes` and `children` (which
    /// were allocated with `UnsafeMutablePointer.allocate`).
    package init(
        taking nodes: UnsafeMutableBufferPointer<Node>, children: UnsafeMutableBufferPointer<UInt32>,
        text: [UInt8], lineStarts: [UInt32], positions: [SourcePosition]?
    ) {
        self.nodes = UnsafeBufferPointer(nodes)
        self.children = UnsafeBufferPointer(children)
        self.text = text
        self.lineStarts = lineStarts
        self.positions = positions
    }

    /// A document of copies of `nodes` and `children`.
    convenience init(nodes: [Node], children: [UInt32], text: [UInt8], lineStarts: [UInt32], positions: [SourcePosition]?) {
        func copy<T>(_ array: [T]) -> UnsafeMutableBufferPointer<T> {
            let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: array.count)
            _ = buffer.initialize(from: array)
            return buffer
        }
        self.init(taking: copy(nodes), children: copy(children), text: text, lineStarts: lineStarts, positions: positions)
    }

    deinit {
        nodes.deallocate()
        children.deallocate()
    }

    /// The line and column where node `index` starts.
    package func position(of index: Int) -> SourcePosition {
        if let positions { return positions[index] }
        return Self.position(ofByte: Int(nodes[index].offset), in: text, lineStarts: lineStarts)
    }

    /// The line and column of byte `offset` of `text`, given where its
    /// lines start (all the lines up to `offset` at least).
    package static func position(ofByte offset: Int, in text: [UInt8], lineStarts: [UInt32]) -> SourcePosition {
        // The last line starting at or before the byte.
        var low = 0, high = lineStarts.count
        while high - low > 1 {
            let mid = (low + high) / 2
            if Int(lineStarts[mid]) <= offset { low = mid } else { high = mid }
        }
        let lineStart = lineStarts.isEmpty ? 0 : Int(lineStarts[low])
        // Every byte but a UTF-8 continuation byte (10xxxxxx) starts a
        // column: counted eight bytes at a time.
        let end = min(offset, text.count)
        var columns = 1
        text.withUnsafeBytes { raw in
            var k = lineStart
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
        return SourcePosition(line: low + 1, column: columns)
    }

    /// The string at node `index`.
    package func string(at index: Int) -> String {
        let node = nodes[index]
        return text.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[node.start..<(node.start + node.count)]), as: UTF8.self)
        }
    }

    /// Calls `body` with the bytes of the string at node `index`.
    package func withStringBytes<R>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let node = nodes[index]
        return text.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[node.start..<(node.start + node.count)])) }
    }

    /// Whether the string at node `index` is `key`, compared as bytes
    /// (no string is made).
    package func string(at index: Int, equals key: String) -> Bool {
        let node = nodes[index]
        // Most keys differ in length: no bytes are compared.
        guard key.utf8.count == node.count else { return false }
        var key = key
        return key.withUTF8 { k in
            return text.withUnsafeBufferPointer { t in
                k.isEmpty || memcmp(t.baseAddress! + node.start, k.baseAddress!, k.count) == 0
            }
        }
    }
}

/// A JSON value: a view of one node of a `JSONDocument`, which it keeps
/// alive. Copying a value copies the view, not the value.
///
/// Numbers are kept as `Double`, which is what every number of the scene
/// format is; integers are checked for being whole where the format needs
/// them.
package struct JSONValue: Sendable {
    /// What the value is, with its contents.
    package enum Kind: Sendable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array(JSONArray)
        case object(JSONObject)
    }

    package let document: JSONDocument
    package let index: Int

    package init(document: JSONDocument, index: Int) {
        self.document = document
        self.index = index
    }

    private var node: JSONDocument.Node { document.nodes[index] }

    package var kind: Kind {
        let node = node
        switch node.tag {
        case .null: return .null
        case .false: return .bool(false)
        case .true: return .bool(true)
        case .number: return .number(Double(bitPattern: node.payload))
        case .string: return .string(document.string(at: index))
        case .array: return .array(JSONArray(document: document, start: node.start, count: node.count))
        case .object: return .object(JSONObject(document: document, start: node.start, count: node.count))
        }
    }

    /// Where the value starts in its source.
    package var position: SourcePosition { document.position(of: index) }

    /// The JSON type's name as an error message says it ("a number").
    package var typeDescription: String {
        switch node.tag {
        case .null: "null"
        case .false, .true: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    package var number: Double? {
        let node = node
        return node.tag == .number ? Double(bitPattern: node.payload) : nil
    }

    package var string: String? {
        node.tag == .string ? document.string(at: index) : nil
    }

    /// Calls `body` with a string value's bytes (no string is made); nil
    /// for a value that is not a string.
    package func withStringBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
        node.tag == .string ? document.withStringBytes(at: index, body) : nil
    }

    /// The elements of an array of exactly `count` (at most 4) numbers,
    /// read from the nodes in place (no view is made for an element); nil
    /// for any other value.
    package func smallNumberArray(count: Int) -> SIMD4<Double>? {
        let node = node
        guard node.tag == .array, node.count == count, count <= 4 else { return nil }
        var out = SIMD4<Double>(repeating: 0)
        for k in 0..<count {
            let element = document.nodes[Int(document.children[node.start + k])]
            guard element.tag == .number else { return nil }
            out[k] = Double(bitPattern: element.payload)
        }
        return out
    }

    package var bool: Bool? {
        switch node.tag {
        case .false: false
        case .true: true
        default: nil
        }
    }

    package var array: JSONArray? {
        let node = node
        return node.tag == .array ? JSONArray(document: document, start: node.start, count: node.count) : nil
    }

    package var object: JSONObject? {
        let node = node
        return node.tag == .object ? JSONObject(document: document, start: node.start, count: node.count) : nil
    }

    package var isNull: Bool { node.tag == .null }
}

/// What a container's children are read as: a value (an array's
/// elements) or a member (an object's keys, each followed by its value).
package protocol JSONChild: Sendable {
    init(document: JSONDocument, index: Int)
}

extension JSONValue: JSONChild {}

/// The children of an array or object, in source order.
package struct JSONChildren<Element: JSONChild>: RandomAccessCollection, Sendable {
    package let document: JSONDocument
    package let start: Int
    package let count: Int

    package var startIndex: Int { 0 }
    package var endIndex: Int { count }

    package subscript(position: Int) -> Element {
        precondition(position >= 0 && position < count, "JSON child index out of range")
        return Element(document: document, index: Int(document.children[start + position]))
    }
}

/// The elements of a JSON array, in order.
package typealias JSONArray = JSONChildren<JSONValue>

/// One `"key": value` pair of an object, with the key's own position (the
/// place an "unknown key" error points at).
package struct JSONMember: JSONChild {
    package let document: JSONDocument
    /// The key's node; the value's is the next one.
    package let keyIndex: Int

    package init(document: JSONDocument, index: Int) {
        self.document = document
        self.keyIndex = index
    }

    package var key: String { document.string(at: keyIndex) }
    package var keyPosition: SourcePosition { document.position(of: keyIndex) }
    package var value: JSONValue { JSONValue(document: document, index: keyIndex + 1) }

    /// Whether the key is `name` (compared without making a string).
    package func hasKey(_ name: String) -> Bool { document.string(at: keyIndex, equals: name) }
}

/// A JSON object: its members in source order, with lookup by key. Keys are
/// unique; the parser refuses duplicates.
///
/// Lookup compares the key's bytes member by member: a scene's objects
/// are small (a layer's dozen keys), and the readers ask for a fixed set
/// of keys, so lookups stay linear in the object's size.
package struct JSONObject: Sendable {
    package let document: JSONDocument
    package let start: Int
    package let count: Int

    /// The members in source order.
    package var members: Members { Members(document: document, start: start, count: count) }

    /// The members of an object, in source order.
    package typealias Members = JSONChildren<JSONMember>

    package subscript(key: String) -> JSONValue? {
        member(key)?.value
    }

    package func member(_ key: String) -> JSONMember? {
        for k in start..<(start + count) {
            let keyIndex = Int(document.children[k])
            if document.string(at: keyIndex, equals: key) {
                return JSONMember(document: document, index: keyIndex)
            }
        }
        return nil
    }

    package var keys: [String] { members.map(\.key) }
    package var isEmpty: Bool { count == 0 }
}

// MARK: - Building values in code

/// Writes values into a new document: the encoder's and the CAML reader's
/// way of making JSON. Building copies the values it is given (a view
/// cannot share another document's nodes), which costs the size of the
/// value once per level it is nested in, away from any reading path.
package struct JSONDocumentBuilder {
    private var nodes: [JSONDocument.Node] = []
    private var children: [UInt32] = []
    private var text: [UInt8] = []
    private var positions: [SourcePosition] = []

    /// The document whose first node is the root.
    package consuming func finish() -> JSONValue {
        JSONValue(document: JSONDocument(nodes: nodes, children: children, text: text,
                                         lineStarts: [], positions: positions), index: 0)
    }

    private mutating func append(_ tag: JSONDocument.Tag, payload: UInt64 = 0, at position: SourcePosition) -> Int {
        nodes.append(JSONDocument.Node(tag, offset: 0, payload: payload))
        positions.append(position)
        return nodes.count - 1
    }

    package mutating func addString(_ s: String, at position: SourcePosition) {
        let start = text.count
        text.append(contentsOf: s.utf8)
        _ = append(.string, payload: JSONDocument.Node.span(start: start, count: text.count - start), at: position)
    }

    /// A value of `kind` (containers copied), at `position`.
    package mutating func add(_ kind: JSONValue.Kind, at position: SourcePosition) {
        switch kind {
        case .null: _ = append(.null, at: position)
        case .bool(let b): _ = append(b ? .true : .false, at: position)
        case .number(let n): _ = append(.number, payload: n.bitPattern, at: position)
        case .string(let s): addString(s, at: position)
        case .array(let a): addArray(Array(a), at: position)
        case .object(let o): addObject(o.members.map { ($0.key, $0.value, $0.keyPosition) }, at: position)
        }
    }

    /// A copy of `value` (with its positions), placed at `position` if given.
    package mutating func add(_ value: JSONValue, at position: SourcePosition? = nil) {
        add(value.kind, at: position ?? value.position)
    }

    /// A copy of `value` in which every value without a place of its own
    /// (built, not parsed) takes `fallback`.
    package mutating func add(_ value: JSONValue, filling fallback: SourcePosition) {
        let own = value.position
        let position = own == .none ? fallback : own
        switch value.kind {
        case .array(let a):
            let container = append(.array, at: position)
            var indices: [UInt32] = []
            for element in a {
                indices.append(UInt32(nodes.count))
                add(element, filling: position)
            }
            nodes[container].payload = JSONDocument.Node.span(start: children.count, count: indices.count)
            children.append(contentsOf: indices)
        case .object(let o):
            let container = append(.object, at: position)
            var indices: [UInt32] = []
            for member in o.members {
                // A member's value without a place is where its key is written.
                let keyPosition = member.keyPosition == .none ? position : member.keyPosition
                indices.append(UInt32(nodes.count))
                addString(member.key, at: keyPosition)
                add(member.value, filling: keyPosition)
            }
            nodes[container].payload = JSONDocument.Node.span(start: children.count, count: indices.count)
            children.append(contentsOf: indices)
        case let kind:
            add(kind, at: position)
        }
    }

    package mutating func addArray(_ elements: [JSONValue], at position: SourcePosition) {
        let container = append(.array, at: position)
        var indices: [UInt32] = []
        indices.reserveCapacity(elements.count)
        for element in elements {
            indices.append(UInt32(nodes.count))
            add(element)
        }
        nodes[container].payload = JSONDocument.Node.span(start: children.count, count: indices.count)
        children.append(contentsOf: indices)
    }

    package mutating func addObject(_ members: [(String, JSONValue, SourcePosition)], at position: SourcePosition) {
        let container = append(.object, at: position)
        var indices: [UInt32] = []
        indices.reserveCapacity(members.count)
        for (key, value, keyPosition) in members {
            // A later member with the same key replaces the earlier one's
            // value, in the earlier one's place.
            let keyBytes = Array(key.utf8)
            let earlier = indices.firstIndex { k in
                let node = nodes[Int(k)]
                return text[node.start..<(node.start + node.count)].elementsEqual(keyBytes)
            }
            let keyIndex = UInt32(nodes.count)
            if let earlier { indices[earlier] = keyIndex } else { indices.append(keyIndex) }
            addString(key, at: keyPosition)
            add(value)
        }
        nodes[container].payload = JSONDocument.Node.span(start: children.count, count: indices.count)
        children.append(contentsOf: indices)
    }
}

extension JSONValue {
    /// A scalar value, or a copy of an array's or object's contents, at `position`.
    package init(_ kind: Kind, at position: SourcePosition = .none) {
        var builder = JSONDocumentBuilder()
        builder.add(kind, at: position)
        self = builder.finish()
    }

    /// The same value placed at `position` (its contents keep theirs).
    package func placed(at position: SourcePosition) -> JSONValue {
        var builder = JSONDocumentBuilder()
        builder.add(self, at: position)
        return builder.finish()
    }

    /// The same value at `position`, and its contents too where they have no
    /// place of their own: a value built from one place of a document (an
    /// attribute's list of numbers) is refused there, not at line 0.
    package func placedThroughout(at position: SourcePosition) -> JSONValue {
        var builder = JSONDocumentBuilder()
        builder.add(self.placed(at: position), filling: position)
        return builder.finish()
    }

    package static func number(_ n: Double) -> JSONValue { JSONValue(.number(n)) }
    package static func string(_ s: String) -> JSONValue { JSONValue(.string(s)) }
    package static func bool(_ b: Bool) -> JSONValue { JSONValue(.bool(b)) }
    package static var null: JSONValue { JSONValue(.null) }

    /// An array of `elements`, at `position`.
    package static func array(_ elements: [JSONValue], at position: SourcePosition = .none) -> JSONValue {
        var builder = JSONDocumentBuilder()
        builder.addArray(elements, at: position)
        return builder.finish()
    }

    /// A number of any floating-point type. A `Float` is written in its own
    /// shortest form (0.4, not 0.4000000059604645), which reads back to the
    /// same `Float`.
    package static func number<V: BinaryFloatingPoint>(floatingPoint v: V) -> JSONValue {
        if let f = v as? Float, let d = Double(f.description) { return .number(d) }
        return .number(Double(v))
    }

    package static func numbers(_ values: [CGFloat]) -> JSONValue {
        .array(values.map { .number(Double($0)) })
    }

    /// An object from key-value pairs in the given order.
    package static func object(_ pairs: [(String, JSONValue)]) -> JSONValue {
        object(members: pairs.map { ($0.0, $0.1, .none) }, at: .none)
    }

    /// An object from members that carry positions (the CAML reader's,
    /// whose positions are places in the XML text).
    package static func object(members: [(String, JSONValue, SourcePosition)], at position: SourcePosition) -> JSONValue {
        var builder = JSONDocumentBuilder()
        builder.addObject(members, at: position)
        return builder.finish()
    }
}
