import Foundation
import Lamina
import Testing
@testable import LaminaText

@Suite("Text scenes with Core Text fonts and attributes")
struct SceneRoundTripTests {
    /// Listings 6.2 and 6.3 in small: a layer font given as a `CGFont`, and
    /// runs whose font is a `CTFont` and whose colour and underline use Core
    /// Text's attribute names.
    func scene() -> Scene {
        let scene = Scene(width: 200, height: 60, scale: 2)
        scene.rootLayer.backgroundColor = CGColor.white
        let layer = textLayer(nil, width: 180, height: 40, font: CGFont(testFont), size: 30, color: .black,
                              wrapped: true, alignment: .justified, scale: 2)
        layer.frame.origin = CGPoint(x: 10, y: 10)
        let text = "Lorem ipsum dolor"
        let string = NSMutableAttributedString(string: text)
        let fontRef = CTFontCreateWithName(testFont, 16, nil)
        string.setAttributes([
            NSAttributedString.Key(kCTForegroundColorAttributeName): UIColor.black.cgColor,
            NSAttributedString.Key(kCTFontAttributeName): fontRef,
        ], range: NSRange(location: 0, length: (text as NSString).length))
        string.setAttributes([
            NSAttributedString.Key(kCTForegroundColorAttributeName): UIColor.red.cgColor,
            NSAttributedString.Key(kCTUnderlineStyleAttributeName): CTUnderlineStyle.single.rawValue,
            NSAttributedString.Key(kCTFontAttributeName): fontRef,
            NSAttributedString.Key(kCTKernAttributeName): CGFloat(1.5),
        ], range: NSRange(location: 6, length: 5))
        string.setAttributes([
            NSAttributedString.Key(kCTForegroundColorAttributeName): UIColor.black.cgColor,
            NSAttributedString.Key(kCTFontAttributeName): fontRef,
            NSAttributedString.Key(kCTStrokeWidthAttributeName): CGFloat(-3),
            NSAttributedString.Key(kCTStrokeColorAttributeName): UIColor.blue.cgColor,
        ], range: NSRange(location: 12, length: 5))
        layer.string = string
        scene.rootLayer.addSublayer(layer)
        return scene
    }

    @Test("Font objects are written as names, a run's font with its size; Core Text's colour and underline as the format's")
    func written() throws {
        let json = try SceneEncoder(prettyPrinted: false).encodeToString(scene())
        #expect(json.contains(##""font":"DejaVu Sans","fontSize":30"##))
        #expect(json.contains(##"{"text":"ipsum","font":"DejaVu Sans","fontSize":16,"foregroundColor":"#ff0000","underline":true,"kern":1.5}"##))
        #expect(json.contains(##"{"text":"Lorem ","font":"DejaVu Sans","fontSize":16,"foregroundColor":"#000000"}"##))
        #expect(json.contains(##"{"text":"dolor","font":"DejaVu Sans","fontSize":16,"foregroundColor":"#000000","strokeWidth":-3,"strokeColor":"#0000ff"}"##))
    }

    @Test("The scene read back draws the same picture")
    func drawsTheSame() throws {
        let original = scene()
        let decoded = try SceneDecoder().decode(try SceneEncoder().encode(original))
        let renderer = try LayerRenderer(backend: .cpu)
        let before = try renderer.render(original), after = try renderer.render(decoded)
        #expect(before.width == 400 && before.height == 120)
        #expect(before == after)
        #expect(before.pixels(where: \.isReddish).count > 100)
        #expect(before.pixels { $0.alpha > 200 && Int($0.blue) > Int($0.red) + 80 }.count > 50, "the outlined word")
    }
}
