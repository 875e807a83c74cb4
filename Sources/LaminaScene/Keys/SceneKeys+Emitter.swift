import Foundation
import LaminaJSON

// The keys of emitter layers (`"type": "emitter"`) and of the cell objects
// of their `emitterCells`.
extension SceneKeys {
    static let emitterShapes = CAEmitterLayerEmitterShape.all.map { ($0.rawValue, $0) }
    static let emitterModes = CAEmitterLayerEmitterMode.all.map { ($0.rawValue, $0) }
    static let renderModes = CAEmitterLayerRenderMode.all.map { ($0.rawValue, $0) }

    static let emitterKeys: [SceneKey] = [
        SceneKey("emitterCells", types: [.emitter], decode: { c, v, p, layer throws(SceneError) in
            guard let emitter = layer as? CAEmitterLayer, let cells = try c.emitterCells(v, at: p, depth: 1) else { return }
            emitter.emitterCells = cells
        }, encode: { layer, context, path throws(SceneError) in
            guard let cells = (layer as? CAEmitterLayer)?.emitterCells else { return nil }
            return try EmitterCellValue.encode(cells, context, at: path)
        }),
        SceneKey("emitterBehaviors", types: [.emitter], decode: { c, v, p, layer throws(SceneError) in
            guard let emitter = layer as? CAEmitterLayer, let behaviors = try c.emitterBehaviors(v, at: p) else { return }
            emitter.emitterBehaviors = behaviors
        }, encode: { layer, _, path throws(SceneError) in
            guard let behaviors = (layer as? CAEmitterLayer)?.emitterBehaviors else { return nil }
            return try EmitterBehaviorValue.encode(behaviors, at: path)
        }),
        .number("birthRate", \CAEmitterLayer.birthRate),
        .number("lifetime", \CAEmitterLayer.lifetime),
        .point("emitterPosition", \CAEmitterLayer.emitterPosition),
        .number("emitterZPosition", \CAEmitterLayer.emitterZPosition),
        .property("emitterSize", \CAEmitterLayer.emitterSize,
                  read: { c, v, p throws(SceneError) in try c.offset(v, at: p) }, write: GeometryValue.encode),
        .number("emitterDepth", \CAEmitterLayer.emitterDepth),
        .names("emitterShape", \CAEmitterLayer.emitterShape, emitterShapes),
        .names("emitterMode", \CAEmitterLayer.emitterMode, emitterModes),
        .names("renderMode", \CAEmitterLayer.renderMode, renderModes),
        .bool("preservesDepth", \CAEmitterLayer.preservesDepth),
        .number("velocity", \CAEmitterLayer.velocity),
        .number("scale", \CAEmitterLayer.scale),
        .number("spin", \CAEmitterLayer.spin),
        .number("spinBias", \CAEmitterLayer.spinBias),
        .property("seed", \CAEmitterLayer.seed,
                  read: { c, v, p throws(SceneError) in
                      guard let n = try c.integer(v, at: p, minimum: 0) else { return nil }
                      guard let seed = UInt32(exactly: n) else {
                          try c.report(.outOfRange, v, at: p, "expected an integer from 0 to 4294967295, found \(n)")
                          return nil
                      }
                      return seed
                  },
                  write: { .number(Double($0)) }),
    ]
}

/// Emitter cells as the scene format writes them: an array of objects whose
/// keys are `CAEmitterCell`'s property names (`CAEmitterCell.propertyTable`),
/// sub-cells in their own `emitterCells`.
enum EmitterCellValue {
    /// The most frames a cell's sprite sheet may have.
    static let maxFrames = 4096

    /// The constants a cell's string properties take, by key.
    static let constants: [String: [String]] = [
        "minificationFilter": CALayerContentsFilter.all.map(\.rawValue),
        "magnificationFilter": CALayerContentsFilter.all.map(\.rawValue),
        "fillMode": CAMediaTimingFillMode.allCases.map(\.rawValue),
        "contentsFrameMode": ["single", "loop", "random"],
        "particleType": ["sprite", "plane"],
    ]

    static func encode(_ cells: [CAEmitterCell], _ context: EncodingContext, at path: JSONPath) throws(SceneError) -> JSONValue {
        var items: [JSONValue] = []
        for (k, cell) in cells.enumerated() {
            var members: [(String, JSONValue)] = []
            for property in CAEmitterCell.propertyTable where !property.holdsDefault(cell) {
                let p = path / k / property.name
                let value = property.read(cell)
                let json: JSONValue
                switch property.kind {
                case .number:
                    guard let value, let n = AnimationValue.number(value) else { continue }
                    json = n
                case .bool:
                    json = .bool(value as? Bool ?? false)
                case .string:
                    guard let s = value as? String else { continue }
                    json = .string(s)
                case .color:
                    guard let color = value as? CGColor else { json = .string("clear"); break }
                    json = ColorValue.encode(color)
                case .rect:
                    json = GeometryValue.encode(value as? CGRect ?? .zero)
                case .image:
                    guard let contents = value else { continue }
                    guard let image = contents as? CGImage else {
                        throw SceneError(.invalidValue, at: p.description,
                                         "contents of type \(type(of: contents)) cannot be written; only a CGImage can")
                    }
                    json = try context.dataURI(for: image, at: p)
                case .constant:
                    guard let raw = (value as? any RawRepresentable)?.rawValue as? String else { continue }
                    json = .string(raw)
                case .emitterCells:
                    guard let sub = value as? [CAEmitterCell] else { continue }
                    json = try encode(sub, context, at: p)
                default:
                    continue
                }
                members.append((property.name, json))
            }
            items.append(.object(members))
        }
        return .array(items)
    }
}

extension DecodingContext {
    /// `emitterCells`: an array of cell objects, each key a property of
    /// `CAEmitterCell`, nested no deeper than the tree's depth limit. Each
    /// cell counts as a layer against the scene's layer limit.
    func emitterCells(_ value: JSONValue, at path: JSONPath, depth: Int) throws(SceneError) -> [CAEmitterCell]? {
        guard depth <= limits.treeDepth else {
            throw fatal(.limitExceeded, at: path, value.position, "emitter cells nest more than \(limits.treeDepth) levels deep (the limit)")
        }
        guard let items = try array(value, at: path, of: "emitter cells (objects)") else { return nil }
        var cells: [CAEmitterCell] = []
        for (k, item) in items.enumerated() {
            let itemPath = path / k
            try checkDeadline(at: itemPath, item)
            layerCount += 1
            guard layerCount <= limits.layerCount else {
                throw fatal(.limitExceeded, at: itemPath, item.position,
                            "the scene has more than \(limits.layerCount) layers and emitter cells (the limit)")
            }
            guard let object = try object(item, at: itemPath, "an emitter cell (an object)") else { continue }
            let cell = CAEmitterCell()
            for member in object.members {
                let p = itemPath / member
                guard let property = CAEmitterCell.properties[member.key] else {
                    try report(.unknownKey, at: p, member.keyPosition,
                               "unknown key '\(member.key)' for an emitter cell"
                                + Suggestion.didYouMean(member.key, in: CAEmitterCell.propertyTable.map(\.name)))
                    continue
                }
                let v = member.value
                let decoded: Any??
                switch property.kind {
                case .number where property.name == "contentsFrameCount":
                    // Each frame is a slice of the picture: a billion of them is no sprite sheet.
                    guard let n = try integer(v, at: p, minimum: 1) else { decoded = nil; break }
                    guard n <= EmitterCellValue.maxFrames else {
                        try report(.limitExceeded, v, at: p, "a sprite sheet of \(n) frames; at most \(EmitterCellValue.maxFrames)")
                        decoded = nil
                        break
                    }
                    decoded = .some(n)
                case .number(let range): decoded = try number(v, at: p, range).map { .some($0) }
                case .bool: decoded = try bool(v, at: p).map { .some($0) }
                case .string: decoded = try string(v, at: p).map { .some($0) }
                case .color: decoded = try color(v, at: p).map { .some($0) }
                case .rect: decoded = try rect(v, at: p).map { .some($0) }
                case .image: decoded = try image(v, at: p).map { .some($0) }
                case .constant:
                    decoded = try name(v, at: p, from: EmitterCellValue.constants[property.name] ?? []).map { .some($0) }
                case .emitterCells: decoded = try emitterCells(v, at: p, depth: depth + 1).map { .some($0) }
                default: decoded = nil
                }
                if let decoded { _ = property.write(cell, decoded) }
            }
            cells.append(cell)
        }
        return cells
    }
}
