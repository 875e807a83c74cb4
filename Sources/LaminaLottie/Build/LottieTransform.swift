import Foundation
import LaminaCore
import LaminaScene
import LaminaJSON

extension CALayer {
    /// A layer that places what it holds at its own origin: anchored at its
    /// bounds' origin, with no size of its own, at position zero. Lottie's
    /// transforms, groups and shapes are layers of this kind (their content
    /// is placed by the transforms alone).
    static func atOrigin() -> Self {
        let layer = Self()
        layer.anchorPoint = .zero
        layer.bounds = .zero
        return layer
    }
}

/// A Lottie transform (a layer's `ks`, a shape group's `tr`): anchor `a`,
/// position `p` (or `px`/`py`), scale `s` in percent, rotation `r` in
/// degrees, opacity `o` in percent.
///
/// A point `q` inside lands at `p + R·S·(q - a)`. Core Animation's layer
/// geometry says the same with two layers, each with its anchor point at
/// its origin: the outer at `position` p, rotated; the inner scaled, its
/// bounds starting at `a` (so that its sublayers' `a` sits at its origin).
/// Each layer animates one thing, so no decomposition of a combined matrix
/// is involved and a rotation of several turns stays several turns. A skew
/// is a third layer between the two (`p + R·K·S·(q - a)`).
struct LottieTransform {
    var anchor: LottieProperty<[Double]>?
    var position: LottieProperty<[Double]>?
    var positionX: LottieProperty<Double>?
    var positionY: LottieProperty<Double>?
    var scale: LottieProperty<[Double]>?
    var rotation: LottieProperty<Double>?
    var rotationX: LottieProperty<Double>?
    var rotationY: LottieProperty<Double>?
    /// Skew (`sk`, degrees) along the axis `sa` (degrees), between the
    /// rotation and the scale.
    var skew: LottieProperty<Double>?
    var skewAxis: LottieProperty<Double>?
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
        if let given = try reader.property(object, "sk", path: path, reader.number), given.isAnimated || given.initial != 0 {
            skew = given
            skewAxis = try reader.property(object, "sa", path: path, reader.number)
        }
    }

    /// Whether the transform turns or skews (at any frame): then the
    /// position and turns need a layer of their own outside the scale.
    private var turnsOrSkews: Bool {
        skew != nil || [rotation, rotationX, rotationY].contains { property in
            property.map { $0.isAnimated || $0.initial != 0 } ?? false
        }
    }

    /// The layers that place content: add content to `inner`, put `outer`
    /// in the parent. One layer is both when nothing turns or skews (most
    /// of a file's groups and layers): its position, scale and anchor place
    /// content as the two would, `p + S·(q - a)`, at half the layers.
    func layers(time: LottieTime) -> (outer: CALayer, inner: CALayer) {
        if mirrorsX {
            // As lottie-ios animates a transform whose scale mirrors x: one
            // matrix, `p · R · K · S · (q − a)`, keyframed where its parts
            // are (Core Animation interpolates between them by taking the
            // matrices apart), sampled every tenth of a frame and held
            // between when the parts are keyframed differently.
            let layer = CALayer.atOrigin()
            LottieAnimator.apply(matrix, to: layer, keyPath: "transform", time: time) { Self.transform($0) }
            return (layer, layer)
        }
        let inner = CALayer.atOrigin()
        var outer = inner
        if turnsOrSkews {
            outer = CALayer.atOrigin()
            if let skew {
                // A third layer between them holds the skew (Core Animation has
                // no skew of its own to animate: the matrix, at the skew's
                // keyframes and between, as lottie-ios computes it frame by frame).
                let sheared = CALayer.atOrigin()
                outer.addSublayer(sheared)
                sheared.addSublayer(inner)
                let axis = skewAxis ?? .fixed(0)
                let matrix = LottieProperty<[Double]>.sampled(at: [skew.frames, axis.frames]) { frame in
                    Self.skewMatrix(skew: skew.value(at: frame), axis: axis.value(at: frame))
                }
                LottieAnimator.apply(matrix, to: sheared, keyPath: "transform", time: time) {
                    CATransform3DMakeAffineTransform(CGAffineTransform(a: $0[0], b: $0[1], c: $0[2], d: $0[3], tx: 0, ty: 0))
                }
            } else {
                outer.addSublayer(inner)
            }
            LottieAnimator.apply(rotationX, to: outer, keyPath: "transform.rotation.x", time: time) { CGFloat($0 * .pi / 180) }
            LottieAnimator.apply(rotationY, to: outer, keyPath: "transform.rotation.y", time: time) { CGFloat($0 * .pi / 180) }
            LottieAnimator.apply(rotation, to: outer, keyPath: "transform.rotation.z", time: time) { CGFloat($0 * .pi / 180) }
        }
        LottieAnimator.apply(position, to: outer, keyPath: "position", time: time) { CGPoint(x: $0[0], y: $0[1]) }
        LottieAnimator.apply(positionX, to: outer, keyPath: "position.x", time: time) { CGFloat($0) }
        LottieAnimator.apply(positionY, to: outer, keyPath: "position.y", time: time) { CGFloat($0) }
        LottieAnimator.apply(scale, to: inner, keyPath: "transform.scale.x", time: time) { CGFloat($0[0] / 100) }
        LottieAnimator.apply(scale, to: inner, keyPath: "transform.scale.y", time: time) { CGFloat($0[1] / 100) }
        LottieAnimator.apply(anchor, to: inner, keyPath: "bounds.origin", time: time) { CGPoint(x: $0[0], y: $0[1]) }
        return (outer, inner)
    }

    /// Whether some scale keyframe mirrors x (lottie-ios then animates the
    /// whole matrix, not its parts).
    private var mirrorsX: Bool {
        switch scale {
        case .fixed(let value)?: value.first.map { $0 < 0 } ?? false
        case .keyed(let keys)?: keys.contains { ($0.value.first ?? 0) < 0 }
        case nil: false
        }
    }

    /// The transform as one matrix (16 numbers, Core Animation's order),
    /// keyframed as lottie-ios combines its parts (`LottieProperty.combined`).
    private var matrix: LottieProperty<[Double]> {
        let numbers = { (p: LottieProperty<Double>?, fallback: Double) in p?.map { [$0] } ?? .fixed([fallback]) }
        let parts: [LottieProperty<[Double]>] = [
            anchor ?? .fixed([0, 0]), position ?? .fixed([0, 0]), numbers(positionX, 0), numbers(positionY, 0),
            scale ?? .fixed([100, 100]), numbers(rotationX, 0), numbers(rotationY, 0), numbers(rotation, 0),
            numbers(skew, 0), numbers(skewAxis, 0),
        ]
        let split = positionX != nil || positionY != nil
        func make(_ v: [[Double]]) -> [Double] {
            let place = split ? [v[2][0], v[3][0]] : v[1]
            var m = CATransform3DMakeTranslation(place[0], place.count > 1 ? place[1] : 0, 0)
            m = CATransform3DRotate(m, v[5][0] * .pi / 180, 1, 0, 0)
            m = CATransform3DRotate(m, v[6][0] * .pi / 180, 0, 1, 0)
            m = CATransform3DRotate(m, v[7][0] * .pi / 180, 0, 0, 1)
            if v[8][0] != 0 {
                let k = Self.skewMatrix(skew: v[8][0], axis: v[9][0])
                m = CATransform3DConcat(CATransform3DMakeAffineTransform(CGAffineTransform(a: k[0], b: k[1], c: k[2], d: k[3], tx: 0, ty: 0)), m)
            }
            m = CATransform3DScale(m, v[4][0] / 100, (v[4].count > 1 ? v[4][1] : v[4][0]) / 100, 1)
            m = CATransform3DTranslate(m, -v[0][0], v[0].count > 1 ? -v[0][1] : 0, 0)
            return [m.m11, m.m12, m.m13, m.m14, m.m21, m.m22, m.m23, m.m24,
                    m.m31, m.m32, m.m33, m.m34, m.m41, m.m42, m.m43, m.m44].map { Double($0) }
        }
        return .combined(parts, value: { $0.sampledValue(at: $1) }, make)
    }

    /// A matrix of 16 numbers as a transform.
    static func transform(_ m: [Double]) -> CATransform3D {
        var t = CATransform3D.identity
        (t.m11, t.m12, t.m13, t.m14) = (m[0], m[1], m[2], m[3])
        (t.m21, t.m22, t.m23, t.m24) = (m[4], m[5], m[6], m[7])
        (t.m31, t.m32, t.m33, t.m34) = (m[8], m[9], m[10], m[11])
        (t.m41, t.m42, t.m43, t.m44) = (m[12], m[13], m[14], m[15])
        return t
    }

    /// After Effects' skew as an affine matrix `[a, b, c, d]` (Core
    /// Graphics' order): turned by the axis, sheared along x by
    /// `tan(-skew)`, turned back, as lottie-web draws it.
    static func skewMatrix(skew: Double, axis: Double) -> [Double] {
        let shear = tan(max(min(-skew, 89.9), -89.9) * .pi / 180)
        let (c, s) = (cos(axis * .pi / 180), sin(axis * .pi / 180))
        // R(-axis) · [[1, shear], [0, 1]] · R(axis), for column vectors.
        let (m11, m12, m21, m22) = (1 + shear * c * s, shear * c * c, -shear * s * s, 1 - shear * s * c)
        return [m11, m21, m12, m22]
    }

    /// Sets the opacity on `layer` (the layer's own content, which parented
    /// layers do not inherit).
    func applyOpacity(to layer: CALayer, time: LottieTime) {
        LottieAnimator.apply(opacity, to: layer, keyPath: "opacity", time: time, LottieAnimator.opacity)
    }
}
