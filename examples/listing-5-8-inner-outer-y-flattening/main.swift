// Listing 5.8: opposite rotations about the y axis. One might expect the
// inner view to face the screen again, but the outer layer flattens its
// sublayers into its own plane: the inner view is turned and then squashed,
// not turned back.
import ExampleSupport
import Foundation
import Lamina

final class ViewController {
    // The storyboard: a white 400 x 400 view; in its middle a 200 x 200 red
    // outer view holding a 100 x 100 blue inner view in its own middle.
    let view = UIView(frame: CGRect(x: 0, y: 0, width: 400, height: 400))
    let outerView = UIView(frame: CGRect(x: 100, y: 100, width: 200, height: 200))
    let innerView = UIView(frame: CGRect(x: 50, y: 50, width: 100, height: 100))

    init() {
        view.backgroundColor = .white
        outerView.backgroundColor = UIColor(rgb: 0xc04040)
        innerView.backgroundColor = UIColor(rgb: 0x3050d0)
        view.addSubview(outerView)
        outerView.addSubview(innerView)
    }

    func viewDidLoad() {
        // rotate the outer layer 45 degrees
        var outer = CATransform3DIdentity
        outer.m34 = -1.0 / 500.0
        outer = CATransform3DRotate(outer, .pi / 4, 0, 1, 0)
        outerView.layer.transform = outer
        // rotate the inner layer -45 degrees
        var inner = CATransform3DIdentity
        inner.m34 = -1.0 / 500.0
        inner = CATransform3DRotate(inner, -.pi / 4, 0, 1, 0)
        innerView.layer.transform = inner
    }
}

Example.run("listing-5-8-inner-outer-y-flattening") {
    let controller = ViewController()
    controller.viewDidLoad()
    return controller.view
}
