import Foundation
import LaminaCore
import Testing
@testable import LaminaText

@Suite("Alignment")
struct AlignmentTests {
    let text = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt"

    @Test("Left and natural put lines at the left edge of a left-to-right paragraph")
    func left() throws {
        for mode in [CATextLayerAlignmentMode.left, .natural] {
            for line in try layout(textLayer(text, width: 200, height: 400, wrapped: true, alignment: mode)).lines {
                #expect(abs(Double(line.origin.x)) < epsilon)
            }
        }
    }

    @Test("Right puts each line's end at the right edge; center splits the space")
    func rightAndCenter() throws {
        let right = try layout(textLayer(text, width: 200, height: 400, wrapped: true, alignment: .right)).lines
        let center = try layout(textLayer(text, width: 200, height: 400, wrapped: true, alignment: .center)).lines
        #expect(right.count > 2 && right.count == center.count)
        for (r, c) in zip(right, center) {
            #expect(abs(r.maxX - 200) < epsilon)
            #expect(abs(Double(c.origin.x) - (200 - c.width) / 2) < epsilon)
            #expect(abs(r.width - c.width) < epsilon)
            // The glyphs start where the line does.
            #expect(abs(Double(r.glyphs[0].position.x - r.origin.x)) < epsilon)
        }
    }

    @Test("Justified lines fill the width, except the last line of each paragraph")
    func justified() throws {
        let lines = try layout(textLayer(text + "\n" + text, width: 200, height: 800, wrapped: true,
                                         alignment: .justified)).lines
        let plain = try layout(textLayer(text + "\n" + text, width: 200, height: 800, wrapped: true)).lines
        #expect(lines.map(\.text) == plain.map(\.text))
        let paragraphEnds = Set(lines.indices.filter { k in
            k == lines.count - 1 || lines[k + 1].text.hasPrefix("Lorem")
        })
        #expect(paragraphEnds.count == 2)
        #expect(lines.filter { !$0.text.contains(" ") }.count < lines.count / 2)
        for (k, line) in lines.enumerated() {
            #expect(abs(Double(line.origin.x)) < epsilon)
            if paragraphEnds.contains(k) || !line.text.contains(" ") {
                // A paragraph's last line, or one word alone: nothing to
                // stretch, so natural alignment.
                #expect(abs(line.width - plain[k].width) < epsilon, "line \(k) keeps its width")
                #expect(line.width < 200 - 1)
            } else {
                #expect(abs(line.maxX - 200) < 1e-6, "line \(k) \"\(line.text)\" ends at \(line.maxX)")
                let last = line.glyphs[line.glyphs.count - 1]
                #expect(abs(Double(last.position.x) + last.advance - 200) < 1e-6)
            }
        }
    }
}
