import Foundation
import LaminaCore
import Testing
@testable import LaminaText

@Suite("Edge cases")
struct EdgeCaseTests {
    @Test("No text, empty text or empty bounds draw nothing")
    func nothing() throws {
        let r = try renderer()
        #expect(try r.layout(of: textLayer(nil)) == nil)
        #expect(try r.layout(of: textLayer(42)) == nil, "only strings and attributed strings are text")
        #expect(try r.makeImage(of: textLayer("")) == nil)
        #expect(try r.makeImage(of: textLayer("   ")) == nil)
        #expect(try r.makeImage(of: textLayer("Hi", width: 0, height: 20)) == nil)
        #expect(r.image(for: textLayer("Hi", width: 20, height: 0), scale: 1) == nil)
    }

    @Test("Sizes far too small or large to draw are laid out and not drawn, without trouble")
    func extremeSizes() throws {
        let tiny = try layout(textLayer("tiny", size: 0.001))
        #expect(tiny.lines[0].width > 0 && tiny.lines[0].width < 0.01)
        let huge = textLayer("H", width: 100, height: 100, size: 1_000_000)
        #expect(try layout(huge).lines[0].width > 100_000)
        let image = try renderer().makeImage(of: huge)
        #expect(image.map { $0.pixels { $0.alpha > 0 }.isEmpty } ?? true)
    }

    @Test("A backing image over the size limit is an error that says so")
    func tooLarge() throws {
        let layer = textLayer("big", width: 20_000, height: 10)
        #expect {
            _ = try renderer().makeImage(of: layer)
        } throws: { error in
            String(describing: error).contains("too large")
        }
        #expect(try renderer().image(for: layer, scale: Double(layer.contentsScale)) == nil)
    }

    @Test("Attributed ranges count UTF-16 units, as NSAttributedString does, past characters outside the BMP")
    func utf16Ranges() throws {
        let string = NSMutableAttributedString(string: "😀 red")
        // The emoji is two UTF-16 units: "red" is at 3..<6.
        string.addAttribute(TextRunAttribute.foregroundColor, value: UIColor.red.cgColor,
                            range: NSRange(location: 3, length: 3))
        let line = try #require(try layout(textLayer(string)).lines.first)
        for glyph in line.glyphs {
            // Scalars: 0 emoji, 1 space, 2...4 "red".
            #expect((glyph.color == UIColor.red.cgColor) == (glyph.sourceIndex >= 2))
        }
    }

    @Test("A long text wraps in reasonable time")
    func longText() throws {
        let words = (0..<4000).map { "word\($0)" }.joined(separator: " ")
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            let lines = try layout(textLayer(words, width: 400, height: 100, wrapped: true)).lines
            #expect(lines.count > 100)
        }
        #expect(elapsed < .seconds(5))
    }
}
