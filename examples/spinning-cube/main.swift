// Listing 6.5 in motion: one cube of six faces in a CATransformLayer, turning
// once about a tilted axis in three seconds. A transform layer keeps its
// faces in 3D, so one animation of its transform turns the whole cube, and
// depth sorting shows the right faces at every instant. Written as an
// animated PNG (its first frame is the cube at rest).
import ExampleSupport
import Foundation
import Lamina

let faceColors: [UInt32] = [0xe6194b, 0x3cb44b, 0x4363d8, 0xf58231, 0x911eb4, 0x46f0f0]

final class ViewController {
    let view = UIView(frame: CGRect(x: 0, y: 0, width: 400, height: 300))
    let containerView = UIView(frame: CGRect(x: 0, y: 0, width: 400, height: 300))

    init() {
        view.backgroundColor = .white
        view.addSubview(containerView)
    }

    func face(withTransform transform: CATransform3D, color: UIColor) -> CALayer {
        let face = CALayer()
        face.frame = CGRect(x: -50, y: -50, width: 100, height: 100)
        face.backgroundColor = color.cgColor
        face.transform = transform
        return face
    }

    func cube() -> CATransformLayer {
        let cube = CATransformLayer()
        let placements: [CATransform3D] = [
            CATransform3DMakeTranslation(0, 0, 50),
            CATransform3DRotate(CATransform3DMakeTranslation(50, 0, 0), .pi / 2, 0, 1, 0),
            CATransform3DRotate(CATransform3DMakeTranslation(0, -50, 0), .pi / 2, 1, 0, 0),
            CATransform3DRotate(CATransform3DMakeTranslation(0, 50, 0), -.pi / 2, 1, 0, 0),
            CATransform3DRotate(CATransform3DMakeTranslation(-50, 0, 0), -.pi / 2, 0, 1, 0),
            CATransform3DRotate(CATransform3DMakeTranslation(0, 0, -50), .pi, 0, 1, 0),
        ]
        for (placement, color) in zip(placements, faceColors) {
            cube.addSublayer(face(withTransform: placement, color: UIColor(rgb: color)))
        }
        cube.position = CGPoint(x: containerView.bounds.midX, y: containerView.bounds.midY)
        return cube
    }

    func viewDidLoad() {
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500.0
        // The scene tilted towards the viewer, then seen in perspective, so
        // the top shows as the cube turns about its own vertical axis.
        containerView.layer.sublayerTransform = CATransform3DConcat(CATransform3DMakeRotation(-.pi / 7, 1, 0, 0), perspective)
        let spinning = cube()
        containerView.layer.addSublayer(spinning)
        // One turn about the vertical axis, linear, in three seconds.
        let spin = CABasicAnimation(keyPath: "transform.rotation.y")
        spin.fromValue = 0
        spin.toValue = 2 * Double.pi
        spin.duration = 3
        spinning.add(spin, forKey: "spin")
    }
}

Example.run("spinning-cube", animated: .init(duration: 3, framesPerSecond: 15)) {
    let controller = ViewController()
    controller.viewDidLoad()
    return controller.view
}
