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
    /// Sets `keyPath` on `layer` to the property's value when it is fixed;
    /// when it is keyframed, adds animations through its keyframes and
    /// leaves the layer's own value at its default, as lottie-ios does.
    ///
    /// The keyframes are split where they change between held and eased,
    /// as lottie-ios splits them: a run of held keyframes is a `discrete`
    /// animation (each value until the next keyframe; the run's last
    /// keyframe only ends it), a run of eased ones a linear animation paced
    /// per segment by its keyframe's `CAMediaTimingFunction`; several runs
    /// are one `CAAnimationGroup`, the first run from the composition's
    /// start, the last to its end. A lone held keyframe before an eased one
    /// is a discrete animation of one value, which Core Animation does not
    /// play: the layer's own value shows there (Apple's pictures of
    /// lottie-ios's `pr_1632` samples show a fill at full opacity where its
    /// held keyframe says 0).
    static func apply<Value>(_ property: LottieProperty<Value>?, to layer: CALayer, keyPath: String,
                             time: LottieTime, _ convert: (Value) -> Any) {
        guard let property else { return }
        if let samples = time.samples {
            applySampled(property, at: samples, to: layer, keyPath: keyPath, time: time, convert)
            return
        }
        guard case .keyed(let keys) = property, keys.count > 1,
              time.seconds(keys[keys.count - 1].frame) > time.seconds(keys[0].frame) else {
            layer.setValue(convert(property.initial), forKeyPath: keyPath)
            return
        }
        let runs = Self.runs(keys)
        // The composition's start and end on the scene's clock; for several
        // runs, as lottie-ios reckons them, the top composition's in and out
        // frames read as frames of this one (later than the end, inside a
        // precomposition that starts late).
        let (start, end) = (0.0, time.seconds(top: time.outPoint))
        let (runsStart, runsEnd) = (time.seconds(time.inPoint), time.seconds(time.outPoint))
        var animations: [CAKeyframeAnimation] = []
        for (index, run) in runs.enumerated() {
            var begin = time.seconds(run[0].frame), finish = time.seconds(run[run.count - 1].frame)
            // Every moment of the composition is some run's: as lottie-ios
            // times them, the first from the start, the last to the end (one
            // frame past it when it is the only run, as lottie-ios's key
            // times are fractions of the composition's frames plus one).
            if runs.count == 1 {
                (begin, finish) = (min(begin, start), max(finish, end + 1 / time.frameRate))
            } else {
                if index == 0 { begin = min(begin, runsStart) }
                if index == runs.count - 1 { finish = max(finish, runsEnd) }
            }
            let duration = finish - begin
            guard duration > 0 else { continue }
            animations.append(Self.animation(of: run, keyPath: keyPath, begin: begin, duration: duration, time: time, convert))
        }
        guard !animations.isEmpty else {
            layer.setValue(convert(property.initial), forKeyPath: keyPath)
            return
        }
        // Each run plays in its own time; the first holds its start before
        // it, the last its end after it.
        animations[0].fillMode = .backwards
        animations[animations.count - 1].fillMode = animations.count == 1 ? .both : .forwards
        let added: CAAnimation
        if animations.count == 1 {
            added = animations[0]
        } else {
            // The runs on the group's clock, which is the scene's.
            let group = CAAnimationGroup()
            group.animations = animations
            group.beginTime = 0
            group.duration = animations.map { $0.beginTime + $0.duration }.max() ?? 0
            added = group
        }
        added.fillMode = .both
        added.isRemovedOnCompletion = false
        layer.add(added, forKey: keyPath)
    }

    /// One run's `CAKeyframeAnimation`, from `begin` for `duration`
    /// seconds: discrete for held keyframes, linear (along a path for a
    /// curved position) for eased ones.
    private static func animation<Value>(of run: [LottieProperty<Value>.Keyframe], keyPath: String, begin: Double, duration: Double,
                                         time: LottieTime, _ convert: (Value) -> Any) -> CAKeyframeAnimation {
        let animation = CAKeyframeAnimation(keyPath: keyPath)
        var keyTimes = run.map { min(max((time.seconds($0.frame) - begin) / duration, 0), 1) }
        var values = run.map { convert($0.value) }
        var functions = run.dropLast().map { key in
            key.easing.map { CAMediaTimingFunction(controlPoints: Float($0.0), Float($0.1), Float($0.2), Float($0.3)) }
                ?? CAMediaTimingFunction(name: .linear)
        }
        if !run[0].hold, keyPath == "position", let path = motionPath(run, points: values) {
            // Curved motion: along a path through the keyframes, as
            // lottie-ios builds position animations.
            animation.path = path
            animation.keyTimes = keyTimes.map { NSNumber(value: $0) }
            animation.timingFunctions = functions
        } else {
            // As lottie-ios completes them: a run that starts or ends
            // inside its time holds its first or last value there.
            if keyTimes[0] != 0 {
                keyTimes.insert(0, at: 0)
                values.insert(values[0], at: 0)
                functions.insert(CAMediaTimingFunction(name: .linear), at: 0)
            }
            if keyTimes[keyTimes.count - 1] != 1 {
                keyTimes.append(1)
                values.append(values[values.count - 1])
                functions.append(CAMediaTimingFunction(name: .linear))
            }
            if run[0].hold {
                // Each value until the next key time; the last only ends
                // the run. At a moment exactly on a keyframe, the value
                // shown is the one Core Animation shows there, which its
                // single-precision arithmetic decides (`showsNext`); the
                // key time moves a microsecond to the side that says so,
                // whatever the last bits of the arithmetic here.
                animation.calculationMode = .discrete
                values.removeLast()
                let edge = Self.heldEdge / duration
                for k in keyTimes.indices.dropFirst().dropLast() {
                    let moved = Self.showsNext(keyTime: keyTimes[k], duration: duration) ? keyTimes[k] - edge : keyTimes[k] + edge
                    keyTimes[k] = min(max(moved, keyTimes[k - 1]), keyTimes[k + 1])
                }
            } else {
                animation.timingFunctions = functions
            }
            animation.keyTimes = keyTimes.map { NSNumber(value: $0) }
            animation.values = values
        }
        animation.beginTime = begin
        animation.duration = duration
        return animation
    }

    /// Keyframes split where they change between held and eased, as
    /// lottie-ios splits them: each run's keyframes are all held or all
    /// eased, and a run ends on the keyframe that starts the next.
    static func runs<Value>(_ keys: [LottieProperty<Value>.Keyframe]) -> [[LottieProperty<Value>.Keyframe]] {
        var runs: [[LottieProperty<Value>.Keyframe]] = []
        var current: [LottieProperty<Value>.Keyframe] = []
        for key in keys {
            if let last = current.last, key.hold != last.hold {
                current.append(key)
                runs.append(current)
                current = [key]
            } else {
                current.append(key)
            }
        }
        runs.append(current)
        return runs
    }

    /// How far from its keyframe a held value's key time moves (seconds).
    static let heldEdge = 1e-6

    /// Whether Core Animation, at the moment `keyTime × duration` into a
    /// discrete animation, shows the value that starts at `keyTime` (else
    /// the one before): its key times are single-precision numbers, and it
    /// divides the time by the duration in single precision too. Apple's
    /// pictures of lottie-ios's TypeFace samples follow this to the last
    /// bit: at 8 of 33 frames (`H`) the value before shows, at 19 of 39
    /// (`O`) the new one.
    static func showsNext(keyTime: Double, duration: Double) -> Bool {
        let time = Float(keyTime * duration)
        return time / Float(duration) >= Float(keyTime)
    }

    /// `apply` in a time-remapped precomposition: the property's value at
    /// each sampled frame, a linear keyframe each; the layer's own value,
    /// as there, left at its default while the animation plays.
    private static func applySampled<Value>(_ property: LottieProperty<Value>, at samples: [(top: Double, frame: Double)],
                                            to layer: CALayer, keyPath: String, time: LottieTime, _ convert: (Value) -> Any) {
        guard property.isAnimated, samples.count > 1, time.sampleBudget?.take(samples.count) ?? true else {
            layer.setValue(convert(property.sampledValue(at: samples[0].frame)), forKeyPath: keyPath)
            return
        }
        let values = samples.map { convert(property.sampledValue(at: $0.frame)) }
        if !addSampled(values, at: samples, to: layer, keyPath: keyPath, forKey: keyPath, time: time) {
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

    /// The path a run of eased position keyframes moves along, when any
    /// segment has spatial tangents (`to`, `ti`): a curve from each
    /// keyframe's point, leaving along its `to` and arriving along the next
    /// one's `ti`; a line elsewhere. Nil when every segment is straight, or
    /// the values are not points.
    private static func motionPath<Value>(_ keys: [LottieProperty<Value>.Keyframe], points values: [Any]) -> CGPath? {
        guard keys.contains(where: { $0.spatialOut != nil || $0.spatialIn != nil }),
              let points = values as? [CGPoint], points.count == keys.count, let first = points.first else { return nil }
        let path = CGMutablePath()
        path.move(to: first)
        for index in 1..<keys.count {
            let from = points[index - 1], to = points[index]
            let out = keys[index - 1].spatialOut, into = keys[index].spatialIn
            if out != nil || into != nil {
                let o = out ?? [0, 0], i = into ?? [0, 0]
                path.addCurve(to: to, control1: CGPoint(x: from.x + o[0], y: from.y + o[1]),
                              control2: CGPoint(x: to.x + i[0], y: to.y + i[1]))
            } else {
                path.addLine(to: to)
            }
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
