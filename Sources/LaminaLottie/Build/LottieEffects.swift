import Foundation
import LaminaCore
import LaminaScene
import LaminaJSON

/// A layer's effects (`ef`) and layer styles (`sy`) where Core Animation has
/// them: After Effects' Drop Shadow effect and drop shadow style as the
/// layer's shadow (`shadowColor`, `shadowOpacity`, `shadowOffset`,
/// `shadowRadius`), as lottie-ios applies them. Others, the Gaussian Blur
/// among them, are skipped with a warning.
struct LottieEffects {
    let reader: LottiePropertyReader
    let time: LottieTime

    /// After Effects' Drop Shadow (`ty` 25).
    static let dropShadow = 25

    func apply(_ effects: [JSONValue], path: String, to layer: CALayer) throws(SceneError) {
        for (k, value) in effects.enumerated() {
            let here = "\(path)[\(k)]"
            guard let object = value.object else { continue }
            if object["en"]?.number == 0 { continue }  // switched off in After Effects
            switch object["ty"]?.smallInteger {
            case Self.dropShadow:
                try dropShadow(object, path: here, position: value.position, on: layer)
            case Self.gaussianBlur:
                try reader.diagnostics.skipped("\(here) (Gaussian Blur)", "not drawn, as on an iPhone: Core Animation on iOS has no layer blur, and lottie-ios draws the layer sharp",
                                               file: reader.file, at: value.position)
            default:
                let name = object["nm"]?.string.map { "'\(Quoted.prefix($0, limit: 40))'" } ?? "this effect"
                try reader.diagnostics.skipped("\(here) (\(name))", "effects other than Drop Shadow are not drawn",
                                               file: reader.file, at: value.position)
            }
        }
    }

    /// After Effects' Gaussian Blur (`ty` 29): not drawn, as on the device.
    /// Core Animation on iOS has no blur a layer can carry (its `filters`
    /// are not drawn there), lottie-ios adds none, and Apple's pictures of
    /// a blurred layer show it sharp.
    static let gaussianBlur = 29

    /// The drop shadow's values by their place: colour, opacity (0...255),
    /// direction (degrees clockwise from up), distance, softness.
    private func dropShadow(_ effect: JSONObject, path: String, position: SourcePosition, on layer: CALayer) throws(SceneError) {
        let values = effect["ef"]?.array.map(Array.init) ?? []
        func value<V>(_ index: Int, _ read: (JSONValue, String) throws(SceneError) -> V) throws(SceneError) -> LottieProperty<V>? {
            guard index < values.count, let object = values[index].object else { return nil }
            return try reader.property(object, "v", path: "\(path).ef[\(index)]", read)
        }
        let color = try value(0, reader.color), opacity = try value(1, reader.number)
        let givenDirection = try value(2, reader.number), givenDistance = try value(3, reader.number)
        let softness = try value(4, reader.number)
        LottieAnimator.apply(color ?? .fixed([0, 0, 0, 1]), to: layer, keyPath: "shadowColor", time: time) {
            CGColor(red: $0[0], green: $0[1], blue: $0[2], alpha: 1)
        }
        let alpha = color?.initial[3] ?? 1
        LottieAnimator.apply(opacity ?? .fixed(255 * 0.75), to: layer, keyPath: "shadowOpacity", time: time) {
            Float(min(max($0 / 255, 0), 1) * alpha)
        }
        // The offset from the direction and the distance, at their keyframes and between.
        let offsets = LottieProperty<CGSize>.combined([givenDirection ?? .fixed(135), givenDistance ?? .fixed(5)],
                                                      value: { $0.value(at: $1) }) { parts in
            let (angle, reach) = (parts[0] * .pi / 180, parts[1])
            return CGSize(width: reach * sin(angle), height: -reach * cos(angle))
        }
        LottieAnimator.apply(offsets, to: layer, keyPath: "shadowOffset", time: time) { $0 }
        LottieAnimator.apply(softness ?? .fixed(0), to: layer, keyPath: "shadowRadius", time: time) {
            CGFloat(max($0, 0) / Self.softnessPerRadius)
        }
    }

    /// After Effects' softness over Core Animation's shadow radius.
    static let softnessPerRadius = 5.0

    /// The drop shadow layer style (`ty` 1): colour `c`, opacity `o` (0...100),
    /// angle `a` (degrees; 90 puts the shadow straight below), distance `d`,
    /// size `s` (the blur).
    func applyStyles(_ styles: [JSONValue], path: String, to layer: CALayer) throws(SceneError) {
        for (k, value) in styles.enumerated() {
            let here = "\(path)[\(k)]"
            guard let object = value.object else { continue }
            guard object["ty"]?.smallInteger == 1 else {
                try reader.diagnostics.skipped("\(here)", "layer styles other than the drop shadow are not drawn: lottie-ios's Core Animation engine draws only that one",
                                               file: reader.file, at: value.position)
                continue
            }
            let color = try reader.property(object, "c", path: here, reader.color) ?? .fixed([0, 0, 0, 1])
            LottieAnimator.apply(color, to: layer, keyPath: "shadowColor", time: time) { CGColor(red: $0[0], green: $0[1], blue: $0[2], alpha: 1) }
            let alpha = color.initial[3]
            LottieAnimator.apply(try reader.property(object, "o", path: here, reader.number) ?? .fixed(75), to: layer,
                                 keyPath: "shadowOpacity", time: time) { Float(min(max($0 / 100, 0), 1) * alpha) }
            // The offset from the angle and the distance, animated as lottie-ios animates it.
            let angle = try reader.property(object, "a", path: here, reader.number) ?? .fixed(90)
            let distance = try reader.property(object, "d", path: here, reader.number) ?? .fixed(5)
            let offsets = LottieProperty<CGSize>.combined([angle, distance], value: { $0.value(at: $1) }) { parts in
                CGSize(width: parts[1] * cos(parts[0] * .pi / 180), height: parts[1] * sin(parts[0] * .pi / 180))
            }
            LottieAnimator.apply(offsets, to: layer, keyPath: "shadowOffset", time: time) { $0 }
            LottieAnimator.apply(try reader.property(object, "s", path: here, reader.number) ?? .fixed(5), to: layer,
                                 keyPath: "shadowRadius", time: time) { CGFloat(max($0, 0) / Self.sizePerRadius) }
        }
    }

    /// A drop shadow style's size over Core Animation's shadow radius (half the
    /// size: the radius at which Apple's picture of issue_1169_shadow_style is
    /// matched exactly; size itself blurs twice as wide).
    static let sizePerRadius = 2.0
}
