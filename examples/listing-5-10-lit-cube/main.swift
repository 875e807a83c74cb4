// Listing 5.10: the cube of listing 5.9 with lighting. Each face gets a black
// overlay whose alpha grows as the face turns away from the light: the
// face's normal is (0, 0, 1) turned by the face's transform, and its dot
// product with the light's direction says how much light falls on it.
//
// The book does the vector math with GLKit, which Linux lacks; the standard
// library's SIMD3 does the same here.
import ExampleSupport
import Foundation
import Lamina

let lightDirection = SIMD3<Double>(0, 1, -0.5)
let ambientLight = 0.5

func dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { (a * b).sum() }
func normalize(_ v: SIMD3<Double>) -> SIMD3<Double> { v / dot(v, v).squareRoot() }

final class ViewController {
    // The storyboard: a 500 x 500 container filling the white view, and six
    // white 200 x 200 face views, not yet placed.
    let view = UIView(frame: CGRect(x: 0, y: 0, width: 500, height: 500))
    let containerView = UIView(frame: CGRect(x: 0, y: 0, width: 500, height: 500))
    let faces: [UIView] = (0..<6).map { _ in
        let face = UIView(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
        face.backgroundColor = .white
        return face
    }

    init() {
        view.backgroundColor = .white
        view.addSubview(containerView)
    }

    func applyLightingToFace(_ face: CALayer) {
        // add lighting layer
        let layer = CALayer()
        layer.frame = face.bounds
        face.addSublayer(layer)
        // the transform's upper-left 3x3, its turn without its move, as
        // GLKMatrix4GetMatrix3 takes it: Core Animation's matrices act on
        // row vectors, so a vector turns into a sum of these rows
        let t = face.transform
        let rows = (SIMD3(Double(t.m11), Double(t.m12), Double(t.m13)),
                    SIMD3(Double(t.m21), Double(t.m22), Double(t.m23)),
                    SIMD3(Double(t.m31), Double(t.m32), Double(t.m33)))
        // get face normal
        var normal = SIMD3<Double>(0, 0, 1)
        normal = normal.x * rows.0 + normal.y * rows.1 + normal.z * rows.2
        normal = normalize(normal)
        // get dot product with light direction
        let light = normalize(lightDirection)
        let dotProduct = dot(light, normal)
        // set lighting layer opacity
        let shadow = 1 + dotProduct - ambientLight
        let color = UIColor(white: 0, alpha: shadow)
        layer.backgroundColor = color.cgColor
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
        // apply lighting
        applyLightingToFace(face.layer)
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

Example.run("listing-5-10-lit-cube") {
    let controller = ViewController()
    controller.viewDidLoad()
    return controller.view
}
