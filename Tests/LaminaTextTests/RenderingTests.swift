import Foundation
import Lamina
import Testing
@testable import LaminaText

/// The book's listing 6.4: a label whose backing layer is a text layer, its
/// setters overridden to set the layer's text, colour and font too.
final class LayerLabel: UILabel {
    override class var layerClass: AnyClass { CATextLayer.self }

    var textLayer: CATextLayer? { layer as? CATextLayer }

    override var text: String? {
        get { super.text }
        set {
            super.text = newValue
            textLayer?.string = newValue
        }
    }

    override var textColor: UIColor {
        get { super.textColor }
        set {
            super.textColor = newValue
            textLayer?.foregroundColor = newValue.cgColor
        }
    }

    override var font: UIFont {
        get { super.font }
        set {
            super.font = newValue
            textLayer?.font = CGFont(newValue.fontName)
            textLayer?.fontSize = newValue.pointSize
        }
    }

    override init(frame: CGRect) {
        super.init(frame: frame)
        // The book's setUp: UILabel's values go to the layer.
        text = text
        textColor = textColor
        font = font
        textLayer?.alignmentMode = .justified
        textLayer?.isWrapped = true
        textLayer?.contentsScale = 2
    }
}

@Suite("Rendering through LayerRenderer")
struct RenderingTests {
    @Test("contentsScale 2 doubles the backing image, and on a 2x canvas text is sharper than at 1")
    func contentsScale() throws {
        let one = textLayer("Sharp text", width: 150, height: 40, scale: 1)
        let two = textLayer("Sharp text", width: 150, height: 40, scale: 2)
        let small = try image(one), large = try image(two)
        #expect(small.width == 150 && small.height == 40)
        #expect(large.width == 300 && large.height == 80)
        // A fractional bounds size rounds the image up.
        #expect(try image(textLayer("x", width: 10.2, height: 10.2, scale: 2)).width == 21)

        // On a 2x canvas, the 1x image is magnified: its edges spread over
        // more pixels, so fewer inked pixels are solid.
        func solidShare(_ layer: CATextLayer) throws -> Double {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 150, height: 40)
            root.backgroundColor = CGColor.white
            root.addSublayer(layer)
            let picture = try LayerRenderer(backend: .cpu).render(root, canvas: RenderCanvas(width: 150, height: 40, scale: 2))
            let inked = picture.pixels { $0.red < 250 }.count
            let solid = picture.pixels { $0.red < 60 }.count
            #expect(inked > 200)
            return Double(solid) / Double(inked)
        }
        let soft = try solidShare(one), sharp = try solidShare(two)
        #expect(sharp > soft + 0.05, "solid share \(sharp) at 2x against \(soft) at 1x")
    }

    @Test("Text is clipped to the bounds: the backing image is the bounds, whatever overflows")
    func clipped() throws {
        let layer = textLayer("A line far too wide for its little layer", width: 60, height: 12, size: 30, scale: 2)
        let picture = try image(layer)
        #expect(picture.width == 120 && picture.height == 24)
    }

    @Test("Repeated frames reuse cached glyph bitmaps")
    func glyphCache() throws {
        let renderer = try TextRenderer()
        let layer = textLayer("Cache me twice, cache me twice", width: 400, height: 40, scale: 2)
        _ = try renderer.makeImage(of: layer)
        let first = renderer.statistics
        #expect(first.glyphMisses > 0 && first.glyphMisses < 20, "repeated letters hit within the first frame")
        _ = try renderer.makeImage(of: layer)
        let second = renderer.statistics
        #expect(second.glyphMisses == first.glyphMisses)
        #expect(second.glyphHits > first.glyphHits)
        renderer.removeCachedGlyphs()
        #expect(renderer.statistics.cachedGlyphs == 0)
    }

    @Test("The snapshot shows a text layer's image over its bounds, one image pixel per backing pixel")
    func snapshot() throws {
        let layer = textLayer("Hello", width: 100.25, height: 30, scale: 2)
        let snapshot = try RenderLayer(snapshotOf: layer, options: SnapshotOptions(textRasterizer: try renderer()))
        guard case .image(let content)? = snapshot.content.first else {
            Issue.record("no image content")
            return
        }
        #expect(content.image.width == 201 && content.image.height == 60)
        #expect(content.contentsScale == 2 && content.gravity == .resize)
        #expect(abs(Double(content.contentsRect.width) - 200.5 / 201) < 1e-12 && content.contentsRect.height == 1)
        // Without a text rasterizer, a text layer draws no text.
        #expect(try RenderLayer(snapshotOf: layer).content.isEmpty)
    }

    @Test("Listing 6.4: a view backed by a text layer draws its text in its font and colour")
    func layerLabel() throws {
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 240, height: 120))
        root.backgroundColor = .white
        let label = LayerLabel(frame: CGRect(x: 20, y: 20, width: 200, height: 80))
        label.text = "Hello, this is a LayerLabel with justified wrapped text"
        label.textColor = .red
        label.font = .boldSystemFont(ofSize: 18)
        root.addSubview(label)
        #expect(label.textLayer?.string as? String == label.text)
        #expect(label.textLayer?.fontSize == 18)

        let textLayer = try #require(label.textLayer)
        let lines = try #require(try renderer().layout(of: textLayer)).lines
        #expect(lines.count >= 2)
        #expect(lines[0].glyphs.allSatisfy { $0.fontSize == 18 })
        #expect(abs(lines[0].maxX - 200) < epsilon, "justified first line")
        let bold = try FontSystem().primaryFace(fontName: "Helvetica-Bold")
        #expect(lines[0].glyphs.first?.fontFile == bold.file)

        let picture = try LayerRenderer(backend: .cpu).render(root.layer, canvas: RenderCanvas(width: 240, height: 120, scale: 2))
        let red = picture.pixels(where: \.isReddish)
        #expect(red.count > 500)
        // All of it inside the label's frame (40...440 x 40...200 pixels).
        #expect(red.allSatisfy { (40..<440).contains($0.x) && (40..<200).contains($0.y) })
    }

    @Test("A text scene renders end to end on the CPU: listing 6.3's red word in place")
    func scene() throws {
        let json = """
        {"width": 200, "height": 60, "scale": 2, "backgroundColor": "#ffffff",
         "sublayers": [{"type": "text", "frame": [10, 10, 180, 40], "contentsScale": 2, "fontSize": 20,
                        "font": "DejaVu Sans", "foregroundColor": "#000000",
                        "string": [{"text": "Lorem "}, {"text": "ipsum", "foregroundColor": "#ff0000", "underline": true},
                                   {"text": " dolor"}]}]}
        """
        let scene = try SceneDecoder().decode(json)
        let picture = try LayerRenderer(backend: .cpu).render(scene)
        #expect(picture.width == 400 && picture.height == 120)
        let red = picture.pixels(where: \.isReddish)
        let dark = picture.pixels(where: \.isDarkInk)
        #expect(red.count > 200 && dark.count > 200)
        let redMin = red.map(\.x).min() ?? 0, redMax = red.map(\.x).max() ?? 0
        // "Lorem " is dark and left of the red word, " dolor" right of it.
        #expect(dark.contains { $0.x < redMin } && dark.contains { $0.x > redMax })
        #expect(!dark.contains { $0.x > redMin + 4 && $0.x < redMax - 4 })
        // The underline is a red row below the letters.
        let underlineRows = Dictionary(grouping: red, by: \.y).filter { $0.value.count > (redMax - redMin) * 8 / 10 }
        #expect(!underlineRows.isEmpty)
    }
}
