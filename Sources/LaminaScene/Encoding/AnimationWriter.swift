import Foundation
import LaminaJSON

// Animations back into `animations` entries. Only what the format can say is
// written; an animation using a setting the format has no key for is
// refused rather than written as something else.
extension EncodingContext {
    func animations(of layer: CALayer, type: LayerType, at path: JSONPath) throws(SceneError) -> JSONValue? {
        guard let keys = layer.animationKeys(), !keys.isEmpty else { return nil }
        var entries: [JSONValue] = []
        for key in keys {
            guard let animation = layer.animation(forKey: key) else { continue }
            entries.append(try self.animation(animation, on: type, at: path / entries.count))
        }
        return .array(entries)
    }

    private func animation(_ animation: CAAnimation, on type: LayerType, at path: JSONPath) throws(SceneError) -> JSONValue {
        func refuse(_ why: String) -> SceneError {
            SceneError(.invalidValue, at: path.description, "the animation cannot be written: \(why)")
        }
        if let group = animation as? CAAnimationGroup {
            var members: [(String, JSONValue)] = [("type", .string("group"))]
            var children: [JSONValue] = []
            for child in group.animations ?? [] {
                children.append(try self.animation(child, on: type, at: path / "animations" / children.count))
            }
            members.append(("animations", .array(children)))
            appendTiming(of: group, to: &members)
            return .object(members)
        }
        guard let property = animation as? CAPropertyAnimation,
              property is CABasicAnimation || property is CAKeyframeAnimation
        else {
            throw refuse("\(Swift.type(of: animation)) is not a basic, keyframe, spring or group animation")
        }
        guard let keyPath = property.keyPath else { throw refuse("it has no key path") }
        guard let kind = AnimatableProperty.kind(of: keyPath, on: type) else {
            throw refuse("\(JSONWriter.quoted(keyPath)) is not an animatable key path of a \(type.className)")
        }
        if property.valueFunction != nil { throw refuse("the format has no key for valueFunction") }

        var members: [(String, JSONValue)] = []
        switch property {
        case let spring as CASpringAnimation:
            members.append(("type", .string("spring")))
            members.append(("keyPath", .string(keyPath)))
            try appendBasicValues(spring, kind: kind, at: path, to: &members)
            let parameters: [(String, CGFloat, CGFloat)] = [
                ("mass", spring.mass, 1), ("stiffness", spring.stiffness, 100),
                ("damping", spring.damping, 10), ("initialVelocity", spring.initialVelocity, 0),
            ]
            for (name, v, defaultValue) in parameters where v != defaultValue {
                members.append((name, .number(Double(v))))
            }
        case let basic as CABasicAnimation:
            members.append(("keyPath", .string(keyPath)))
            try appendBasicValues(basic, kind: kind, at: path, to: &members)
        case let keyframe as CAKeyframeAnimation:
            if keyframe.tensionValues != nil || keyframe.continuityValues != nil || keyframe.biasValues != nil {
                throw refuse("the format has no keys for tension, continuity or bias values")
            }
            if keyframe.path != nil {
                throw refuse("the format has no key for a keyframe animation's path")
            }
            members.append(("type", .string("keyframe")))
            members.append(("keyPath", .string(keyPath)))
            var values: [JSONValue] = []
            for (k, v) in (keyframe.values ?? []).enumerated() {
                values.append(try AnimationValue.encode(v, kind: kind, at: path / "values" / k, context: self))
            }
            members.append(("values", .array(values)))
            if let times = keyframe.keyTimes {
                members.append(("keyTimes", .array(times.map { .number($0.doubleValue) })))
            }
            if keyframe.calculationMode != .linear,
               let name = DecodingContext.calculationModes.first(where: { $0.1 == keyframe.calculationMode })?.0 {
                members.append(("calculationMode", .string(name)))
            }
            if let functions = keyframe.timingFunctions, !functions.isEmpty {
                members.append(("timingFunctions", .array(functions.map(Self.timingFunction))))
            }
        default:
            throw refuse("\(Swift.type(of: animation)) is not a basic, keyframe, spring or group animation")
        }
        if property.isAdditive { members.append(("additive", .bool(true))) }
        if property.isCumulative { members.append(("cumulative", .bool(true))) }
        appendTiming(of: animation, to: &members)
        return .object(members)
    }

    private func appendBasicValues(
        _ animation: CABasicAnimation, kind: AnimatedValueKind, at path: JSONPath, to members: inout [(String, JSONValue)]
    ) throws(SceneError) {
        let values: [(String, Any?)] = [
            ("fromValue", animation.fromValue), ("toValue", animation.toValue), ("byValue", animation.byValue),
        ]
        for (name, value) in values {
            guard let value else { continue }
            members.append((name, try AnimationValue.encode(value, kind: kind, at: path / name, context: self)))
        }
    }

    private func appendTiming(of animation: CAAnimation, to members: inout [(String, JSONValue)]) {
        if animation.beginTime != 0 { members.append(("beginTime", .number(animation.beginTime))) }
        // A duration of 0 plays for 0.25 s, as Core Animation does; both are
        // written as they are so that they read back unchanged.
        if animation.duration != 0 { members.append(("duration", .number(animation.duration))) }
        if animation.speed != 1 { members.append(("speed", .number(floatingPoint: animation.speed))) }
        if animation.timeOffset != 0 { members.append(("timeOffset", .number(animation.timeOffset))) }
        func repeating(_ value: Double) -> JSONValue {
            value.isInfinite ? .string(DecodingContext.infinityName) : .number(value)
        }
        if animation.repeatCount != 0 {
            members.append(("repeatCount", animation.repeatCount.isInfinite
                ? .string(DecodingContext.infinityName) : .number(floatingPoint: animation.repeatCount)))
        }
        if animation.repeatDuration != 0 { members.append(("repeatDuration", repeating(animation.repeatDuration))) }
        if animation.autoreverses { members.append(("autoreverses", .bool(true))) }
        if animation.fillMode != .removed,
           let name = DecodingContext.fillModes.first(where: { $0.1 == animation.fillMode })?.0 {
            members.append(("fillMode", .string(name)))
        }
        if let function = animation.timingFunction {
            // Written whenever one is set, even a linear one, so that a
            // decoded tree reads back with the same object set.
            members.append(("timingFunction", Self.timingFunction(function)))
        }
        if !animation.isRemovedOnCompletion { members.append(("removedOnCompletion", .bool(false))) }
    }

    /// A timing function's name when it is a named one, else its control points.
    private static func timingFunction(_ function: CAMediaTimingFunction) -> JSONValue {
        let named = DecodingContext.timingFunctionNames.first { CAMediaTimingFunction(name: $0.1) == function }
        return named.map { .string($0.0) } ?? .array([
            .number(floatingPoint: function.c1x), .number(floatingPoint: function.c1y),
            .number(floatingPoint: function.c2x), .number(floatingPoint: function.c2y),
        ])
    }
}

/// The JSON form of an animation value of a given kind.
enum AnimationValue {
    static func encode(
        _ value: Any, kind: AnimatedValueKind, at path: JSONPath, context: EncodingContext
    ) throws(SceneError) -> JSONValue {
        func mismatch() -> SceneError {
            SceneError(.invalidValue, at: path.description,
                       "a value of type \(type(of: value)) cannot be written where \(kind.description) is expected")
        }
        switch kind {
        case .number:
            guard let n = number(value) else { throw mismatch() }
            return n
        case .point:
            guard let p = value as? CGPoint else { throw mismatch() }
            return GeometryValue.encode(p)
        case .size:
            guard let s = value as? CGSize else { throw mismatch() }
            return GeometryValue.encode(s)
        case .rect:
            guard let r = value as? CGRect else { throw mismatch() }
            return GeometryValue.encode(r)
        case .color:
            guard let c = value as? CGColor else { throw mismatch() }
            return ColorValue.encode(c)
        case .transform:
            guard let t = value as? CATransform3D else { throw mismatch() }
            return TransformValue.encode(t)
        case .path:
            guard let p = value as? CGPath else { throw mismatch() }
            return PathValue.encode(p)
        case .image:
            guard let image = value as? CGImage else { throw mismatch() }
            return try context.dataURI(for: image, at: path)
        case .bool:
            guard let b = value as? Bool else { throw mismatch() }
            return .bool(b)
        case .numbers:
            guard let items = value as? [Any] else { throw mismatch() }
            var out: [JSONValue] = []
            for item in items {
                guard let n = number(item) else { throw mismatch() }
                out.append(n)
            }
            return .array(out)
        case .colors:
            guard let items = value as? [Any] else { throw mismatch() }
            return try ColorValue.encodeList(items, at: path)
        case .string, .constant, .cornerMask, .layer, .layers, .emitterCells, .emitterBehaviors, .filters, .any:
            // The property table marks no property of these kinds animatable.
            throw mismatch()
        }
    }

    /// A number of any Swift numeric type or an `NSNumber`; a `Bool` is not one.
    static func number(_ value: Any) -> JSONValue? {
        if type(of: value) == Bool.self { return nil }
        switch value {
        case let v as CGFloat: return .number(Double(v))
        case let v as Double: return .number(v)
        case let v as Float: return .number(floatingPoint: v)
        case let v as Int: return .number(Double(v))
        case let v as NSNumber: return .number(v.doubleValue)
        default: return nil
        }
    }
}
