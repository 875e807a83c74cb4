// Listing 6.4: LayerLabel, a UILabel whose backing layer is a CATextLayer
// (through layerClass) and whose text, colour and font setters pass each
// value on to that layer. The view controller shows the book's text in one,
// in black Helvetica at 15 points. Its contentsScale is not set anywhere: a
// view gives its own layer the screen's scale, so the text is sharp.
import ExampleSupport
import Foundation
import Lamina

final class LayerLabel: UILabel {
    override class var layerClass: AnyClass {
        // this makes our label create a CATextLayer
        // instead of a regular CALayer for its backing layer
        CATextLayer.self
    }

    var textLayer: CATextLayer? {
        layer as? CATextLayer
    }

    func setUp() {
        // set defaults from UILabel settings
        self.text = self.text
        self.textColor = self.textColor
        self.font = self.font
        // we should really derive these from the UILabel settings too
        // but that's complicated, so for now we'll just hard-code them
        textLayer?.alignmentMode = .justified
        textLayer?.isWrapped = true
        layer.display()
    }

    override init(frame: CGRect) {
        // called when creating label programmatically
        super.init(frame: frame)
        setUp()
    }

    override var text: String? {
        get { super.text }
        set {
            super.text = newValue
            // set layer text
            textLayer?.string = newValue
        }
    }

    override var textColor: UIColor {
        get { super.textColor }
        set {
            super.textColor = newValue
            // set layer text color
            textLayer?.foregroundColor = newValue.cgColor
        }
    }

    override var font: UIFont {
        get { super.font }
        set {
            super.font = newValue
            // set layer font
            let fontName = newValue.fontName
            let fontRef = CGFont(fontName)
            textLayer?.font = fontRef
            textLayer?.fontSize = newValue.pointSize
        }
    }
}

final class ViewController {
    // The storyboard: a white 280 x 200 LayerLabel on a light grey 320 x 240 view.
    let view = UIView(frame: CGRect(x: 0, y: 0, width: 320, height: 240))
    let label = LayerLabel(frame: CGRect(x: 20, y: 20, width: 280, height: 200))

    init() {
        view.backgroundColor = UIColor(rgb: 0xd8d8d8)
        label.backgroundColor = .white
        label.numberOfLines = 0
        view.addSubview(label)
    }

    func viewDidLoad() {
        // set the label's text and font as for any UILabel
        label.font = UIFont.systemFont(ofSize: 15)
        label.text = BookText.loremIpsum
    }
}

Example.run("listing-6-4-layer-label", scale: 2) {
    let controller = ViewController()
    controller.viewDidLoad()
    return controller.view
}
