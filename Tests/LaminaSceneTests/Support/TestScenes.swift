// Helpers for decoding scenes in tests and for finding the shared
// conformance scenes.
import Foundation
import Testing
@testable import LaminaScene

/// Decodes a scene given as JSON text with the default limits.
func decodeScene(_ text: String, limits: SceneLimits = .default,
                 options: SceneDecoder.Options = .init()) throws(SceneError) -> Scene {
    try SceneDecoder(limits: limits, options: options).decode(text)
}

/// The error a scene gives, or nil when it decodes.
func sceneError(_ text: String, limits: SceneLimits = .default,
                options: SceneDecoder.Options = .init()) -> SceneError? {
    do {
        _ = try decodeScene(text, limits: limits, options: options)
        return nil
    } catch {
        return error
    }
}

/// Decodes the JSON of one layer object placed as the only sublayer of a
/// 100 x 100 canvas, and returns that layer.
func decodeLayer(_ layerJSON: String) throws -> CALayer {
    let scene = try decodeScene("{\"width\": 100, \"height\": 100, \"sublayers\": [\(layerJSON)]}")
    return try #require(scene.rootLayer.sublayers?.first)
}

/// The error of a scene whose only sublayer is `layerJSON`.
func layerError(_ layerJSON: String) -> SceneError? {
    sceneError("{\"width\": 100, \"height\": 100, \"sublayers\": [\(layerJSON)]}")
}

enum Conformance {
    /// `../shared/conformance/scenes` beside the repository, found from this
    /// file's path; nil when it is not there.
    static var scenesDirectory: URL? {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }  // Support, LaminaSceneTests, Tests, repo
        let dir = url.deletingLastPathComponent().appendingPathComponent("shared/conformance/scenes")
        return FileManager.default.fileExists(atPath: dir.path) ? dir : nil
    }

    static var sceneFiles: [URL] {
        guard let dir = scenesDirectory,
              let names = try? FileManager.default.contentsOfDirectory(atPath: dir.path)
        else { return [] }
        return names.filter { $0.hasSuffix(".json") }.sorted().map { dir.appendingPathComponent($0) }
    }
}
