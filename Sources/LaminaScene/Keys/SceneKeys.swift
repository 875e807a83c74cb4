/// Every key of a layer object, in the encoder's order: the keys of every
/// layer, then those of each subclass.
enum SceneKeys {
    static let all: [SceneKey] = layerKeys + shapeKeys + textKeys + gradientKeys + replicatorKeys

    static let byName: [String: SceneKey] = Dictionary(all.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })

    /// Keys that the layer decoder handles itself.
    static let structuralKeys = ["type", "frame", "mask", "animations", "sublayers"]

    /// The keys of the top-level object besides the root layer's.
    static let canvasKeys = ["format", "width", "height", "scale", "origin", "time"]

    /// Every key a layer of `type` may have.
    static func names(for type: LayerType) -> [String] {
        all.filter { $0.applies(to: type) }.map(\.name) + structuralKeys
    }

    /// The layer types that have a key, for "it is a key of shape layers".
    static func types(having key: String) -> [LayerType] {
        guard let k = byName[key] else { return [] }
        return LayerType.allCases.filter { k.applies(to: $0) }
    }
}
