// Listing 5.7: opposite rotations about the z axis. The inner view turns back
// by the angle the outer one turned, so it ends up straight on screen.
import ExampleSupport
import Foundation
import Lamina

final class ViewController {
    // The storyboard: a white 400 x 400 view; in its middle a 200 x 200 white
    // outer view with a black border, holding a 100 x 100 blue inner view in
    // its own middle.
    let view = UIView(frame: CGRect(x: 0, y: 0, width: 400, height: 400))
    let outerView = UIView(frame: CGRect(x: 100, y: 100, width: 200, height: 200))
    let innerView = UIView(frame: CGRect(x: 50, y: 50, width: 100, height: 100))

    init() {
        view.backgroundColor = .white
        outerView.backgroundColor = .white
        outerView.layer.borderWidth = 2
        outerView.layer.borderColor = UIColor.black.cgColor
        innerView.backgroundColor = UIColor(rgb: 0x3050d0)
        view.addSubview(outerView)
        outerView.addSubview(innerView)
    }

    func viewDidLoad() {
        // rotate the outer layer 45 degrees
        let outer = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
        outerView.layer.transform = outer
        // rotate the inner layer -45 degrees
        let inner = CATransform3DMakeRotation(-.pi / 4, 0, 0, 1)
        innerView.layer.transform = inner
    }
}

Example.run("listing-5-7-inner-outer-z") {
    let controller = ViewController()
    controller.viewDidLoad()
    return controller.view
}
