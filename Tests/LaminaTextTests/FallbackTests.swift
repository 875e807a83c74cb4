import Foundation
import LaminaCore
import Testing
@testable import LaminaText

/// A character the primary face of a font lacks and another installed face
/// has, if the machine has such a pair.
struct FallbackProbe: Sendable {
    let font: String
    let character: Unicode.Scalar

    static let found: FallbackProbe? = {
        guard let fonts = try? FontSystem() else { return nil }
        let characters: [Unicode.Scalar] = ["\u{05D0}", "\u{4E2D}", "\u{2603}", "\u{0627}", "\u{03A9}", "\u{2211}", "\u{0416}"]
        for font in ["Liberation Sans", "Liberation Serif", "DejaVu Sans Mono", "DejaVu Serif", "DejaVu Sans"] {
            guard let primary = try? fonts.primaryFace(fontName: font) else { continue }
            for c in characters where !primary.hasGlyph(for: c) {
                if let other = try? fonts.face(for: [c], fontName: font), other !== primary, other.hasGlyph(for: c) {
                    return FallbackProbe(font: font, character: c)
                }
            }
        }
        return nil
    }()
}

@Suite("Font fallback and names")
struct FallbackTests {
    @Test("A character missing from the font is drawn from another installed font",
          .enabled(if: FallbackProbe.found != nil,
                   "no installed font pair where one lacks a Hebrew, CJK, snowman, Arabic, Greek, ∑ or Cyrillic letter another has"))
    func fallback() throws {
        let probe = try #require(FallbackProbe.found)
        let string = "A\(probe.character)B"
        let layer = textLayer(string, width: 200, height: 60, font: probe.font, size: 30, scale: 2)
        let line = try #require(try layout(layer).lines.first)
        let latin = try #require(line.glyphs.first { $0.sourceIndex == 0 })
        let fallback = try #require(line.glyphs.first { $0.sourceIndex == 1 })
        #expect(fallback.glyphID != 0, "the fallback face has a real glyph for U+\(String(probe.character.value, radix: 16))")
        #expect(fallback.fontFile != latin.fontFile)
        // And the glyph is inked in its advance box.
        let image = try image(layer)
        let box = CGRect(x: Double(fallback.position.x) * 2 + 1, y: 0,
                         width: fallback.advance * 2 - 2, height: Double(image.height))
        #expect(image.pixels(in: box) { $0.alpha > 128 }.count > 20)
    }

    @Test("Helvetica and the default font are a metric-compatible sans")
    func helvetica() throws {
        let fonts = try FontSystem()
        let helvetica = try fonts.primaryFace(fontName: "Helvetica")
        let installed = Set(fonts.chain(named: "Liberation Sans").candidates.prefix(1).compactMap { c in
            try? FontFace(file: c.file, index: c.index, id: -1, library: FreeTypeLibrary()).familyName
        })
        if installed.contains("Liberation Sans") {
            #expect(helvetica.familyName == "Liberation Sans")
        } else {
            #expect(helvetica.familyName.contains("Sans"))
        }
        let line = try #require(try layout(textLayer("Hi", font: nil)).lines.first)
        #expect(line.glyphs.first?.fontFamily == helvetica.familyName)
    }

    @Test("Core Animation's defaults: 36 points, opaque white, Helvetica")
    func defaults() throws {
        let layer = CATextLayer()
        layer.frame = CGRect(x: 0, y: 0, width: 200, height: 60)
        layer.string = "Hi"
        let line = try #require(try layout(layer).lines.first)
        #expect(line.glyphs.allSatisfy { $0.fontSize == 36 && $0.color == CGColor.white })
        // Premultiplied white: every colour component equals alpha.
        let image = try image(layer)
        let ink = image.pixels { $0.alpha > 0 }.compactMap { image.pixel(x: $0.x, y: $0.y) }
        #expect(ink.count > 100)
        #expect(ink.allSatisfy { $0.red == $0.alpha && $0.green == $0.alpha && $0.blue == $0.alpha })
        #expect(ink.contains { $0.alpha == 255 })
    }

    @Test("Names: PostScript styles, camel case, fontconfig patterns")
    func names() {
        let bold = FontRequest(name: "Helvetica-Bold")
        #expect(bold.families.first == "Helvetica" && bold.weight == 200 && bold.slant == nil)
        #expect(bold.families.contains("Liberation Sans"))
        let neue = FontRequest(name: "HelveticaNeue-LightItalic")
        #expect(neue.families.prefix(2) == ["HelveticaNeue", "Helvetica Neue"] && neue.weight == 50 && neue.slant == 100)
        let arial = FontRequest(name: "Arial-BoldMT")
        #expect(arial.families.first == "Arial" && arial.weight == 200)
        let hyphenated = FontRequest(name: "Noto-Sans")
        #expect(hyphenated.families == ["Noto-Sans"] && hyphenated.weight == nil)
        let pattern = FontRequest(name: "DejaVu Sans:bold")
        #expect(pattern.pattern == "DejaVu Sans:bold")
        #expect(FontRequest(name: "  ").families.first == "Helvetica")
    }

    @Test("A bold pattern and a PostScript name pick bold faces")
    func boldFaces() throws {
        let fonts = try FontSystem()
        for name in ["DejaVu Sans:bold", "DejaVuSans-Bold"] {
            let face = try fonts.primaryFace(fontName: name)
            #expect(face.file.hasSuffix("DejaVuSans-Bold.ttf"), "\(name) → \(face.file)")
        }
    }
}
