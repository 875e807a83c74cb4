import Foundation
import LaminaCore
import LaminaScene
import LaminaJSON

/// A shape layer's item (`shapes`, a group's `it`), read once, before it
/// becomes layers: what it is and where it is in the file.
indirect enum LottieShapeItem {
    /// `gr`: its items, and its transform (`tr`) if it has one.
    case group(LottieShapeGroup)
    /// `sh`, `rc`, `el`, `sr`: a path, and the item's JSON path and place
    /// in the file, for its diagnostics.
    case path(LottiePath, path: String, position: SourcePosition)
    /// `fl`, `st`, `gf`, `gs`.
    case paint(LottiePaint)
    /// `tm`.
    case trim(LottieTrim)
    /// `rd`: the corners of the paths it applies to rounded by its radius `r`.
    case roundedCorners(LottieProperty<Double>, path: String, position: SourcePosition)
    /// `rp`.
    case repeater(LottieRepeater)

    var drawsPath: Bool { if case .path = self { true } else { false } }
    var isGroup: Bool { if case .group = self { true } else { false } }
    var isRepeater: Bool { if case .repeater = self { true } else { false } }
    var paint: LottiePaint? { if case .paint(let paint) = self { paint } else { nil } }
    var trim: LottieTrim? { if case .trim(let trim) = self { trim } else { nil } }
    var isRoundedCorners: Bool { if case .roundedCorners = self { true } else { false } }
}

struct LottieShapeGroup {
    var items: [LottieShapeItem]
    var transform: LottieTransform?
    /// The group's JSON path, for its items' diagnostics.
    var path: String
}

/// A fill or a stroke, solid or gradient: its JSON object, read when its
/// layer is made.
struct LottiePaint {
    enum Kind { case fill, stroke, gradientFill, gradientStroke }
    var kind: Kind
    var object: JSONObject
    var path: String
    var position: SourcePosition
    /// The scales (`tr.s`, percent) of the groups this stroke was handed
    /// down into from the group that lists it: its width is divided by them,
    /// so that a child group's scale does not thicken its parent's stroke.
    var inheritedScales: [LottieProperty<[Double]>] = []

    var isFill: Bool { kind == .fill || kind == .gradientFill }
    var isStroke: Bool { kind == .stroke || kind == .gradientStroke }
    var isGradient: Bool { kind == .gradientFill || kind == .gradientStroke }
}

/// A trim's start, end and offset: percent, percent, degrees.
struct LottieTrim {
    var start: LottieProperty<Double>?
    var end: LottieProperty<Double>?
    var offset: LottieProperty<Double>?
    /// Mode 2: several paths trimmed as one run, one after the other.
    var individually: Bool
    var path: String
    var position: SourcePosition

    /// A trim that keeps the whole path (start 0, end 100, fixed), which
    /// lottie-ios passes over for the next one.
    var keepsEverything: Bool {
        (start.map { !$0.isAnimated && $0.initial == 0 } ?? true) && (end.map { !$0.isAnimated && $0.initial == 100 } ?? true)
    }
}

struct LottieRepeater {
    var object: JSONObject
    var value: JSONValue
    var path: String
}

extension LottieShapeItem {
    /// Reads `items` (a `shapes` list or a group's `it`), warning about the
    /// items Lamina does not draw; hidden items (`hd`) are left out.
    static func read(_ items: [JSONValue], path: String, reader: LottiePropertyReader,
                     depth: Int) throws(SceneError) -> [LottieShapeItem] {
        guard depth <= 64 else { throw reader.error(path, nil, "shape groups nest more than 64 deep") }
        var out: [LottieShapeItem] = []
        for (index, item) in items.enumerated() {
            let here = "\(path)[\(index)]"
            guard let object = item.object else { throw reader.error(here, item, "expected a shape item (an object)") }
            if object["hd"]?.bool == true { continue }
            let type = object["ty"]?.string ?? ""
            switch type {
            case "gr":
                let children = object["it"]?.array.map(Array.init) ?? []
                var transform: LottieTransform?
                if let transformItem = children.last(where: { $0.object?["ty"]?.string == "tr" })?.object {
                    transform = try LottieTransform(transformItem, path: here + ".it[tr]", reader: reader)
                }
                let inner = try read(children, path: here + ".it", reader: reader, depth: depth + 1)
                out.append(.group(LottieShapeGroup(items: inner, transform: transform, path: here)))
            case "sh":
                guard let shape = try reader.property(object, "ks", path: here, reader.shape) else {
                    throw reader.error(here, item, "a path (sh) needs its shape \"ks\"")
                }
                out.append(.path(.bezier(shape), path: here, position: item.position))
            case "rc", "el", "sr":
                out.append(.path(try LottieShapePaths.generated(object, type: type, path: here, reader: reader), path: here,
                                 position: item.position))
            case "fl", "st", "gf", "gs":
                let kind: LottiePaint.Kind = ["fl": .fill, "st": .stroke, "gf": .gradientFill][type] ?? .gradientStroke
                out.append(.paint(LottiePaint(kind: kind, object: object, path: here, position: item.position)))
            case "tm":
                out.append(.trim(LottieTrim(start: try reader.property(object, "s", path: here, reader.number),
                                            end: try reader.property(object, "e", path: here, reader.number),
                                            offset: try reader.property(object, "o", path: here, reader.number),
                                            individually: object["m"]?.number == 2, path: here, position: item.position)))
            case "rd":
                let radius = try reader.property(object, "r", path: here, reader.number) ?? .fixed(0)
                out.append(.roundedCorners(radius, path: here, position: item.position))
            case "tr":
                break  // the group's transform, read with the group
            case "rp":
                out.append(.repeater(LottieRepeater(object: object, value: item, path: here)))
            default:
                let names = ["mm": "merged paths", "tw": "twisted paths", "op": "offset paths", "pb": "pucker and bloat",
                             "zz": "zig-zags"]
                let reason = names[type].map {
                    "\($0) are not drawn: Core Animation has no such path operation, and lottie-ios's Core Animation engine leaves them out too"
                } ?? "this kind of shape item is not drawn: lottie-ios's Core Animation engine does not know it either"
                try reader.diagnostics.skipped("\(here) (\(type))", reason, file: reader.file, at: item.position)
            }
        }
        return out
    }
}
