// The flat document behind `JSONValue`: strings with and without escapes,
// duplicate keys in small and large objects, key lookup by bytes, paths
// that name members lazily, and values built in code.
import Foundation
import Testing
@testable import LaminaJSON

private func parse(_ text: String) throws(JSONError) -> JSONValue {
    try JSONParser.parse(Array(text.utf8))
}

@Suite struct JSONDocumentTests {
    /// Strings with escapes are unescaped after the source bytes; those
    /// without point into the source. Both read back, as values and keys.
    @Test func escapedAndPlainStringsReadBack() throws {
        let root = try parse(#"{"plain": "abc", "tab\tkey": "a\"b\\c\u00e9\ud83d\ude00", "after": "xyz"}"#)
        let object = try #require(root.object)
        #expect(object["plain"]?.string == "abc")
        #expect(object["tab\tkey"]?.string == "a\"b\\cé😀")
        #expect(object["after"]?.string == "xyz")
        #expect(object.keys == ["plain", "tab\tkey", "after"])
    }

    /// A duplicate is found whether the object is small (searched in order)
    /// or large (hashed), and whether the keys were escaped or not.
    @Test func duplicatesAreFoundInSmallLargeAndEscapedKeys() throws {
        for count in [2, 16, 17, 40] {
            var members = (0..<count).map { "\"k\($0)\": \($0)" }
            members.append("\"k\(count / 2)\": 0")
            let text = "{" + members.joined(separator: ", ") + "}"
            do {
                _ = try parse(text)
                Issue.record("\(count) keys: the duplicate was not found")
            } catch {
                #expect(error.kind == .duplicateKey, "\(count) keys")
                #expect(error.location == "$.k\(count / 2)", "\(count) keys")
            }
        }
        // "\u0061" is "a": the same key spelled two ways.
        do {
            _ = try parse(#"{"ab": 1, "\u0061b": 2}"#)
            Issue.record("an escaped duplicate was not found")
        } catch {
            #expect(error.kind == .duplicateKey)
        }
        // Large objects without duplicates parse, escaped keys included.
        let many = (0..<40).map { "\"k\\u0020\($0)\": \($0)" }.joined(separator: ", ")
        #expect(try parse("{" + many + "}").object?["k 39"]?.number == 39)
    }

    /// The key table finds every name it was given by its bytes, and
    /// nothing else, whatever collides in its slots.
    @Test func keyTableFindsExactlyItsNames() throws {
        let names = ["bounds", "position", "anchorPoint", "anchorPointZ", "zPosition", "transform", "sublayerTransform",
                     "opacity", "hidden", "backgroundColor", "cornerRadius", "borderWidth", "borderColor", "shadowColor",
                     "shadowOpacity", "shadowOffset", "shadowRadius", "shadowPath", "contentsRect", "contentsCenter",
                     "masksToBounds", "doubleSided", "name", "type", "sublayers", "mask", "animations",
                     "", "a", "b", "ab", "ba"]
        let table = JSONKeyTable(names.enumerated().map { ($0.element, $0.offset) })
        let text = "{" + (names + ["abc", "opacit", "opacityX", "Opacity"]).map { "\"\($0)\": 0" }.joined(separator: ", ") + "}"
        let object = try #require(try parse(text).object)
        for member in object.members {
            #expect(table[member] == names.firstIndex(of: member.key), "\(member.key)")
        }
        #expect(table[try parse(#""bounds""#)] == names.firstIndex(of: "bounds"))
        #expect(table[try parse("3")] == nil)
    }

    /// A path names members by their key nodes and writes them only when
    /// asked, the same way as keys given as strings.
    @Test func pathsNameMembersLazily() throws {
        let object = try #require(try parse(#"{"a b": {"c": [1, 2]}}"#).object)
        let member = object.members[0]
        let inner = try #require(member.value.object).members[0]
        let path = (JSONPath.root / member / inner).shared / 1
        #expect(path.description == #"$["a b"].c[1]"#)
        #expect(path.description == (JSONPath.root / "a b" / "c" / 1).description)
        #expect(path.lastKey == "c")
    }

    /// Values built in code keep their positions; a later member with an
    /// earlier member's key replaces its value in its place.
    @Test func builtValuesKeepPositionsAndReplaceDuplicatesInPlace() throws {
        let p = SourcePosition(line: 3, column: 4)
        let value = JSONValue.object(members: [
            ("a", .number(1), SourcePosition(line: 1, column: 1)),
            ("b", .array([.string("x")], at: p), SourcePosition(line: 2, column: 2)),
            ("a", .number(2), SourcePosition(line: 5, column: 5)),
        ], at: SourcePosition(line: 1, column: 1))
        let object = try #require(value.object)
        #expect(object.keys == ["a", "b"])
        #expect(object["a"]?.number == 2)
        #expect(object.members[0].keyPosition == SourcePosition(line: 5, column: 5))
        #expect(object["b"]?.position == p)
        #expect(object["b"]?.array?.first?.string == "x")
        let moved = value.placed(at: SourcePosition(line: 9, column: 9))
        #expect(moved.position == SourcePosition(line: 9, column: 9))
        #expect(moved.object?["b"]?.position == p)
    }

    /// Positions of a parsed document are worked out from its line starts:
    /// the same as counting by hand, on every line.
    @Test func positionsComeFromLineStarts() throws {
        let text = "{\n  \"a\": [1,\n\t\"é\", {\"b\": null}],\r\n \"c\": true}"
        let object = try #require(try parse(text).object)
        let a = try #require(object["a"]?.array)
        #expect(object.members[0].keyPosition == SourcePosition(line: 2, column: 3))
        #expect(a[0].position == SourcePosition(line: 2, column: 9))
        #expect(a[1].position == SourcePosition(line: 3, column: 2))
        #expect(a[2].position == SourcePosition(line: 3, column: 7))
        #expect(a[2].object?["b"]?.position == SourcePosition(line: 3, column: 13))
        #expect(object["c"]?.position == SourcePosition(line: 4, column: 7))
    }

    /// Names of the same length told apart by any byte: short names byte by
    /// byte, 8 to 16 bytes by two overlapping words, longer ones in full.
    @Test func keyTableTellsApartNamesThatDifferAnywhere() throws {
        var names: [String] = []
        for length in [3, 8, 9, 12, 16, 17, 24] {
            let base = Array(repeating: UInt8(ascii: "k"), count: length)
            for place in 0..<length {
                var bytes = base
                bytes[place] = UInt8(ascii: "Z")
                names.append(String(decoding: bytes, as: UTF8.self))
            }
            names.append(String(decoding: base, as: UTF8.self))
        }
        let table = JSONKeyTable(names.enumerated().map { ($0.element, $0.offset) })
        let text = "{" + (names + ["kkkkkkkkkkkkkkkkkY", "kk"]).map { "\"\($0)\": 0" }.joined(separator: ", ") + "}"
        for member in try #require(try parse(text).object).members {
            #expect(table[member] == names.firstIndex(of: member.key), "\(member.key)")
        }
    }
}
