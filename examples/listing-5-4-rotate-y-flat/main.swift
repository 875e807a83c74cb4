// Listing 5.4: rotating a layer 45 degrees about the y axis. Without
// perspective the far side is not drawn smaller: the layer just looks
// narrower.
import ExampleSupport
import Foundation
import Lamina

final class ViewController {
    // The storyboard: a white 400 x 300 view with a 200 x 200 snowman view in
    // the middle.
    let view = UIView(frame: CGRect(x: 0, y: 0, width: 400, height: 300))
    let layerView = UIView(frame: CGRect(x: 100, y: 50, width: 200, height: 200))

    init() throws {
        view.backgroundColor = .white
        layerView.layer.contents = try UIImage.snowman().cgImage
        view.addSubview(layerView)
    }

    func viewDidLoad() {
        // rotate the layer 45 degrees along the Y axis
        let transform = CATransform3DMakeRotation(.pi / 4, 0, 1, 0)
        layerView.layer.transform = transform
    }
}

Example.run("listing-5-4-rotate-y-flat") {
    let controller = try ViewController()
    controller.viewDidLoad()
    return controller.view
}
