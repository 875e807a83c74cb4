// Listing 5.3: a shear, which Core Graphics has no function for, made by
// setting the fields of an affine transform directly.
import ExampleSupport
import Foundation
import Lamina

/// A transform that slides each row sideways by `x` times its height and each
/// column by `y` times its width.
func CGAffineTransformMakeShear(_ x: CGFloat, _ y: CGFloat) -> CGAffineTransform {
    var transform = CGAffineTransform.identity
    transform.c = -x
    transform.b = y
    return transform
}

final class ViewController {
    // The storyboard: a white 400 x 300 view with a 150 x 150 snowman view in
    // the middle.
    let view = UIView(frame: CGRect(x: 0, y: 0, width: 400, height: 300))
    let layerView = UIView(frame: CGRect(x: 125, y: 75, width: 150, height: 150))

    init() throws {
        view.backgroundColor = .white
        layerView.layer.contents = try UIImage.snowman().cgImage
        view.addSubview(layerView)
    }

    func viewDidLoad() {
        // shear the layer at a 45-degree angle
        layerView.layer.setAffineTransform(CGAffineTransformMakeShear(1, 0))
    }
}

Example.run("listing-5-3-shear") {
    let controller = try ViewController()
    controller.viewDidLoad()
    return controller.view
}
