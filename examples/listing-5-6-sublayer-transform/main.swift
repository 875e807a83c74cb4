// Listing 5.6: one perspective for two layers through the container's
// sublayerTransform, so both share a vanishing point at the container's
// centre.
import ExampleSupport
import Foundation
import Lamina

final class ViewController {
    // The storyboard: a light grey container filling the 500 x 300 view, with
    // two 150 x 150 snowman views side by side.
    let view = UIView(frame: CGRect(x: 0, y: 0, width: 500, height: 300))
    let containerView = UIView(frame: CGRect(x: 0, y: 0, width: 500, height: 300))
    let layerView1 = UIView(frame: CGRect(x: 55, y: 75, width: 150, height: 150))
    let layerView2 = UIView(frame: CGRect(x: 295, y: 75, width: 150, height: 150))

    init() throws {
        view.backgroundColor = .white
        containerView.backgroundColor = UIColor(rgb: 0xdddddd)
        let snowman = try UIImage.snowman()
        layerView1.layer.contents = snowman.cgImage
        layerView2.layer.contents = snowman.cgImage
        view.addSubview(containerView)
        containerView.addSubview(layerView1)
        containerView.addSubview(layerView2)
    }

    func viewDidLoad() {
        // apply perspective transform to container
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500.0
        containerView.layer.sublayerTransform = perspective
        // rotate layerView1 by 45 degrees along the Y axis
        let transform1 = CATransform3DMakeRotation(.pi / 4, 0, 1, 0)
        layerView1.layer.transform = transform1
        // rotate layerView2 by 45 degrees along the Y axis
        let transform2 = CATransform3DMakeRotation(-.pi / 4, 0, 1, 0)
        layerView2.layer.transform = transform2
    }
}

Example.run("listing-5-6-sublayer-transform") {
    let controller = try ViewController()
    controller.viewDidLoad()
    return controller.view
}
