import Foundation
import LaminaJSON

/// Sets one property of a layer already made from a value written as the
/// scene format writes it (`"#2a73f2"` for a colour, a data URI for
/// `contents`), read by the same key table, limits and messages as a scene
/// document. Whatever format a layer tree came from (scene JSON, CAML,
/// Lottie), a value filled in later means what it would mean in a scene:
/// the render server's templates fill their slots this way.
///
/// ```swift
/// let writer = LayerPropertyWriter(limits: .default, allowsFiles: false)
/// try writer.set("backgroundColor", of: layer, to: .string("#ff8800"))
/// ```
package struct LayerPropertyWriter: Sendable {
    package var limits: SceneLimits
    package var allowsFiles: Bool

    package init(limits: SceneLimits, allowsFiles: Bool) {
        self.limits = limits
        self.allowsFiles = allowsFiles
    }

    /// Whether the scene format has `key` for a layer of `layer`'s class.
    package static func accepts(_ key: String, for layer: CALayer) -> Bool {
        SceneKeys.byName[key]?.applies(to: LayerType(of: layer)) == true
    }

    /// The keys the scene format has for a layer of `layer`'s class, for a
    /// message that lists them.
    package static func keys(for layer: CALayer) -> [String] {
        SceneKeys.names(for: LayerType(of: layer))
    }

    /// Sets `key` of `layer` from `value`.
    /// - Throws: `SceneError` with the problem at `$.<key>`, as the scene
    ///   decoder words it (a colour it cannot read, an image over the limits).
    package func set(_ key: String, of layer: CALayer, to value: JSONValue) throws(SceneError) {
        guard let sceneKey = SceneKeys.byName[key], sceneKey.applies(to: LayerType(of: layer)) else {
            throw SceneError(.unknownKey, at: "$.\(key)", "a \(LayerType(of: layer).className) has no property \"\(key)\"")
        }
        let context = DecodingContext(limits: limits, options: .init(allowsFiles: allowsFiles), deadline: nil)
        try sceneKey.decode(context, value, JSONPath.root / key, layer)
        try context.throwIfIssues()
    }
}
