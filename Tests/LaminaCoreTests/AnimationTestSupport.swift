// Helpers shared by the Animation*Tests files.
import Foundation
@testable import LaminaCore

/// Whether two numbers agree to `tolerance`.
func isClose(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
    abs(a - b) <= tolerance
}

/// Whether two transforms agree field by field to `tolerance`.
func isClose(_ a: CATransform3D, _ b: CATransform3D, _ tolerance: Double = 1e-9) -> Bool {
    zip(a.fields, b.fields).allSatisfy { abs(Double($0 - $1)) <= tolerance }
}

/// A presentation value read as a number, whatever numeric type it came as.
func number(_ value: Any?) -> Double? {
    switch value {
    case let v as CGFloat: Double(v)
    case let v as Double: v
    case let v as Float: Double(v)
    case let v as NSNumber: v.doubleValue
    default: nil
    }
}

/// A linear basic animation of a number from 0 to 100 lasting 1 s, further
/// set up by `configure`.
func ramp(_ configure: (CABasicAnimation) -> Void = { _ in }) -> CABasicAnimation {
    let animation = CABasicAnimation(keyPath: "opacity")
    animation.fromValue = 0.0
    animation.toValue = 100.0
    animation.duration = 1
    configure(animation)
    return animation
}

/// The value of `animation` at `t` as a number (nil when it has no effect).
func value(_ animation: CAPropertyAnimation, at t: CFTimeInterval, model: Any? = nil) -> Double? {
    number(animation.presentationValue(atTime: t, modelValue: model))
}
