// The JSON reader: positions, strictness, errors with line and column, and
// nesting without recursion.
import Foundation
import Testing
import LaminaGeometry
@testable import LaminaJSON

private func parse(_ text: String, maxNesting: Int = 512) throws(JSONError) -> JSONValue {
    try JSONParser.parse(Array(text.utf8), maxNesting: maxNesting)
}

/// The error the text gives, or nil when it parses.
private func failure(_ text: String, maxNesting: Int = 512) -> JSONError? {
    do {
        _ = try parse(text, maxNesting: maxNesting)
        return nil
    } catch {
        return error
    }
}

@Suite struct JSONParserTests {
    /// Numbers read by the fast path (few digits, small exponents) are the
    /// same doubles as the standard library's correctly rounded reading, bit
    /// for bit, for every shape of number: integers, fractions, exponents,
    /// negative zero, and many digits (the slow path).
    @Test func numbersAreReadExactlyAsDoubleReadsThem() throws {
        var random = SeededRandom(seed: 11)
        var texts = ["0", "-0", "0.0", "-0.0", "1e22", "1e23", "9007199254740993", "123456789012345", "1234567890123456",
                     "0.1", "0.2", "0.3", "2.5e-3", "1E+2", "-1.5e-22", "4.35", "1e-22", "123.456e-20", "100000000000000000000000"]
        for _ in 0..<20_000 {
            var text = Bool.random(using: &random) ? "-" : ""
            let whole = Int.random(in: 0...17, using: &random)
            text += whole == 0 ? "0" : String(Int.random(in: 1...9, using: &random)) + (0..<(whole - 1)).map { _ in String(Int.random(in: 0...9, using: &random)) }.joined()
            if Bool.random(using: &random) {
                text += "." + (0..<Int.random(in: 1...12, using: &random)).map { _ in String(Int.random(in: 0...9, using: &random)) }.joined()
            }
            if Int.random(in: 0...3, using: &random) == 0 {
                text += ["e", "E"].randomElement(using: &random)! + ["", "+", "-"].randomElement(using: &random)! + String(Int.random(in: 0...30, using: &random))
            }
            texts.append(text)
        }
        for text in texts {
            let parsed = try JSONParser.parse(Array("[\(text)]".utf8))
            guard case .array(let values) = parsed.kind, let number = values.first?.number else {
                Issue.record("\(text) did not parse as a number")
                continue
            }
            let expected = try #require(Double(text))
            #expect(number.bitPattern == expected.bitPattern, "\(text): \(number) against \(expected)")
        }
    }

    /// The shortest text of a double (what generators write: 16 or 17
    /// significant digits) reads back as that double through the exact
    /// check, not strtod; so do texts one digit off, next to powers of two
    /// and around halfway points.
    @Test func longDecimalsAreReadExactly() throws {
        var random = SeededRandom(seed: 17)
        var texts: [String] = []
        for _ in 0..<40_000 {
            let magnitude = Double.random(in: -8...8, using: &random)
            let value = Double.random(in: 1..<10, using: &random) * pow(10, magnitude.rounded())
            texts.append(value.description)
            // The last digit moved by one: no longer the shortest text of any double.
            var digits = Array(value.description)
            if let last = digits.lastIndex(where: \.isNumber), let d = digits[last].wholeNumberValue {
                digits[last] = Character(String((d + 1) % 10))
                texts.append(String(digits))
            }
        }
        for k in -60...60 {
            let power = pow(2.0, Double(k))
            texts += [power, power.nextDown, power.nextUp].map(\.description)
        }
        // Near halfway between neighbours, written with 17 to 19 significant digits.
        for _ in 0..<5_000 {
            let d = Double.random(in: 0.001..<1000, using: &random)
            let mid = (d + d.nextUp) / 2
            texts.append(String(format: "%.18g", mid))
            texts.append(String(format: "%.17g", (d + mid) / 2))
        }
        for text in texts where !text.contains("e") && !text.contains("inf") {
            let parsed = try JSONParser.parse(Array("[\(text)]".utf8))
            let number = try #require(parsed.array?.first?.number)
            let expected = try #require(Double(text))
            #expect(number.bitPattern == expected.bitPattern, "\(text): \(number) against \(expected)")
        }
    }

    /// Columns count Unicode scalars on long lines of mixed text too (they
    /// are counted eight bytes at a time).
    @Test func columnsCountScalarsOnLongMixedLines() throws {
        var random = SeededRandom(seed: 23)
        let pieces = ["a", "é", "😀", "漢", " ", "xyz", "ü"]
        for _ in 0..<50 {
            let text = (0..<Int.random(in: 0...60, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            let prefix = "{\"s\": \"\(text)\", \"n\": "
            let value = try parse(prefix + "5}")
            let n = try #require(value.object?["n"])
            #expect(n.position == SourcePosition(line: 1, column: prefix.unicodeScalars.count + 1), "\(text)")
        }
    }

    @Test func readsEveryKindOfValue() throws {
        let v = try parse(#"{"a": [1, -2.5, 3e2, 0.125E-1], "b": true, "c": false, "d": null, "e": "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"}"#)
        let o = try #require(v.object)
        #expect(o.keys == ["a", "b", "c", "d", "e"])
        #expect(o["a"]?.array?.compactMap(\.number) == [1, -2.5, 300, 0.0125])
        if case .bool(true) = o["b"]?.kind {} else { Issue.record("b") }
        if case .bool(false) = o["c"]?.kind {} else { Issue.record("c") }
        #expect(o["d"]?.isNull == true)
        #expect(o["e"]?.string == "x\"\\/\u{08}\u{0C}\n\r\té😀")
    }

    @Test func keepsLineAndColumnOfEveryValue() throws {
        let text = "{\n  \"a\": 1,\n  \"héllo\": [true,\n    \"é\", 7]\n}"
        let o = try #require(try parse(text).object)
        #expect(o["a"]?.position == SourcePosition(line: 2, column: 8))
        #expect(o.member("héllo")?.keyPosition == SourcePosition(line: 3, column: 3))
        let array = try #require(o["héllo"]?.array)
        #expect(o["héllo"]?.position == SourcePosition(line: 3, column: 12))
        #expect(array[0].position == SourcePosition(line: 3, column: 13))
        #expect(array[1].position == SourcePosition(line: 4, column: 5))
        // Columns count characters: "é" is one column, though two bytes.
        #expect(array[2].position == SourcePosition(line: 4, column: 10))
    }

    @Test func acceptsByteOrderMarkAndSurroundingWhitespace() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(" \r\n\t[1]\n ".utf8)
        #expect(try JSONParser.parse(bytes).array?.count == 1)
    }

    @Test func refusesNaNAndInfinityAsNonFinite() {
        for text in ["[NaN]", "[Infinity]", "[-Infinity]", "[1e400]", "[-1e309]"] {
            let e = failure(text)
            #expect(e?.kind == .nonFinite, "\(text)")
            #expect(e?.location == "$[0]", "\(text)")
            #expect(e?.position == SourcePosition(line: 1, column: 2), "\(text)")
        }
    }

    @Test func refusesDuplicateKeysSayingWhere() throws {
        let e = try #require(failure("{\"layers\": [{\"opacity\": 1,\n \"opacity\": 0.5}]}"))
        #expect(e.kind == .duplicateKey)
        #expect(e.location == "$.layers[0].opacity")
        #expect(e.position == SourcePosition(line: 2, column: 2))
        #expect(e.message.contains("first given at line 1, column 14"))
    }

    @Test func refusesTrailingGarbage() throws {
        let e = try #require(failure("{\"a\": 1}\n  x"))
        #expect(e.kind == .syntax)
        #expect(e.position == SourcePosition(line: 2, column: 3))
        #expect(e.message.contains("after the end of the document"))
        #expect(failure("[1] [2]")?.kind == .syntax)
    }

    @Test func reportsSyntaxErrorsWithLineAndColumn() throws {
        let cases: [(String, String, Int, Int, String)] = [
            ("", "$", 1, 1, "empty"),
            ("{\"a\": 1,}", "$", 1, 9, "trailing comma"),
            ("[1, 2,]", "$[2]", 1, 7, "trailing comma"),
            ("{\"a\" 1}", "$.a", 1, 6, "expected ':'"),
            ("{'a': 1}", "$", 1, 2, "expected a key in double quotes"),
            ("[1 2]", "$[1]", 1, 4, "expected ',' or ']'"),
            ("{\"a\": 1 \"b\": 2}", "$.a", 1, 9, "expected ',' or '}'"),
            ("[tru]", "$[0]", 1, 2, "'tru'"),
            ("[01]", "$[0]", 1, 2, "leading zero"),
            ("[1.]", "$[0]", 1, 4, "after the decimal point"),
            ("[.5]", "$[0]", 1, 2, "digit before the decimal point"),
            ("[1e+]", "$[0]", 1, 5, "exponent"),
            ("[-]", "$[0]", 1, 3, "expected a digit"),
            ("[+1]", "$[0]", 1, 2, "'+'"),
            ("[\"abc", "$[0]", 1, 6, "inside a string opened at line 1, column 2"),
            ("[\"a\nb\"]", "$[0]", 1, 4, "closing quote"),
            ("[\"\\x\"]", "$[0]", 1, 3, "unknown escape"),
            ("[\"\\u12G4\"]", "$[0]", 1, 7, "hex digits"),
            ("[\"\\ud800\"]", "$[0]", 1, 3, "lone surrogate"),
            ("[\"\\ud800\\u0041\"]", "$[0]", 1, 3, "lone surrogate"),
            ("[\"\\udc00\"]", "$[0]", 1, 3, "lone surrogate"),
            ("{\"a\": [1, {\"b\": }]}", "$.a[1].b", 1, 17, "expected a value, found '}'"),
            ("[1,\n  2,\n  ]", "$[2]", 3, 3, "trailing comma"),
            ("{\"a\": [1", "$.a[1]", 1, 9, "ends inside an array opened at line 1, column 7"),
            ("/* c */ {}", "$", 1, 1, "expected a value, found '/'"),
        ]
        for (text, location, line, column, words) in cases {
            let e = failure(text)
            #expect(e?.kind == .syntax, "\(text)")
            #expect(e?.location == location, "\(text): \(e?.description ?? "parsed")")
            #expect(e?.position == SourcePosition(line: line, column: column), "\(text): \(e?.description ?? "parsed")")
            #expect(e?.message.contains(words) == true, "\(text): \(e?.description ?? "parsed")")
        }
    }

    @Test func refusesInvalidUTF8() throws {
        for bad: [UInt8] in [[0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xE2, 0x82], [0xFF]] {
            let bytes = Array("[\"a".utf8) + bad + Array("\"]".utf8)
            #expect(throws: JSONError.self) { try JSONParser.parse(bytes) }
        }
        // Outside strings it is an unexpected character.
        #expect(throws: JSONError.self) { try JSONParser.parse([0x5B, 0xFF, 0x5D]) }
    }

    @Test func refusesDeepNestingWithoutRecursion() throws {
        // Far deeper than any recursive reader's stack would survive.
        let deep = String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000)
        let e = try #require(failure(deep))
        #expect(e.kind == .limitExceeded)
        #expect(e.message.contains("512"))
        #expect(e.position == SourcePosition(line: 1, column: 513))
        // Exactly at the limit is fine.
        let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(failure(ok, maxNesting: 64) == nil)
        #expect(failure(ok, maxNesting: 63)?.kind == .limitExceeded)
    }

    @Test func writerOutputReadsBackToTheSameValue() throws {
        let text = #"{"z": [1, 0.1, -0, 1e-05, 123456789012, 1.7976931348623157e308, 5e-324], "a": {"q": "\u0001\"\\ é\n", "r": []}, "m": [[1, 2], {}]}"#
        let v = try parse(text)
        for pretty in [true, false] {
            let written = JSONWriter(prettyPrinted: pretty).write(v)
            let again = try JSONParser.parse(Array(written.utf8))
            #expect(JSONWriter(prettyPrinted: pretty).write(again) == written)
            let numbers = try #require(again.object?["z"]?.array).compactMap(\.number)
            #expect(numbers == [1, 0.1, 0, 1e-05, 123456789012, 1.7976931348623157e308, 5e-324])
            #expect(again.object?["a"]?.object?["q"]?.string == "\u{01}\"\\ é\n")
        }
        #expect(JSONWriter.number(3) == "3")
        #expect(JSONWriter.number(-0.5) == "-0.5")
        #expect(JSONWriter.number(0.7853981633974483) == "0.7853981633974483")
    }
}

@Suite struct JSONNumberPlacementTests {
    /// A number reads the same wherever it is: in an array of numbers
    /// (read by their own loop), after an element that is not a number, and
    /// as an object's member; arrays that mix numbers with other values
    /// keep every element.
    @Test func numbersReadTheSameInEveryPlace() throws {
        let texts = ["0", "-0", "7", "-12", "0.5", "-0.25", "24", "123456789012345", "1234567890123456",
                     "0.30000000000000004", "1e3", "-2.5E-3", "9007199254740993", "100000000000000000000000"]
        for text in texts {
            let expected = try #require(Double(text)).bitPattern
            let places = ["[\(text)]", "[\(text), \(text)]", "[\"s\", \(text)]", "[[], \(text)]", "[ \(text) ,\n\(text) ]"]
            for place in places {
                let elements = try #require(try parse(place).array, "\(place)")
                #expect(elements.last?.number?.bitPattern == expected, "\(place)")
            }
            #expect(try parse("{\"n\": \(text)}").object?["n"]?.number?.bitPattern == expected, "\(text)")
        }
        let mixed = try #require(try parse("[1, -2.5, \"a\", [3, 4], {\"b\": 5}, null, 6]").array)
        #expect(mixed.count == 7)
        #expect(mixed[1].number == -2.5)
        #expect(mixed[2].string == "a")
        #expect(mixed[3].array?.map(\.number) == [3, 4])
        #expect(mixed[4].object?["b"]?.number == 5)
        #expect(mixed[5].isNull)
        #expect(mixed[6].number == 6)
        // The positions of numbers read by the loop are theirs.
        let spaced = try #require(try parse("[1,\n  22, 333]").array)
        #expect(spaced.map(\.position) == [SourcePosition(line: 1, column: 2), SourcePosition(line: 2, column: 3),
                                           SourcePosition(line: 2, column: 7)])
    }

    /// Strings are scanned eight bytes at a time: a quote, backslash,
    /// control character or non-ASCII byte is found at every place in and
    /// across those words.
    @Test func stringsAreReadWhateverTheirLengthAndWhereverTheirSpecialBytes() throws {
        for length in 0..<20 {
            let plain = String(repeating: "a", count: length)
            #expect(try parse("[\"\(plain)\"]").array?.first?.string == plain)
            #expect(try parse("[\"\(plain)é\(plain)\"]").array?.first?.string == plain + "é" + plain)
            #expect(try parse("[\"\(plain)\\n\(plain)\"]").array?.first?.string == plain + "\n" + plain)
            #expect(try parse("[\"\(plain)\\\"\(plain)\"]").array?.first?.string == plain + "\"" + plain)
            #expect(try parse("[\"\(plain)\u{7F}~ \"]").array?.first?.string == plain + "\u{7F}~ ")
            let e = failure("[\"\(plain)\u{1}\(plain)\"]")
            #expect(e?.position == SourcePosition(line: 1, column: 3 + length), "\(length)")
            #expect(e?.message.contains("control character") == true)
            let open = failure("[\"\(plain)")
            #expect(open?.message.contains("ends inside a string") == true, "\(length)")
        }
    }
}
