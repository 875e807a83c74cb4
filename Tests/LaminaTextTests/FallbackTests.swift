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
        #expect(FontTable.row(for: bold.families[0])?.preferred.first == "Liberation Sans")
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

/// `.build-tools/fontconfig-extra.conf`: the machine's fontconfig plus
/// Debian's fonts-urw-base35 (unpacked, not installed, by
/// scripts/setup/install-packages.sh), with which fontconfig's own answer to
/// "Helvetica" is Nimbus Sans.
enum ExtraFonts {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let configuration: String? = {
        let path = root.appendingPathComponent(".build-tools/fontconfig-extra.conf").path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }()
    static func file(_ name: String) -> String? {
        let path = root.appendingPathComponent(".build-tools/fonts-extra/root/usr/share/fonts/opentype/urw-base35/\(name)").path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }
}

@Suite("Font resolution: Lamina's table, whatever else is installed")
struct FontTableTests {
    static let names = ["Helvetica", "Helvetica-Bold", "HelveticaNeue-Italic", "Arial", "ArialMT", ".SFUIText", "system-ui",
                        "Times", "Times-Italic", "Times New Roman", "Georgia", "serif", "Courier", "Courier-Bold", "Menlo",
                        "monospace", "sans-serif", "DejaVu Sans", "DejaVu Serif", "No Such Family 42"]

    @Test("Extra fonts that change fontconfig's answers (fonts-urw-base35) change no resolution",
          .enabled(if: ExtraFonts.configuration != nil, "no .build-tools/fontconfig-extra.conf (scripts/setup/install-packages.sh makes it)"))
    func extraFontsChangeNothing() throws {
        let plain = try FontSystem()
        let extra = try FontSystem(configurationFile: try #require(ExtraFonts.configuration))
        // The configuration really is a machine where fontconfig says Nimbus Sans.
        let guess = try FontDatabase(configurationFile: ExtraFonts.configuration).fontconfigGuess(for: FontRequest(name: "Helvetica"))
        #expect(guess.first?.families.first == "Nimbus Sans")
        for name in Self.names {
            let a = plain.resolvedFile(fontName: name), b = extra.resolvedFile(fontName: name)
            #expect(a?.file == b?.file, "\(name): \(a?.file ?? "none") here, \(b?.file ?? "none") with the extra fonts")
        }
    }

    /// fonts-urw-base35 installs each face twice, as OpenType and as Type 1;
    /// HarfBuzz cannot shape a Type 1 file (it has no cmap), so a family
    /// taken from one drew no text at all.
    @Test("Only faces HarfBuzz can shape are candidates: Type 1 copies of a family are passed over",
          .enabled(if: ExtraFonts.configuration != nil, "no .build-tools/fontconfig-extra.conf (scripts/setup/install-packages.sh makes it)"))
    func type1FacesAreNotCandidates() throws {
        let database = try FontDatabase(configurationFile: try #require(ExtraFonts.configuration))
        let faces = database.faces(inFamily: "Nimbus Sans").map(\.file)
        #expect(faces.contains { $0.hasSuffix("NimbusSans-Regular.otf") })
        #expect(faces.allSatisfy { $0.hasSuffix(".otf") }, "\(faces)")
        let fonts = try FontSystem(configurationFile: try #require(ExtraFonts.configuration))
        let face = try fonts.primaryFace(fontName: "Nimbus Sans")
        #expect(face.hasGlyph(for: "A"))
    }

    @Test("Each name of the table resolves to its preferred family where it is installed")
    func preferredFamilies() throws {
        let fonts = try FontSystem()
        for row in FontTable.rows {
            let installed = row.preferred.first { !FontDatabaseProbe.faces(fonts, $0).isEmpty }
            guard let installed else { continue }
            for name in row.names {
                #expect(fonts.resolvedFile(fontName: name)?.family == installed, "\(name)")
                #expect(fonts.chain(named: name).substitution == nil, "\(name)")
            }
        }
        #expect(fonts.resolvedFile(fontName: "Helvetica-Bold")?.file.hasSuffix("LiberationSans-Bold.ttf") == true)
        #expect(fonts.resolvedFile(fontName: "Times-Italic")?.file.hasSuffix("LiberationSerif-Italic.ttf") == true)
        #expect(fonts.resolvedFile(fontName: "DejaVu Sans")?.file.hasSuffix("DejaVuSans.ttf") == true)
        #expect(FontTable.row(for: "helvetica neue")?.generic == "sans-serif")
        #expect(FontTable.row(for: "COURIER")?.generic == "monospace")
    }

    @Test("A family that is not installed is drawn with the sans row, and says so")
    func missingFamily() throws {
        let fonts = try FontSystem()
        let chain = fonts.chain(named: "No Such Family 42")
        let used = try #require(fonts.resolvedFile(fontName: "No Such Family 42")).family
        #expect(chain.substitution == FontSubstitution(requested: "No Such Family 42", missing: ["No Such Family 42"], used: used))
        #expect(chain.substitution?.description == "font \"No Such Family 42\": No Such Family 42 is not installed; drawing it with \(used)")
        // A name from a hostile scene: a prefix, control characters and quotes escaped.
        let hostile = String(repeating: "x", count: 100_000) + "\n\"forged"
        let told = FontSubstitution(requested: "a\nb\"c", missing: ["a\nb\"c"], used: "Liberation Sans").description
        #expect(told == #"font "a\u{a}b\"c": a\u{a}b\"c is not installed; drawing it with Liberation Sans"#)
        #expect(FontSubstitution(requested: hostile, missing: [hostile], used: nil).description.utf8.count < 400)
        let both = FontSubstitution(requested: "Helvetica", missing: ["Liberation Sans", "Arimo"], used: "DejaVu Sans")
        #expect(both.description == "font \"Helvetica\": Liberation Sans and Arimo are not installed; drawing it with DejaVu Sans")
    }

    @Test("Registered fonts resolve first, by family and by PostScript name, from a file or from data",
          .enabled(if: ExtraFonts.file("C059-Roman.otf") != nil, "no unpacked fonts-urw-base35 (scripts/setup/install-packages.sh)"))
    func registeredFonts() throws {
        let fonts = try FontSystem()
        try FontRegistry.register(fileAt: try #require(ExtraFonts.file("NimbusMonoPS-Regular.otf")))
        try FontRegistry.register(fileAt: try #require(ExtraFonts.file("NimbusMonoPS-Bold.otf")))
        #expect(fonts.resolvedFile(fontName: "Nimbus Mono PS")?.file == ExtraFonts.file("NimbusMonoPS-Regular.otf"))
        #expect(fonts.resolvedFile(fontName: "NimbusMonoPS-Bold")?.file == ExtraFonts.file("NimbusMonoPS-Bold.otf"))
        #expect(fonts.resolvedFile(fontName: "Nimbus Mono PS:bold")?.family == "Nimbus Mono PS")
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: try #require(ExtraFonts.file("C059-Roman.otf")))))
        try FontRegistry.register(data: data)
        #expect(fonts.resolvedFile(fontName: "C059")?.family == "C059")
        // A text layer naming it draws with it.
        let line = try #require(try layout(textLayer("Brand 42", font: "C059", size: 24)).lines.first)
        #expect(line.glyphs.allSatisfy { $0.fontFamily == "C059" })
        #expect(try image(textLayer("Brand 42", font: "C059", size: 24)).pixels { $0.isDarkInk }.count > 50)
        #expect(throws: TextRenderingError.self) { try FontRegistry.register(data: Array("not a font".utf8)) }
        #expect(throws: TextRenderingError.self) { try FontRegistry.register(fileAt: "/nonexistent/font.ttf") }
        // The table's names are not taken over by registering other families.
        #expect(fonts.resolvedFile(fontName: "Courier")?.family == "Liberation Mono")
    }

    /// Font names come from strangers' scenes: what is kept of them is bounded in bytes.
    @Test("Made-up font names are kept within the cache's bytes")
    func madeUpNamesAreBounded() throws {
        let fonts = try FontSystem()
        for k in 0..<400 {
            _ = fonts.chain(named: "Made Up \(k) " + String(repeating: "n", count: 1000))
            #expect(fonts.cachedChainNameBytes <= FontSystem.chainLimit.nameBytes)
        }
        #expect(fonts.cachedChainNameBytes < 400 * 1000, "the cache started again on the way")
    }

    /// FreeType's fopen would wait for ever on a FIFO: refused without being opened.
    @Test("A FIFO or a folder named like a font is refused at once")
    func specialFilesAreRefused() throws {
        let folder = NSTemporaryDirectory() + "lamina-fifo-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(mkfifo(folder + "/x.ttf", 0o600) == 0)
        try FileManager.default.createDirectory(atPath: folder + "/dir.otf", withIntermediateDirectories: true)
        let fifo = #expect(throws: TextRenderingError.self) { try FontRegistry.register(fileAt: folder + "/x.ttf") }
        #expect(fifo?.message.contains("not a regular file") == true, "\(String(describing: fifo))")
        #expect(throws: TextRenderingError.self) { try FontRegistry.register(directory: folder) }
        #expect(throws: TextRenderingError.self) { try FontRegistry.register(fileAt: folder + "/dir.otf") }
    }
}

/// The faces of a family, as the database lists them.
enum FontDatabaseProbe {
    static func faces(_ fonts: FontSystem, _ family: String) -> [String] {
        (try? FontDatabase().faces(inFamily: family).map(\.file)) ?? []
    }
}
