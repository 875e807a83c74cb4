// Listing 6.5: two cubes built from CATransformLayers. A transform layer does
// not flatten its sublayers, so each cube's faces stay in 3D and one
// transform turns a whole cube; both share the container's perspective.
import ExampleSupport
import Foundation
import Lamina

/// The faces' colours, front, right, top, bottom, left, back. The book picks
/// random ones; these are fixed so that the picture can be checked.
let faceColors: [UInt32] = [0xe6194b, 0x3cb44b, 0x4363d8, 0xf58231, 0x911eb4, 0x46f0f0]

final class ViewController {
    // The storyboard: a 400 x 300 container filling the white view.
    let view = UIView(frame: CGRect(x: 0, y: 0, width: 400, height: 300))
    let containerView = UIView(frame: CGRect(x: 0, y: 0, width: 400, height: 300))

    init() {
        view.backgroundColor = .white
        view.addSubview(containerView)
    }

    func face(withTransform transform: CATransform3D, color: UIColor) -> CALayer {
        // create cube face layer
        let face = CALayer()
        face.frame = CGRect(x: -50, y: -50, width: 100, height: 100)
        // apply a colour
        face.backgroundColor = color.cgColor
        // apply the transform and return
        face.transform = transform
        return face
    }

    func cube(withTransform transform: CATransform3D, colors: [UInt32]) -> CALayer {
        // create cube layer
        let cube = CATransformLayer()
        // add cube face 1
        var ct = CATransform3DMakeTranslation(0, 0, 50)
        cube.addSublayer(face(withTransform: ct, color: UIColor(rgb: colors[0])))
        // add cube face 2
        ct = CATransform3DMakeTranslation(50, 0, 0)
        ct = CATransform3DRotate(ct, .pi / 2, 0, 1, 0)
        cube.addSublayer(face(withTransform: ct, color: UIColor(rgb: colors[1])))
        // add cube face 3
        ct = CATransform3DMakeTranslation(0, -50, 0)
        ct = CATransform3DRotate(ct, .pi / 2, 1, 0, 0)
        cube.addSublayer(face(withTransform: ct, color: UIColor(rgb: colors[2])))
        // add cube face 4
        ct = CATransform3DMakeTranslation(0, 50, 0)
        ct = CATransform3DRotate(ct, -.pi / 2, 1, 0, 0)
        cube.addSublayer(face(withTransform: ct, color: UIColor(rgb: colors[3])))
        // add cube face 5
        ct = CATransform3DMakeTranslation(-50, 0, 0)
        ct = CATransform3DRotate(ct, -.pi / 2, 0, 1, 0)
        cube.addSublayer(face(withTransform: ct, color: UIColor(rgb: colors[4])))
        // add cube face 6
        ct = CATransform3DMakeTranslation(0, 0, -50)
        ct = CATransform3DRotate(ct, .pi, 0, 1, 0)
        cube.addSublayer(face(withTransform: ct, color: UIColor(rgb: colors[5])))
        // center the cube layer within the container
        let containerSize = containerView.bounds.size
        cube.position = CGPoint(x: containerSize.width / 2, y: containerSize.height / 2)
        // apply the transform and return
        cube.transform = transform
        return cube
    }

    func viewDidLoad() {
        // set up the perspective transform
        var pt = CATransform3DIdentity
        pt.m34 = -1.0 / 500.0
        containerView.layer.sublayerTransform = pt
        // set up the transform for cube 1 and add it
        var c1t = CATransform3DIdentity
        c1t = CATransform3DTranslate(c1t, -100, 0, 0)
        let cube1 = cube(withTransform: c1t, colors: faceColors)
        containerView.layer.addSublayer(cube1)
        // set up the transform for cube 2 and add it
        var c2t = CATransform3DIdentity
        c2t = CATransform3DTranslate(c2t, 100, 0, 0)
        c2t = CATransform3DRotate(c2t, -.pi / 4, 1, 0, 0)
        c2t = CATransform3DRotate(c2t, -.pi / 4, 0, 1, 0)
        let cube2 = cube(withTransform: c2t, colors: faceColors.reversed())
        containerView.layer.addSublayer(cube2)
    }
}

Example.run("listing-6-5-two-cubes-transform-layer") {
    let controller = ViewController()
    controller.viewDidLoad()
    return controller.view
}
