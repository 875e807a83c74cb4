// Listing 6.2: a label made of a CATextLayer: black Helvetica text at 15
// points, justified and wrapped in the label's bounds. The font goes to the
// layer as a CGFont (the size apart, in fontSize), and the layer's
// contentsScale is set to the screen's, the book's fix for pixelated text.
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
        labelView.layer.addSublayer(textLayer)
        // set text attributes
        textLayer.foregroundColor = UIColor.black.cgColor
        textLayer.alignmentMode = .justified
        textLayer.isWrapped = true
        // choose a font
        let font = UIFont.systemFont(ofSize: 15)
        // set layer font
        let fontName = font.fontName
        let fontRef = CGFont(fontName)
        textLayer.font = fontRef
        textLayer.fontSize = font.pointSize
        // choose some text
        let text = BookText.loremIpsum
        // set layer text
        textLayer.string = text
        // draw the text at the screen's scale, not pixelated at 1
        textLayer.contentsScale = UIScreen.main.scale
    }
}

Example.run("listing-6-2-text-layer", scale: 2) {
    let controller = ViewController()
    controller.viewDidLoad()
    return controller.view
}
