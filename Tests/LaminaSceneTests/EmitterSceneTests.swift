import Foundation
import Testing
@testable import LaminaScene

@Suite("Emitters in the scene format")
struct EmitterSceneTests {
    static let emitter = """
        {"type": "emitter", "bounds": [0, 0, 100, 100], "emitterPosition": [50, 10], "emitterShape": "line",
         "emitterSize": [80, 0], "emitterMode": "outline", "renderMode": "backToFront", "birthRate": 2, "seed": 42,
         "emitterCells": [{"name": "flake", "birthRate": 5, "lifetime": 3, "lifetimeRange": 1, "velocity": 20,
                           "emissionLongitude": 1.5708, "emissionRange": 0.5, "color": "#ff8000", "alphaSpeed": -0.25,
                           "contents": {"width": 4, "height": 4, "color": "#ffffff"}, "magnificationFilter": "nearest",
                           "beginTime": -2, "emitterCells": [{"birthRate": 1, "lifetime": 0.5}]}]}
        """

    @Test func everyKeyIsReadIntoTheLayerAndItsCells() throws {
        let layer = try #require(try decodeLayer(Self.emitter) as? CAEmitterLayer)
        #expect(layer.emitterPosition == CGPoint(x: 50, y: 10) && layer.emitterShape == .line && layer.emitterMode == .outline)
        #expect(layer.renderMode == .backToFront && layer.birthRate == 2 && layer.seed == 42)
        let cell = try #require(layer.emitterCells?.first)
        #expect(cell.name == "flake" && cell.birthRate == 5 && cell.lifetime == 3 && cell.lifetimeRange == 1)
        #expect(cell.emissionLongitude == 1.5708 && cell.alphaSpeed == -0.25 && cell.beginTime == -2)
        #expect(cell.magnificationFilter == .nearest && (cell.contents as? CGImage)?.width == 4)
        #expect(cell.emitterCells?.first?.lifetime == 0.5)
    }

    @Test func anEmitterIsWrittenBackAsItWasRead() throws {
        let scene = try decodeScene("{\"width\": 100, \"height\": 100, \"sublayers\": [\(Self.emitter)]}")
        let bytes = try SceneEncoder().encode(scene)
        let again = try SceneDecoder().decode(bytes)
        #expect(try SceneEncoder().encode(again) == bytes)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("\"emitterCells\"") && text.contains("\"lifetimeRange\"") && text.contains("\"seed\""))
    }

    @Test func badCellsAreRefusedWhereTheyAre() throws {
        let unknown = try #require(layerError(#"{"type": "emitter", "emitterCells": [{"birthrate": 1}]}"#))
        #expect(unknown.issues.first?.location == "$.sublayers[0].emitterCells[0].birthrate")
        #expect(unknown.message.contains("birthRate"), "a suggestion: \(unknown.message)")
        let negative = try #require(layerError(#"{"type": "emitter", "emitterCells": [{"lifetime": -1}]}"#))
        #expect(negative.issues.first?.location == "$.sublayers[0].emitterCells[0].lifetime")
        let filter = try #require(layerError(#"{"type": "emitter", "emitterCells": [{"minificationFilter": "cubic"}]}"#))
        #expect(filter.issues.first?.location == "$.sublayers[0].emitterCells[0].minificationFilter")
        let seed = try #require(layerError(#"{"type": "emitter", "seed": 5000000000}"#))
        #expect(seed.issues.first?.location == "$.sublayers[0].seed")
        // Cells count against the layer limit, so a million of them is refused like a million layers.
        var limits = SceneLimits.default
        limits.layerCount = 10
        let many = (0..<20).map { _ in "{}" }.joined(separator: ",")
        #expect(sceneError("{\"width\": 10, \"height\": 10, \"sublayers\": [{\"type\": \"emitter\", \"emitterCells\": [\(many)]}]}",
                           limits: limits)?.issues.first?.kind == .limitExceeded)
    }

    @Test func behavioursAndSpriteSheetsAreReadAndWrittenBack() throws {
        let json = """
            {"width": 100, "height": 100, "sublayers": [{"type": "emitter",
             "emitterBehaviors": [{"type": "drag", "drag": 0.5}, {"type": "attractor", "attractorType": "axial",
                                   "position": [10, 20], "stiffness": 3, "falloff": "infinity", "name": "pull"},
                                  {"type": "colorOverLife", "colors": ["#ffffff", "#ff000080"], "enabled": false}],
             "emitterCells": [{"birthRate": 1, "contentsFrameCount": 8, "contentsFramesPerSecond": 12, "contentsFrameMode": "loop"}]}]}
            """
        let scene = try decodeScene(json)
        let layer = try #require(scene.rootLayer.sublayers?.first as? CAEmitterLayer)
        let behaviors = try #require(layer.emitterBehaviors)
        #expect(behaviors.map(\.type) == [.drag, .attractor, .colorOverLife])
        #expect(behaviors[1].number("falloff") == .infinity && behaviors[1].name == "pull" && !behaviors[2].isEnabled)
        #expect(layer.emitterCells?.first?.contentsFrameCount == 8 && layer.emitterCells?.first?.contentsFrameMode == "loop")
        let bytes = try SceneEncoder().encode(scene)
        #expect(try SceneEncoder().encode(try SceneDecoder().decode(bytes)) == bytes)
        #expect(String(decoding: bytes, as: UTF8.self).contains("\"infinity\""))
    }

    @Test func badBehavioursAndSheetsAreRefusedWhereTheyAre() {
        let unknown = layerError(#"{"type": "emitter", "emitterBehaviors": [{"type": "drag", "stiffness": 1}]}"#)
        #expect(unknown?.issues.first?.location == "$.sublayers[0].emitterBehaviors[0].stiffness")
        let kind = layerError(#"{"type": "emitter", "emitterBehaviors": [{"type": "gravity"}]}"#)
        #expect(kind?.issues.first?.location == "$.sublayers[0].emitterBehaviors[0].type")
        let billion = layerError(#"{"type": "emitter", "emitterCells": [{"contentsFrameCount": 1000000000}]}"#)
        #expect(billion?.issues.first?.location == "$.sublayers[0].emitterCells[0].contentsFrameCount")
        #expect(billion?.issues.first?.kind == .limitExceeded)
    }

    @Test func filtersAreReadAndWrittenBack() throws {
        let json = """
            {"width": 100, "height": 100, "sublayers": [{"backgroundColor": "#ff0000",
             "filters": [{"type": "gaussianBlur", "inputRadius": 6}, {"type": "colorMatrix", "name": "swap",
                          "inputColorMatrix": [0,0,1,0,0, 0,1,0,0,0, 1,0,0,0,0, 0,0,0,1,0]},
                         {"type": "colorMonochrome", "inputColor": "#0000ff", "enabled": false}, {"type": "colorInvert"}]}]}
            """
        let scene = try decodeScene(json)
        let filters = try #require(scene.rootLayer.sublayers?.first?.filters as? [CAFilter])
        #expect(filters.map(\.type) == [.gaussianBlur, .colorMatrix, .colorMonochrome, .colorInvert])
        #expect(filters[1].name == "swap" && filters[1].numbers("inputColorMatrix")?.count == 20 && !filters[2].isEnabled)
        let bytes = try SceneEncoder().encode(scene)
        #expect(try SceneEncoder().encode(try SceneDecoder().decode(bytes)) == bytes)
    }

    @Test func badFiltersAreRefusedWhereTheyAre() {
        let kind = layerError(#"{"filters": [{"type": "bloom"}]}"#)
        #expect(kind?.issues.first?.location == "$.sublayers[0].filters[0].type")
        #expect(kind?.message.contains("gaussianBlur") == true)
        let key = layerError(#"{"filters": [{"type": "gaussianBlur", "inputRadious": 3}]}"#)
        #expect(key?.issues.first?.location == "$.sublayers[0].filters[0].inputRadious")
        #expect(key?.message.contains("inputRadius") == true)
        let matrix = layerError(#"{"filters": [{"type": "colorMatrix", "inputColorMatrix": [1, 0, 0]}]}"#)
        #expect(matrix?.issues.first?.location == "$.sublayers[0].filters[0].inputColorMatrix")
    }

    @Test func compositingFiltersAreReadWrittenBackAndRefusedWhenUnknown() throws {
        let json = #"{"width": 10, "height": 10, "sublayers": [{"compositingFilter": "multiplyBlendMode"}, {"compositingFilter": "plusL"}]}"#
        let scene = try decodeScene(json)
        #expect(scene.rootLayer.sublayers?.map { $0.compositingFilter as? String } == ["multiplyBlendMode", "plusL"])
        let bytes = try SceneEncoder().encode(scene)
        #expect(String(decoding: bytes, as: UTF8.self).contains(#""compositingFilter": "plusL""#))
        #expect(try SceneEncoder().encode(try SceneDecoder().decode(bytes)) == bytes)
        let unknown = layerError(#"{"compositingFilter": "destOut"}"#)
        #expect(unknown?.issues.first?.location == "$.sublayers[0].compositingFilter")
        #expect(unknown?.message.contains("multiplyBlendMode") == true)
    }

    @Test func anAnimatedGIFsPicturesAreCountedBeforeTheyAreDecoded() throws {
        // Two values of a 3-picture 4 x 4 GIF, and the same GIF as the still: 16 + 2 · 48 pixels.
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/regressions/gif-frames-animation.json")
        let text = try String(contentsOf: url, encoding: .utf8)
        let layer = try #require(try decodeScene(text).rootLayer.sublayers?.first)
        let animation = try #require(layer.animation(forKey: layer.animationKeys()?.first ?? "") as? CAKeyframeAnimation)
        #expect(animation.values?.count == 6 && animation.keyTimes?.count == 6, "each GIF spread into its three pictures")
        var limits = SceneLimits.default
        limits.totalImagePixels = 100
        let refused = try #require(sceneError(text, limits: limits))
        #expect(refused.kind == .limitExceeded && refused.issues.first?.location.contains("values[1]") == true, "\(refused)")
        // Refused on the pictures' count and size, not after decoding them.
        #expect(refused.message.contains("3 pictures of 16 pixels each"), "\(refused)")
    }
}
