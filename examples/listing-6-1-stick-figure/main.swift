// Listing 6.1: a stick figure drawn by a CAShapeLayer from a UIBezierPath:
// a head, a body, two legs and arms, stroked in red with round joins and caps.
import ExampleSupport
import Foundation
import Lamina

final class ViewController {
    // The storyboard: a container filling the white 300 x 260 view.
    let view = UIView(frame: CGRect(x: 0, y: 0, width: 300, height: 260))
    let containerView = UIView(frame: CGRect(x: 0, y: 0, width: 300, height: 260))

    init() {
        view.backgroundColor = .white
        view.addSubview(containerView)
    }

    func viewDidLoad() {
        // create path
        let path = UIBezierPath()
        path.move(to: CGPoint(x: 175, y: 100))
        path.addArc(withCenter: CGPoint(x: 150, y: 100), radius: 25, startAngle: 0, endAngle: 2 * .pi, clockwise: true)
        path.move(to: CGPoint(x: 150, y: 125))
        path.addLine(to: CGPoint(x: 150, y: 175))
        path.addLine(to: CGPoint(x: 125, y: 225))
        path.move(to: CGPoint(x: 150, y: 175))
        path.addLine(to: CGPoint(x: 175, y: 225))
        path.move(to: CGPoint(x: 100, y: 150))
        path.addLine(to: CGPoint(x: 200, y: 150))
        // create shape layer
        let shapeLayer = CAShapeLayer()
        shapeLayer.strokeColor = UIColor.red.cgColor
        shapeLayer.fillColor = UIColor.clear.cgColor
        shapeLayer.lineWidth = 5
        shapeLayer.lineJoin = .round
        shapeLayer.lineCap = .round
        shapeLayer.path = path.cgPath
        // add it to our view
        containerView.layer.addSublayer(shapeLayer)
    }
}

Example.run("listing-6-1-stick-figure") {
    let controller = ViewController()
    controller.viewDidLoad()
    return controller.view
}
