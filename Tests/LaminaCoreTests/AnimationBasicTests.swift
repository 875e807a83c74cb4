// CABasicAnimation: Apple's from/to/by combinations, additive, cumulative,
// value functions and result types.
import Foundation
import Testing
@testable import LaminaCore

@Suite struct AnimationBasicTests {
    /// A 1 s linear animation with the given values, sampled half-way and at
    /// the start, against model value 10.
    static func halfway(from: Any? = nil, to: Any? = nil, by: Any? = nil) -> (start: Double?, middle: Double?) {
        let a = CABasicAnimation(keyPath: "position.x")
        a.fromValue = from
        a.toValue = to
        a.byValue = by
        a.duration = 1
        return (value(a, at: 0, model: 10.0), value(a, at: 0.5, model: 10.0))
    }

    @Test func fromAndTo() {
        let r = Self.halfway(from: 20, to: 40)
        #expect(r.start == 20 && r.middle == 30)
    }

    @Test func fromAndBy() {
        let r = Self.halfway(from: 20, by: 40)
        #expect(r.start == 20 && r.middle == 40)  // 20 -> 60
    }

    @Test func byAndTo() {
        let r = Self.halfway(to: 40, by: 10)
        #expect(r.start == 30 && r.middle == 35)  // 30 -> 40
    }

    @Test func fromOnlyEndsAtTheModelValue() {
        let r = Self.halfway(from: 20)
        #expect(r.start == 20 && r.middle == 15)  // 20 -> 10
    }

    @Test func toOnlyStartsFromTheModelValue() {
        let r = Self.halfway(to: 40)
        #expect(r.start == 10 && r.middle == 25)  // 10 -> 40
    }

    @Test func byOnlyIsRelativeToTheModelValue() {
        let r = Self.halfway(by: 40)
        #expect(r.start == 10 && r.middle == 30)  // 10 -> 50
    }

    @Test func noValuesShowTheModelValue() {
        let r = Self.halfway()
        #expect(r.start == 10 && r.middle == 10)
    }

    @Test func allThreeIgnoreBy() {
        let r = Self.halfway(from: 0, to: 100, by: 7)
        #expect(r.middle == 50)
    }

    @Test func relativeAnimationWithoutAModelValueHasNoEffect() {
        let a = CABasicAnimation(keyPath: "opacity")
        a.toValue = 1.0
        #expect(a.presentationValue(atTime: 0.1, modelValue: nil) == nil)
    }

    @Test func timingFunctionPacesTheValue() {
        let a = ramp { $0.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut) }
        let f = CAMediaTimingFunction(name: .easeInEaseOut)
        #expect(isClose(value(a, at: 0.3) ?? -1, 100 * f.solve(forInput: 0.3)))
        #expect(isClose(value(a, at: 0.5) ?? -1, 50, 1e-4))
    }

    @Test func additiveAddsTheModelValue() {
        let a = ramp { $0.isAdditive = true }
        #expect(value(a, at: 0.5, model: 10.0) == 60)
        // Additive with nothing to add to has no effect.
        #expect(a.presentationValue(atTime: 0.5, modelValue: nil) == nil)
    }

    @Test func additivePointsAndTransforms() throws {
        let a = CABasicAnimation(keyPath: "position")
        a.fromValue = CGPoint(x: 0, y: 0)
        a.toValue = CGPoint(x: 10, y: -10)
        a.isAdditive = true
        a.duration = 1
        let p = a.presentationValue(atTime: 0.5, modelValue: CGPoint(x: 100, y: 100)) as? CGPoint
        #expect(p == CGPoint(x: 105, y: 95))

        // Transforms add by concatenation, the animated one applied first.
        let t = CABasicAnimation(keyPath: "transform")
        t.fromValue = CATransform3D(scaleX: 2, y: 2, z: 1)
        t.toValue = CATransform3D(scaleX: 2, y: 2, z: 1)
        t.isAdditive = true
        let model = CATransform3D(translationX: 10, y: 0, z: 0)
        let result = try #require(t.presentationValue(atTime: 0.1, modelValue: model) as? CATransform3D)
        #expect(result == CATransform3D(scaleX: 2, y: 2, z: 1).concatenating(model))
    }

    @Test func cumulativeBuildsOnEachCycle() {
        let a = CABasicAnimation(keyPath: "position.x")
        a.fromValue = 10.0
        a.toValue = 20.0
        a.duration = 1
        a.repeatCount = 3
        a.isCumulative = true
        #expect(value(a, at: 0.5) == 15)
        #expect(value(a, at: 1.5) == 25)  // continues from 20
        #expect(value(a, at: 2.5) == 35)
        a.fillMode = .forwards
        #expect(value(a, at: 9) == 40)
    }

    @Test func cumulativeAutoreverseAccumulatesNothing() {
        let a = ramp { $0.repeatCount = 2; $0.autoreverses = true; $0.isCumulative = true }
        #expect(value(a, at: 2.5) == 50)
    }

    @Test func cumulativeTransformsCompose() throws {
        let quarter = CGFloat.pi / 2
        let a = CABasicAnimation(keyPath: "transform")
        a.fromValue = CATransform3D.identity
        a.toValue = CATransform3D(rotationAngle: quarter, x: 0, y: 0, z: 1)
        a.repeatCount = 3
        a.isCumulative = true
        a.duration = 1
        let t = try #require(a.presentationValue(atTime: 2.5, modelValue: nil) as? CATransform3D)
        // Two whole quarter turns accumulated, plus half of the third.
        #expect(isClose(t, CATransform3D(rotationAngle: 2.5 * quarter, x: 0, y: 0, z: 1)))
    }

    @Test func valueFunctionTurnsNumbersIntoTransforms() throws {
        let a = CABasicAnimation(keyPath: "transform")
        a.valueFunction = CAValueFunction(name: .rotateZ)
        a.fromValue = 0.0
        a.toValue = 2 * Double.pi
        a.duration = 1
        // Half of a full turn: something two identical matrices cannot give.
        let half = try #require(a.presentationValue(atTime: 0.5, modelValue: CATransform3D.identity) as? CATransform3D)
        #expect(isClose(half, CATransform3D(rotationAngle: .pi, x: 0, y: 0, z: 1)))
        // toValue only starts from the function's identity input, not the model transform.
        a.fromValue = nil
        let quarter = try #require(a.presentationValue(atTime: 0.25, modelValue: CATransform3D.identity) as? CATransform3D)
        #expect(isClose(quarter, CATransform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1)))

        let s = CABasicAnimation(keyPath: "transform")
        s.valueFunction = CAValueFunction(name: .scale)
        s.toValue = [2.0, 3.0, 1.0]
        s.duration = 1
        let scaled = try #require(s.presentationValue(atTime: 0.5, modelValue: nil) as? CATransform3D)
        #expect(isClose(scaled, CATransform3D(scaleX: 1.5, y: 2, z: 1)))
        // The wrong input shape for the function: no effect.
        s.toValue = 2.0
        #expect(s.presentationValue(atTime: 0.5, modelValue: nil) == nil)
        #expect(CAValueFunction(name: .translateY).transform(for: 5) == CATransform3D(translationX: 0, y: 5, z: 0))
        #expect(CAValueFunction(name: CAValueFunctionName("spin")).transform(for: 5) == nil)
    }

    @Test func numbersComeBackAsTheModelsType() {
        let a = ramp()
        #expect(a.presentationValue(atTime: 0.5, modelValue: Double(1)) is Double)
        #expect(a.presentationValue(atTime: 0.5, modelValue: Float(1)) is Float)
        #expect(a.presentationValue(atTime: 0.5, modelValue: CGFloat(1)) is CGFloat)
        let n = a.presentationValue(atTime: 0.5, modelValue: NSNumber(value: 1))
        #expect(n.map { type(of: $0) is NSNumber.Type } == true)
        // Without a model value, the animation's own values decide.
        a.fromValue = Float(0)
        #expect(a.presentationValue(atTime: 0.5, modelValue: nil) is Float)
        a.fromValue = 0  // an Int: the result is a CGFloat
        #expect(a.presentationValue(atTime: 0.5, modelValue: nil) is CGFloat)
    }

    @Test func mismatchedTypesHaveNoEffect() {
        let a = CABasicAnimation(keyPath: "position")
        a.fromValue = CGPoint(x: 1, y: 2)
        a.toValue = 5.0
        a.duration = 1
        #expect(a.presentationValue(atTime: 0.5, modelValue: nil) == nil)
        #expect(throws: AnimationValidationError.self) { try a.validate() }

        let b = CABasicAnimation(keyPath: "position")
        b.toValue = CGPoint(x: 1, y: 2)
        #expect(b.presentationValue(atTime: 0.1, modelValue: 3.0) == nil)  // model is a number

        let c = CABasicAnimation(keyPath: "hidden")
        c.fromValue = false
        c.toValue = true
        #expect(c.presentationValue(atTime: 0.1, modelValue: nil) == nil)
        #expect(throws: AnimationValidationError.self) { try c.validate() }

        let d = CABasicAnimation(keyPath: "locations")
        d.fromValue = [0.0, 1.0]
        d.toValue = [0.0, 0.5, 1.0]
        #expect(d.presentationValue(atTime: 0.1, modelValue: nil) == nil)

        let good = ramp()
        #expect(throws: Never.self) { try good.validate() }
    }
}
