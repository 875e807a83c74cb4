// Backfaces (chapter 5): a layer turned past 90 degrees shows its back, the
// snowman mirrored. With doubleSided set to false, the turned layer is not
// drawn at all.
import ExampleSupport
import Foundation
import Lamina

final class ViewController {
    // The storyboard: a white 400 x 200 view with two 150 x 150 snowman views.
    let view = UIView(frame: CGRect(x: 0, y: 0, width: 400, height: 200))
    let layerView1 = UIView(frame: CGRect(x: 25, y: 25, width: 150, height: 150))
    let layerView2 = UIView(frame: CGRect(x: 225, y: 25, width: 150, height: 150))

    init() throws {
        view.backgroundColor = .white
        let snowman = try UIImage.snowman()
        layerView1.layer.contents = snowman.cgImage
        layerView2.layer.contents = snowman.cgImage
        view.addSubview(layerView1)
        view.addSubview(layerView2)
    }

    func viewDidLoad() {
        // turn both layers 144 degrees about the Y axis, with perspective,
        // so that their backs face the viewer
        var transform = CATransform3DIdentity
        transform.m34 = -1.0 / 500.0
        transform = CATransform3DRotate(transform, .pi * 0.8, 0, 1, 0)
        layerView1.layer.transform = transform
        layerView2.layer.transform = transform
        // the second layer hides its back
        layerView2.layer.isDoubleSided = false
    }
}

Example.run("double-sided-back") {
    let controller = try ViewController()
    controller.viewDidLoad()
    return controller.view
}
