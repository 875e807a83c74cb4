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
}

/// A parsed JSON value that remembers where it started in the source.
///
/// Numbers are kept as `Double`, which is what every number of the scene
/// format is; integers are checked for being whole where the format needs
/// them.
package struct JSONValue: Sendable {
    package enum Kind: Sendable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([JSONValue])
        case object(JSONObject)
    }

    package var kind: Kind
    package var position: SourcePosition

    package init(_ kind: Kind, at position: SourcePosition = SourcePosition(line: 0, column: 0)) {
        self.kind = kind
        self.position = position
    }

    /// The JSON type's name as an error message says it ("a number").
    var typeDescription: String {
        switch kind {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    package var number: Double? {
        if case .number(let n) = kind { return n }
        return nil
    }

    package var string: String? {
        if case .string(let s) = kind { return s }
        return nil
    }

    package var array: [JSONValue]? {
        if case .array(let a) = kind { return a }
        return nil
    }

    package var object: JSONObject? {
        if case .object(let o) = kind { return o }
        return nil
    }

    var isNull: Bool {
        if case .null = kind { return true }
        return false
    }
}

/// One `"key": value` pair of an object, with the key's own position (the
/// place an "unknown key" error points at).
package struct JSONMember: Sendable {
    package var key: String
    package var keyPosition: SourcePosition
    package var value: JSONValue

    package init(key: String, keyPosition: SourcePosition, value: JSONValue) {
        self.key = key
        self.keyPosition = keyPosition
        self.value = value
    }
}

/// A JSON object: its members in source order, with lookup by key. Keys are
/// unique; the parser refuses duplicates.
///
/// Most objects of a scene are small (a layer's dozen keys, an animation's
/// few): they are searched in order, which costs less than hashing every
/// key; an index by key is built only for objects larger than
/// `indexedCount`.
package struct JSONObject: Sendable {
    package private(set) var members: [JSONMember] = []
    private var indexByKey: [String: Int]?

    /// Objects with more members than this get an index by key.
    static let indexedCount = 16

    package init() {}

    package init(_ members: [JSONMember]) {
        self.members.reserveCapacity(members.count)
        for member in members { append(member) }
    }

    /// Adds a member; a member with the same key replaces the earlier one's
    /// value (the parser checks for duplicates before it gets here).
    package mutating func append(_ member: JSONMember) {
        if let i = index(of: member.key) {
            members[i] = member
            return
        }
        appendNew(member)
    }

    /// Adds a member whose key the object does not have yet (the parser
    /// has checked), without searching for it again.
    package mutating func appendNew(_ member: JSONMember) {
        // A layer has a handful of keys: one allocation, not one per doubling.
        if members.isEmpty { members.reserveCapacity(8) }
        members.append(member)
        if indexByKey != nil {
            indexByKey?[member.key] = members.count - 1
        } else if members.count > Self.indexedCount {
            indexByKey = Dictionary(uniqueKeysWithValues: members.enumerated().map { ($0.element.key, $0.offset) })
        }
    }

    private func index(of key: String) -> Int? {
        if let indexByKey { return indexByKey[key] }
        return members.firstIndex { $0.key == key }
    }

    package subscript(key: String) -> JSONValue? {
        index(of: key).map { members[$0].value }
    }

    func member(_ key: String) -> JSONMember? {
        index(of: key).map { members[$0] }
    }

    var keys: [String] { members.map(\.key) }
    var count: Int { members.count }
    var isEmpty: Bool { members.isEmpty }
}

// Building values in code (the encoder, tests) without positions.
extension JSONValue {
    package static func number(_ n: Double) -> JSONValue { JSONValue(.number(n)) }
    package static func string(_ s: String) -> JSONValue { JSONValue(.string(s)) }
    package static func bool(_ b: Bool) -> JSONValue { JSONValue(.bool(b)) }
    package static func array(_ a: [JSONValue]) -> JSONValue { JSONValue(.array(a)) }
    package static var null: JSONValue { JSONValue(.null) }

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
        let zero = SourcePosition(line: 0, column: 0)
        return JSONValue(.object(JSONObject(pairs.map { JSONMember(key: $0.0, keyPosition: zero, value: $0.1) })))
    }
}
