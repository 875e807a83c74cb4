import Foundation
import LaminaCore

/// Where a composition's frames fall on the scene's clock.
///
/// The scene's time 0 is the animation's in point (`ip`); a frame `f` of the
/// top composition is at `(f - ip) / fr` seconds. A precomposition's frames
/// are its layer's: frame `f` inside is frame `f * sr + st` outside (start
/// time and stretch), so maps compose down the tree.
struct LottieTime {
    /// The top composition's frame of a frame here: `frame * scale + offset`.
    var scale: Double
    var offset: Double
    /// The top composition's in point and frame rate.
    let inPoint: Double
    let frameRate: Double

    init(inPoint: Double, frameRate: Double) {
        scale = 1
        offset = 0
        self.inPoint = inPoint
        self.frameRate = frameRate
    }

    /// The scene time of `frame` of this composition.
    func seconds(_ frame: Double) -> Double {
        (frame * scale + offset - inPoint) / frameRate
    }

    /// The map of a precomposition placed with start time `start` and stretch `stretch`.
    func inside(start: Double, stretch: Double) -> LottieTime {
        var inner = self
        inner.offset = offset + start * scale
        inner.scale = scale * stretch
        return inner
    }
}

/// Turns keyframed properties into Core Animation's animations, as
/// lottie-ios's Core Animation engine does: one `CAKeyframeAnimation` per
/// property, its key times the keyframes' places between the first and the
/// last, each segment paced by its keyframe's Bézier easing as a
/// `CAMediaTimingFunction`, the values held before the first keyframe and
/// after the last (`fillMode` both).
enum LottieAnimator {
    /// Sets `keyPath` on `layer` to the property's first value and, when it
    /// is keyframed, adds an animation through its keyframes.
    static func apply<Value>(_ property: LottieProperty<Value>?, to layer: CALayer, keyPath: String,
                             time: LottieTime, _ convert: (Value) -> Any) {
        guard let property else { return }
        layer.setValue(convert(property.initial), forKeyPath: keyPath)
        guard case .keyed(let keys) = property, keys.count > 1 else { return }
        var values: [Any] = []
        var times: [Double] = []
        var functions: [CAMediaTimingFunction] = []
        let linear = CAMediaTimingFunction(name: .linear)
        for (index, key) in keys.enumerated() {
            let t = time.seconds(key.frame)
            if index > 0, keys[index - 1].hold {
                // A hold: the previous value until this keyframe, then a jump.
                values.append(convert(keys[index - 1].value))
                times.append(max(t - 1e-6, times.last ?? t))
                functions.append(linear)
            }
            values.append(convert(key.value))
            times.append(t)
            if index < keys.count - 1 {
                if key.hold {
                    functions.append(linear)
                } else if let e = key.easing {
                    functions.append(CAMediaTimingFunction(controlPoints: Float(e.0), Float(e.1), Float(e.2), Float(e.3)))
                } else {
                    functions.append(linear)
                }
            }
        }
        let begin = times[0], duration = times[times.count - 1] - begin
        guard duration > 0 else { return }
        let animation = CAKeyframeAnimation(keyPath: keyPath)
        animation.values = values
        if keyPath == "position", let path = motionPath(keys, values: values) {
            // Curved motion: along a path, as lottie-ios builds position animations.
            animation.values = nil
            animation.path = path
        }
        animation.keyTimes = times.map { NSNumber(value: min(max(($0 - begin) / duration, 0), 1)) }
        animation.timingFunctions = functions
        animation.beginTime = begin
        animation.duration = duration
        animation.fillMode = .both
        animation.isRemovedOnCompletion = false
        layer.add(animation, forKey: keyPath)
    }

    /// The path a position's keyframes move along, when any segment has
    /// spatial tangents (`to`, `ti`): a curve from each keyframe's point,
    /// leaving along its `to` and arriving along the next one's `ti`; a line
    /// elsewhere (and for the extra point a hold adds). Nil when every
    /// segment is straight, or the values are not points.
    private static func motionPath<Value>(_ keys: [LottieProperty<Value>.Keyframe], values: [Any]) -> CGPath? {
        guard keys.contains(where: { $0.spatialOut != nil || $0.spatialIn != nil }),
              let points = values as? [CGPoint], let first = points.first else { return nil }
        let path = CGMutablePath()
        path.move(to: first)
        var at = 0  // the index in `points` of keys[index]'s value
        for index in 1..<keys.count {
            if keys[index - 1].hold {
                at += 1
                path.addLine(to: points[at])  // held: the same point again
            }
            let from = points[at], to = points[at + 1]
            let out = keys[index - 1].spatialOut, into = keys[index].spatialIn
            if !keys[index - 1].hold, out != nil || into != nil {
                let o = out ?? [0, 0], i = into ?? [0, 0]
                path.addCurve(to: to, control1: CGPoint(x: from.x + o[0], y: from.y + o[1]),
                              control2: CGPoint(x: to.x + i[0], y: to.y + i[1]))
            } else {
                path.addLine(to: to)
            }
            at += 1
        }
        return path
    }

    /// A Lottie opacity (percent) as Core Animation's (0...1).
    static func opacity(_ percent: Double) -> Float { Float(min(max(percent / 100, 0), 1)) }

    /// Shows `layer` only from scene time `from` until `until` (nil: for
    /// ever after): a layer's in and out points.
    static func show(_ layer: CALayer, from: Double, until: Double?) {
        guard from > -1e9 || until != nil else { return }
        layer.isHidden = true
        let animation = CAKeyframeAnimation(keyPath: "hidden")
        animation.values = [false]
        animation.calculationMode = .discrete
        animation.beginTime = max(from, -1e9)
        if let until {
            animation.duration = max(until - animation.beginTime, 1e-6)
        } else {
            // Shown from `from` on: a moment's animation that holds its value.
            animation.duration = 1e-6
            animation.fillMode = .forwards
        }
        animation.isRemovedOnCompletion = false
        layer.add(animation, forKey: "lottie.visibility")
    }
}
