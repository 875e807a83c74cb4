import Foundation
import LaminaJSON

/// Writes a `Scene` as scene JSON (see `scene-format.md`) in canonical form:
/// keys in a fixed order (the format's), only values that differ from the
/// defaults, transforms as 16 numbers, paths as SVG path data, images as PNG
/// data URIs, numbers in the shortest form that reads back exactly. The same
/// tree always gives the same bytes, and `SceneDecoder` reads them back to
/// the same tree.
///
/// A tree that the format cannot express is refused with a `SceneError`
/// naming the layer and key: non-finite numbers, contents that are not a
/// `CGImage`, animations with settings the format has no key for, a root
/// layer that is not a plain `CALayer` placed on the canvas.
public struct SceneEncoder: Sendable {
    /// Indent the output (the default); false writes it on one line.
    public var prettyPrinted: Bool
    /// Bounds the depth of the tree walked (`treeDepth`); a deeper tree is
    /// refused rather than risking the stack.
    public var limits: SceneLimits

    /// An encoder: indented output unless `prettyPrinted` is false; `limits`
    /// bound what it writes as the decoder bounds what it reads.
    public init(prettyPrinted: Bool = true, limits: SceneLimits = .default) {
        self.prettyPrinted = prettyPrinted
        self.limits = limits
    }

    /// The scene as UTF-8 JSON.
    public func encode(_ scene: Scene) throws(SceneError) -> Data {
        Data(try encodeToString(scene).utf8)
    }

    /// The scene as JSON text.
    public func encodeToString(_ scene: Scene) throws(SceneError) -> String {
        JSONWriter(prettyPrinted: prettyPrinted).write(try jsonValue(scene))
    }

    /// The scene as the format's JSON value (what `encodeToString` writes).
    package func jsonValue(_ scene: Scene) throws(SceneError) -> JSONValue {
        let context = EncodingContext(limits: limits)
        var members: [(String, JSONValue)] = [("format", .string(SceneDecoder.formatName))]
        for (name, v, range) in [("width", scene.width, NumberRange.positive), ("height", scene.height, .positive),
                                 ("scale", scene.scale, .positive)] {
            guard v.isFinite, range.contains(Double(v)) else {
                throw SceneError(.outOfRange, at: "$.\(name)", "\(name) must be \(range.expectation), not \(v)")
            }
            if name != "scale" || v != 1 { members.append((name, .number(Double(v)))) }
        }
        if scene.origin != .topLeft { members.append(("origin", .string(scene.origin.rawValue))) }
        guard scene.time.isFinite else { throw SceneError(.nonFinite, at: "$.time", "time must be finite") }
        if scene.time != 0 { members.append(("time", .number(scene.time))) }

        let root = scene.rootLayer
        guard LayerType(of: root) == .layer else {
            throw SceneError(.invalidValue, at: "$",
                             "the root layer must be a plain CALayer, not a \(LayerType(of: root).className)")
        }
        let canvas = CGRect(x: 0, y: 0, width: scene.width, height: scene.height)
        guard root.bounds == canvas, root.position == CGPoint(x: canvas.midX, y: canvas.midY) else {
            throw SceneError(.conflict, at: "$",
                             "the root layer's bounds must be [0, 0, width, height] and its position the canvas centre")
        }
        members += try context.layerMembers(root, at: .root, depth: 1, isRoot: true)
        return .object(members)
    }

    /// The scene of `layer` drawn in its own coordinate space, as
    /// `LayerRenderer.renderInOwnBounds` draws it (and `render(in:)` on
    /// Apple's systems): a canvas of `size` points holding the layer with its
    /// bounds' origin at the canvas's top-left corner. Its place in its
    /// superlayer (position, transform, zPosition) is not part of it, so the
    /// layer is written with a position that puts it there and no transform.
    package func jsonValue(layerInOwnBounds layer: CALayer, size: CGSize, scale: Double = 1,
                           time: Double = 0) throws(SceneError) -> JSONValue {
        let context = EncodingContext(limits: limits)
        let path = JSONPath.root / "sublayers" / 0
        let placement: Set<String> = ["position", "transform", "zPosition", "anchorPointZ"]
        var members = try context.layerMembers(layer, at: path, depth: 2).filter { !placement.contains($0.0) }
        let position = JSONValue.numbers([layer.anchorPoint.x * layer.bounds.width, layer.anchorPoint.y * layer.bounds.height])
        // Where the canonical order puts `position`: before the first key
        // that follows it (`type` comes first; mask, animations and
        // sublayers come last).
        var rank = Dictionary(SceneKeys.all.enumerated().map { ($1.name, $0) }, uniquingKeysWith: min)
        rank["type"] = -1
        let positionRank = rank["position"] ?? 0
        let at = members.firstIndex { (rank[$0.0] ?? .max) > positionRank } ?? members.endIndex
        members.insert(("position", position), at: at)
        var top: [(String, JSONValue)] = [("format", .string(SceneDecoder.formatName)),
                                          ("width", .number(Double(size.width))), ("height", .number(Double(size.height)))]
        if scale != 1 { top.append(("scale", .number(scale))) }
        if time != 0 { top.append(("time", .number(time))) }
        top.append(("sublayers", .array([.object(members)])))
        return .object(top)
    }

    /// `value` as JSON text, indented unless `prettyPrinted` is false.
    package func string(of value: JSONValue) -> String {
        JSONWriter(prettyPrinted: prettyPrinted).write(value)
    }
}
