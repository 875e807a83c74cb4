// Listing 6.3: rich text in a CATextLayer. An attributed string gives the
// whole text black Helvetica at 15 points through Core Text's attribute
// names, then the word "ipsum" red and underlined; the layer justifies and
// wraps it at the screen's scale.
import ExampleSupport
import Foundation
import Lamina

final class ViewController {
    // The storyboard: a white 280 x 200 label view on a light grey 320 x 240 view.
    let view = UIView(frame: CGRect(x: 0, y: 0, width: 320, height: 240))
    let labelView = UIView(frame: CGRect(x: 20, y: 20, width: 280, height: 200))

    init() {
        view.backgroundColor = UIColor(rgb: 0xd8d8d8)
        labelView.backgroundColor = .white
        view.addSubview(labelView)
    }

    func viewDidLoad() {
        // create a text layer
        let textLayer = CATextLayer()
        textLayer.frame = labelView.bounds
        textLayer.contentsScale = UIScreen.main.scale
        labelView.layer.addSublayer(textLayer)
        // set text attributes
        textLayer.alignmentMode = .justified
        textLayer.isWrapped = true
        // choose a font
        let font = UIFont.systemFont(ofSize: 15)
        // choose some text
        let text = BookText.loremIpsum
        // create attributed string
        let string = NSMutableAttributedString(string: text)
        // convert UIFont to a CTFont
        let fontName = font.fontName
        let fontSize = font.pointSize
        let fontRef = CTFontCreateWithName(fontName, fontSize, nil)
        // set text attributes
        var attribs: [NSAttributedString.Key: Any] = [
            NSAttributedString.Key(kCTForegroundColorAttributeName): UIColor.black.cgColor,
            NSAttributedString.Key(kCTFontAttributeName): fontRef,
        ]
        string.setAttributes(attribs, range: NSRange(location: 0, length: (text as NSString).length))
        attribs = [
            NSAttributedString.Key(kCTForegroundColorAttributeName): UIColor.red.cgColor,
            NSAttributedString.Key(kCTUnderlineStyleAttributeName): CTUnderlineStyle.single.rawValue,
            NSAttributedString.Key(kCTFontAttributeName): fontRef,
        ]
        string.setAttributes(attribs, range: NSRange(location: 6, length: 5))
        // set layer text
        textLayer.string = string
    }
}

Example.run("listing-6-3-rich-text", scale: 2) {
    let controller = ViewController()
    controller.viewDidLoad()
    return controller.view
}
