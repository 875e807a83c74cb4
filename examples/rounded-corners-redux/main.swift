// Rounded corners, redux (chapter 6): a shape layer can round some corners
// and not others, which cornerRadius cannot. Here every corner but the top
// left one is rounded.
import ExampleSupport
import Foundation
import Lamina

final class ViewController {
    // The storyboard: a container filling the white 200 x 200 view.
    let view = UIView(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
    let containerView = UIView(frame: CGRect(x: 0, y: 0, width: 200, height: 200))

    init() {
        view.backgroundColor = .white
        view.addSubview(containerView)
    }

    func viewDidLoad() {
        // define path parameters
        let rect = CGRect(x: 50, y: 50, width: 100, height: 100)
        let radii = CGSize(width: 20, height: 20)
        let corners: UIRectCorner = [.topRight, .bottomRight, .bottomLeft]
        // create path
        let path = UIBezierPath(roundedRect: rect, byRoundingCorners: corners, cornerRadii: radii)
        // create shape layer
        let shapeLayer = CAShapeLayer()
        shapeLayer.fillColor = UIColor(rgb: 0x2a7fff).cgColor
        shapeLayer.path = path.cgPath
        // add it to our view
        containerView.layer.addSublayer(shapeLayer)
    }
}

Example.run("rounded-corners-redux") {
    let controller = ViewController()
    controller.viewDidLoad()
    return controller.view
}
