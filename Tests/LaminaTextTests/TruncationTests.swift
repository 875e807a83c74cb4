import Foundation
import LaminaCore
import Testing
@testable import LaminaText

@Suite("Truncation")
struct TruncationTests {
    let text = "The quick brown fox jumps over the lazy dog"
    let width: CGFloat = 140

    func line(_ mode: CATextLayerTruncationMode) throws -> TextLine {
        let lines = try layout(textLayer(text, width: width, height: 100, truncation: mode)).lines
        #expect(lines.count == 1)
        return try #require(lines.first)
    }

    @Test("End keeps the start of the line and ends in an ellipsis that fits")
    func end() throws {
        let line = try line(.end)
        #expect(line.isTruncated)
        #expect(line.text.hasSuffix("\u{2026}"))
        let kept = String(line.text.dropLast())
        #expect(kept.count >= 5 && text.hasPrefix(kept) && !kept.hasSuffix(" "))
        #expect(line.width <= Double(width) + epsilon)
        #expect(line.glyphs.last?.isEllipsis == true)
        #expect(line.glyphs.last?.sourceIndex == kept.unicodeScalars.count, "the ellipsis stands for the text it hides")
        // One more character would not have fitted.
        let longer = try layout(textLayer(String(text.prefix(kept.count + 1)) + "\u{2026}", width: 1000, height: 100))
        #expect(longer.lines[0].width > Double(width) || text.dropFirst(kept.count).first == " ")
    }

    @Test("Start keeps the end of the line after an ellipsis")
    func start() throws {
        let line = try line(.start)
        #expect(line.text.hasPrefix("\u{2026}"))
        let kept = String(line.text.dropFirst())
        #expect(kept.count >= 5 && text.hasSuffix(kept) && !kept.hasPrefix(" "))
        #expect(line.width <= Double(width) + epsilon)
        #expect(line.glyphs.first?.isEllipsis == true)
    }

    @Test("Middle keeps both ends around an ellipsis")
    func middle() throws {
        let line = try line(.middle)
        let parts = line.text.split(separator: "\u{2026}", omittingEmptySubsequences: false).map(String.init)
        #expect(parts.count == 2)
        #expect(text.hasPrefix(parts[0]) && text.hasSuffix(parts[1]))
        #expect(!parts[0].isEmpty && !parts[1].isEmpty)
        #expect(line.width <= Double(width) + epsilon)
        // The ellipsis sits between the two ends.
        let ellipsis = try #require(line.glyphs.firstIndex { $0.isEllipsis })
        #expect(ellipsis > 0 && ellipsis < line.glyphs.count - 1)
    }

    @Test("No truncation, or text that fits, shows every character")
    func noTruncation() throws {
        let none = try layout(textLayer(text, width: width, height: 100)).lines[0]
        #expect(none.text == text && !none.isTruncated && none.width > Double(width))
        let fits = try layout(textLayer("lazy dog", width: width, height: 100, truncation: .end)).lines[0]
        #expect(fits.text == "lazy dog" && !fits.isTruncated)
    }

    @Test("Wrapped text truncates its last visible line and drops the rest")
    func wrappedLastLine() throws {
        let long = Array(repeating: text, count: 4).joined(separator: " ")
        // DejaVu Sans at 20 points: lines 23.28 points apart; 60 points of
        // height show two whole lines.
        let lines = try layout(textLayer(long, width: 200, height: 60, wrapped: true, truncation: .end)).lines
        #expect(lines.count == 2)
        #expect(!lines[0].isTruncated && lines[1].isTruncated)
        #expect(lines[1].text.hasSuffix("\u{2026}"))
        #expect(lines[1].width <= 200 + epsilon)
        let full = try layout(textLayer(long, width: 200, height: 60, wrapped: true)).lines
        #expect(full.count > 2, "without truncation every line is laid out (and clipped when drawn)")
        #expect(lines[1].text.dropLast().hasPrefix(full[1].text.prefix(3)))
    }

    @Test("Truncated right-to-left text puts the ellipsis on the left")
    func rightToLeft() throws {
        let hebrew = "שלום עולם ומלואו ברוכים הבאים לכולם"
        let line = try layout(textLayer(hebrew, width: 120, height: 100, truncation: .end)).lines[0]
        #expect(line.isTruncated && line.isRightToLeft)
        #expect(line.glyphs.first?.isEllipsis == true)
        #expect(abs(line.maxX - 120) < epsilon)
    }
}
