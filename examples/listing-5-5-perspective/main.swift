// Listing 5.5: the rotation of listing 5.4 with perspective. Setting m34 to
// -1/500 puts the eye 500 points in front of the screen.
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
        // create a new transform
        var transform = CATransform3DIdentity
        // apply perspective
        transform.m34 = -1.0 / 500.0
        // rotate by 45 degrees along the Y axis
        transform = CATransform3DRotate(transform, .pi / 4, 0, 1, 0)
        // apply to layer
        layerView.layer.transform = transform
    }
}

Example.run("listing-5-5-perspective") {
    let controller = try ViewController()
    controller.viewDidLoad()
    return controller.view
}
