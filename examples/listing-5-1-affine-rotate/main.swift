// Listing 5.1: rotating a layer by 45 degrees with an affine transform.
import ExampleSupport
import Foundation
import Lamina

final class ViewController {
    // The storyboard: a white 400 x 300 view with a 200 x 200 view in the
    // middle that shows the snowman.
    let view = UIView(frame: CGRect(x: 0, y: 0, width: 400, height: 300))
    let layerView = UIView(frame: CGRect(x: 100, y: 50, width: 200, height: 200))

    init() throws {
        view.backgroundColor = .white
        layerView.layer.contents = try UIImage.snowman().cgImage
        view.addSubview(layerView)
    }

    func viewDidLoad() {
        // rotate the layer 45 degrees
        let transform = CGAffineTransform(rotationAngle: .pi / 4)
        layerView.layer.setAffineTransform(transform)
    }
}

Example.run("listing-5-1-affine-rotate") {
    let controller = try ViewController()
    controller.viewDidLoad()
    return controller.view
}
