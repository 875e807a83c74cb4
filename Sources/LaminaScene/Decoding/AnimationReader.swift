import Foundation
import LaminaGIF
import LaminaJSON

// The `animations` of a layer: each entry a CABasicAnimation,
// CAKeyframeAnimation, CASpringAnimation (values typed by the property its
// key path names) or a CAAnimationGroup of such entries.
extension DecodingContext {
    static let animationTypes = ["basic", "keyframe", "spring", "group"]
    static let timingKeys = [
        "beginTime", "duration", "speed", "timeOffset", "repeatCount", "repeatDuration", "autoreverses",
        "fillMode", "timingFunction", "removedOnCompletion",
    ]
    static let propertyKeys = ["keyPath", "additive", "cumulative"]
    static let basicKeys = ["fromValue", "toValue", "byValue"]
    static let keyframeKeys = ["values", "keyTimes", "calculationMode", "timingFunctions"]
    static let springKeys = ["mass", "stiffness", "damping", "initialVelocity"]
    static let groupKeys = ["animations"]
    static let fillModes: [(String, CAMediaTimingFillMode)] = [
        ("removed", .removed), ("forwards", .forwards), ("backwards", .backwards), ("both", .both),
    ]
    static let timingFunctionNames: [(String, CAMediaTimingFunctionName)] = [
        ("linear", .linear), ("easeIn", .easeIn), ("easeOut", .easeOut),
        ("easeInEaseOut", .easeInEaseOut), ("default", .default),
    ]
    static let calculationModes: [(String, CAAnimationCalculationMode)] = [
        ("linear", .linear), ("discrete", .discrete), ("paced", .paced), ("cubic", .cubic), ("cubicPaced", .cubicPaced),
    ]
    /// How `repeatCount` and `repeatDuration` say "for ever": JSON has no infinity.
    static let infinityName = "infinity"

    /// The keys an animation of `type` may have.
    static func animationKeys(for type: String) -> [String] {
        let own = switch type {
        case "keyframe": propertyKeys + keyframeKeys
        case "spring": propertyKeys + basicKeys + springKeys
        case "group": groupKeys
        default: propertyKeys + basicKeys
        }
        return ["type"] + own + timingKeys
    }

    /// Reads `animations` and attaches them to `layer` under keys made from
    /// their key paths (the format has no key names): the key path itself
    /// (`group` for a group), or `keyPath#n` for the n-th animation of a key
    /// path already used.
    func animations(_ value: JSONValue, at path: JSONPath, to layer: CALayer, type: LayerType) throws(SceneError) {
        guard let entries = try array(value, at: path, of: "animations") else { return }
        var used: [String: Int] = [:]
        for (k, entry) in entries.enumerated() {
            guard let animation = try animation(entry, at: path / k, layerType: type) else { continue }
            let name = (animation as? CAPropertyAnimation)?.keyPath ?? "group"
            let n = used[name, default: 0]
            used[name] = n + 1
            layer.add(animation, forKey: n == 0 ? name : "\(name)#\(n + 1)")
        }
    }

    /// One entry of `animations` (or of a group's `animations`), counted
    /// against the scene's limit.
    private func animation(
        _ value: JSONValue, at path: JSONPath, layerType: LayerType
    ) throws(SceneError) -> CAAnimation? {
        animationCount += 1
        guard animationCount <= limits.animationCount else {
            throw fatal(.limitExceeded, at: path, value.position,
                        "the scene has more than \(limits.animationCount) animations (the limit)")
        }
        guard let object = try object(value, at: path, "an animation {\"keyPath\", ...}") else { return nil }
        var typeName = "basic"
        if let t = object["type"] {
            guard let n = try name(t, at: path / "type", from: Self.animationTypes) else { return nil }
            typeName = n
        }
        let allowed = Self.animationKeys(for: typeName)
        for member in object.members where !allowed.contains(member.key) {
            let owner = Self.keyframeKeys.contains(member.key) ? "keyframe"
                : Self.springKeys.contains(member.key) ? "spring"
                : Self.basicKeys.contains(member.key) ? "basic and spring"
                : Self.groupKeys.contains(member.key) ? "group"
                : Self.propertyKeys.contains(member.key) ? "basic, keyframe and spring" : nil
            let message = owner.map { "'\(member.key)' is a key of \($0) animations, not of \(typeName) animations" }
                ?? "unknown key '\(member.key)' in an animation" + Suggestion.didYouMean(member.key, in: allowed)
            try report(.unknownKey, at: path / member.key, member.keyPosition, message)
        }
        let animation: CAAnimation
        var ok = true
        if typeName == "group" {
            let group = CAAnimationGroup()
            var children: [CAAnimation] = []
            if let list = object["animations"] {
                guard let entries = try array(list, at: path / "animations", of: "animations") else { return nil }
                for (k, entry) in entries.enumerated() {
                    if let child = try self.animation(entry, at: path / "animations" / k, layerType: layerType) {
                        children.append(child)
                    } else {
                        ok = false
                    }
                }
            }
            group.animations = children
            animation = group
        } else {
            guard let property = try propertyAnimation(object, value, at: path, typeName: typeName, layerType: layerType)
            else { return nil }
            animation = property
        }
        ok = try timing(object, at: path, into: animation) && ok
        guard ok else { return nil }
        do {
            try animation.validate()
        } catch {
            try report(.invalidValue, value, at: path, "the animation cannot play: \(error)")
            return nil
        }
        return animation
    }

    /// A basic, keyframe or spring animation: its key path, values and flags.
    private func propertyAnimation(
        _ object: JSONObject, _ value: JSONValue, at path: JSONPath, typeName: String, layerType: LayerType
    ) throws(SceneError) -> CAPropertyAnimation? {
        guard let keyPathValue = object["keyPath"] else {
            try report(.missingKey, value, at: path, "'keyPath' is required")
            return nil
        }
        guard let keyPath = try string(keyPathValue, at: path / "keyPath") else { return nil }
        guard let kind = AnimatableProperty.kind(of: keyPath, on: layerType) else {
            let owners = AnimatableProperty.types(animating: keyPath)
            let message = owners.isEmpty
                ? "\(JSONWriter.quoted(keyPath)) is not an animatable key path of a \(layerType.className)"
                    + Suggestion.didYouMean(keyPath, in: AnimatableProperty.keyPaths(on: layerType), asValue: true)
                : "\(JSONWriter.quoted(keyPath)) is a property of \(owners.map(\.className).joined(separator: ", ")), "
                    + "not of a \(layerType.className)"
            try report(.unknownName, keyPathValue, at: path / "keyPath", message)
            return nil
        }
        let animation: CAPropertyAnimation
        var ok = true
        switch typeName {
        case "keyframe":
            let keyframe = CAKeyframeAnimation(keyPath: keyPath)
            ok = try keyframeValues(object, value, at: path, kind: kind, into: keyframe)
            animation = keyframe
        default:
            let basic = typeName == "spring" ? CASpringAnimation(keyPath: keyPath) : CABasicAnimation(keyPath: keyPath)
            for key in Self.basicKeys {
                guard let v = object[key] else { continue }
                // byValue is a change, not a value of the property: any sign.
                guard let typed = try animationValue(v, at: path / key, kind: kind, isChange: key == "byValue")
                else { ok = false; continue }
                switch key {
                case "fromValue": basic.fromValue = typed
                case "toValue": basic.toValue = typed
                default: basic.byValue = typed
                }
            }
            if let spring = basic as? CASpringAnimation {
                ok = try springParameters(object, at: path, into: spring) && ok
            }
            animation = basic
        }
        let flags: [(String, ReferenceWritableKeyPath<CAPropertyAnimation, Bool>)] = [
            ("additive", \.isAdditive), ("cumulative", \.isCumulative),
        ]
        for (key, field) in flags {
            guard let v = object[key] else { continue }
            if let b = try bool(v, at: path / key) { animation[keyPath: field] = b } else { ok = false }
        }
        return ok ? animation : nil
    }

    private func keyframeValues(
        _ object: JSONObject, _ value: JSONValue, at path: JSONPath, kind: AnimatedValueKind,
        into animation: CAKeyframeAnimation
    ) throws(SceneError) -> Bool {
        guard let valuesValue = object["values"] else {
            try report(.missingKey, value, at: path, "a keyframe animation needs 'values'")
            return false
        }
        guard let items = try array(valuesValue, at: path / "values", of: kind.description) else { return false }
        guard !items.isEmpty else {
            try report(.invalidValue, valuesValue, at: path / "values", "a keyframe animation needs at least one value")
            return false
        }
        guard items.count <= limits.keyframeCount else {
            throw fatal(.limitExceeded, at: path / "values", valuesValue.position,
                        "the animation has \(items.count) values, over the limit of \(limits.keyframeCount)")
        }
        var values: [Any] = []
        var ok = true
        // An animated GIF among the pictures of a `contents` animation plays
        // all its pictures in its value's share of the time.
        var gifs: [Int: [GIFDecoder.Frame]] = [:]
        for (k, item) in items.enumerated() {
            if kind == .image, let frames = try animatedGIFFrames(item, at: path / "values" / k) {
                gifs[k] = frames
                values.append(frames[0].image)
            } else if let v = try animationValue(item, at: path / "values" / k, kind: kind) {
                values.append(v)
            } else {
                ok = false
            }
        }
        animation.values = values
        if let modeValue = object["calculationMode"] {
            if let mode = try named(modeValue, at: path / "calculationMode", from: Self.calculationModes) {
                animation.calculationMode = mode
            } else { ok = false }
        }
        if let functionsValue = object["timingFunctions"] {
            let p = path / "timingFunctions"
            if let entries = try array(functionsValue, at: p, of: "timing functions") {
                var functions: [CAMediaTimingFunction] = []
                for (k, entry) in entries.enumerated() {
                    if let f = try timingFunction(entry, at: p / k) { functions.append(f) } else { ok = false }
                }
                animation.timingFunctions = functions
            } else { ok = false }
        }
        if let timesValue = object["keyTimes"] {
            let p = path / "keyTimes"
            if let times = try numberList(timesValue, at: p, .unit) {
                // A discrete animation may also give the end of its last value's time.
                let counts = animation.calculationMode == .discrete ? [items.count, items.count + 1] : [items.count]
                if !counts.contains(times.count) {
                    let expected = counts.map(String.init).joined(separator: " or ")
                    try report(.invalidValue, timesValue, at: p,
                               "expected \(expected) key times for \(items.count) values, found \(times.count)")
                    ok = false
                } else if let k = times.indices.dropFirst().first(where: { times[$0] < times[$0 - 1] }),
                          let bad = timesValue.array?[k] {
                    try report(.invalidValue, bad, at: p / k, "key times must not decrease")
                    ok = false
                } else {
                    animation.keyTimes = times.map { NSNumber(value: Double($0)) }
                }
            } else {
                ok = false
            }
        }
        if ok, !gifs.isEmpty {
            spread(gifs, in: animation, settingDuration: items.count == 1 && object["duration"] == nil)
        }
        return ok
    }

    /// Replaces each animated GIF value of `animation` by its pictures,
    /// each at its share of the value's time (from its key time to the
    /// next, or the end), by the pictures' durations. A lone GIF without a
    /// `duration` plays at its own speed.
    private func spread(_ gifs: [Int: [GIFDecoder.Frame]], in animation: CAKeyframeAnimation, settingDuration: Bool) {
        let values = animation.values ?? []
        let n = values.count
        let discrete = animation.calculationMode == .discrete
        let times: [Double]
        if let given = animation.keyTimes {
            times = given.map { $0.doubleValue }
        } else {
            // Core Animation's even spacing: discrete values from k/n, others at k/(n - 1).
            let steps = Double(discrete ? n : max(n - 1, 1))
            times = (0..<n).map { Double($0) / steps }
        }
        var spreadValues: [Any] = [], spreadTimes: [Double] = []
        for k in 0..<n {
            guard let frames = gifs[k] else {
                spreadValues.append(values[k]); spreadTimes.append(times[k])
                continue
            }
            let start: Double = times[k], end: Double = k + 1 < times.count ? times[k + 1] : 1
            let total = frames.reduce(0.0) { $0 + $1.duration }
            var elapsed = 0.0
            for frame in frames {
                spreadValues.append(frame.image)
                spreadTimes.append(start + (end - start) * elapsed / total)
                elapsed += frame.duration
            }
            if settingDuration { animation.duration = total }
        }
        if discrete, let keyTimes = animation.keyTimes, keyTimes.count == n + 1 { spreadTimes.append(keyTimes[n].doubleValue) }
        animation.values = spreadValues
        animation.keyTimes = spreadTimes.map { NSNumber(value: $0) }
    }

    private func springParameters(
        _ object: JSONObject, at path: JSONPath, into spring: CASpringAnimation
    ) throws(SceneError) -> Bool {
        var ok = true
        let fields: [(String, NumberRange, ReferenceWritableKeyPath<CASpringAnimation, CGFloat>)] = [
            ("mass", .positive, \.mass), ("stiffness", .positive, \.stiffness),
            ("damping", .nonNegative, \.damping), ("initialVelocity", .any, \.initialVelocity),
        ]
        for (key, range, field) in fields {
            guard let v = object[key] else { continue }
            if let n = try number(v, at: path / key, range) { spring[keyPath: field] = CGFloat(n) } else { ok = false }
        }
        return ok
    }

    private func timing(_ object: JSONObject, at path: JSONPath, into animation: CAAnimation) throws(SceneError) -> Bool {
        var ok = true
        func read(_ key: String, _ range: NumberRange, _ set: (Double) -> Void) throws(SceneError) {
            guard let v = object[key] else { return }
            if let n = try number(v, at: path / key, range) { set(n) } else { ok = false }
        }
        try read("beginTime", .any) { animation.beginTime = $0 }
        try read("duration", .nonNegative) { animation.duration = $0 }
        try read("speed", .any) { animation.speed = Float($0) }
        try read("timeOffset", .any) { animation.timeOffset = $0 }
        // "infinity" repeats for ever (JSON has no infinite number).
        func readRepeat(_ key: String, _ set: (Double) -> Void) throws(SceneError) {
            guard let v = object[key] else { return }
            if v.string == Self.infinityName { set(.infinity); return }
            if v.string != nil {
                try report(.invalidValue, v, at: path / key, "expected a number ≥ 0 or \"\(Self.infinityName)\"")
                ok = false
                return
            }
            if let n = try number(v, at: path / key, .nonNegative) { set(n) } else { ok = false }
        }
        try readRepeat("repeatCount") { animation.repeatCount = Float($0) }
        try readRepeat("repeatDuration") { animation.repeatDuration = $0 }
        if let v = object["removedOnCompletion"] {
            if let b = try bool(v, at: path / "removedOnCompletion") { animation.isRemovedOnCompletion = b } else { ok = false }
        }
        if let v = object["autoreverses"] {
            if let b = try bool(v, at: path / "autoreverses") { animation.autoreverses = b } else { ok = false }
        }
        if let v = object["fillMode"] {
            if let mode = try named(v, at: path / "fillMode", from: Self.fillModes) {
                animation.fillMode = mode
            } else { ok = false }
        }
        if let v = object["timingFunction"] {
            if let f = try timingFunction(v, at: path / "timingFunction") { animation.timingFunction = f } else { ok = false }
        }
        return ok
    }

    /// A named curve or the control points `[c1x, c1y, c2x, c2y]` (x in 0...1).
    private func timingFunction(_ value: JSONValue, at path: JSONPath) throws(SceneError) -> CAMediaTimingFunction? {
        if value.string != nil {
            return try named(value, at: path, from: Self.timingFunctionNames).map { CAMediaTimingFunction(name: $0) }
        }
        guard value.array != nil else {
            try wrongType(value, at: path, expected: "a timing function name or [c1x, c1y, c2x, c2y]")
            return nil
        }
        guard let c = try numbers(value, at: path, count: 4, form: "control points [c1x, c1y, c2x, c2y]",
                                  ranges: [.unit, .any, .unit, .any])
        else { return nil }
        return CAMediaTimingFunction(controlPoints: Float(c[0]), Float(c[1]), Float(c[2]), Float(c[3]))
    }

    /// One value of the animated property, as the Swift type the layer's
    /// property has. A change (`byValue`) is not held to the property's
    /// range: it may be negative where the property may not.
    func animationValue(
        _ value: JSONValue, at path: JSONPath, kind: AnimatedValueKind, isChange: Bool = false
    ) throws(SceneError) -> Any? {
        switch kind {
        case .number(let range): return try number(value, at: path, isChange ? .any : range).map { CGFloat($0) }
        case .point: return try point(value, at: path)
        case .size: return try offset(value, at: path)
        case .rect where isChange:
            return try numbers(value, at: path, count: 4, form: "a rectangle [x, y, width, height]")
                .map { CGRect(x: $0[0], y: $0[1], width: $0[2], height: $0[3]) }
        case .rect: return try rect(value, at: path)
        case .color: return try color(value, at: path)
        case .transform: return try transform(value, at: path)
        case .path: return try self.path(value, at: path)
        case .image: return try image(value, at: path)
        case .bool: return try bool(value, at: path)
        case .numbers(let range):
            return try numberList(value, at: path, isChange ? .any : range).map { $0.map { NSNumber(value: Double($0)) } }
        case .colors: return try colorList(value, at: path)
        case .string, .constant, .cornerMask, .layer, .layers, .emitterCells, .emitterBehaviors, .filters, .any:
            // The property table marks no property of these kinds animatable.
            throw SceneError(.invalidValue, at: path.description, "\(kind.description) cannot be animated")
        }
    }
}
