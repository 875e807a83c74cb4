// Each limit refuses a scene just over it, names itself, and lets one at it
// through.
import Foundation
import LaminaPNG
import Testing
@testable import LaminaScene

@Suite struct SceneLimitTests {
    /// Expects `json` to pass under `limits` and `over` to be refused with
    /// a limit error at `location` whose message has `words`.
    private func check(
        _ limits: SceneLimits, passes json: String, refuses over: String, at location: String, _ words: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(sceneError(json, limits: limits) == nil, "\(json)", sourceLocation: sourceLocation)
        let e = sceneError(over, limits: limits)
        #expect(e?.kind == .limitExceeded, "\(e?.description ?? "decoded")", sourceLocation: sourceLocation)
        #expect(e?.location == location, "\(e?.description ?? "decoded")", sourceLocation: sourceLocation)
        #expect(e?.message.contains(words) == true, "\(e?.description ?? "decoded")", sourceLocation: sourceLocation)
    }

    private func scene(_ layerKeys: String, width: Int = 10) -> String {
        "{\"width\": \(width), \"height\": 10\(layerKeys.isEmpty ? "" : ", " + layerKeys)}"
    }

    private func layers(_ n: Int) -> String {
        Array(repeating: "{}", count: n).joined(separator: ",")
    }

    @Test func aHugeCanvasIsReadForTheRenderBudgetToRefuse() throws {
        // The canvas's pixels are the renderer's to bound (`RenderBudget`),
        // checked once before anything is drawn; reading costs nothing.
        let scene = try SceneDecoder(options: .init(allowsFiles: false)).decode(#"{"width": 1e300, "height": 1e300}"#)
        #expect(scene.width == 1e300)
    }

    @Test func layerCountIncludingReplicatorInstances() {
        var limits = SceneLimits()
        limits.layerCount = 5
        check(limits, passes: scene("\"sublayers\": [\(layers(4))]"),
              refuses: scene("\"sublayers\": [\(layers(3)), {\"mask\": {}}]"), at: "$.sublayers[3].mask", "5 layers")
        // A replicator's instances count, and its sublayers once per
        // instance: root, replicator, 3 instances, 3 copies = 8 layers.
        limits.layerCount = 8
        check(limits, passes: scene(#""sublayers": [{"type": "replicator", "instanceCount": 3, "sublayers": [{}]}]"#),
              refuses: scene(#""sublayers": [{"type": "replicator", "instanceCount": 3, "sublayers": [{}, {}]}]"#),
              at: "$.sublayers[0].sublayers[1]", "once per instance")
        // Instances with nothing to copy are work too: a replicator of 10^14
        // empty instances is refused, not walked.
        check(limits, passes: scene(#""sublayers": [{"type": "replicator", "instanceCount": 6}]"#),
              refuses: scene(#""sublayers": [{"type": "replicator", "instanceCount": 1e14}]"#),
              at: "$.sublayers[0]", "instances count")
        // Nested replicators multiply without overflowing.
        let nested = scene(#""sublayers": [{"type": "replicator", "instanceCount": 1e14, "sublayers": [{"type": "replicator", "instanceCount": 1e14, "sublayers": [{}]}]}]"#)
        #expect(sceneError(nested)?.kind == .limitExceeded)
    }

    @Test func treeDepthCountsSublayersAndMasks() {
        var limits = SceneLimits()
        limits.treeDepth = 3
        check(limits, passes: scene(#""sublayers": [{"sublayers": [{}]}]"#),
              refuses: scene(#""sublayers": [{"mask": {"sublayers": [{}]}}]"#),
              at: "$.sublayers[0].mask.sublayers[0]", "3 levels")
        // The default depth stops a deep tree long before the stack would.
        let deep = String(repeating: #"{"sublayers": ["#, count: 150) + String(repeating: "]}", count: 150)
        #expect(sceneError(#"{"width": 1, "height": 1, "sublayers": ["# + deep + "]}")?.kind == .limitExceeded)
    }

    @Test func pathElementsPerPathAndInAll() {
        var limits = SceneLimits()
        limits.pathElements = 3
        check(limits, passes: scene(#""shadowPath": "M 0 0 L 1 1 L 2 2""#),
              refuses: scene(#""shadowPath": "M 0 0 L 1 1 L 2 2 Z""#), at: "$.shadowPath", "4 elements")
        check(limits, passes: scene(#""shadowPath": [["moveTo", 0, 0], ["lineTo", 1, 1]]"#),
              refuses: scene(#""shadowPath": [["rect", 0, 0, 1, 1]]"#), at: "$.shadowPath", "over the limit of 3")
        limits = SceneLimits()
        limits.totalPathElements = 4
        check(limits, passes: scene(#""shadowPath": "M 0 0 L 1 1", "sublayers": [{"shadowPath": "M 0 0 L 1 1"}]"#),
              refuses: scene(#""shadowPath": "M 0 0 L 1 1", "sublayers": [{"shadowPath": "M 0 0 L 1 1 Z"}]"#),
              at: "$.sublayers[0].shadowPath", "in all")
    }

    @Test func imageBytesAndPixels() throws {
        var limits = SceneLimits()
        limits.imagePixels = 100
        check(limits, passes: scene(#""contents": {"width": 10, "height": 10, "color": "clear"}"#),
              refuses: scene(#""contents": {"checker": [10, 11, 2]}"#), at: "$.contents", "10 x 11 pixels")
        limits = SceneLimits()
        limits.totalImagePixels = 100
        check(limits, passes: scene(#""contents": {"width": 10, "height": 5, "color": "clear"}, "sublayers": [{"contents": {"width": 10, "height": 5, "color": "clear"}}]"#),
              refuses: scene(#""contents": {"width": 10, "height": 5, "color": "clear"}, "sublayers": [{"contents": {"width": 10, "height": 6, "color": "clear"}}]"#),
              at: "$.sublayers[0].contents", "in all")

        let png = try PNGEncoder().encode(try CGImage(width: 20, height: 20, straightRGBA: [UInt8](repeating: 7, count: 1600)))
        let uri = "data:image/png;base64," + Data(png).base64EncodedString()
        limits = SceneLimits()
        limits.imagePixels = 399
        #expect(sceneError(scene("\"contents\": \"\(uri)\""), limits: limits)?.kind == .limitExceeded)
        limits = SceneLimits()
        limits.imageBytes = png.count - 10
        let e = sceneError(scene("\"contents\": \"\(uri)\""), limits: limits)
        #expect(e?.kind == .limitExceeded && e?.location == "$.contents")
        limits.imageBytes = png.count
        #expect(sceneError(scene("\"contents\": \"\(uri)\""), limits: limits) == nil)
    }

    @Test func textLength() {
        var limits = SceneLimits()
        limits.textLength = 5
        check(limits, passes: scene(#""sublayers": [{"type": "text", "string": "héllo"}]"#),
              refuses: scene(#""sublayers": [{"type": "text", "string": "hello!"}]"#),
              at: "$.sublayers[0].string", "5 characters")
        check(limits, passes: scene(#""sublayers": [{"type": "text", "string": [{"text": "ab"}, {"text": "cde"}]}]"#),
              refuses: scene(#""sublayers": [{"type": "text", "string": [{"text": "abc"}, {"text": "def"}]}]"#),
              at: "$.sublayers[0].string", "5 characters")
    }

    @Test func animationsAndKeyframes() {
        var limits = SceneLimits()
        limits.animationCount = 2
        // Sublayers are read before their parent's animations.
        check(limits, passes: scene(#""animations": [{"keyPath": "opacity"}], "sublayers": [{"animations": [{"keyPath": "opacity"}]}]"#),
              refuses: scene(#""animations": [{"keyPath": "opacity"}], "sublayers": [{"animations": [{"keyPath": "opacity"}, {"keyPath": "zPosition"}]}]"#),
              at: "$.animations[0]", "2 animations")
        limits = SceneLimits()
        limits.keyframeCount = 2
        check(limits, passes: scene(#""animations": [{"type": "keyframe", "keyPath": "opacity", "values": [0, 1]}]"#),
              refuses: scene(#""animations": [{"type": "keyframe", "keyPath": "opacity", "values": [0, 1, 0]}]"#),
              at: "$.animations[0].values", "3 values")
    }

    @Test func documentSizeAndNesting() {
        var limits = SceneLimits()
        limits.documentBytes = 30
        check(limits, passes: #"{"width": 1, "height": 1}"#, refuses: #"{"width": 1, "height": 1, "time": 0}"#,
              at: "$", "bytes")
        limits = SceneLimits()
        limits.jsonNesting = 3
        check(limits, passes: #"{"width": 1, "height": 1, "sublayers": [{}]}"#,
              refuses: #"{"width": 1, "height": 1, "sublayers": [{"bounds": [0, 0, 1, 1]}]}"#,
              at: "$.sublayers[0].bounds", "3 levels")
    }
}
