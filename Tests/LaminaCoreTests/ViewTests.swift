// The layer-backed UIView, UIColor and UIImage.
import Foundation
import Testing
@testable import LaminaCore

private final class ShapeView: UIView {
    override class var layerClass: AnyClass { CAShapeLayer.self }
}

private final class NotALayerView: UIView {
    override class var layerClass: AnyClass { NSObject.self }
}

@Suite struct ViewTests {
    @Test func layerClassPicksTheBackingLayer() {
        #expect(type(of: UIView().layer) == CALayer.self)
        let shapeView = ShapeView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        #expect(shapeView.layer is CAShapeLayer)
        #expect(shapeView.layer.delegate === shapeView)
        #expect(type(of: NotALayerView().layer) == CALayer.self)
    }

    @Test func geometryIsTheLayers() {
        let view = UIView(frame: CGRect(x: 10, y: 20, width: 100, height: 50))
        #expect(view.layer.bounds == CGRect(x: 0, y: 0, width: 100, height: 50))
        #expect(view.center == CGPoint(x: 60, y: 45))
        view.center = CGPoint(x: 0, y: 0)
        #expect(view.frame == CGRect(x: -50, y: -25, width: 100, height: 50))
        view.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        #expect(view.layer.bounds.size == CGSize(width: 10, height: 10))
        view.transform = CGAffineTransform(scaleX: 2, y: 2)
        #expect(view.layer.transform == CATransform3DMakeScale(2, 2, 1))
        #expect(view.frame == CGRect(x: -10, y: -10, width: 20, height: 20))
        #expect(view.transform == CGAffineTransform(scaleX: 2, y: 2))
    }

    @Test func appearanceIsTheLayers() {
        let view = UIView()
        #expect(view.backgroundColor == nil)
        view.backgroundColor = .red
        #expect(view.layer.backgroundColor == CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        #expect(view.backgroundColor == .red)
        view.alpha = 0.5
        #expect(view.layer.opacity == 0.5)
        #expect(view.alpha == 0.5)
        view.isHidden = true
        #expect(view.layer.isHidden)
        view.clipsToBounds = true
        #expect(view.layer.masksToBounds && view.clipsToBounds)
    }

    @Test func subviewsMirrorSublayers() {
        let root = UIView(), a = UIView(), b = UIView(), c = UIView()
        root.addSubview(a)
        root.addSubview(b)
        root.insertSubview(c, at: 1)
        #expect(root.subviews.map { ObjectIdentifier($0) } == [a, c, b].map { ObjectIdentifier($0) })
        #expect(root.layer.sublayers?.map { ObjectIdentifier($0) } == [a, c, b].map { ObjectIdentifier($0.layer) })
        #expect(a.superview === root)
        root.bringSubviewToFront(a)
        #expect(root.layer.sublayers?.last === a.layer)
        root.sendSubviewToBack(a)
        #expect(root.layer.sublayers?.first === a.layer)
        c.removeFromSuperview()
        #expect(c.superview == nil && c.layer.superlayer == nil)
        #expect(root.subviews.count == 2)
        let other = UIView()
        other.addSubview(b)
        #expect(root.subviews.count == 1 && b.superview === other && b.layer.superlayer === other.layer)
    }

    @Test func layersAddedDirectlyKeepTheirPlaces() {
        let root = UIView(), a = UIView(), b = UIView()
        let decoration = CALayer()
        root.addSubview(a)
        root.layer.addSublayer(decoration)
        root.addSubview(b)
        root.insertSubview(b, at: 0)
        #expect(root.layer.sublayers?.map { ObjectIdentifier($0) }
                == [b.layer, a.layer, decoration].map { ObjectIdentifier($0) })
    }

    @Test func viewsCannotFormACycle() {
        let root = UIView(), child = UIView()
        root.addSubview(child)
        child.addSubview(root)
        root.addSubview(root)
        #expect(root.superview == nil)
        #expect(child.subviews.isEmpty)
        #expect(child.isDescendant(of: root))
    }

    @Test func namedColoursAndInitialisers() {
        var r: CGFloat = 0, g: CGFloat = 0, b: CGFloat = 0, a: CGFloat = 0
        UIColor.orange.getRed(&r, green: &g, blue: &b, alpha: &a)
        #expect((r, g, b, a) == (1, 0.5, 0, 1))
        #expect(UIColor.clear.cgColor.alpha == 0)
        #expect(UIColor.gray.cgColor == CGColor(gray: 0.5, alpha: 1))
        #expect(UIColor(white: 1, alpha: 0.5).cgColor == CGColor(gray: 1, alpha: 0.5))
        #expect(UIColor(red: 0, green: 0, blue: 1, alpha: 1) == .blue)
        #expect(UIColor.red.withAlphaComponent(0.25).cgColor.alpha == 0.25)
        #expect(UIColor(hue: 0, saturation: 1, brightness: 1, alpha: 1) == .red)
        #expect(UIColor(hue: 1.0 / 3.0, saturation: 1, brightness: 1, alpha: 1).cgColor.green == 1)
        #expect(UIColor(hue: 2.0 / 3.0, saturation: 1, brightness: 1, alpha: 1) == .blue)
        #expect(UIColor(hue: 0.5, saturation: 0, brightness: 0.5, alpha: 1) == .gray)
        let colours: [UIColor] = [.black, .darkGray, .lightGray, .white, .gray, .red, .green, .blue,
                                  .cyan, .yellow, .magenta, .orange, .purple, .brown, .clear]
        #expect(Set(colours).count == colours.count)
    }

    @Test func imagesWrapACGImage() throws {
        let cgImage = try #require(try? CGImage(width: 4, height: 2, filledWith: .init(red: 0, green: 0, blue: 0, alpha: 255)))
        let image = UIImage(cgImage: cgImage, scale: 2)
        #expect(image.size == CGSize(width: 2, height: 1))
        #expect(image.cgImage === cgImage)
        #expect(UIImage(cgImage: cgImage, scale: 0).scale == 1)
        let layer = CALayer()
        layer.contents = image.cgImage
        #expect(layer.contents as? CGImage === cgImage)
        #expect(image == UIImage(cgImage: cgImage, scale: 2))
    }

    /// The only test that touches the process-wide main screen.
    @Test func mainScreenScaleIsTwoAndSettableToPositiveValues() {
        let screen = UIScreen.main
        #expect(screen === UIScreen.main)
        #expect(screen.scale == 2)
        screen.scale = 3
        #expect(UIScreen.main.scale == 3)
        for bad in [0, -1, CGFloat.nan, .infinity] {
            screen.scale = bad
            #expect(screen.scale == 3)
        }
        screen.scale = 2
    }
}
