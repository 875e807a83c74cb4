// Listing 5.9: a cube of six face views, seen from above and to the side. The
// camera's turn goes into the container's sublayerTransform, after the
// perspective, so it turns the whole cube about the container's centre.
import ExampleSupport
import Foundation
import Lamina

/// The face views' colours, front, right, top, bottom, left, back.
let faceColors: [UInt32] = [0xe6194b, 0x3cb44b, 0x4363d8, 0xf58231, 0x911eb4, 0x46f0f0]

final class ViewController {
    // The storyboard: a 500 x 500 container filling the white view, and six
    // 200 x 200 face views of different colours, not yet placed.
    let view = UIView(frame: CGRect(x: 0, y: 0, width: 500, height: 500))
    let containerView = UIView(frame: CGRect(x: 0, y: 0, width: 500, height: 500))
    let faces: [UIView] = faceColors.map { rgb in
        let face = UIView(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
        face.backgroundColor = UIColor(rgb: rgb)
        return face
    }

    init() {
        view.backgroundColor = .white
        view.addSubview(containerView)
    }

    func addFace(_ index: Int, withTransform transform: CATransform3D) {
        // get the face view and add it to the container
        let face = faces[index]
        containerView.addSubview(face)
        // center the face view within the container
        let containerSize = containerView.bounds.size
        face.center = CGPoint(x: containerSize.width / 2, y: containerSize.height / 2)
        // apply the transform
        face.layer.transform = transform
    }

    func viewDidLoad() {
        // set up the container sublayer transform
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500.0
        perspective = CATransform3DRotate(perspective, -.pi / 4, 1, 0, 0)
        perspective = CATransform3DRotate(perspective, -.pi / 4, 0, 1, 0)
        containerView.layer.sublayerTransform = perspective
        // add cube face 1
        var transform = CATransform3DMakeTranslation(0, 0, 100)
        addFace(0, withTransform: transform)
        // add cube face 2
        transform = CATransform3DMakeTranslation(100, 0, 0)
        transform = CATransform3DRotate(transform, .pi / 2, 0, 1, 0)
        addFace(1, withTransform: transform)
        // add cube face 3
        transform = CATransform3DMakeTranslation(0, -100, 0)
        transform = CATransform3DRotate(transform, .pi / 2, 1, 0, 0)
        addFace(2, withTransform: transform)
        // add cube face 4
        transform = CATransform3DMakeTranslation(0, 100, 0)
        transform = CATransform3DRotate(transform, -.pi / 2, 1, 0, 0)
        addFace(3, withTransform: transform)
        // add cube face 5
        transform = CATransform3DMakeTranslation(-100, 0, 0)
        transform = CATransform3DRotate(transform, -.pi / 2, 0, 1, 0)
        addFace(4, withTransform: transform)
        // add cube face 6
        transform = CATransform3DMakeTranslation(0, 0, -100)
        transform = CATransform3DRotate(transform, .pi, 0, 1, 0)
        addFace(5, withTransform: transform)
    }
}

Example.run("listing-5-9-cube-camera") {
    let controller = ViewController()
    controller.viewDidLoad()
    return controller.view
}
