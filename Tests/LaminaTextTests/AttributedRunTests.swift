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

    @Test("A kern, 0 included, turns the font's kerning of pairs off, as in Core Text; ligature 0 keeps fi two letters")
    func kernTurnsPairKerningOff() throws {
        func glyphs(_ text: String, _ attributes: [NSAttributedString.Key: Any]) throws -> [(x: Double, index: Int)] {
            let string = NSMutableAttributedString(string: text, attributes: attributes)
            let line = try #require(try layout(textLayer(string, font: "DejaVu Sans", size: 40)).lines.first)
            return line.glyphs.map { (Double($0.position.x), $0.sourceIndex) }
        }
        // DejaVu Sans kerns "AV" by about 3 points at 40: with a kern of 0
        // the V stands where A's advance alone puts it.
        let kerned = try glyphs("AV", [:]), unkerned = try glyphs("AV", [TextRunAttribute.kern: CGFloat(0)])
        #expect(unkerned[1].x - kerned[1].x > 1, "\(kerned) against \(unkerned)")
        // DejaVu Sans joins "fi" into one glyph unless told not to.
        #expect(try glyphs("fi", [:]).count == 1)
        #expect(try glyphs("fi", [TextRunAttribute.ligature: 0]).map(\.index) == [0, 1])
        #expect(try glyphs("fi", [NSAttributedString.Key(kCTLigatureAttributeName): 0]).count == 2)
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

/// Core Text's stroke attributes: a positive width outlines the glyphs
/// without filling them, a negative one fills them and outlines them on top,
/// the width in percent of the font size, in the stroke colour (the run's
/// own when none is given).
@Suite("Outlined text (stroke width and colour)")
struct StrokedTextTests {
    /// A 100-point "I" (a plain stem) with `attributes`, drawn at 1x on a
    /// transparent image, and the stem's middle row.
    func stem(_ attributes: [NSAttributedString.Key: Any]) throws -> (image: CGImage, row: Int) {
        var all = attributes
        all[TextRunAttribute.foregroundColor] = CGColor.black
        let layer = textLayer(NSAttributedString(string: "I", attributes: all), width: 200, height: 140, font: testFont,
                              size: 100, color: .black)
        let image = try image(layer)
        let ink = try #require(image.inkBounds)
        return (image, (ink.minY + ink.maxY) / 2)
    }

    /// The columns of row `y` whose pixels pass `test`.
    func columns(_ image: CGImage, row y: Int, _ test: (CGImage.Pixel) -> Bool) -> [Int] {
        image.pixels(in: CGRect(x: 0, y: y, width: image.width, height: 1), where: test).map(\.x)
    }

    @Test("A positive width draws the outline alone, hollow, a negative one the filled glyph outlined")
    func outlinedAndFilled() throws {
        let filled = try stem([:])
        let solid = columns(filled.image, row: filled.row) { $0.alpha == 255 }
        let (left, right) = (try #require(solid.min()), try #require(solid.max()))
        #expect(right - left >= 8, "the stem of a 100-point I is about 10 points wide")
        let middle = (left + right) / 2

        // 2% of 100 points: an outline 2 points wide, one each side of the edge.
        let hollow = try stem([TextRunAttribute.strokeWidth: 2.0, TextRunAttribute.strokeColor: UIColor.red.cgColor])
        let red = columns(hollow.image, row: hollow.row) { $0.isReddish && $0.alpha == 255 }
        #expect(!red.isEmpty && red.allSatisfy { abs($0 - left) <= 2 || abs($0 - right) <= 2 }, "\(red)")
        #expect(hollow.image.pixel(x: middle, y: hollow.row)?.alpha == 0, "the inside is not filled")
        #expect(columns(hollow.image, row: hollow.row) { $0.isDarkInk }.isEmpty)
        // Half the outline lies outside the glyph: the ink is wider than the fill's.
        let hollowInk = columns(hollow.image, row: hollow.row) { $0.alpha > 0 }
        #expect(try #require(hollowInk.min()) < left && #require(hollowInk.max()) > right)

        let both = try stem([NSAttributedString.Key(kCTStrokeWidthAttributeName): -2.0,
                             NSAttributedString.Key(kCTStrokeColorAttributeName): UIColor.red.cgColor])
        #expect(both.image.pixel(x: middle, y: both.row)?.isDarkInk == true, "filled in the run's colour")
        let edges = columns(both.image, row: both.row) { $0.isReddish && $0.alpha == 255 }
        #expect(edges.contains { abs($0 - left) <= 1 } && edges.contains { abs($0 - right) <= 1 }, "outlined on top: \(edges)")

        // Without a stroke colour the outline takes the run's colour.
        let own = try stem([TextRunAttribute.strokeWidth: 2.0])
        #expect(own.image.pixel(x: middle, y: own.row)?.alpha == 0)
        #expect(!columns(own.image, row: own.row) { $0.isDarkInk }.isEmpty)
    }
}
