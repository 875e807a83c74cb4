import Foundation

/// What an animation's values are, decided by its key path: `opacity` takes
/// numbers, `position` points, `transform` transforms, `position.x` numbers,
/// `transform.translation` sizes, and so on. The kinds of whole properties
/// come from LaminaCore's property table (`CALayer.layerProperties`).
typealias AnimatedValueKind = LayerValueKind

extension LayerValueKind {
    /// "a number", "a point [x, y]"..., for messages.
    var description: String {
        switch self {
        case .number(let range): range.expectation
        case .point: "a point [x, y]"
        case .size: "a size [width, height]"
        case .rect: "a rectangle [x, y, width, height]"
        case .color: "a colour"
        case .transform: "a transform"
        case .path: "a path"
        case .image: "an image"
        case .bool: "true or false"
        case .numbers: "an array of numbers"
        case .colors: "an array of colours"
        case .string: "a string"
        case .constant: "a name"
        case .cornerMask: "an array of corner names"
        case .layer: "a layer"
        case .layers: "an array of layers"
        case .emitterCells: "an array of emitter cells"
        case .emitterBehaviors: "an array of emitter behaviours"
        case .filters: "an array of filters"
        case .any: "a value"
        }
    }
}

/// The animatable properties of the layer classes, and the key paths into
/// their parts.
enum AnimatableProperty {
    /// Properties by name: their value kind and the layer types that have
    /// them (nil: every type), as the property table marks them animatable.
    static let properties: [(name: String, kind: AnimatedValueKind, type: LayerType?)] = {
        var out: [(name: String, kind: AnimatedValueKind, type: LayerType?)] = []
        for type in LayerType.allCases {
            for p in Swift.type(of: type.makeLayer()).layerProperties where p.isAnimatable {
                if type == .layer { out.append((p.name, p.kind, nil)) } else if p.isOwn { out.append((p.name, p.kind, type)) }
            }
        }
        return out
    }()

    /// The kind of the values at `keyPath` on a layer of `type`, or nil when
    /// the key path names nothing animatable there.
    static func kind(of keyPath: String, on type: LayerType) -> AnimatedValueKind? {
        let parts = keyPath.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        if ["filters", "backgroundFilters"].contains(parts[0]), parts.count == 2 {
            return filterParameterKind(parts[1])
        }
        guard let base = properties.first(where: { $0.name == parts[0] }),
              base.type == nil || base.type == type
        else { return nil }
        guard parts.count == 2 else { return base.kind }
        return part(String(parts[1]), of: base.kind)
    }

    /// The kind of `NAME.KEY` of a layer's filters: a parameter some kind
    /// of filter animates (`inputRadius`, `inputAmount`, `inputAngle`: numbers;
    /// `inputColor`; `inputColorMatrix`: 20 numbers). Which filter `NAME`
    /// is, is known only once the layer has its filters: a name that none
    /// has leaves the model's value showing.
    private static func filterParameterKind(_ path: Substring) -> AnimatedValueKind? {
        let parts = path.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty else { return nil }
        switch parts[1] {
        case "inputRadius", "inputAmount", "inputAngle": return .number(.any)
        case "inputColor": return .color
        case "inputColorMatrix": return .numbers(.any)
        default: return nil
        }
    }

    /// The kind of a part of a value: `x` of a point, `size.width` of a
    /// rectangle, `rotation.z` of a transform.
    private static func part(_ path: String, of kind: AnimatedValueKind) -> AnimatedValueKind? {
        switch kind {
        case .point: return ["x", "y"].contains(path) ? .number(.any) : nil
        case .size: return ["width", "height"].contains(path) ? .number(.any) : nil
        case .rect:
            switch path {
            case "origin": return .point
            case "size": return .size
            case "origin.x", "origin.y": return .number(.any)
            case "size.width", "size.height": return .number(.nonNegative)
            default: return nil
            }
        case .transform:
            guard let key = TransformKeyPath(rawValue: path) else { return nil }
            return key.isSizeValued ? .size : .number(.any)
        default:
            return nil
        }
    }

    /// Every key path animatable on `type`, for "did you mean".
    static func keyPaths(on type: LayerType) -> [String] {
        var out: [String] = []
        for p in properties where p.type == nil || p.type == type {
            out.append(p.name)
            switch p.kind {
            case .point: out += ["x", "y"].map { p.name + "." + $0 }
            case .size: out += ["width", "height"].map { p.name + "." + $0 }
            case .rect:
                out += ["origin", "size", "origin.x", "origin.y", "size.width", "size.height"].map { p.name + "." + $0 }
            case .transform: out += TransformKeyPath.allCases.map { p.name + "." + $0.rawValue }
            default: break
            }
        }
        return out
    }

    /// The layer types on which `keyPath` is animatable.
    static func types(animating keyPath: String) -> [LayerType] {
        LayerType.allCases.filter { kind(of: keyPath, on: $0) != nil }
    }
}
