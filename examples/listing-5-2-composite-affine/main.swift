// Listing 5.2: a composite affine transform. Scale by 50%, rotate by 30
// degrees, then translate by 200 points: each step acts in the space the
// steps before it made, so the move is along the rotated, shrunk x axis.
import ExampleSupport
import Foundation
import Lamina

final class ViewController {
    // The storyboard: a white 500 x 300 view with the 200 x 200 snowman view
    // left of its middle.
    let view = UIView(frame: CGRect(x: 0, y: 0, width: 500, height: 300))
    let layerView = UIView(frame: CGRect(x: 100, y: 50, width: 200, height: 200))

    init() throws {
        view.backgroundColor = .white
        layerView.layer.contents = try UIImage.snowman().cgImage
        view.addSubview(layerView)
    }

    func viewDidLoad() {
        // create a new transform
        var transform = CGAffineTransform.identity
        // scale by 50%
        transform = transform.scaledBy(x: 0.5, y: 0.5)
        // rotate by 30 degrees
        transform = transform.rotated(by: .pi / 180 * 30)
        // translate by 200 points
        transform = transform.translatedBy(x: 200, y: 0)
        // apply transform to layer
        layerView.layer.setAffineTransform(transform)
    }
}

Example.run("listing-5-2-composite-affine") {
    let controller = try ViewController()
    controller.viewDidLoad()
    return controller.view
}
