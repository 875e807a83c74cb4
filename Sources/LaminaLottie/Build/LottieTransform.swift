import Foundation
import LaminaCore
import LaminaScene
import LaminaJSON

/// A Lottie transform (a layer's `ks`, a shape group's `tr`): anchor `a`,
/// position `p` (or `px`/`py`), scale `s` in percent, rotation `r` in
/// degrees, opacity `o` in percent.
///
/// A point `q` inside lands at `p + R·S·(q - a)`. Core Animation's layer
/// geometry says the same with two layers, each with its anchor point at
/// its origin: the outer at `position` p, rotated; the inner scaled, its
/// bounds starting at `a` (so that its sublayers' `a` sits at its origin).
/// Each layer animates one thing, so no decomposition of a combined matrix
/// is involved and a rotation of several turns stays several turns.
struct LottieTransform {
    var anchor: LottieProperty<[Double]>?
    var position: LottieProperty<[Double]>?
    var positionX: LottieProperty<Double>?
    var positionY: LottieProperty<Double>?
    var scale: LottieProperty<[Double]>?
    var rotation: LottieProperty<Double>?
    var rotationX: LottieProperty<Double>?
    var rotationY: LottieProperty<Double>?
    var opacity: LottieProperty<Double>?

    init(_ object: JSONObject, path: String, reader: LottiePropertyReader) throws(SceneError) {
        anchor = try reader.property(object, "a", path: path, reader.vector)
        if let p = object["p"]?.object, p["s"]?.bool == true {
            // Position split into x and y, each with its own keyframes.
            positionX = try reader.property(p, "x", path: path + ".p", reader.number)
            positionY = try reader.property(p, "y", path: path + ".p", reader.number)
        } else {
            position = try reader.property(object, "p", path: path, reader.vector)
        }
        scale = try reader.property(object, "s", path: path, reader.vector)
        if let r = try reader.property(object, "r", path: path, reader.number) {
            rotation = r
        } else {
            rotation = try reader.property(object, "rz", path: path, reader.number)
        }
        opacity = try reader.property(object, "o", path: path, reader.number)
        // A 3D layer's turns about x and y, as lottie-ios sets them
        // (`transform.rotation.x`, `.y`; no perspective, as After Effects
        // without a camera).
        rotationX = try reader.property(object, "rx", path: path, reader.number)
        rotationY = try reader.property(object, "ry", path: path, reader.number)
        if let orientation = object["or"], orientation.object?["a"]?.number == 1
            || (orientation.object?["k"]?.array?.contains { ($0.number ?? 0) != 0 } ?? false) {
            try reader.diagnostics.skipped("\(path).or", "a 3D layer's orientation is not drawn (as lottie-ios)",
                                           file: reader.file, at: orientation.position)
        }
        if let skew = object["sk"], skew.object?["k"]?.number != 0 || skew.object?["a"]?.number == 1 {
            try reader.diagnostics.skipped("\(path).sk", "skew is not drawn yet", file: reader.file, at: skew.position)
        }
    }

    /// The two layers that place content: add content to `inner`, put `outer` in the parent.
    func layers(time: LottieTime) -> (outer: CALayer, inner: CALayer) {
        let outer = CALayer(), inner = CALayer()
        for layer in [outer, inner] {
            layer.anchorPoint = .zero
            layer.bounds = .zero
            layer.position = .zero
        }
        outer.addSublayer(inner)
        LottieAnimator.apply(position, to: outer, keyPath: "position", time: time) { CGPoint(x: $0[0], y: $0[1]) }
        LottieAnimator.apply(positionX, to: outer, keyPath: "position.x", time: time) { CGFloat($0) }
        LottieAnimator.apply(positionY, to: outer, keyPath: "position.y", time: time) { CGFloat($0) }
        LottieAnimator.apply(rotationX, to: outer, keyPath: "transform.rotation.x", time: time) { CGFloat($0 * .pi / 180) }
        LottieAnimator.apply(rotationY, to: outer, keyPath: "transform.rotation.y", time: time) { CGFloat($0 * .pi / 180) }
        LottieAnimator.apply(rotation, to: outer, keyPath: "transform.rotation.z", time: time) { CGFloat($0 * .pi / 180) }
        LottieAnimator.apply(scale, to: inner, keyPath: "transform.scale.x", time: time) { CGFloat($0[0] / 100) }
        LottieAnimator.apply(scale, to: inner, keyPath: "transform.scale.y", time: time) { CGFloat($0[1] / 100) }
        LottieAnimator.apply(anchor, to: inner, keyPath: "bounds.origin", time: time) { CGPoint(x: $0[0], y: $0[1]) }
        return (outer, inner)
    }

    /// Sets the opacity on `layer` (the layer's own content, which parented
    /// layers do not inherit).
    func applyOpacity(to layer: CALayer, time: LottieTime) {
        LottieAnimator.apply(opacity, to: layer, keyPath: "opacity", time: time, LottieAnimator.opacity)
    }
}
