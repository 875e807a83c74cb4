// Animations: each entry becomes the animation class its type names, with
// timing keys and values typed by the key path's property.
import Foundation
import Testing
@testable import LaminaScene

@Suite struct AnimationDecodingTests {
    private func animations(_ layerJSON: String) throws -> [(key: String, animation: CAAnimation)] {
        let layer = try decodeLayer(layerJSON)
        return (layer.animationKeys() ?? []).compactMap { key in layer.animation(forKey: key).map { (key, $0) } }
    }

    @Test func basicAnimationWithEveryTimingKey() throws {
        let list = try animations("""
            {"animations": [{"keyPath": "position", "fromValue": [0, 0], "toValue": [100, 50], "byValue": [1, 2],
              "beginTime": 0.5, "duration": 2, "speed": 2, "timeOffset": 0.25, "repeatCount": 3,
              "autoreverses": true, "fillMode": "both", "timingFunction": "easeInEaseOut"}]}
            """)
        let a = try #require(list.first?.animation as? CABasicAnimation)
        #expect(type(of: a) == CABasicAnimation.self)
        #expect(list.first?.key == "position")
        #expect(a.keyPath == "position")
        #expect(a.fromValue as? CGPoint == CGPoint(x: 0, y: 0))
        #expect(a.toValue as? CGPoint == CGPoint(x: 100, y: 50))
        #expect(a.byValue as? CGPoint == CGPoint(x: 1, y: 2))
        #expect(a.beginTime == 0.5 && a.duration == 2 && a.speed == 2 && a.timeOffset == 0.25)
        #expect(a.repeatCount == 3 && a.autoreverses && a.fillMode == .both)
        #expect(a.timingFunction == CAMediaTimingFunction(name: .easeInEaseOut))
    }

    @Test func timingDefaults() throws {
        let a = try #require(try animations(#"{"animations": [{"keyPath": "opacity", "toValue": 0}]}"#).first?.animation)
        // Duration 0 is Core Animation's "0.25 s"; nil timing is linear.
        #expect(a.beginTime == 0 && a.duration == 0 && a.timingModel.simpleDuration == 0.25)
        #expect(a.speed == 1 && a.timeOffset == 0 && a.repeatCount == 0 && !a.autoreverses)
        #expect(a.fillMode == .removed && a.timingFunction == nil)
    }

    @Test func timingFunctionsByNameAndControlPoints() throws {
        for (name, curve) in DecodingContext.timingFunctionNames {
            let a = try animations("{\"animations\": [{\"keyPath\": \"opacity\", \"timingFunction\": \"\(name)\"}]}")
            #expect(a.first?.animation.timingFunction == CAMediaTimingFunction(name: curve))
        }
        let a = try animations(#"{"animations": [{"keyPath": "opacity", "timingFunction": [0.1, -0.5, 0.9, 1.5]}]}"#)
        #expect(a.first?.animation.timingFunction == CAMediaTimingFunction(controlPoints: 0.1, -0.5, 0.9, 1.5))
    }

    @Test func keyframeAnimation() throws {
        let list = try animations("""
            {"animations": [{"type": "keyframe", "keyPath": "backgroundColor", "values": ["#f00", "#0f0", "#00f"],
              "keyTimes": [0, 0.25, 1], "duration": 3}]}
            """)
        let k = try #require(list.first?.animation as? CAKeyframeAnimation)
        #expect(k.values?.compactMap { $0 as? CGColor } == [
            CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 1, blue: 0, alpha: 1),
            CGColor(red: 0, green: 0, blue: 1, alpha: 1),
        ])
        #expect(k.keyTimes?.map(\.doubleValue) == [0, 0.25, 1])
        #expect(k.duration == 3)
    }

    @Test func springAnimation() throws {
        let list = try animations("""
            {"animations": [{"type": "spring", "keyPath": "transform.scale", "fromValue": 0.5, "toValue": 1,
              "mass": 2, "stiffness": 50, "damping": 5, "initialVelocity": -1}]}
            """)
        let s = try #require(list.first?.animation as? CASpringAnimation)
        #expect(s.fromValue as? CGFloat == 0.5 && s.toValue as? CGFloat == 1)
        #expect(s.mass == 2 && s.stiffness == 50 && s.damping == 5 && s.initialVelocity == -1)
        let defaults = try #require(try animations(#"{"animations": [{"type": "spring", "keyPath": "opacity"}]}"#)
            .first?.animation as? CASpringAnimation)
        #expect(defaults.mass == 1 && defaults.stiffness == 100 && defaults.damping == 10 && defaults.initialVelocity == 0)
    }

    @Test func valuesAreTypedByTheKeyPath() throws {
        func value(_ keyPath: String, _ json: String, type: String = "layer") throws -> Any? {
            let list = try animations(
                "{\"type\": \"\(type)\", \"animations\": [{\"keyPath\": \"\(keyPath)\", \"toValue\": \(json)}]}")
            return (list.first?.animation as? CABasicAnimation)?.toValue
        }
        #expect(try value("opacity", "0.5") as? CGFloat == 0.5)
        #expect(try value("position.x", "3") as? CGFloat == 3)
        #expect(try value("bounds", "[0, 0, 4, 5]") as? CGRect == CGRect(x: 0, y: 0, width: 4, height: 5))
        #expect(try value("bounds.size", "[4, 5]") as? CGSize == CGSize(width: 4, height: 5))
        #expect(try value("bounds.size.width", "4") as? CGFloat == 4)
        #expect(try value("bounds.origin", "[1, 2]") as? CGPoint == CGPoint(x: 1, y: 2))
        #expect(try value("shadowOffset", "[1, -2]") as? CGSize == CGSize(width: 1, height: -2))
        #expect(try value("transform", #"[{"scale": [2, 2, 1]}]"#) as? CATransform3D == CATransform3DMakeScale(2, 2, 1))
        #expect(try value("transform.rotation.z", "3.14") as? CGFloat == 3.14)
        #expect(try value("transform.translation", "[1, 2]") as? CGSize == CGSize(width: 1, height: 2))
        #expect(try value("sublayerTransform.rotation.y", "1") as? CGFloat == 1)
        #expect(try value("backgroundColor", ##""#fff""##) as? CGColor == CGColor.white)
        #expect((try value("strokeEnd", "0.5", type: "shape")) as? CGFloat == 0.5)
        #expect(try value("colors", ##"["#000", "#fff"]"##, type: "gradient") as? [CGColor] == [.black, .white])
        #expect((try value("locations", "[0, 1]", type: "gradient") as? [NSNumber])?.map(\.doubleValue) == [0, 1])
        #expect(try value("instanceTransform.translation.x", "5", type: "replicator") as? CGFloat == 5)
        #expect(try value("fontSize", "9", type: "text") as? CGFloat == 9)
        // A change may leave the property's range.
        let by = try animations(#"{"animations": [{"keyPath": "opacity", "byValue": -0.5}]}"#)
        #expect((by.first?.animation as? CABasicAnimation)?.byValue as? CGFloat == -0.5)
    }

    @Test func pathsMorphBetweenShapesOfTheSameElements() throws {
        let list = try animations(#"{"type": "shape", "animations": [{"keyPath": "path", "fromValue": "M 0 0 L 10 0 L 10 10 Z", "toValue": "M 0 0 L 20 0 L 20 20 Z"}]}"#)
        #expect(list.count == 1)
    }

    /// Paths of different elements cannot morph, but the animation plays:
    /// it jumps from one to the next (`AnimatableValue.interpolated`).
    @Test func pathsOfDifferentElementsAreAnimatedByJumps() throws {
        let list = try animations(#"{"type": "shape", "animations": [{"type": "keyframe", "keyPath": "path", "values": ["M 0 0 L 10 0 L 10 10 Z", "M 0 0 L 20 0 Z"], "duration": 1}]}"#)
        #expect(list.count == 1)
    }

    @Test func valuesTheModelCannotInterpolateAreRefused() {
        // Flags are animatable in Core Animation, but only in steps: an
        // interpolating animation of one is refused (validate() says so).
        // Images cross-dissolve.
        let cases = [
            #"{"animations": [{"keyPath": "hidden", "fromValue": false, "toValue": true}]}"#,
        ]
        #expect(layerError(#"{"animations": [{"keyPath": "contents", "toValue": {"width": 1, "height": 1, "color": "clear"}}]}"#) == nil)
        for json in cases {
            let e = layerError(json)
            #expect(e?.kind == .invalidValue, "\(json)")
            #expect(e?.location == "$.sublayers[0].animations[0]", "\(json)")
            #expect(e?.message.contains("cannot be interpolated") == true, "\(e?.description ?? "decoded")")
        }
    }

    @Test func animationsOfOneKeyPathGetDistinctKeys() throws {
        let list = try animations("""
            {"animations": [{"keyPath": "opacity", "toValue": 0}, {"keyPath": "position.x", "toValue": 1},
                            {"keyPath": "opacity", "toValue": 1, "beginTime": 1}]}
            """)
        #expect(list.map(\.key) == ["opacity", "position.x", "opacity#2"])
        #expect(list.map(\.animation.beginTime) == [0, 0, 1])
    }
}

@Suite("Animatable key paths")
struct AnimatableKeyPathTests {
    @Test("The animatable properties are the property table's, with its kinds and ranges")
    func animatablePropertiesComeFromTheTable() {
        // The list that was written out here before the table said it.
        let expected: [(String, AnimatedValueKind, LayerType?)] = [
            ("anchorPoint", .point, nil), ("anchorPointZ", .number(.any), nil),
            ("backgroundColor", .color, nil), ("borderColor", .color, nil), ("borderWidth", .number(.nonNegative), nil),
            ("bounds", .rect, nil), ("contents", .image, nil), ("contentsRect", .rect, nil),
            ("contentsCenter", .rect, nil), ("contentsScale", .number(.positive), nil), ("contentsMultiplyColor", .color, nil),
            ("cornerRadius", .number(.nonNegative), nil), ("doubleSided", .bool, nil), ("hidden", .bool, nil),
            ("masksToBounds", .bool, nil), ("opacity", .number(.unit), nil), ("position", .point, nil),
            ("shadowColor", .color, nil), ("shadowOffset", .size, nil), ("shadowOpacity", .number(.unit), nil),
            ("shadowPath", .path, nil), ("shadowRadius", .number(.nonNegative), nil),
            ("sublayerTransform", .transform, nil), ("transform", .transform, nil), ("zPosition", .number(.any), nil),
            ("path", .path, .shape), ("fillColor", .color, .shape), ("strokeColor", .color, .shape),
            ("lineWidth", .number(.nonNegative), .shape), ("miterLimit", .number(.any), .shape),
            ("lineDashPhase", .number(.any), .shape), ("lineDashPattern", .numbers(.nonNegative), .shape),
            ("strokeStart", .number(.unit), .shape), ("strokeEnd", .number(.unit), .shape),
            ("fontSize", .number(.positive), .text), ("foregroundColor", .color, .text),
            ("colors", .colors, .gradient), ("locations", .numbers(.unit), .gradient),
            ("startPoint", .point, .gradient), ("endPoint", .point, .gradient),
            ("instanceDelay", .number(.any), .replicator), ("instanceTransform", .transform, .replicator),
            ("instanceColor", .color, .replicator), ("instanceRedOffset", .number(.any), .replicator),
            ("instanceGreenOffset", .number(.any), .replicator), ("instanceBlueOffset", .number(.any), .replicator),
            ("instanceAlphaOffset", .number(.any), .replicator),
            ("birthRate", .number(.nonNegative), .emitter), ("lifetime", .number(.nonNegative), .emitter),
            ("emitterPosition", .point, .emitter), ("emitterZPosition", .number(.any), .emitter),
            ("emitterSize", .size, .emitter), ("emitterDepth", .number(.any), .emitter),
            ("velocity", .number(.any), .emitter), ("scale", .number(.any), .emitter), ("spin", .number(.any), .emitter),
        ]
        let actual = AnimatableProperty.properties
        #expect(actual.count == expected.count)
        for (name, kind, type) in expected {
            let found = actual.first { $0.name == name && $0.type == type }
            #expect(found?.kind == kind, "\(name) on \(type?.rawValue ?? "every layer")")
        }
    }
}

/// The animation keys Lamina adds to the shared format
/// (docs/scene-format-additions.md): groups, keyframe modes and per-segment
/// timing, additive and cumulative, repeat durations, endless repeats.
@Suite struct AnimationAdditionsTests {
    static let layerJSON = """
        {"animations": [
          {"type": "group", "duration": 2, "repeatCount": "infinity", "removedOnCompletion": false, "animations": [
            {"keyPath": "opacity", "toValue": 0, "beginTime": 0.5, "additive": true},
            {"type": "keyframe", "keyPath": "position.x", "values": [0, 10, 20], "keyTimes": [0, 0.2, 0.9, 1],
             "calculationMode": "discrete", "timingFunctions": ["easeIn", [0.1, 0.2, 0.3, 0.4]], "cumulative": true},
            {"type": "group", "animations": [{"type": "spring", "keyPath": "bounds.size.width", "toValue": 40,
                                               "repeatDuration": "infinity"}]}]},
          {"keyPath": "position.y", "toValue": 5, "repeatDuration": 3.5}]}
        """

    @Test func groupsAndTheNewKeysDecode() throws {
        let layer = try decodeLayer(Self.layerJSON)
        #expect(layer.animationKeys() == ["group", "position.y"])
        let group = try #require(layer.animation(forKey: "group") as? CAAnimationGroup)
        #expect(group.repeatCount == .infinity && group.duration == 2 && !group.isRemovedOnCompletion)
        let children = try #require(group.animations)
        #expect(children.count == 3)
        #expect((children[0] as? CABasicAnimation)?.isAdditive == true)
        let keyframe = try #require(children[1] as? CAKeyframeAnimation)
        #expect(keyframe.calculationMode == .discrete && keyframe.isCumulative)
        #expect(keyframe.keyTimes?.count == 4, "a discrete animation may give the end of its last value's time")
        #expect(keyframe.timingFunctions == [CAMediaTimingFunction(name: .easeIn), CAMediaTimingFunction(controlPoints: 0.1, 0.2, 0.3, 0.4)])
        let inner = try #require((children[2] as? CAAnimationGroup)?.animations?.first as? CASpringAnimation)
        #expect(inner.repeatDuration == .infinity)
        #expect(layer.animation(forKey: "position.y")?.repeatDuration == 3.5)
    }

    @Test func theyWriteBackUnchanged() throws {
        let layer = try decodeLayer(Self.layerJSON)
        var scene = Scene(width: 10, height: 10)
        scene.rootLayer.addSublayer(layer)
        let bytes = try SceneEncoder().encode(scene)
        let again = try SceneDecoder().decode(Data(bytes))
        #expect(try SceneEncoder().encode(again) == bytes)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("\"repeatCount\": \"infinity\"") && text.contains("\"type\": \"group\""))
    }

    @Test func badValuesAreRefusedWithTheirPlace() throws {
        let cases: [(String, String, String)] = [
            (#"{"keyPath": "opacity", "repeatCount": "forever"}"#, "$.animations[0].repeatCount", "infinity"),
            (#"{"type": "keyframe", "keyPath": "opacity", "values": [0, 1], "calculationMode": "jumpy"}"#,
             "$.animations[0].calculationMode", "jumpy"),
            (#"{"type": "keyframe", "keyPath": "opacity", "values": [0, 1], "keyTimes": [0, 0.5, 1]}"#,
             "$.animations[0].keyTimes", "expected 2 key times"),
            (#"{"type": "group", "animations": [{"keyPath": "nonsense"}]}"#, "$.animations[0].animations[0].keyPath", "nonsense"),
            (#"{"type": "group", "keyPath": "opacity"}"#, "$.animations[0].keyPath", "not of group animations"),
            (#"{"keyPath": "opacity", "additive": 1}"#, "$.animations[0].additive", "true or false"),
        ]
        for (animation, location, words) in cases {
            let error = try #require(sceneError(#"{"width": 1, "height": 1, "animations": ["# + animation + "]}"),
                                     "\(animation) was accepted")
            #expect(error.issues.contains { $0.location == location && $0.description.contains(words) }, "\(error)")
        }
    }

    @Test func nestedGroupsCountAgainstTheAnimationLimit() throws {
        var limits = SceneLimits.default
        limits.animationCount = 3
        let four = #"{"width": 1, "height": 1, "animations": [{"type": "group", "animations": [{"keyPath": "opacity"}, {"keyPath": "opacity"}, {"keyPath": "opacity"}]}]}"#
        #expect(sceneError(four, limits: limits)?.kind == .limitExceeded)
    }
}
