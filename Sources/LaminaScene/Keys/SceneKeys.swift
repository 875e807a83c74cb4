import LaminaJSON
/// Every key of a layer object, in the encoder's order: the keys of every
/// layer, then those of each subclass.
enum SceneKeys {
    static let all: [SceneKey] = layerKeys + shapeKeys + textKeys + gradientKeys + replicatorKeys + emitterKeys

    static let byName: [String: SceneKey] = Dictionary(all.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })

    /// Keys that the layer decoder handles itself.
    static let structuralKeys = StructuralKey.allCases.map(\.rawValue)

    /// The keys of the top-level object besides the root layer's.
    static let canvasKeys = ["format", "width", "height", "scale", "origin", "time"]

    /// What a member of a layer object is, by its key.
    struct MemberRole {
        /// One of `structuralKeys`.
        var structural: StructuralKey?
        /// One of `canvasKeys`.
        var isCanvas = false
        /// The key's row of `all`.
        var key: SceneKey? {
            get { keyRow?.takeUnretainedValue() }
            set { keyRow = newValue.map(Unmanaged.passUnretained) }
        }
        /// `key`, not counted: the rows live in the static table `all`,
        /// which is never freed, and a role is copied for every member of
        /// every layer.
        private var keyRow: Unmanaged<SceneKey>?
        /// Whether the key is `transform` or `affineTransform`, two ways
        /// of setting one property that a layer may not both use.
        var transformSpelling: TransformSpelling?
    }

    enum TransformSpelling { case matrix, affine }

    /// The keys the layer decoder reads itself, in `structuralKeys`.
    enum StructuralKey: String, CaseIterable {
        case type, frame, mask, animations, sublayers
    }

    /// Every name a layer object's key may have, looked up by its bytes.
    static let memberRoles: JSONKeyTable<MemberRole> = {
        var roles: [String: MemberRole] = [:]
        for key in all where roles[key.name] == nil { roles[key.name, default: MemberRole()].key = key }
        for name in canvasKeys { roles[name, default: MemberRole()].isCanvas = true }
        roles["transform", default: MemberRole()].transformSpelling = .matrix
        roles["affineTransform", default: MemberRole()].transformSpelling = .affine
        for key in StructuralKey.allCases { roles[key.rawValue, default: MemberRole()].structural = key }
        return JSONKeyTable(roles.map { ($0.key, $0.value) })
    }()

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
