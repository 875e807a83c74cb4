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
    /// The top composition's in and out points and frame rate.
    let inPoint: Double
    let outPoint: Double
    let frameRate: Double
    /// Inside a time-remapped precomposition (`tm`): this composition's
    /// frame at frames of the top composition, which no longer map to each
    /// other by `scale` and `offset`. Core Animation has no warp of time, so
    /// the animations here are interpolated by hand at these frames (as
    /// lottie-ios's Core Animation engine does for time remapping).
    var samples: [(top: Double, frame: Double)]?
    /// What sampling may spend, with `samples`.
    var sampleBudget: LottieSampleBudget?

    /// The most frames a remapped precomposition is sampled at.
    static let maxSamples = 4096

    init(inPoint: Double, outPoint: Double, frameRate: Double) {
        scale = 1
        offset = 0
        self.inPoint = inPoint
        self.outPoint = outPoint
        self.frameRate = frameRate
    }

    /// The scene time of `frame` of this composition (not remapped).
    func seconds(_ frame: Double) -> Double {
        (frame * scale + offset - inPoint) / frameRate
    }

    /// The scene time of a frame of the top composition.
    func seconds(top frame: Double) -> Double {
        (frame - inPoint) / frameRate
    }

    /// The map of a precomposition placed with start time `start` and stretch `stretch`.
    func inside(start: Double, stretch: Double) -> LottieTime {
        var inner = self
        if let samples {
            inner.samples = samples.map { ($0.top, ($0.frame - start) / stretch) }
            return inner
        }
        inner.offset = offset + start * scale
        inner.scale = scale * stretch
        return inner
    }

    /// The map of a precomposition whose time is remapped by `remap`
    /// (seconds of the precomposition at each frame of the composition that
    /// holds the layer): its frame at a frame `F` here is
    /// `remap(F) * frameRate`, sampled at each frame of the top composition
    /// (fewer, evenly, past `maxSamples`). The layer's start time does not
    /// move the remap's keyframes, as lottie-ios reads them (lottie-web
    /// reads them from the start time; Apple's pictures follow lottie-ios).
    func remapped(by remap: LottieProperty<Double>, budget: LottieSampleBudget) -> LottieTime {
        let count = max(2, min(Self.maxSamples, Int((outPoint - inPoint).rounded(.up)) + 1))
        let step = (outPoint - inPoint) / Double(count - 1)
        var inner = self
        inner.sampleBudget = budget
        inner.samples = (0..<count).map { k in
            let top = inPoint + Double(k) * step
            let here = samples?[k].frame ?? (top - offset) / scale
            return (top, remap.value(at: here) * frameRate)
        }
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
    ///
    /// An animated part of the transform (`transform.scale.x`...) leaves the
    /// layer's own transform the identity, as lottie-ios leaves it: Core
    /// Animation sets such a part by taking the transform apart, and a
    /// transform already scaled by -1 on both axes comes apart as a half
    /// turn, whose scale the animation would then set unturned (a mirrored
    /// layer drawn the other way round).
    static func apply<Value>(_ property: LottieProperty<Value>?, to layer: CALayer, keyPath: String,
                             time: LottieTime, _ convert: (Value) -> Any) {
        guard let property else { return }
        if let samples = time.samples {
            applySampled(property, at: samples, to: layer, keyPath: keyPath, time: time, convert)
            return
        }
        guard case .keyed(let keys) = property, keys.count > 1, keys[keys.count - 1].frame > keys[0].frame else {
            layer.setValue(convert(property.initial), forKeyPath: keyPath)
            return
        }
        if !keyPath.hasPrefix(Self.transformPart) { layer.setValue(convert(property.initial), forKeyPath: keyPath) }
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
        guard duration > 0 else {
            layer.setValue(convert(property.initial), forKeyPath: keyPath)
            return
        }
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

    /// Key paths into a layer's transform, set by taking it apart.
    private static let transformPart = "transform."

    /// `apply` in a time-remapped precomposition: the property's value at
    /// each sampled frame, a linear keyframe each.
    private static func applySampled<Value>(_ property: LottieProperty<Value>, at samples: [(top: Double, frame: Double)],
                                            to layer: CALayer, keyPath: String, time: LottieTime, _ convert: (Value) -> Any) {
        guard property.isAnimated, samples.count > 1, time.sampleBudget?.take(samples.count) ?? true else {
            layer.setValue(convert(property.sampledValue(at: samples[0].frame)), forKeyPath: keyPath)
            return
        }
        let values = samples.map { convert(property.sampledValue(at: $0.frame)) }
        let transformPart = keyPath.hasPrefix(Self.transformPart)
        if !transformPart { layer.setValue(values[0], forKeyPath: keyPath) }
        if !addSampled(values, at: samples, to: layer, keyPath: keyPath, forKey: keyPath, time: time), transformPart {
            layer.setValue(values[0], forKeyPath: keyPath)
        }
    }

    /// A keyframe animation through `values`, one at each sampled frame of
    /// the top composition, held before the first and after the last.
    /// Whether it was added (not when the samples span no time).
    @discardableResult
    private static func addSampled(_ values: [Any], at samples: [(top: Double, frame: Double)], to layer: CALayer,
                                   keyPath: String, forKey key: String, discrete: Bool = false, time: LottieTime) -> Bool {
        let begin = time.seconds(top: samples[0].top), duration = time.seconds(top: samples[samples.count - 1].top) - begin
        guard duration > 0 else { return false }
        let animation = CAKeyframeAnimation(keyPath: keyPath)
        animation.values = values
        animation.keyTimes = samples.map { NSNumber(value: min(max((time.seconds(top: $0.top) - begin) / duration, 0), 1)) }
        if discrete { animation.calculationMode = .discrete }
        animation.beginTime = begin
        animation.duration = duration
        animation.fillMode = .both
        animation.isRemovedOnCompletion = false
        layer.add(animation, forKey: key)
        return true
    }

    /// Shows `layer` while its composition's frame is within `from..<until`
    /// (nil: no end), at the sampled frames of a time-remapped precomposition.
    static func show(_ layer: CALayer, between from: Double, and until: Double?, samples: [(top: Double, frame: Double)],
                     time: LottieTime) {
        let shown = samples.map { sample in sample.frame >= from && (until.map { sample.frame < $0 } ?? true) }
        layer.isHidden = !shown[0]
        guard shown.contains(!shown[0]), samples.count > 1 else { return }
        addSampled(shown.map { !$0 }, at: samples, to: layer, keyPath: "hidden", forKey: "lottie.visibility", discrete: true, time: time)
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

    /// Shows `layer` only between its composition's frames `from` and
    /// `until` (nil: for ever after; both on this composition's clock, not
    /// remapped): a layer's in and out points.
    ///
    /// Built as lottie-ios builds it for a paused animation view, so the
    /// moment a layer appears is decided by the same arithmetic: one
    /// discrete animation over the whole composition, `op − ip + 1` frames
    /// long, its key times the in and out points as fractions of that
    /// (Core Animation compares them with the scene time over the duration,
    /// and where the two differ in the last bit, as at 3/9 over 13/9 against
    /// 3/13, the layer is not shown yet, in Apple's pictures too).
    static func show(_ layer: CALayer, from: Double, until: Double?, time: LottieTime) {
        guard from.isFinite || until != nil else { return }
        let duration = (time.outPoint + 1 - time.inPoint) / time.frameRate
        // lottie-ios's `progressTime(for:)` divides by the duration times the
        // frame rate, not by `op + 1 - ip`: kept so, as the last bit is the point.
        let frameCount = duration * time.frameRate
        func fraction(_ frame: Double) -> Double { min(max((frame * time.scale + time.offset - time.inPoint) / frameCount, 0), 1) }
        let shownFrom = from.isFinite ? fraction(from) : 0
        // Shown from the start to the end: nothing to animate (and no
        // presentation copy of the layer each frame for it).
        if shownFrom == 0 && until == nil { return }
        let animation = CAKeyframeAnimation(keyPath: "hidden")
        animation.calculationMode = .discrete
        if let until {
            animation.values = [true, false, true]
            animation.keyTimes = [0, shownFrom, max(fraction(until), shownFrom), 1].map { NSNumber(value: $0) }
        } else {
            // Shown to the end and after it (held by the fill).
            animation.values = [true, false]
            animation.keyTimes = [0, shownFrom, 1].map { NSNumber(value: $0) }
        }
        animation.beginTime = 0
        animation.duration = duration
        animation.fillMode = .both
        animation.isRemovedOnCompletion = false
        layer.isHidden = true
        layer.add(animation, forKey: "lottie.visibility")
    }
}
