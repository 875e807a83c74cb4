// Key-value coding: every value type, key paths, custom keys, errors,
// defaultValue(forKey:) and needsDisplay(forKey:).
import Foundation
import Testing
@testable import LaminaCore

@Suite struct LayerKeyValueCodingTests {
    @Test func numbersComeBackAsThePropertysSwiftType() {
        let layer = CALayer()
        layer.setValue(0.5, forKey: "opacity")                  // Double into Float
        #expect(layer.opacity == 0.5)
        #expect(layer.value(forKey: "opacity") as? Float == 0.5)
        layer.setValue(NSNumber(value: 4), forKey: "cornerRadius")  // NSNumber into CGFloat
        #expect(layer.cornerRadius == 4)
        #expect(layer.value(forKey: "cornerRadius") as? CGFloat == 4)
        layer.setValue(Float(2.5), forKey: "zPosition")
        #expect(layer.zPosition == 2.5)
        layer.setValue(3, forKey: "borderWidth")                  // Int into CGFloat
        #expect(layer.borderWidth == 3)
    }

    @Test func flags() {
        let layer = CALayer()
        layer.setValue(true, forKey: "hidden")
        #expect(layer.isHidden)
        #expect(layer.value(forKey: "hidden") as? Bool == true)
        layer.setValue(NSNumber(value: false), forKey: "doubleSided")
        #expect(!layer.isDoubleSided)
        layer.setValue(true, forKey: "geometryFlipped")
        #expect(layer.isGeometryFlipped)
        layer.setValue(true, forKey: "masksToBounds")
        #expect(layer.value(forKey: "masksToBounds") as? Bool == true)
    }

    @Test func structs() {
        let layer = CALayer()
        layer.setValue(CGPoint(x: 1, y: 2), forKey: "position")
        layer.setValue(CGRect(x: 0, y: 0, width: 10, height: 20), forKey: "bounds")
        layer.setValue(CGSize(width: 3, height: 4), forKey: "shadowOffset")
        let t = CATransform3DMakeRotation(1, 0, 0, 1)
        layer.setValue(t, forKey: "transform")
        #expect(layer.position == CGPoint(x: 1, y: 2))
        #expect(layer.value(forKey: "bounds") as? CGRect == CGRect(x: 0, y: 0, width: 10, height: 20))
        #expect(layer.value(forKey: "shadowOffset") as? CGSize == CGSize(width: 3, height: 4))
        #expect(layer.value(forKey: "transform") as? CATransform3D == t)
        layer.setValue(CATransform3DIdentity, forKey: "transform")
        layer.setValue(CGRect(x: 0, y: 0, width: 4, height: 4), forKey: "frame")
        #expect(layer.value(forKey: "frame") as? CGRect == CGRect(x: 0, y: 0, width: 4, height: 4))
    }

    @Test func objectsAndConstants() throws {
        let layer = CALayer()
        layer.setValue(CGColor.white, forKey: "backgroundColor")
        #expect(layer.backgroundColor == .white)
        layer.setValue(UIColor.red, forKey: "borderColor")
        #expect(layer.borderColor == UIColor.red.cgColor)
        layer.setValue(nil, forKey: "shadowColor")
        #expect(layer.shadowColor == nil)
        layer.setValue("resizeAspect", forKey: "contentsGravity")
        #expect(layer.contentsGravity == .resizeAspect)
        layer.setValue(CALayerContentsFilter.nearest, forKey: "magnificationFilter")
        #expect(layer.value(forKey: "magnificationFilter") as? CALayerContentsFilter == .nearest)
        layer.setValue(CACornerMask.layerMinXMinYCorner, forKey: "maskedCorners")
        #expect(layer.maskedCorners == .layerMinXMinYCorner)
        layer.setValue(10, forKey: "maskedCorners")
        #expect(layer.maskedCorners == [.layerMaxXMinYCorner, .layerMaxXMaxYCorner])
        layer.setValue("a name", forKey: "name")
        #expect(layer.name == "a name")
        let image = try #require(makeTestImage())
        layer.setValue(image, forKey: "contents")
        #expect(layer.contents as? CGImage === image)
        layer.setValue(UIBezierPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1)), forKey: "shadowPath")
        #expect(layer.shadowPath == CGPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1)))
        let mask = CALayer()
        layer.setValue(mask, forKey: "mask")
        #expect(layer.mask === mask)
        let sublayer = CALayer()
        layer.setValue([sublayer], forKey: "sublayers")
        #expect(layer.sublayers?.first === sublayer)
        #expect((layer.value(forKey: "sublayers") as? [CALayer])?.first === sublayer)
    }

    @Test func subclassProperties() {
        let shape = CAShapeLayer()
        shape.setValue([2, 3.5], forKey: "lineDashPattern")
        #expect(shape.lineDashPattern?.map(\.doubleValue) == [2, 3.5])
        shape.setValue("even-odd", forKey: "fillRule")
        #expect(shape.fillRule == .evenOdd)
        shape.setValue(0.25, forKey: "strokeEnd")
        #expect(shape.strokeEnd == 0.25)
        let replicator = CAReplicatorLayer()
        replicator.setValue(5, forKey: "instanceCount")
        #expect(replicator.instanceCount == 5)
        replicator.setValue(5.5, forKey: "instanceCount")  // not an integer: ignored
        #expect(replicator.instanceCount == 5)
        replicator.setValue(0.1, forKey: "instanceDelay")
        #expect(replicator.value(forKey: "instanceDelay") as? Double == 0.1)
        let text = CATextLayer()
        text.setValue(true, forKey: "wrapped")
        #expect(text.isWrapped)
        text.setValue("Hello", forKey: "string")
        #expect(text.string as? String == "Hello")
        let gradient = CAGradientLayer()
        gradient.setValue([CGColor.black, CGColor.white], forKey: "colors")
        #expect(gradient.colors?.count == 2)
        gradient.setValue("radial", forKey: "type")
        #expect(gradient.type == .radial)
    }

    @Test func keyPathsIntoStructs() {
        let layer = CALayer()
        layer.setValue(5, forKeyPath: "position.x")
        layer.setValue(6, forKeyPath: "position.y")
        #expect(layer.position == CGPoint(x: 5, y: 6))
        #expect(layer.value(forKeyPath: "position.x") as? CGFloat == 5)
        layer.setValue(100, forKeyPath: "bounds.size.width")
        layer.setValue(7, forKeyPath: "bounds.origin.x")
        #expect(layer.bounds == CGRect(x: 7, y: 0, width: 100, height: 0))
        layer.setValue(CGSize(width: 3, height: 4), forKeyPath: "bounds.size")
        layer.setValue(CGPoint(x: 1, y: 2), forKeyPath: "bounds.origin")
        #expect(layer.bounds == CGRect(x: 1, y: 2, width: 3, height: 4))
        #expect(layer.value(forKeyPath: "bounds.size") as? CGSize == CGSize(width: 3, height: 4))
        #expect(layer.value(forKeyPath: "bounds.origin.y") as? CGFloat == 2)
        layer.setValue(-1, forKeyPath: "shadowOffset.height")
        #expect(layer.shadowOffset == CGSize(width: 0, height: -1))
        layer.setValue(50, forKeyPath: "frame.origin.x")
        #expect(layer.frame.origin.x == 50)
        // A coordinate of `position` or `anchorPoint` (written typed, as a
        // split position's animation writes it every frame).
        layer.setValue(Float(0.25), forKeyPath: "anchorPoint.x")
        layer.setValue(NSNumber(value: 0.75), forKeyPath: "anchorPoint.y")
        #expect(layer.anchorPoint == CGPoint(x: 0.25, y: 0.75))
        #expect(throws: LayerKeyValueError(keyPath: "position.x", reason: "expects a number, got String")) {
            try layer.setCheckedValue("left", forKeyPath: "position.x")
        }
        let drawn = PositionDrawnLayer()
        drawn.setValue(3, forKeyPath: "position.y")
        #expect(drawn.position.y == 3 && drawn.needsDisplay())
    }

    /// A layer drawn from its position: a write into it marks the layer.
    final class PositionDrawnLayer: CALayer {
        override class func needsDisplay(forKey key: String) -> Bool { key == "position" || super.needsDisplay(forKey: key) }
    }

    @Test func keyPathsIntoTransforms() {
        let layer = CALayer()
        layer.setValue(CGFloat.pi / 2, forKeyPath: "transform.rotation.z")
        #expect(isNear(layer.transform.apply(to: CGPoint(x: 1, y: 0)), CGPoint(x: 0, y: 1), 1e-12))
        #expect(abs((layer.value(forKeyPath: "transform.rotation") as? CGFloat ?? 0) - .pi / 2) < 1e-12)
        layer.setValue(2, forKeyPath: "transform.scale")
        #expect(abs((layer.value(forKeyPath: "transform.scale.x") as? CGFloat ?? 0) - 2) < 1e-12)
        layer.setValue(30, forKeyPath: "transform.translation.x")
        #expect(layer.transform.m41 == 30)
        layer.setValue(CGSize(width: 1, height: 2), forKeyPath: "transform.translation")
        #expect(layer.value(forKeyPath: "transform.translation") as? CGSize == CGSize(width: 1, height: 2))
        layer.setValue(0.5, forKeyPath: "sublayerTransform.rotation.y")
        #expect(abs((layer.value(forKeyPath: "sublayerTransform.rotation.y") as? CGFloat ?? 0) - 0.5) < 1e-12)
        #expect(layer.transform.m41 == 1)  // the other property is untouched
    }

    @Test func keyPathsThroughLayers() {
        let layer = CALayer(), mask = CALayer()
        layer.mask = mask
        layer.setValue(0.25, forKeyPath: "mask.opacity")
        #expect(mask.opacity == 0.25)
        #expect(layer.value(forKeyPath: "mask.opacity") as? Float == 0.25)
        #expect(layer.value(forKeyPath: "mask.position.x") as? CGFloat == 0)
    }

    @Test func wrongValuesAreIgnoredOrReported() {
        let layer = CALayer()
        layer.setValue("red", forKey: "opacity")
        #expect(layer.opacity == 1)
        #expect(throws: LayerKeyValueError(keyPath: "opacity", reason: "expects a number, got String")) {
            try layer.setCheckedValue("red", forKey: "opacity")
        }
        #expect(throws: LayerKeyValueError(keyPath: "position", reason: "expects a CGPoint, got nil")) {
            try layer.setCheckedValue(nil, forKey: "position")
        }
        #expect(throws: LayerKeyValueError(keyPath: "bounds.size.width", reason: "expects a number, got Bool")) {
            try layer.setCheckedValue(true, forKeyPath: "bounds.size.width")
        }
        #expect(throws: LayerKeyValueError(keyPath: "position.z", reason: "CGPoint has no component 'z'")) {
            try layer.setCheckedValue(1, forKeyPath: "position.z")
        }
        #expect(throws: LayerKeyValueError(keyPath: "transform.skew", reason: "CATransform3D has no component 'skew'")) {
            try layer.setCheckedValue(1, forKeyPath: "transform.skew")
        }
        #expect(throws: LayerKeyValueError(keyPath: "name.x", reason: "nil has no component 'x'")) {
            try layer.setCheckedValue(1, forKeyPath: "name.x")
        }
        let mask = CALayer()
        layer.mask = mask
        #expect(throws: LayerKeyValueError(keyPath: "mask.hidden", reason: "expects a Bool, got String")) {
            try layer.setCheckedValue("yes", forKeyPath: "mask.hidden")
        }
        #expect(layer.value(forKeyPath: "position.z") == nil)
        #expect(layer.value(forKeyPath: "opacity.x") == nil)
        #expect(LayerKeyValueError(keyPath: "a", reason: "b").description == "a: b")
    }

    @Test func customKeysAreStored() {
        let layer = CALayer()
        #expect(layer.value(forKey: "progress") == nil)
        layer.setValue(0.5, forKey: "progress")
        #expect(layer.value(forKey: "progress") as? Double == 0.5)
        layer.setValue(["a": 1], forKey: "info")
        #expect((layer.value(forKey: "info") as? [String: Int]) == ["a": 1])
        layer.setValue(nil, forKey: "progress")
        #expect(layer.value(forKey: "progress") == nil)
        // A copy keeps them.
        layer.setValue(1, forKey: "tag")
        #expect(CALayer(layer: layer).value(forKey: "tag") as? Int == 1)
    }

    @Test func defaultValueForCoreAnimationKeys() {
        #expect(CALayer.defaultValue(forKey: "anchorPoint") as? CGPoint == CGPoint(x: 0.5, y: 0.5))
        #expect(CALayer.defaultValue(forKey: "shadowOffset") as? CGSize == CGSize(width: 0, height: -3))
        #expect(CALayer.defaultValue(forKey: "opacity") as? Float == 1)
        #expect(CALayer.defaultValue(forKey: "borderColor") as? CGColor == .black)
        #expect(CAShapeLayer.defaultValue(forKey: "miterLimit") as? CGFloat == 10)
        #expect(CALayer.defaultValue(forKey: "miterLimit") == nil)
        #expect(CALayer.defaultValue(forKey: "custom") == nil)
    }

    final class ProgressLayer: CALayer {
        override class func defaultValue(forKey key: String) -> Any? {
            switch key {
            case "progress": 0.25
            case "cornerRadius": CGFloat(8)
            case "masksToBounds": true
            default: super.defaultValue(forKey: key)
            }
        }

        override class func needsDisplay(forKey key: String) -> Bool {
            key == "progress" || super.needsDisplay(forKey: key)
        }
    }

    @Test func aSubclassCanOverrideDefaults() {
        let layer = ProgressLayer()
        #expect(layer.value(forKey: "progress") as? Double == 0.25)
        #expect(layer.cornerRadius == 8)
        #expect(layer.masksToBounds)
        #expect(layer.opacity == 1)
        #expect(CALayer.overriddenDefaultKeys(of: ProgressLayer.self) == ["cornerRadius", "masksToBounds"])
        #expect(CALayer.overriddenDefaultKeys(of: CALayer.self).isEmpty)
        // Plain layers are not affected.
        #expect(CALayer().cornerRadius == 0)
    }

    @Test func needsDisplayForKeyMarksTheLayerOnKeyValueWrites() {
        let layer = ProgressLayer()
        #expect(!layer.needsDisplay())
        layer.setValue(0.5, forKey: "opacity")
        #expect(!layer.needsDisplay())
        layer.setValue(0.5, forKey: "progress")
        #expect(layer.needsDisplay())
        #expect(!CALayer.needsDisplay(forKey: "opacity"))
    }

    @Test func layerPropertyKeysListEveryKeyOnce() {
        for cls in [CALayer.self, CAShapeLayer.self, CATextLayer.self, CATransformLayer.self,
                    CAGradientLayer.self, CAReplicatorLayer.self] as [CALayer.Type] {
            let keys = cls.layerPropertyKeys
            #expect(Set(keys).count == keys.count)
            #expect(keys.starts(with: CALayer.layerPropertyKeys))
        }
        #expect(CAShapeLayer.layerPropertyKeys.contains("strokeEnd"))
        #expect(!CALayer.layerPropertyKeys.contains("strokeEnd"))
    }

    @Test func integersKeepTheirValue() {
        // Through a Double, Int.max was no integer at all and the write failed.
        let replicator = CAReplicatorLayer()
        replicator.setValue(Int.max, forKey: "instanceCount")
        #expect(replicator.instanceCount == .max)
        replicator.setValue(Int64(9_007_199_254_740_993), forKey: "instanceCount")
        #expect(replicator.instanceCount == 9_007_199_254_740_993)
        #expect(CAReplicatorLayer(layer: replicator).instanceCount == 9_007_199_254_740_993)
    }

    @Test("The property table is the one list: KVC, init(layer:) and importers read it")
    func propertyTable() throws {
        let opacity = try #require(CALayer.layerProperty(named: "opacity"))
        #expect(opacity.kind == .number(.unit) && opacity.isAnimatable && opacity.defaultValue as? Float == 1)
        let strokeEnd = try #require(CAShapeLayer.layerProperty(named: "strokeEnd"))
        #expect(strokeEnd.isOwn && strokeEnd.range == .unit && strokeEnd.isAnimatable)
        #expect(CAShapeLayer.layerProperty(named: "opacity")?.isOwn == false)
        #expect(CALayer.layerProperty(named: "contents")?.kind == .image)
        #expect(CALayer.layerProperty(named: "sublayers")?.isAnimatable == false)
        // Every row is copied by init(layer:) but the tree and frame.
        let shape = CAShapeLayer()
        for row in CAShapeLayer.layerProperties where ![.layer, .layers].contains(row.kind) && row.name != "frame" {
            #expect(row.holdsDefault(shape), "a new layer holds \(row.name)'s default")
        }
        shape.strokeEnd = 0.25; shape.lineDashPattern = [2, 3]; shape.cornerRadius = 4; shape.contentsGravity = .top
        // CALayer's own properties are copied as one value, a subclass's row by row.
        shape.bounds = CGRect(x: 1, y: 2, width: 30, height: 40); shape.position = CGPoint(x: 5, y: 6)
        shape.transform = CATransform3DMakeRotation(0.5, 0, 0, 1); shape.opacity = 0.5; shape.isHidden = true
        shape.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1); shape.borderColor = nil
        shape.shadowPath = CGPath(rect: CGRect(x: 0, y: 0, width: 3, height: 3), transform: nil)
        shape.filters = [CAFilter(type: .gaussianBlur)]; shape.name = "copied"; shape.minificationFilterBias = 2
        shape.path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 8, height: 8), transform: nil); shape.lineWidth = 3
        let copy = CAShapeLayer(layer: shape)
        for row in CAShapeLayer.layerProperties where ![.layer, .layers].contains(row.kind) {
            #expect(row.holdsDefault(copy) == row.holdsDefault(shape), "init(layer:) copies \(row.name)")
        }
        #expect(!copy.needsDisplay())
        #expect(copy.bounds == shape.bounds && copy.position == shape.position && copy.transform == shape.transform)
        #expect(copy.opacity == 0.5 && copy.isHidden && copy.backgroundColor == shape.backgroundColor && copy.borderColor == nil)
        #expect(copy.shadowPath === shape.shadowPath && (copy.filters?.first as? CAFilter) === (shape.filters?.first as? CAFilter))
        #expect(copy.name == "copied" && copy.minificationFilterBias == 2 && copy.path === shape.path && copy.lineWidth == 3)
        // Between classes: CALayer's properties, and the rows both have.
        let plain = CALayer(layer: shape)
        #expect(plain.bounds == shape.bounds && plain.name == "copied" && plain.value(forKey: "lineWidth") == nil)
        let back = CAShapeLayer(layer: plain)
        #expect(back.opacity == 0.5 && back.lineWidth == 1 && back.path == nil)
    }
}
