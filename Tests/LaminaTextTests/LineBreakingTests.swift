import Foundation
import LaminaCore
import Testing
@testable import LaminaText

@Suite("Line breaking")
struct LineBreakingTests {
    @Test("Words wrap at the width, each line fits, no word is split")
    func wordsWrap() throws {
        let text = "The quick brown fox jumps over the lazy dog and runs far away"
        let layer = textLayer(text, width: 150, height: 400, wrapped: true)
        let lines = try layout(layer).lines
        #expect(lines.count >= 3)
        for line in lines { #expect(line.width <= 150 + epsilon) }
        #expect(lines.map(\.text).joined(separator: " ") == text)
        // Greedy: the first word of each line would not have fitted on the
        // line before.
        let spaceAndWord = try layout(textLayer(" " + (lines[1].text.split(separator: " ").first.map(String.init) ?? ""),
                                                 width: 1000, height: 100)).lines[0].width
        #expect(lines[0].width + spaceAndWord > 150)
    }

    @Test("A word wider than the line breaks between characters")
    func longWordBreaks() throws {
        let word = "Pneumonoultramicroscopicsilicovolcanoconiosis"
        let lines = try layout(textLayer("an \(word) here", width: 120, height: 600, wrapped: true)).lines
        #expect(lines.count >= 4)
        for line in lines {
            #expect(line.width <= 120 + epsilon)
            #expect(!line.text.isEmpty)
        }
        #expect(lines.first?.text == "an")
        // The word's pieces, in order, make the word.
        let pieces = lines.dropFirst().map { $0.text.replacingOccurrences(of: " here", with: "") }
        #expect(pieces.joined() == word)
    }

    @Test("Without wrapping, each paragraph is one line, however wide")
    func unwrappedParagraphs() throws {
        let lines = try layout(textLayer("one two three four five six\nseven\r\neight", width: 50)).lines
        #expect(lines.map(\.text) == ["one two three four five six", "seven", "eight"])
        #expect(lines[0].width > 50)
    }

    @Test("Lines stack from the top, ascent + descent + line gap apart")
    func lineSpacing() throws {
        let lines = try layout(textLayer("a\nb\n\nc", size: 30)).lines
        #expect(lines.count == 4)
        let first = lines[0]
        #expect(abs(Double(first.origin.y) - first.ascent) < epsilon)
        // DejaVu Sans: ascender 1901, descender -483, height 2384 (no gap)
        // per 2048 units.
        #expect(abs(first.ascent - 30 * 1901 / 2048) < 1e-9)
        #expect(abs(first.descent - 30 * 483 / 2048) < 1e-9)
        for k in 1..<lines.count {
            let step = Double(lines[k].origin.y - lines[k - 1].origin.y)
            #expect(abs(step - (lines[k - 1].descent + lines[k - 1].leading + lines[k].ascent)) < epsilon)
        }
        // The empty paragraph keeps its line.
        #expect(lines[2].text.isEmpty && lines[2].glyphs.isEmpty)
    }

    @Test("Breaks come after hyphens inside words and never inside a cluster")
    func hyphensAndClusters() throws {
        let lines = try layout(textLayer("well-known e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}", width: 60, height: 400,
                                         wrapped: true)).lines
        #expect(lines.first?.text == "well-")
        for line in lines where line.text.unicodeScalars.first == "\u{301}" {
            Issue.record("a line starts with a combining mark: \(line.text)")
        }
    }
}
