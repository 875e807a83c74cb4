import Foundation
import Testing
@testable import LaminaLottie
import Lamina

/// Layers that change nothing about how their sublayers draw are taken out
/// of a Lottie tree, and only those.
@Suite("Pass-through layers")
struct PassThroughLayersTests {
    /// A plain layer as the Lottie mapping makes one: at the origin, no size.
    static func plain(_ sublayers: [CALayer] = []) -> CALayer {
        let layer = CALayer()
        layer.anchorPoint = .zero
        layer.bounds = .zero
        for sublayer in sublayers { layer.addSublayer(sublayer) }
        return layer
    }

    static func shape(_ rect: CGRect, _ color: CGColor, opacity: Float = 1) -> CAShapeLayer {
        let shape = CAShapeLayer()
        shape.anchorPoint = .zero
        shape.bounds = .zero
        shape.path = CGPath(ellipseIn: rect, transform: nil)
        shape.fillColor = color
        shape.opacity = opacity
        return shape
    }

    /// Shapes under pass-through layers, two deep, under a faded layer that
    /// is moved and turned, in a 100 x 100 root.
    static func tree() -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        let faded = plain([
            plain([shape(CGRect(x: 10, y: 10, width: 50, height: 40), CGColor(red: 1, green: 0, blue: 0, alpha: 1))]),
            plain([plain([shape(CGRect(x: 30, y: 30, width: 50, height: 50), CGColor(red: 0, green: 0, blue: 1, alpha: 1), opacity: 0.7)])]),
        ])
        faded.opacity = 0.6
        faded.position = CGPoint(x: 5, y: 3)
        faded.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
        root.addSublayer(faded)
        return root
    }

    func pixels(_ root: CALayer) throws -> [CGImage.Pixel?] {
        let image = try LayerRenderer(backend: .cpu).render(Scene(width: 100, height: 100, rootLayer: root))
        return (0..<100).flatMap { y in (0..<100).map { x in image.pixel(x: x, y: y) } }
    }

    func count(_ layer: CALayer) -> Int { 1 + (layer.sublayers ?? []).reduce(0) { $0 + count($1) } }

    @Test func aLayerThatAddsNothingIsTakenOutAndTheTreeDrawsTheSame() throws {
        let kept = Self.tree(), simplified = Self.tree()
        PassThroughLayers.remove(under: simplified)
        // Root, the faded layer, two shapes: the three plain layers are gone.
        #expect(count(kept) == 7)
        #expect(count(simplified) == 4)
        #expect(simplified.sublayers?.first?.sublayers?.allSatisfy { $0 is CAShapeLayer } == true)
        #expect(try pixels(simplified) == pixels(kept))
    }

    @Test func aLayerThatChangesTheDrawingStays() {
        // Each change makes the plain layer one that draws, places, names
        // or orders something: it stays, with its sublayer.
        let changes: [(String, (CALayer) -> Void)] = [
            ("named", { $0.name = "slot" }),
            ("faded", { $0.opacity = 0.5 }),
            ("hidden", { $0.isHidden = true }),
            ("moved", { $0.position = CGPoint(x: 1, y: 0) }),
            ("sized", { $0.bounds = CGRect(x: 0, y: 0, width: 10, height: 10) }),
            ("turned", { $0.transform = CATransform3DMakeRotation(0.1, 0, 0, 1) }),
            ("sublayer transform", { $0.sublayerTransform = CATransform3DMakeScale(2, 2, 1) }),
            ("flipped", { $0.isGeometryFlipped = true }),
            ("background", { $0.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1) }),
            ("clipping", { $0.masksToBounds = true }),
            ("masked", { $0.mask = Self.plain() }),
            ("blended", { $0.compositingFilter = "multiplyBlendMode" }),
            ("animated", { layer in
                let fade = CABasicAnimation(keyPath: "opacity")
                fade.toValue = 0.0
                layer.add(fade, forKey: "fade")
            }),
            ("a sublayer in front", { $0.sublayers?.first?.zPosition = 1 }),
        ]
        for (change, apply) in changes {
            let root = Self.plain([Self.plain([Self.shape(CGRect(x: 0, y: 0, width: 10, height: 10), .black)])])
            let layer = root.sublayers![0]
            apply(layer)
            PassThroughLayers.remove(under: root)
            #expect(root.sublayers?.first === layer, "\(change)")
        }
    }

    @Test func aLayerStaysUnderASuperlayerThatWouldPlaceItsSublayersOtherwise() {
        // A transform layer does not flatten what a plain layer would; a
        // sublayer transform, set or animated, is not applied the same way
        // to the layer's sublayers once they are moved up.
        let superlayers: [(String, CALayer)] = [
            ("transform layer", CATransformLayer()),
            ("sublayer transform", { let l = Self.plain(); l.sublayerTransform = CATransform3DMakeScale(2, 2, 1); return l }()),
            ("animated sublayer transform", { () -> CALayer in
                let l = Self.plain()
                let zoom = CABasicAnimation(keyPath: "sublayerTransform.scale")
                zoom.toValue = 2.0
                l.add(zoom, forKey: "zoom")
                return l
            }()),
        ]
        for (kind, superlayer) in superlayers {
            let layer = Self.plain([Self.shape(CGRect(x: 0, y: 0, width: 10, height: 10), .black)])
            superlayer.addSublayer(layer)
            PassThroughLayers.remove(under: superlayer)
            #expect(superlayer.sublayers?.first === layer, "\(kind)")
        }
    }

    @Test func aLottieTreeKeepsItsNamedLayersAndNoPassThroughOnes() throws {
        // A layer named by `nm` and a group of identity transform: the
        // group's layer goes, the named one stays for templates to find.
        let group = #"{"ty": "gr", "it": [\#(LottieReaderTests.redSquare), {"ty": "tr", "p": {"a": 0, "k": [0, 0]}, "a": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [100, 100]}, "r": {"a": 0, "k": 0}, "o": {"a": 0, "k": 100}}]}"#
        let bytes = LottieReaderTests.animation(LottieReaderTests.shapeLayer(group, extra: #", "nm": "Badge""#))
        let root = try LottieReader().read(bytes).scene.rootLayer
        var named = 0, passThrough = 0
        func walk(_ layer: CALayer) {
            if layer.name == "Badge" { named += 1 }
            if layer !== root, PassThroughLayers.isPassThrough(layer) { passThrough += 1 }
            for sublayer in layer.sublayers ?? [] { walk(sublayer) }
        }
        walk(root)
        #expect(named == 1)
        #expect(passThrough == 0)
        let image = try LayerRenderer(backend: .cpu).render(LottieReader().read(bytes).scene)
        #expect(image.pixel(x: 50, y: 50) == CGImage.Pixel(red: 255, green: 0, blue: 0, alpha: 255))
    }
}
