// Core Animation's defaults for every class, and init(layer:) copying
// every property.
import Foundation
import Testing
@testable import LaminaCore

@Suite struct LayerDefaultsTests {
    static let classes: [CALayer.Type] = [
        CALayer.self, CAShapeLayer.self, CATextLayer.self, CATransformLayer.self,
        CAGradientLayer.self, CAReplicatorLayer.self, CAEmitterLayer.self,
    ]

    @Test(arguments: classes)
    func aNewLayerHasTheDefaultOfEveryKey(_ cls: CALayer.Type) {
        let layer = cls.init()
        for key in cls.keyTable.keys {
            #expect(key.isDefault(layer.value(forKey: key.name)), "\(cls).\(key.name)")
            #expect(key.isDefault(cls.defaultValue(forKey: key.name)), "\(cls).\(key.name)")
        }
    }

    /// `setsNoEffects`, which lets a snapshot skip reading a layer's
    /// effects: true for a new layer of every class, false once any of
    /// them is set, and false for an app's class, whose getters may answer
    /// otherwise than the storage says.
    @Test(arguments: classes)
    func aLayerSetsNoEffectsUntilOneIsSet(_ cls: CALayer.Type) {
        #expect(cls.init().setsNoEffects)
        let setters: [(CALayer) -> Void] = [
            { $0.shadowOpacity = 0.5 }, { $0.filters = [] }, { $0.backgroundFilters = [] },
            { $0.compositingFilter = "multiplyBlendMode" },
        ]
        for set in setters {
            let layer = cls.init()
            set(layer)
            #expect(!layer.setsNoEffects)
        }
        final class ShadowedLayer: CALayer {
            override var shadowOpacity: Float { get { 1 } set {} }
        }
        #expect(!ShadowedLayer().setsNoEffects)
    }

    /// `applyClassDefaults` skips Lamina's own classes: none of them may
    /// override a default, and an app's subclass is not taken for one.
    @Test func laminasClassesOverrideNoDefault() {
        for cls in Self.classes {
            #expect(CALayer.isLaminaClass(cls), "\(cls)")
            #expect(CALayer.overriddenDefaultKeys(of: cls).isEmpty, "\(cls)")
        }
        final class AppLayer: CAShapeLayer {}
        #expect(!CALayer.isLaminaClass(AppLayer.self))
    }

    @Test func calayerDefaults() {
        let layer = CALayer()
        #expect(layer.bounds == .zero && layer.position == .zero && layer.zPosition == 0)
        #expect(layer.anchorPoint == CGPoint(x: 0.5, y: 0.5) && layer.anchorPointZ == 0)
        #expect(layer.transform == CATransform3DIdentity && layer.sublayerTransform == CATransform3DIdentity)
        #expect(!layer.isHidden && layer.isDoubleSided && !layer.isGeometryFlipped)
        #expect(layer.opacity == 1 && layer.allowsGroupOpacity && !layer.isOpaque)
        #expect(layer.backgroundColor == nil && layer.cornerRadius == 0 && layer.maskedCorners == .allCorners)
        #expect(layer.borderWidth == 0 && layer.borderColor == CGColor(gray: 0, alpha: 1))
        #expect(!layer.masksToBounds && layer.mask == nil)
        #expect(layer.shadowColor == CGColor(gray: 0, alpha: 1) && layer.shadowOpacity == 0)
        #expect(layer.shadowOffset == CGSize(width: 0, height: -3) && layer.shadowRadius == 3)
        #expect(layer.shadowPath == nil && layer.contents == nil)
        #expect(layer.contentsGravity == .resize && layer.contentsScale == 1)
        #expect(layer.contentsRect == CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(layer.contentsCenter == CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(layer.minificationFilter == .linear && layer.magnificationFilter == .linear)
        #expect(layer.minificationFilterBias == 0 && layer.name == nil)
        #expect(!layer.needsDisplayOnBoundsChange && !layer.needsDisplay() && layer.delegate == nil)
    }

    @Test func subclassDefaults() {
        let shape = CAShapeLayer()
        #expect(shape.path == nil && shape.fillColor == .black && shape.fillRule == .nonZero)
        #expect(shape.strokeColor == nil && shape.lineWidth == 1 && shape.lineCap == .butt)
        #expect(shape.lineJoin == .miter && shape.miterLimit == 10 && shape.lineDashPattern == nil)
        #expect(shape.lineDashPhase == 0 && shape.strokeStart == 0 && shape.strokeEnd == 1)
        let text = CATextLayer()
        #expect(text.string == nil && text.font == nil && text.fontSize == 36)
        #expect(text.foregroundColor == .white && !text.isWrapped)
        #expect(text.truncationMode == .none && text.alignmentMode == .natural)
        let gradient = CAGradientLayer()
        #expect(gradient.colors == nil && gradient.locations == nil && gradient.type == .axial)
        #expect(gradient.startPoint == CGPoint(x: 0.5, y: 0) && gradient.endPoint == CGPoint(x: 0.5, y: 1))
        let replicator = CAReplicatorLayer()
        #expect(replicator.instanceCount == 1 && replicator.instanceDelay == 0)
        #expect(replicator.instanceTransform == CATransform3DIdentity && replicator.instanceColor == .white)
        #expect(replicator.instanceRedOffset == 0 && replicator.instanceGreenOffset == 0)
        #expect(replicator.instanceBlueOffset == 0 && replicator.instanceAlphaOffset == 0)
        #expect(!replicator.preservesDepth)
    }

    @Test func constantsHaveCoreAnimationsRawValues() {
        #expect(CAShapeLayerFillRule.nonZero.rawValue == "non-zero")
        #expect(CAShapeLayerFillRule.evenOdd.rawValue == "even-odd")
        #expect(CAShapeLayerFillRule.evenOdd.cgFillRule == .evenOdd)
        #expect(CAShapeLayerFillRule("odd").cgFillRule == .winding)
        #expect(CAShapeLayerLineCap.square.cgLineCap == .square)
        #expect(CAShapeLayerLineJoin.bevel.cgLineJoin == .bevel)
        #expect(CALayerContentsGravity.resizeAspectFill.rawValue == "resizeAspectFill")
        #expect(CALayerContentsGravity.topLeft.rawValue == "topLeft")
        #expect(CALayerContentsFilter.trilinear.rawValue == "trilinear")
        #expect(CATextLayerTruncationMode.middle.rawValue == "middle")
        #expect(CATextLayerAlignmentMode.justified.rawValue == "justified")
        #expect(CAGradientLayerType.conic.rawValue == "conic")
        #expect(CACornerMask.allCorners.rawValue == 15)
        #expect(CACornerMask.layerMaxXMaxYCorner.rawValue == 8)
    }

    /// A value other than the default for every key of every class (a
    /// computed property: `Any` values cannot live in a shared constant).
    static var samples: [String: Any] { [
        "bounds": CGRect(x: 1, y: 2, width: 30, height: 40),
        "position": CGPoint(x: 5, y: 6),
        "frame": CGRect(x: 1, y: 2, width: 30, height: 40),
        "zPosition": CGFloat(7),
        "anchorPoint": CGPoint(x: 0.25, y: 0.75),
        "anchorPointZ": CGFloat(3),
        "transform": CATransform3DMakeRotation(0.5, 1, 1, 0),
        "sublayerTransform": CATransform3D(perspectiveDistance: 400),
        "geometryFlipped": true,
        "hidden": true,
        "doubleSided": false,
        "opacity": Float(0.5),
        "allowsGroupOpacity": false,
        "opaque": true,
        "backgroundColor": CGColor(red: 1, green: 0, blue: 0, alpha: 1),
        "cornerRadius": CGFloat(4),
        "maskedCorners": CACornerMask.layerMinXMaxYCorner,
        "borderWidth": CGFloat(2),
        "borderColor": CGColor.white,
        "masksToBounds": true,
        "shadowColor": CGColor.white,
        "shadowOpacity": Float(0.75),
        "shadowOffset": CGSize(width: 2, height: 2),
        "shadowRadius": CGFloat(9),
        "shadowPath": CGPath(rect: CGRect(x: 0, y: 0, width: 3, height: 3)),
        "contents": "contents",
        "contentsGravity": CALayerContentsGravity.topLeft,
        "contentsScale": CGFloat(2),
        "contentsRect": CGRect(x: 0, y: 0, width: 0.5, height: 0.5),
        "contentsCenter": CGRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5),
        "minificationFilter": CALayerContentsFilter.nearest,
        "magnificationFilter": CALayerContentsFilter.trilinear,
        "minificationFilterBias": Float(0.5),
        "name": "sample",
        "needsDisplayOnBoundsChange": true,
        "path": CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 5, height: 5)),
        "fillColor": CGColor.white,
        "fillRule": CAShapeLayerFillRule.evenOdd,
        "strokeColor": CGColor.black,
        "lineWidth": CGFloat(3),
        "lineCap": CAShapeLayerLineCap.round,
        "lineJoin": CAShapeLayerLineJoin.bevel,
        "miterLimit": CGFloat(4),
        "lineDashPattern": [NSNumber(value: 2), NSNumber(value: 1)],
        "lineDashPhase": CGFloat(1),
        "strokeStart": CGFloat(0.25),
        "strokeEnd": CGFloat(0.75),
        "string": "text",
        "font": "DejaVu Sans",
        "fontSize": CGFloat(12),
        "foregroundColor": CGColor.black,
        "wrapped": true,
        "truncationMode": CATextLayerTruncationMode.end,
        "alignmentMode": CATextLayerAlignmentMode.center,
        "colors": [CGColor.black, CGColor.white],
        "locations": [NSNumber(value: 0), NSNumber(value: 1)],
        "startPoint": CGPoint(x: 0, y: 0),
        "endPoint": CGPoint(x: 1, y: 1),
        "type": CAGradientLayerType.radial,
        "instanceCount": 3,
        "instanceDelay": 0.5,
        "instanceTransform": CATransform3DMakeTranslation(10, 0, 0),
        "instanceColor": CGColor.black,
        "instanceRedOffset": Float(-0.1),
        "instanceGreenOffset": Float(-0.2),
        "instanceBlueOffset": Float(-0.3),
        "instanceAlphaOffset": Float(-0.4),
        "preservesDepth": true,
        "contentsMultiplyColor": CGColor.black,
        "filters": [CAFilter(type: .colorInvert)],
        "compositingFilter": "multiplyBlendMode",
        "backgroundFilters": [CAFilter(type: .colorInvert)],
        "emitterCells": [CAEmitterCell()],
        "emitterBehaviors": [CAEmitterBehavior(type: .drag)],
        "birthRate": Float(2),
        "lifetime": Float(3),
        "emitterPosition": CGPoint(x: 1, y: 2),
        "emitterZPosition": CGFloat(3),
        "emitterSize": CGSize(width: 4, height: 5),
        "emitterDepth": CGFloat(6),
        "emitterShape": CAEmitterLayerEmitterShape.circle,
        "emitterMode": CAEmitterLayerEmitterMode.outline,
        "renderMode": CAEmitterLayerRenderMode.additive,
        "velocity": Float(2),
        "scale": Float(0.5),
        "spin": Float(3),
        "seed": UInt32(9),
        "spinBias": Float(1.06),
    ] }

    /// Keys whose values are layers of the tree: not copied by `init(layer:)`.
    static let treeKeys: Set = ["sublayers", "mask"]

    @Test(arguments: classes)
    func initWithLayerCopiesEveryProperty(_ cls: CALayer.Type) throws {
        let original = cls.init()
        let samples = Self.samples
        for key in cls.keyTable.keys where !Self.treeKeys.contains(key.name) {
            let sample = try #require(samples[key.name], "no sample value for \(key.name)")
            try original.setCheckedValue(sample, forKey: key.name)
            #expect(!key.isDefault(original.value(forKey: key.name)), "sample of \(key.name) is the default")
        }
        let copy = cls.init(layer: original)
        #expect(type(of: copy) == cls)
        for key in cls.keyTable.keys where !Self.treeKeys.contains(key.name) {
            let copied = String(describing: copy.value(forKey: key.name))
            let expected = String(describing: original.value(forKey: key.name))
            #expect(copied == expected, "\(cls).\(key.name)")
        }
    }

    @Test func initWithLayerDoesNotCopyTheTreeDelegateOrDisplayMark() {
        final class Delegate: CALayerDelegate {}
        let delegate = Delegate()
        let original = CALayer()
        original.addSublayer(CALayer())
        original.mask = CALayer()
        original.delegate = delegate
        original.setNeedsDisplay()
        original.add(CABasicAnimation(keyPath: "opacity"), forKey: "fade")
        let copy = CALayer(layer: original)
        #expect(copy.sublayers == nil && copy.mask == nil && copy.superlayer == nil)
        #expect(copy.delegate == nil && !copy.needsDisplay() && copy.animationKeys() == nil)
    }

    @Test func initWithSomethingElseGivesDefaults() {
        let copy = CAShapeLayer(layer: "not a layer")
        #expect(copy.lineWidth == 1 && copy.opacity == 1)
    }

    @Test func mutablePathsAreCopiedOnAssignment() {
        let path = CGMutablePath()
        path.addRect(CGRect(x: 0, y: 0, width: 1, height: 1))
        let shape = CAShapeLayer()
        shape.path = path
        shape.shadowPath = path
        path.addRect(CGRect(x: 5, y: 5, width: 1, height: 1))
        #expect(shape.path == CGPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1)))
        #expect(shape.shadowPath == CGPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1)))
        #expect(!(shape.path is CGMutablePath))
    }
}
