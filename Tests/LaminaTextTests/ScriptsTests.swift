import Foundation
import LaminaCore
import Testing
@testable import LaminaText

/// Whether a family is installed (the tests of scripts and emoji need
/// Debian's fonts-noto-color-emoji and fonts-wqy-microhei, which
/// scripts/setup/install-packages.sh installs).
func isInstalled(_ family: String) -> Bool {
    (try? FontDatabase().faces(inFamily: family).isEmpty == false) ?? false
}

@Suite("Every script: emoji, CJK, bidi and wrapping together")
struct ScriptsTests {
    static let hasEmoji = isInstalled("Noto Color Emoji")
    static let hasCJK = isInstalled("WenQuanYi Micro Hei") || isInstalled("Noto Sans CJK SC")

    @Test("Emoji draw in colour from the emoji font, the letters around them in the text's colour",
          .enabled(if: hasEmoji, "Noto Color Emoji is not installed (fonts-noto-color-emoji)"))
    func colourEmoji() throws {
        let layer = textLayer("A👍🏽B🇫🇷", width: 240, height: 60, font: "Helvetica", size: 32, scale: 2)
        let line = try #require(try layout(layer).lines.first)
        let thumb = try #require(line.glyphs.first { $0.sourceIndex == 1 })
        let flag = try #require(line.glyphs.first { $0.sourceIndex == 4 })
        #expect(thumb.fontFamily == "Noto Color Emoji" && flag.fontFamily == "Noto Color Emoji")
        // One glyph each: the skin tone and the flag's two letters are one cluster, one picture.
        #expect(line.glyphs.filter { $0.sourceIndex == 1 || $0.sourceIndex == 2 }.count == 1)
        #expect(line.glyphs.filter { $0.sourceIndex == 4 || $0.sourceIndex == 5 }.count == 1)
        let picture = try image(layer)
        func box(_ g: TextGlyph) -> CGRect { CGRect(x: Double(g.position.x) * 2, y: 0, width: g.advance * 2, height: Double(picture.height)) }
        let coloured = picture.pixels(in: box(thumb)) { p in
            p.alpha > 200 && max(p.red, p.green, p.blue) - min(p.red, p.green, p.blue) > 60
        }
        #expect(coloured.count > 200, "the thumb is a colour picture, not ink")
        let letter = try #require(line.glyphs.first { $0.sourceIndex == 0 })
        #expect(picture.pixels(in: box(letter)) { $0.isDarkInk }.count > 50)
        #expect(picture.pixels(in: box(letter)) { p in p.alpha > 200 && max(p.red, p.green, p.blue) > 90 }.isEmpty)
    }

    @Test("A huge emoji (400 points at 2x, far above the font's 109-pixel pictures) is drawn, smoothly",
          .enabled(if: hasEmoji, "Noto Color Emoji is not installed (fonts-noto-color-emoji)"))
    func hugeEmoji() throws {
        let picture = try image(textLayer("👍", width: 900, height: 900, font: "Helvetica", size: 400, scale: 2))
        let coloured = picture.pixels { p in p.alpha > 200 && max(p.red, p.green, p.blue) - min(p.red, p.green, p.blue) > 60 }
        #expect(coloured.count > 100_000)
    }

    @Test("An emoji-presentation character is a picture even where a text font has it; VS15 asks for text",
          .enabled(if: hasEmoji, "Noto Color Emoji is not installed (fonts-noto-color-emoji)"))
    func emojiPresentation() throws {
        let fonts = try FontSystem()
        // DejaVu Sans has U+1F600 in outline.
        #expect(try fonts.face(for: ["\u{1F600}"], fontName: "DejaVu Sans").familyName == "Noto Color Emoji")
        #expect(try fonts.face(for: ["\u{1F600}", "\u{FE0E}"], fontName: "DejaVu Sans").familyName == "DejaVu Sans")
        #expect(try fonts.face(for: ["\u{2764}", "\u{FE0F}"], fontName: "DejaVu Sans").familyName == "Noto Color Emoji")
        #expect(try fonts.face(for: ["\u{2764}"], fontName: "DejaVu Sans").familyName == "DejaVu Sans")
        #expect(FontSystem.wantsEmojiPresentation(["\u{1F1EB}", "\u{1F1F7}"]))
    }

    @Test("Mixed Latin, Hebrew, Arabic, CJK and emoji wrap by Unicode's rules and read in bidi order",
          .enabled(if: hasEmoji && hasCJK, "Noto Color Emoji or a CJK font is not installed"))
    func mixedScripts() throws {
        let text = "Hello שלום עולם 123 مرحبا 你好，世界。こんにちは 😀👍🏽🇫🇷 naïve"
        let scalars = Array(text.unicodeScalars)
        for width in stride(from: 90.0, through: 330.0, by: 30.0) {
            let layer = textLayer(text, width: width, height: 400, font: "Helvetica", size: 18, wrapped: true)
            let lines = try layout(layer).lines
            // Every line fits (a line of one unbreakable cluster may not).
            for line in lines where line.glyphs.count > 1 {
                #expect(line.width <= width + 1e-6, "width \(width): \(line.text) is \(line.width) wide")
            }
            // No line starts inside a grapheme cluster, or with closing CJK punctuation.
            var clusterStarts: Set<Int> = []
            var i = 0
            for character in text {
                clusterStarts.insert(i)
                i += character.unicodeScalars.count
            }
            for line in lines.dropFirst() {
                let first = try #require(line.glyphs.map(\.sourceIndex).min())
                #expect(clusterStarts.contains(first), "width \(width): a line starts inside a cluster at \(first)")
                #expect(!["，", "。"].contains(Character(scalars[first])), "width \(width): a line starts with \(scalars[first])")
            }
        }
        // Unwrapped: the Hebrew words read right to left within the
        // left-to-right line (the first Hebrew letter is the rightmost of
        // its run), and the number inside stays left to right.
        let line = try #require(try layout(textLayer(text, width: 2000, height: 60, font: "Helvetica", size: 18)).lines.first)
        func x(_ index: Int) throws -> Double { Double(try #require(line.glyphs.first { $0.sourceIndex == index }).position.x) }
        let shin = 6, lastMem = 14, one = 16, three = 18
        #expect(try x(shin) > x(lastMem))
        #expect(try x(one) < x(three))
        #expect(try x(0) < x(lastMem))
        #expect(!line.isRightToLeft)
    }
}
