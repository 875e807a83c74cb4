// An arm of nested transform layers (chapter 6). Each joint is a
// CATransformLayer holding its limb and the next joint, so turning a joint
// carries everything beyond it: the elbow bends the forearm and the hand,
// the wrist only the hand. Transform layers do not flatten, so the limbs
// stay solid boxes in one 3D scene, sorted by depth.
import ExampleSupport
import Foundation
import Lamina

final class ViewController {
    // The storyboard: a 400 x 300 container filling the white view.
    let view = UIView(frame: CGRect(x: 0, y: 0, width: 400, height: 300))
    let containerView = UIView(frame: CGRect(x: 0, y: 0, width: 400, height: 300))

    init() {
        view.backgroundColor = .white
        view.addSubview(containerView)
    }

    func face(width: CGFloat, height: CGFloat, transform: CATransform3D, color: UIColor) -> CALayer {
        let face = CALayer()
        face.bounds = CGRect(x: 0, y: 0, width: width, height: height)
        face.backgroundColor = color.cgColor
        face.transform = transform
        return face
    }

    /// A box `length` long along its joint's x axis, starting at the joint,
    /// and `thickness` square across. The faces are shaded by the way they
    /// point, as if lit from the front and above.
    func limb(length: CGFloat, thickness: CGFloat, hue: CGFloat) -> CALayer {
        func shade(_ brightness: CGFloat) -> UIColor {
            UIColor(hue: hue, saturation: 0.65, brightness: brightness, alpha: 1)
        }
        let limb = CATransformLayer()
        let (l, t) = (length, thickness)
        // front and back
        var transform = CATransform3DMakeTranslation(0, 0, t / 2)
        limb.addSublayer(face(width: l, height: t, transform: transform, color: shade(0.85)))
        transform = CATransform3DMakeTranslation(0, 0, -t / 2)
        transform = CATransform3DRotate(transform, .pi, 0, 1, 0)
        limb.addSublayer(face(width: l, height: t, transform: transform, color: shade(0.45)))
        // top and bottom
        transform = CATransform3DMakeTranslation(0, -t / 2, 0)
        transform = CATransform3DRotate(transform, .pi / 2, 1, 0, 0)
        limb.addSublayer(face(width: l, height: t, transform: transform, color: shade(1)))
        transform = CATransform3DMakeTranslation(0, t / 2, 0)
        transform = CATransform3DRotate(transform, -.pi / 2, 1, 0, 0)
        limb.addSublayer(face(width: l, height: t, transform: transform, color: shade(0.35)))
        // the two ends
        transform = CATransform3DMakeTranslation(l / 2, 0, 0)
        transform = CATransform3DRotate(transform, .pi / 2, 0, 1, 0)
        limb.addSublayer(face(width: t, height: t, transform: transform, color: shade(0.65)))
        transform = CATransform3DMakeTranslation(-l / 2, 0, 0)
        transform = CATransform3DRotate(transform, -.pi / 2, 0, 1, 0)
        limb.addSublayer(face(width: t, height: t, transform: transform, color: shade(0.65)))
        // the faces sit about the limb's centre: move it half its length out
        // from the joint
        limb.position = CGPoint(x: l / 2, y: 0)
        return limb
    }

    func viewDidLoad() {
        // the camera: perspective, looking slightly down and from the right
        var camera = CATransform3DIdentity
        camera.m34 = -1.0 / 500.0
        camera = CATransform3DRotate(camera, -.pi / 12, 1, 0, 0)
        camera = CATransform3DRotate(camera, .pi / 9, 0, 1, 0)
        containerView.layer.sublayerTransform = camera

        // the wrist, at the end of the forearm, tilts the hand up a little
        let wrist = CATransformLayer()
        wrist.position = CGPoint(x: 100, y: 0)
        wrist.transform = CATransform3DMakeRotation(-.pi / 9, 0, 0, 1)
        wrist.addSublayer(limb(length: 50, thickness: 30, hue: 0.08))

        // the elbow, at the end of the upper arm, raises the forearm
        let elbow = CATransformLayer()
        elbow.position = CGPoint(x: 120, y: 0)
        elbow.transform = CATransform3DMakeRotation(-.pi * 4 / 9, 0, 0, 1)
        elbow.addSublayer(limb(length: 100, thickness: 26, hue: 0.55))
        elbow.addSublayer(wrist)

        // the shoulder swings the whole arm forward and a little down
        let shoulder = CATransformLayer()
        shoulder.position = CGPoint(x: 100, y: 200)
        var swing = CATransform3DMakeRotation(.pi / 18, 0, 0, 1)
        swing = CATransform3DRotate(swing, -.pi / 12, 0, 1, 0)
        shoulder.transform = swing
        shoulder.addSublayer(limb(length: 120, thickness: 34, hue: 0.6))
        shoulder.addSublayer(elbow)
        containerView.layer.addSublayer(shoulder)
    }
}

Example.run("transform-layer-arm") {
    let controller = ViewController()
    controller.viewDidLoad()
    return controller.view
}
