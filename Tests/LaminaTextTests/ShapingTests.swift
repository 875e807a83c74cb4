import Foundation
import LaminaCore
import Testing
@testable import LaminaText

@Suite("Shaping and direction")
struct ShapingTests {
    @Test("Hebrew reads right to left: glyphs reversed, natural alignment on the right")
    func hebrew() throws {
        let text = "שלום עולם"
        let line = try #require(try layout(textLayer(text, width: 300, height: 60)).lines.first)
        #expect(line.isRightToLeft)
        #expect(abs(line.maxX - 300) < epsilon)
        let order = line.glyphs.map(\.sourceIndex)
        #expect(order == Array((0..<text.unicodeScalars.count).reversed()))
        // Left alignment still puts it on the left.
        let left = try #require(try layout(textLayer(text, width: 300, height: 60, alignment: .left)).lines.first)
        #expect(abs(Double(left.origin.x)) < epsilon)
    }

    @Test("Mixed text: a Hebrew word inside English is reversed in place")
    func mixed() throws {
        let text = "abc שלום def"
        let line = try #require(try layout(textLayer(text, width: 300, height: 60)).lines.first)
        #expect(!line.isRightToLeft && abs(Double(line.origin.x)) < epsilon)
        #expect(line.glyphs.map(\.sourceIndex) == [0, 1, 2, 3, 7, 6, 5, 4, 8, 9, 10, 11])
    }

    @Test("English and digits inside a Hebrew paragraph keep their own order")
    func embeddedLeftToRight() throws {
        let text = "שלום abc 123 עולם"
        let line = try #require(try layout(textLayer(text, width: 300, height: 60)).lines.first)
        #expect(line.isRightToLeft)
        let order = line.glyphs.map(\.sourceIndex)
        // Digits after Latin letters join them (W7), so visually, left to
        // right: "עולם" reversed, "abc 123" in reading order, "שלום"
        // reversed.
        #expect(order == [16, 15, 14, 13, 12, 5, 6, 7, 8, 9, 10, 11, 4, 3, 2, 1, 0])
        // Digits after Hebrew form a left-to-right number within it.
        let number = try #require(try layout(textLayer("שלום 123 עולם", width: 300, height: 60)).lines.first)
        #expect(number.glyphs.map(\.sourceIndex) == [12, 11, 10, 9, 8, 5, 6, 7, 4, 3, 2, 1, 0])
    }

    @Test("Levels and reordering of the simplified bidi")
    func levels() {
        let (base, levels) = Bidi.levels(of: Array("ab אב 12".unicodeScalars))
        #expect(base == 0)
        // The space between Hebrew and a number takes the number's
        // right-to-left influence (N1).
        #expect(levels == [0, 0, 0, 1, 1, 1, 2, 2])
        #expect(Bidi.levels(of: Array("אב 12, ab".unicodeScalars)).levels == [1, 1, 1, 2, 2, 1, 1, 2, 2])
        #expect(Bidi.levels(of: Array("123".unicodeScalars)).paragraph == 0)
        #expect(Bidi.visualOrder([0, 1, 1, 0]) == [0, 2, 1, 3])
        #expect(Bidi.visualOrder([1, 2, 2, 1]) == [3, 1, 2, 0])
    }

    @Test("Arabic letters join: a letter's glyph depends on its neighbours")
    func arabicJoining() throws {
        let isolated = try #require(try layout(textLayer("\u{0628}", width: 200, height: 60)).lines.first)
        let joined = try #require(try layout(textLayer("\u{0628}\u{0628}\u{0628}", width: 200, height: 60)).lines.first)
        #expect(joined.isRightToLeft && joined.glyphs.count == 3)
        let forms = Set(joined.glyphs.map(\.glyphID))
        #expect(forms.count == 3, "initial, medial and final forms differ")
        #expect(!forms.contains(isolated.glyphs[0].glyphID))
    }

    @Test("Kerning pulls a pair together")
    func kerning() throws {
        func width(_ s: String) throws -> Double { try #require(try layout(textLayer(s)).lines.first).width }
        #expect(try width("AV") < width("A") + width("V") - 0.5)
    }

    @Test("A combining mark sits on its letter and the pair is one cluster")
    func combiningMark() throws {
        let line = try #require(try layout(textLayer("e\u{0301}x", size: 40)).lines.first)
        #expect(line.text == "e\u{0301}x")
        let e = try #require(line.glyphs.first { $0.sourceIndex == 0 })
        let others = line.glyphs.filter { $0.sourceIndex == 0 }
        let x = try #require(line.glyphs.first { $0.sourceIndex == 2 })
        #expect(others.count <= 2)
        for glyph in others {
            #expect(glyph.position.x >= e.position.x - 10 && glyph.position.x < x.position.x)
        }
    }
}
