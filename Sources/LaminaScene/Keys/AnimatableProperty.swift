import Foundation

/// What an animation's values are, decided by its key path: `opacity` takes
/// numbers, `position` points, `transform` transforms, `position.x` numbers,
/// `transform.translation` sizes, and so on.
enum AnimatedValueKind: Sendable, Equatable {
    case number(NumberRange)
    case point, size, rect, color, transform, path, image, bool
    /// An array of numbers (`locations`, `lineDashPattern`).
    case numbers(NumberRange)
    /// An array of colours (`colors`).
    case colors

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
        }
    }
}

/// The animatable properties of the layer classes, and the key paths into
/// their parts.
enum AnimatableProperty {
    /// Properties by name: their value kind and the layer types that have them.
    static let properties: [(name: String, kind: AnimatedValueKind, type: LayerType?)] = [
        ("anchorPoint", .point, nil), ("anchorPointZ", .number(.any), nil),
        ("backgroundColor", .color, nil), ("borderColor", .color, nil), ("borderWidth", .number(.nonNegative), nil),
        ("bounds", .rect, nil), ("contents", .image, nil), ("contentsRect", .rect, nil),
        ("contentsCenter", .rect, nil), ("contentsScale", .number(.positive), nil),
        ("cornerRadius", .number(.nonNegative), nil), ("doubleSided", .bool, nil), ("hidden", .bool, nil),
        ("masksToBounds", .bool, nil), ("opacity", .number(.unit), nil), ("position", .point, nil),
        ("shadowColor", .color, nil), ("shadowOffset", .size, nil), ("shadowOpacity", .number(.unit), nil),
        ("shadowPath", .path, nil), ("shadowRadius", .number(.nonNegative), nil),
        ("sublayerTransform", .transform, nil), ("transform", .transform, nil), ("zPosition", .number(.any), nil),
        // CAShapeLayer
        ("path", .path, .shape), ("fillColor", .color, .shape), ("strokeColor", .color, .shape),
        ("lineWidth", .number(.nonNegative), .shape), ("miterLimit", .number(.any), .shape),
        ("lineDashPhase", .number(.any), .shape), ("lineDashPattern", .numbers(.nonNegative), .shape),
        ("strokeStart", .number(.unit), .shape), ("strokeEnd", .number(.unit), .shape),
        // CATextLayer
        ("fontSize", .number(.positive), .text), ("foregroundColor", .color, .text),
        // CAGradientLayer
        ("colors", .colors, .gradient), ("locations", .numbers(.unit), .gradient),
        ("startPoint", .point, .gradient), ("endPoint", .point, .gradient),
        // CAReplicatorLayer
        ("instanceDelay", .number(.any), .replicator), ("instanceTransform", .transform, .replicator),
        ("instanceColor", .color, .replicator), ("instanceRedOffset", .number(.any), .replicator),
        ("instanceGreenOffset", .number(.any), .replicator), ("instanceBlueOffset", .number(.any), .replicator),
        ("instanceAlphaOffset", .number(.any), .replicator),
    ]

    /// The kind of the values at `keyPath` on a layer of `type`, or nil when
    /// the key path names nothing animatable there.
    static func kind(of keyPath: String, on type: LayerType) -> AnimatedValueKind? {
        let parts = keyPath.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let base = properties.first(where: { $0.name == parts[0] }),
              base.type == nil || base.type == type
        else { return nil }
        guard parts.count == 2 else { return base.kind }
        return part(String(parts[1]), of: base.kind)
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
