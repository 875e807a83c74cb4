import Foundation
import LaminaCore
import Testing
@testable import LaminaText

/// Headless Chromium (Debian's `chromium`, which scripts/setup/install-packages.sh
/// installs) laying out the same text in the same font files: where its
/// lines break and in which order each line's characters stand.
enum Browser {
    static let path = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// One paragraph set by the browser: for each code point, its line
    /// (0, 1, ...) and the left edge of its box; nil for one with no box.
    struct Placement: Decodable { var line: Int; var left: Double }

    /// Lays out `cases` (text, width in CSS pixels) in `fonts` (files, in
    /// fallback order) at `size` pixels, each in a block of that width.
    static func layout(_ cases: [(text: String, width: Double, align: String)], fonts: [String], size: Double) throws -> [[Placement?]] {
        let lineHeight = size * 3
        var html = "<!doctype html><html><head><meta charset=\"utf-8\"><style>body{margin:0}"
        for (i, file) in fonts.enumerated() {
            html += "@font-face{font-family:F\(i);src:url(file://\(file))}"
        }
        html += "div.t{font-family:\((0..<fonts.count).map { "F\($0)" }.joined(separator: ",")),serif;font-size:\(size)px;"
        html += "line-height:\(lineHeight)px;white-space:pre-wrap;overflow-wrap:anywhere;margin-bottom:20px}</style></head><body>"
        for (text, width, align) in cases {
            let escaped = text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            html += "<div class=\"t\" dir=\"auto\" style=\"width:\(width)px;text-align:\(align)\">\(escaped)</div>"
        }
        html += """
            <pre id="out"></pre><script>
            document.fonts.ready.then(() => {
              const all = [];
              for (const div of document.querySelectorAll('div.t')) {
                const node = div.firstChild, top = div.getBoundingClientRect().top, out = [];
                let u = 0;
                for (const ch of node.data) {
                  const r = document.createRange(); r.setStart(node, u); r.setEnd(node, u + ch.length);
                  const b = r.getClientRects()[0];
                  out.push(b ? {line: Math.floor(((b.top + b.bottom) / 2 - top) / \(lineHeight)), left: b.left} : null);
                  u += ch.length;
                }
                all.push(out);
              }
              document.getElementById('out').textContent = JSON.stringify(all);
            });</script></body></html>
            """
        let page = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-layout-\(UUID()).html")
        try Data(html.utf8).write(to: page)
        defer { try? FileManager.default.removeItem(at: page) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(path))
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--font-render-hinting=none",
                             "--allow-file-access-from-files", "--virtual-time-budget=10000", "--dump-dom", page.absoluteString]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let dom = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard let start = dom.range(of: "<pre id=\"out\">"), let end = dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex) else {
            throw TextRenderingError("chromium gave no layout")
        }
        let json = String(dom[start.upperBound..<end.lowerBound]).replacingOccurrences(of: "&quot;", with: "\"")
        return try JSONDecoder().decode([[Placement?]].self, from: Data(json.utf8))
    }
}

@Suite("Line breaks and bidi order against a real browser (headless Chromium)")
struct BrowserLayoutTests {
    static let texts = [
        "The quick brown fox jumps over the lazy dog, again and again — until it stops.",
        "Hello שלום עולם 123 מה שלומך today, and مرحبا بالعالم 456 too.",
        "自然言語処理は、コンピュータに人間の言葉を理解させる技術です。中文也可以，对吧？",
        "Mixed: naïve café, 東京タワー and שלום 2024 👍🏽 🇫🇷 🎉 co-operate well-known state-of-the-art.",
        "שלום עולם, this paragraph starts in Hebrew and goes on in English 789 words.",
    ]
    static let widths = [130.0, 175.0, 240.0, 330.0]

    @Test("Lamina breaks each line where Chromium does, and orders each line's characters as it does",
          .enabled(if: Browser.path != nil, "chromium is not installed (scripts/setup/install-packages.sh installs it)"),
          .enabled(if: ScriptsTests.hasEmoji && ScriptsTests.hasCJK, "Noto Color Emoji or a CJK font is not installed"))
    func againstChromium() throws {
        let size = 18.0
        var cases: [(text: String, width: Double, align: String, lines: [TextLine])] = []
        var files: [String] = []
        let alignments: [(CATextLayerAlignmentMode, String)] = [(.natural, "start"), (.right, "right"), (.center, "center")]
        for text in Self.texts {
            for (n, width) in Self.widths.enumerated() {
                let (mode, css) = alignments[n % alignments.count]
                let layer = textLayer(text, width: width, height: 2000, font: "Helvetica", size: size, wrapped: true, alignment: mode)
                let lines = try layout(layer).lines
                cases.append((text, width, css, lines))
                for line in lines { for glyph in line.glyphs where !files.contains(glyph.fontFile) { files.append(glyph.fontFile) } }
            }
        }
        // The browser's fallback list: the faces Lamina used, in the order of
        // Lamina's chain for the font, so each character falls to the same face.
        let chain = try FontSystem().chain(named: "Helvetica").candidates.map(\.file)
        files.sort { (chain.firstIndex(of: $0) ?? Int.max) < (chain.firstIndex(of: $1) ?? Int.max) }
        let browser = try Browser.layout(cases.map { ($0.text, $0.width, $0.align) }, fonts: files, size: size)
        try #require(browser.count == cases.count)

        var sameBreaks = 0, sameOrder = 0, lineCount = 0, worstOffset = 0.0
        for (k, c) in cases.enumerated() {
            let scalars = Array(c.text.unicodeScalars)
            let placed = browser[k]
            // Where each line starts (its first character in reading order).
            let laminaStarts = c.lines.compactMap { $0.glyphs.map(\.sourceIndex).min() }
            var browserStarts: [Int] = []
            for (i, p) in placed.enumerated() {
                guard let p, !scalars[i].properties.isWhitespace else { continue }
                if p.line >= browserStarts.count { browserStarts.append(i) }
            }
            #expect(laminaStarts == browserStarts, "\"\(c.text)\" at \(c.width): lines start at \(laminaStarts) here, \(browserStarts) in Chromium")
            if laminaStarts == browserStarts { sameBreaks += 1 }
            // The order of each line's clusters, left to right.
            for line in c.lines {
                let indices = Set(line.glyphs.map(\.sourceIndex)).filter { !scalars[$0].properties.isWhitespace }
                let lamina = indices.sorted { a, b in
                    line.glyphs.first { $0.sourceIndex == a }!.position.x < line.glyphs.first { $0.sourceIndex == b }!.position.x
                }
                let chromium = indices.sorted { (placed[$0]?.left ?? 0) < (placed[$1]?.left ?? 0) }
                lineCount += 1
                #expect(lamina == chromium, "\"\(line.text)\": \(lamina) here, \(chromium) in Chromium")
                if lamina == chromium { sameOrder += 1 }
                // And where: each cluster's left edge within a pixel of the
                // browser's (alignment included).
                for index in indices {
                    let here = line.glyphs.filter { $0.sourceIndex == index }.map { Double($0.position.x) }.min()!
                    if let there = placed[index]?.left { worstOffset = max(worstOffset, abs(here - there)) }
                }
            }
        }
        #expect(sameBreaks == cases.count && sameOrder == lineCount)
        #expect(worstOffset < 1, "a cluster stands \(worstOffset) px from where Chromium puts it")
    }
}
