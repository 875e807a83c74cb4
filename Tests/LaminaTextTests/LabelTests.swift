import Foundation
import Lamina
import Testing
@testable import LaminaText

@Suite("UILabel")
struct LabelTests {
    @Test("A label starts with UIKit's values and a plain layer, and keeps what it is given")
    func defaults() {
        let label = UILabel(frame: CGRect(x: 0, y: 0, width: 100, height: 20))
        #expect(label.text == nil)
        #expect(label.textColor == .black)
        #expect(label.font == UIFont.systemFont(ofSize: 17))
        #expect(label.textAlignment == .natural)
        #expect(label.numberOfLines == 1)
        #expect(type(of: label.layer) == CALayer.self)
        #expect(label.frame == CGRect(x: 0, y: 0, width: 100, height: 20))

        label.text = "Hi"
        label.textColor = .red
        label.font = .boldSystemFont(ofSize: 12)
        label.textAlignment = .center
        label.numberOfLines = 0
        #expect(label.text == "Hi" && label.textColor == .red && label.font.fontName == "Helvetica-Bold")
        #expect(label.textAlignment == .center && label.numberOfLines == 0)
    }

    @Test("NSTextAlignment has iOS's raw values")
    func alignmentRawValues() {
        #expect(NSTextAlignment.allCases.map(\.rawValue) == [0, 1, 2, 3, 4])
        #expect(NSTextAlignment(rawValue: 3) == .justified && NSTextAlignment(rawValue: 4) == .natural)
    }

    @Test("Listing 6.4: overridden setters reach the text layer, from the initializer on")
    func layerLabelForwards() throws {
        let label = LayerLabel(frame: CGRect(x: 0, y: 0, width: 100, height: 20))
        let layer = try #require(label.textLayer)
        // The set-up passed UIKit's defaults on: black, Helvetica at 17.
        #expect(layer.string == nil)
        #expect(layer.foregroundColor == CGColor.black)
        #expect(layer.font as? CGFont == CGFont("Helvetica") && layer.fontSize == 17)

        label.text = "Hello"
        label.textColor = .blue
        label.font = .systemFont(ofSize: 15)
        #expect(layer.string as? String == "Hello" && label.text == "Hello")
        #expect(layer.foregroundColor == UIColor.blue.cgColor)
        #expect(layer.fontSize == 15 && label.font.pointSize == 15)
    }
}
