// Animations attached to layers and the presentation copy.
import Foundation
import Testing
@testable import LaminaCore

@Suite struct LayerAnimationTests {
    private func fade(from: Double = 0, to: Double = 1) -> CABasicAnimation {
        let animation = CABasicAnimation(keyPath: "opacity")
        animation.fromValue = from
        animation.toValue = to
        animation.duration = 1
        return animation
    }

    @Test func addCopiesTheAnimation() {
        let layer = CALayer()
        let animation = fade()
        layer.add(animation, forKey: "fade")
        animation.duration = 10
        let attached = layer.animation(forKey: "fade")
        #expect(attached !== animation)
        #expect(attached?.duration == 1)
    }

    @Test func keysKeepTheOrderAndAKeyIsReplaced() {
        let layer = CALayer()
        #expect(layer.animationKeys() == nil)
        layer.add(fade(), forKey: "a")
        layer.add(fade(), forKey: "b")
        layer.add(fade(), forKey: nil)
        layer.add(fade(to: 0.5), forKey: "a")
        #expect(layer.animationKeys() == ["b", "a"])
        #expect((layer.animation(forKey: "a") as? CABasicAnimation)?.toValue as? Double == 0.5)
        layer.removeAnimation(forKey: "b")
        #expect(layer.animationKeys() == ["a"])
        layer.removeAllAnimations()
        #expect(layer.animationKeys() == nil)
        #expect(layer.animation(forKey: "a") == nil)
    }

    @Test func presentationAppliesAnimationsWithoutTouchingTheModel() throws {
        let layer = CALayer()
        layer.add(fade(), forKey: "fade")
        let presented = layer.presentation(atTime: 0.25)
        #expect(abs(presented.opacity - 0.25) < 1e-6)
        #expect(layer.opacity == 1)
        #expect(presented.model() === layer)
        #expect(layer.model() === layer)
        // Outside the active time without fill: the model value.
        #expect(layer.presentation(atTime: 2).opacity == 1)
        let atZero = try #require(layer.presentation())
        #expect(atZero.opacity == 0)
    }

    @Test func keyPathsAndStructsAnimate() {
        let layer = CALayer()
        layer.position = CGPoint(x: 10, y: 20)
        let move = CABasicAnimation(keyPath: "position.x")
        move.toValue = 110.0
        move.duration = 1
        let spin = CABasicAnimation(keyPath: "transform.rotation.z")
        spin.fromValue = 0.0
        spin.toValue = Double.pi
        spin.duration = 1
        let grow = CABasicAnimation(keyPath: "bounds")
        grow.fromValue = CGRect(x: 0, y: 0, width: 0, height: 0)
        grow.toValue = CGRect(x: 0, y: 0, width: 100, height: 50)
        grow.duration = 1
        layer.add(move, forKey: "move")
        layer.add(spin, forKey: "spin")
        layer.add(grow, forKey: "grow")
        let presented = layer.presentation(atTime: 0.5)
        #expect(abs(presented.position.x - 60) < 1e-9)
        #expect(presented.position.y == 20)
        #expect(abs(presented.transform.value(for: .rotationZ) - .pi / 2) < 1e-9)
        #expect(isNear(presented.bounds, CGRect(x: 0, y: 0, width: 50, height: 25), 1e-9))
    }

    @Test func laterAnimationsBuildOnEarlierOnes() {
        let layer = CALayer()
        layer.position = CGPoint(x: 0, y: 0)
        let first = CABasicAnimation(keyPath: "position.x")
        first.fromValue = 100.0
        first.toValue = 100.0
        first.duration = 1
        let second = CABasicAnimation(keyPath: "position.x")
        second.byValue = 10.0
        second.isAdditive = true
        second.fromValue = 0.0
        second.toValue = 10.0
        second.duration = 1
        layer.add(first, forKey: "first")
        layer.add(second, forKey: "second")
        #expect(abs(layer.presentation(atTime: 0.5).position.x - 105) < 1e-9)
    }

    /// Animations of a transform's component and of a point's coordinate
    /// are written typed: the values the boxed write gives (a number boxed
    /// as the model value's type, `CGFloat`, whatever the animation's own
    /// values are).
    @Test func componentAnimationsWriteWhatTheBoxedWriteWrites() {
        let layer = CALayer()
        layer.position = CGPoint(x: 3, y: 4)
        func animation(_ keyPath: String, _ from: Any, _ to: Any) -> CABasicAnimation {
            let a = CABasicAnimation(keyPath: keyPath)
            (a.fromValue, a.toValue, a.duration) = (from, to, 1)
            return a
        }
        layer.add(animation("position.y", 0.0, 0.1), forKey: "y")
        layer.add(animation("anchorPoint.x", CGFloat(0), CGFloat(1)), forKey: "ax")
        layer.add(animation("transform.rotation.z", Float(0), Float(1)), forKey: "turn")
        let presented = layer.presentation(atTime: 1.0 / 3)
        let boxed = CALayer()
        boxed.position = CGPoint(x: 3, y: 4)
        for (key, animation) in [("position.y", layer.animation(forKey: "y")), ("anchorPoint.x", layer.animation(forKey: "ax")),
                                 ("transform.rotation.z", layer.animation(forKey: "turn"))] {
            let a = animation as! CAPropertyAnimation
            boxed.setValue(a.presentationValue(atTime: 1.0 / 3, modelValue: boxed.value(forKeyPath: key)), forKeyPath: key)
        }
        #expect(presented.position == boxed.position && presented.position.x == 3 && presented.position.y != 4)
        #expect(presented.anchorPoint == boxed.anchorPoint && presented.anchorPoint.x != 0.5)
        #expect(presented.transform == boxed.transform && presented.transform != CATransform3DIdentity)
    }

    @Test func theWholeTreeIsCopiedAndAnimated() {
        let root = makeLayer(CGRect(x: 0, y: 0, width: 100, height: 100), name: "root")
        let shape = CAShapeLayer()
        shape.name = "shape"
        shape.path = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10))
        let draw = CABasicAnimation(keyPath: "strokeEnd")
        draw.fromValue = 0.0
        draw.toValue = 1.0
        draw.duration = 2
        shape.add(draw, forKey: "draw")
        root.addSublayer(shape)
        let mask = CALayer()
        mask.add(fade(), forKey: "fade")
        root.mask = mask
        let presented = root.presentation(atTime: 0.5)
        let presentedShape = presented.sublayers?.first as? CAShapeLayer
        #expect(presentedShape != nil)
        #expect(presentedShape !== shape)
        #expect(presentedShape?.superlayer === presented)
        #expect(presentedShape?.path == shape.path)
        #expect(abs((presentedShape?.strokeEnd ?? 0) - 0.25) < 1e-9)
        #expect(presentedShape?.model() === shape)
        #expect(abs((presented.mask?.opacity ?? 0) - 0.5) < 1e-6)
        #expect(shape.strokeEnd == 1)
        #expect(presented.animationKeys() == nil)
    }

    @Test func animationsThatDoNotFitChangeNothing() {
        let layer = CALayer()
        let wrong = CABasicAnimation(keyPath: "position")
        wrong.fromValue = 1.0
        wrong.toValue = 2.0
        wrong.duration = 1
        let noKeyPath = CABasicAnimation()
        noKeyPath.fromValue = 0.0
        noKeyPath.toValue = 1.0
        layer.add(wrong, forKey: "wrong")
        layer.add(noKeyPath, forKey: "none")
        layer.add(CAAnimation(), forKey: "bare")
        let presented = layer.presentation(atTime: 0.5)
        #expect(presented.position == .zero)
    }

    final class ProgressLayer: CALayer {
        var drawnProgress: [CGFloat] = []

        override class func needsDisplay(forKey key: String) -> Bool {
            key == "progress" || super.needsDisplay(forKey: key)
        }

        override func draw(in ctx: CGContext) {
            drawnProgress.append(value(forKey: "progress") as? CGFloat ?? -1)
            ctx.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        }
    }

    @Test func animatingAKeyThatNeedsDisplayRedrawsTheCopy() {
        let layer = ProgressLayer()
        layer.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        layer.setValue(CGFloat(0), forKey: "progress")
        let animation = CABasicAnimation(keyPath: "progress")
        animation.fromValue = CGFloat(0)
        animation.toValue = CGFloat(1)
        animation.duration = 1
        layer.add(animation, forKey: "progress")
        layer.displayIfNeeded()
        let presented = layer.presentation(atTime: 0.5)
        #expect(presented.needsDisplay())
        presented.displayIfNeededRecursively()
        #expect(presented.drawnProgress == [0.5])
        #expect(presented.contents is CABackingStore)
    }

    @Test func aSpareCopyIsFilledAgainAsAFreshCopyWouldBe() throws {
        let first = CAShapeLayer()
        first.strokeEnd = 0.25
        first.fillColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        first.add(fade(), forKey: "fade")
        let second = CAShapeLayer()
        second.lineWidth = 7
        second.setValue("kept", forKey: "custom")
        second.add(fade(from: 0.2, to: 0.4), forKey: "fade")

        var spares: [CALayer] = []
        let spare = try #require(first.presentationAlone(atTime: 0.5, reusing: &spares))
        spare.setNeedsDisplay()
        spares.append(spare)
        let spareID = ObjectIdentifier(spare)
        // The list's reference is the only one left: the spare is filled with the second layer.
        _ = consume spare
        let refilled = try #require(second.presentationAlone(atTime: 0.5, reusing: &spares) as? CAShapeLayer)
        #expect(ObjectIdentifier(refilled) == spareID)
        #expect(spares.isEmpty)
        let fresh = try #require(second.presentationAlone(atTime: 0.5) as? CAShapeLayer)
        for key in ["strokeEnd", "fillColor", "lineWidth", "opacity", "custom"] {
            #expect(String(describing: refilled.value(forKey: key)) == String(describing: fresh.value(forKey: key)), "\(key)")
        }
        #expect(refilled.strokeEnd == 1 && refilled.lineWidth == 7)
        #expect(!refilled.needsDisplay())
        #expect(refilled.model() === second)
    }

    /// `isHiddenWhenPresented` plays a layer's animations of `hidden`
    /// alone: at every time it answers what the presentation copy shows,
    /// with a later animation overriding an earlier one, one in a group
    /// sampled at the group's time, and the other animations not played.
    /// Without such animations it is the model's value; for a class of an
    /// app's own it does not answer.
    @Test func whetherALayerIsHiddenIsFoundWithoutItsCopy() throws {
        let layer = CAShapeLayer()
        layer.add(fade(), forKey: "fade")
        let blink = CAKeyframeAnimation(keyPath: "hidden")
        blink.values = [false, true, false, true]
        blink.keyTimes = [0, 0.25, 0.5, 0.75]
        blink.calculationMode = .discrete
        blink.duration = 2
        layer.add(blink, forKey: "blink")
        let late = CAKeyframeAnimation(keyPath: "hidden")
        late.values = [false, false]
        late.calculationMode = .discrete
        late.beginTime = 1.7
        late.duration = 0.1
        let group = CAAnimationGroup()
        group.animations = [late]
        group.duration = 2
        layer.add(group, forKey: "group")
        // Not discrete keyframes: played as the copy plays it.
        let linear = CAKeyframeAnimation(keyPath: "hidden")
        linear.values = [true, true]
        linear.beginTime = 0.9
        linear.duration = 0.2
        layer.add(linear, forKey: "linear")
        let scratch = CALayer()
        var seen: Set<Bool> = []
        for step in 0...40 {
            let t = Double(step) * 0.05
            let answer = try #require(layer.isHiddenWhenPresented(atTime: t, scratch: scratch))
            #expect(answer == layer.presentation(atTime: t).isHidden, "at \(t)")
            seen.insert(answer)
        }
        #expect(seen == [false, true])
        #expect(layer.isHiddenWhenPresented(atTime: 1.75, scratch: scratch) == false, "the group's animation, later, wins")
        // Known, the animations of `hidden` are not played again in the copy.
        var spares: [CALayer] = []
        let copy = try #require(layer.presentationAlone(atTime: 0.6, reusing: &spares, hidden: false))
        #expect(!copy.isHidden && abs(copy.opacity - 0.6) < 1e-6)

        layer.removeAnimation(forKey: "blink")
        layer.removeAnimation(forKey: "group")
        layer.removeAnimation(forKey: "linear")
        layer.isHidden = true
        #expect(layer.isHiddenWhenPresented(atTime: 0.6, scratch: scratch) == true, "the model's own, once none is left")

        final class Blinker: CALayer {}
        let own = Blinker()
        own.add(blink, forKey: "blink")
        #expect(own.isHiddenWhenPresented(atTime: 0.6, scratch: scratch) == nil)
    }

    @Test func aSpareHeldElsewhereOrOfAnotherClassIsNotFilled() throws {
        let layer = CALayer()
        layer.add(fade(), forKey: "fade")
        let held = try #require(layer.presentationAlone(atTime: 0.5))
        var spares: [CALayer] = [held, CAShapeLayer()]
        let copy = try #require(layer.presentationAlone(atTime: 0.5, reusing: &spares))
        #expect(copy !== held)
        #expect(abs(copy.opacity - 0.5) < 1e-6)
        #expect(held.model() === layer)
    }

    /// Between paths of different elements (Core Animation cannot morph
    /// them; its result is undefined) the animation jumps: the first path
    /// until the segment's end, then the second, as a discrete keyframe
    /// does, where it once showed the model's path (here none) between them.
    /// Such an animation validates: it plays.
    @Test func pathsThatCannotMorphJumpAtTheSegmentsEnd() throws {
        let square = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10), transform: nil)
        let triangle = CGMutablePath()
        triangle.move(to: CGPoint(x: 0, y: 0))
        triangle.addLine(to: CGPoint(x: 20, y: 0))
        triangle.closeSubpath()
        let keyframes = CAKeyframeAnimation(keyPath: "path")
        keyframes.values = [square, triangle, square]
        keyframes.duration = 2
        let basic = CABasicAnimation(keyPath: "path")
        basic.fromValue = square
        basic.toValue = triangle
        basic.duration = 1
        for (animation, time, expected) in [(keyframes as CAPropertyAnimation, 0.5, square), (keyframes, 1.5, triangle as CGPath),
                                            (basic, 0.5, square)] {
            try animation.validate()
            let layer = CAShapeLayer()
            layer.add(animation, forKey: "a")
            let presented = try #require(layer.presentationAlone(atTime: time) as? CAShapeLayer)
            #expect(presented.path == expected, "\(type(of: animation)) at \(time)")
        }
    }

    /// An attached animation writes its value typed (`LayerKey.writeAnimated`):
    /// what `presentationValue` boxes and `setValue(_:forKey:)` writes, for
    /// each kind of value it takes that way, and for numbers given as Float
    /// (rounded through Float on both paths).
    @Test func typedWritesAreWhatTheBoxedPathWrites() throws {
        let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1), blue = CGColor(red: 0, green: 0, blue: 1, alpha: 0.5)
        let square = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10), transform: nil)
        let wide = CGPath(rect: CGRect(x: 0, y: 0, width: 30, height: 10), transform: nil)
        let cases: [(String, [Any])] = [
            ("lineWidth", [CGFloat(1), CGFloat(4.3)]),
            ("lineWidth", [Float(1), Float(4.3)]),
            ("strokeEnd", [0.1, 0.7]),
            ("opacity", [Float(0.2), Float(0.9)]),
            ("position", [CGPoint(x: 1, y: 2), CGPoint(x: 7.5, y: -3)]),
            ("bounds", [CGRect(x: 0, y: 0, width: 4, height: 4), CGRect(x: 1, y: 1, width: 9, height: 3)]),
            ("transform", [CATransform3D(scaleX: 1, y: 1, z: 1), CATransform3D(rotationAngle: 0.7, x: 0, y: 0, z: 1)]),
            ("fillColor", [red, blue]),
            ("path", [square, wide]),
            ("hidden", [false, true]),
        ]
        for (key, values) in cases {
            let animation = CAKeyframeAnimation(keyPath: key)
            animation.values = values
            animation.duration = 1
            animation.calculationMode = key == "hidden" ? .discrete : .linear
            let layer = CAShapeLayer()
            layer.add(animation, forKey: "a")
            let attached = try #require(layer.animation(forKey: "a") as? CAPropertyAnimation)
            #expect(attached.attachedKey != nil, "\(key)")
            let presented = try #require(layer.presentationAlone(atTime: 0.6))
            let boxed = CAShapeLayer()
            boxed.setValue(attached.presentationValue(atTime: 0.6, modelValue: nil), forKey: key)
            #expect(String(describing: presented.value(forKey: key)) == String(describing: boxed.value(forKey: key)), "\(key)")
        }
    }

    /// An attached keyframe animation's values are laid out when it is
    /// attached; changed afterwards, the new ones are what it shows.
    @Test func anAttachedKeyframeAnimationShowsValuesChangedAfterwards() throws {
        let animation = CAKeyframeAnimation(keyPath: "opacity")
        animation.values = [Float(0), Float(1)]
        animation.duration = 1
        let layer = CALayer()
        layer.add(animation, forKey: "a")
        #expect(abs((try #require(layer.presentationAlone(atTime: 0.5))).opacity - 0.5) < 1e-6)
        let attached = try #require(layer.animation(forKey: "a") as? CAKeyframeAnimation)
        attached.values = [Float(0.2), Float(0.2)]
        #expect(abs((try #require(layer.presentationAlone(atTime: 0.5))).opacity - 0.2) < 1e-6)
    }
}
