import Foundation
import LaminaCore
import Testing
@testable import LaminaText

@Suite("Attributed runs")
struct AttributedRunTests {
    /// Listing 6.3's attributes: black text, "ipsum" red and underlined,
    /// the font given as a Core Text font.
    func listing63(size: CGFloat = 20) -> NSAttributedString {
        let text = "Lorem ipsum dolor sit amet"
        let string = NSMutableAttributedString(string: text)
        let fontRef = CTFontCreateWithName(testFont, size, nil)
        var attributes: [NSAttributedString.Key: Any] = [
            NSAttributedString.Key(kCTForegroundColorAttributeName as String): UIColor.black.cgColor,
            NSAttributedString.Key(kCTFontAttributeName as String): fontRef,
        ]
        string.setAttributes(attributes, range: NSRange(location: 0, length: (text as NSString).length))
        attributes = [
            NSAttributedString.Key(kCTForegroundColorAttributeName as String): UIColor.red.cgColor,
            NSAttributedString.Key(kCTUnderlineStyleAttributeName as String): CTUnderlineStyle.single.rawValue,
            NSAttributedString.Key(kCTFontAttributeName as String): fontRef,
        ]
        string.setAttributes(attributes, range: NSRange(location: 6, length: 5))
        return string
    }

    @Test("The red run is drawn red where its glyphs are, the rest black")
    func redWord() throws {
        let layer = textLayer(listing63(), width: 320, height: 40, font: nil, size: 50, color: .white, scale: 2)
        let line = try #require(try layout(layer).lines.first)
        let redGlyphs = line.glyphs.filter { (6..<11).contains($0.sourceIndex) }
        #expect(redGlyphs.count == 5)
        for glyph in line.glyphs {
            #expect(glyph.color == ((6..<11).contains(glyph.sourceIndex) ? UIColor.red.cgColor : CGColor.black))
            // The run's font and size win over the layer's.
            #expect(glyph.fontSize == 20 && glyph.fontFamily == testFont)
        }
        let first = try #require(redGlyphs.first), last = try #require(redGlyphs.last)
        let minX = Double(first.position.x) * 2
        let maxX = (Double(last.position.x) + last.advance) * 2

        let image = try image(layer)
        #expect(image.width == 640 && image.height == 80)
        let red = image.pixels(where: \.isReddish)
        let dark = image.pixels(where: \.isDarkInk)
        #expect(red.count > 100 && dark.count > 300)
        for p in red { #expect(Double(p.x) >= minX - 2 && Double(p.x) <= maxX + 2) }
        for p in dark { #expect(Double(p.x) < minX + 1 || Double(p.x) > maxX - 1) }
    }

    @Test("The underline runs under the red word only, below the baseline")
    func underline() throws {
        let layer = textLayer(listing63(), width: 320, height: 40, font: nil, size: 50, scale: 2)
        let line = try #require(try layout(layer).lines.first)
        let underline = try #require(line.underlines.first)
        #expect(line.underlines.count == 1)
        #expect(underline.color == UIColor.red.cgColor)
        #expect(underline.position > 0 && underline.position < line.descent)
        let redGlyphs = line.glyphs.filter { (6..<11).contains($0.sourceIndex) }
        #expect(abs(underline.minX - Double(redGlyphs[0].position.x)) < epsilon)

        // A pixel row through the underline is red across the word, gaps
        // between letters included, and empty beyond it.
        let image = try image(layer)
        let row = Int(((underline.baseline + underline.position) * 2).rounded(.down))
        let span = CGRect(x: underline.minX * 2 + 2, y: Double(row), width: (underline.maxX - underline.minX) * 2 - 4, height: 1)
        let covered = image.pixels(in: span, where: \.isReddish).count
        #expect(covered == Int(span.width.rounded(.up)) || covered >= Int(span.width) - 1)
        let outside = CGRect(x: 0, y: Double(row), width: underline.minX * 2 - 6, height: 1)
        #expect(image.pixels(in: outside) { $0.alpha > 0 }.isEmpty)
    }

    @Test("A run's font size changes its glyphs and the line's height")
    func runSize() throws {
        let string = NSMutableAttributedString(string: "small BIG small")
        string.addAttribute(TextRunAttribute.fontSize, value: CGFloat(40), range: NSRange(location: 6, length: 3))
        let line = try #require(try layout(textLayer(string, size: 10)).lines.first)
        #expect(Set(line.glyphs.map(\.fontSize)) == [10, 40])
        #expect(abs(line.ascent - 40 * 1901 / 2048) < 1e-9)
    }

    @Test("Kern adds its points after each character of its run, by either name; the rest keep their places")
    func kern() throws {
        func positions(_ kern: NSAttributedString.Key?) throws -> [Double] {
            let string = NSMutableAttributedString(string: "abcd")
            if let kern { string.addAttribute(kern, value: CGFloat(3), range: NSRange(location: 1, length: 2)) }
            let line = try #require(try layout(textLayer(string, size: 17)).lines.first)
            return line.glyphs.map { Double($0.position.x) }
        }
        let plain = try positions(nil)
        for key in [TextRunAttribute.kern, NSAttributedString.Key(kCTKernAttributeName)] {
            let kerned = try positions(key)
            // "a" unkerned; "b" and "c" each add 3 after themselves.
            #expect(zip(kerned, plain).map { $0 - $1 }.map { ($0 * 1000).rounded() / 1000 } == [0, 0, 3, 6], "\(key.rawValue): \(kerned) against \(plain)")
        }
    }

    @Test("Plain strings take the layer's font, size and colour; runs without them too")
    func layerDefaults() throws {
        let string = NSMutableAttributedString(string: "ab")
        string.addAttribute(TextRunAttribute.underlineStyle, value: 1, range: NSRange(location: 1, length: 1))
        let line = try #require(try layout(textLayer(string, size: 17, color: UIColor.blue.cgColor)).lines.first)
        #expect(line.glyphs.map(\.fontSize) == [17, 17])
        #expect(line.glyphs.allSatisfy { $0.color == UIColor.blue.cgColor })
        #expect(line.underlines.count == 1)
    }
}
