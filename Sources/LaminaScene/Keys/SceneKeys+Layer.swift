import Foundation
import LaminaJSON

// The keys every layer has (scene-format.md, "Keys of every layer"), in the
// encoder's order. `type`, `frame`, `mask`, `animations` and `sublayers` are
// handled by the layer decoder and encoder themselves, because they need the
// whole object or recurse.
extension SceneKeys {
    // The format names gravities and filters as Core Animation does.
    static let gravities = CALayerContentsGravity.all.map { ($0.rawValue, $0) }
    static let filters = CALayerContentsFilter.all.map { ($0.rawValue, $0) }

    static let cornerMasks: [(String, CACornerMask)] = [
        ("minXMinY", .layerMinXMinYCorner), ("maxXMinY", .layerMaxXMinYCorner),
        ("minXMaxY", .layerMinXMaxYCorner), ("maxXMaxY", .layerMaxXMaxYCorner),
    ]

    static let unitRect = CGRect(x: 0, y: 0, width: 1, height: 1)

    static let layerKeys: [SceneKey] = [
        .property("name", \CALayer.name,
                  read: { c, v, p throws(SceneError) in try c.string(v, at: p).map { .some($0) } },
                  write: { $0.map(JSONValue.string) ?? .null }),
        // Geometry
        .rect("bounds", \CALayer.bounds),
        .point("position", \CALayer.position),
        .point("anchorPoint", \CALayer.anchorPoint),
        .number("anchorPointZ", \CALayer.anchorPointZ),
        .number("zPosition", \CALayer.zPosition),
        .transform("transform", \CALayer.transform),
        .decodeOnly("affineTransform") { c, v, p, layer throws(SceneError) in
            // As CALayer.setAffineTransform(_:); the encoder writes `transform`.
            if let m = try c.affineTransform(v, at: p) { layer.setAffineTransform(m) }
        },
        .transform("sublayerTransform", \CALayer.sublayerTransform),
        // Visibility and compositing
        .bool("hidden", \CALayer.isHidden),
        .number("opacity", \CALayer.opacity),
        .bool("doubleSided", \CALayer.isDoubleSided),
        // Background and border
        .color("backgroundColor", \CALayer.backgroundColor),
        .number("cornerRadius", \CALayer.cornerRadius),
        .property("maskedCorners", \CALayer.maskedCorners,
                  read: { c, v, p throws(SceneError) in try c.cornerMask(v, at: p) },
                  write: { mask in .array(cornerMasks.filter { mask.contains($0.1) }.map { .string($0.0) }) }),
        .number("borderWidth", \CALayer.borderWidth),
        .color("borderColor", \CALayer.borderColor),
        .bool("masksToBounds", \CALayer.masksToBounds),
        // Shadow
        .color("shadowColor", \CALayer.shadowColor),
        .number("shadowOpacity", \CALayer.shadowOpacity),
        .property("shadowOffset", \CALayer.shadowOffset,
                  read: { c, v, p throws(SceneError) in try c.offset(v, at: p) }, write: GeometryValue.encode),
        .number("shadowRadius", \CALayer.shadowRadius),
        SceneKey("shadowPath", decode: { c, v, p, layer throws(SceneError) in
            if let path = try c.path(v, at: p) { layer.shadowPath = path }
        }, encode: { layer, _, _ in layer.shadowPath.map(PathValue.encode) }),
        // Contents
        SceneKey("contents", decode: { c, v, p, layer throws(SceneError) in
            if let image = try c.image(v, at: p) { layer.contents = image }
        }, encode: { layer, context, path throws(SceneError) in
            guard let contents = layer.contents else { return nil }
            guard let image = contents as? CGImage else {
                throw SceneError(.invalidValue, at: path.description,
                                 "contents of type \(type(of: contents)) cannot be written; only a CGImage can")
            }
            return try context.dataURI(for: image, at: path)
        }),
        .names("contentsGravity", \CALayer.contentsGravity, gravities),
        .number("contentsScale", \CALayer.contentsScale),
        .rect("contentsRect", \CALayer.contentsRect),
        .rect("contentsCenter", \CALayer.contentsCenter),
        .optionalColor("contentsMultiplyColor", \CALayer.contentsMultiplyColor),
        filtersKey,
        backgroundFiltersKey,
        compositingFilterKey,
        .names("minificationFilter", \CALayer.minificationFilter, filters),
        .names("magnificationFilter", \CALayer.magnificationFilter, filters),
        .bool("geometryFlipped", \CALayer.isGeometryFlipped),
    ]
}

extension DecodingContext {
    /// `maskedCorners`: an array of corner names, each at most once.
    func cornerMask(_ value: JSONValue, at path: JSONPath) throws(SceneError) -> CACornerMask? {
        let names = SceneKeys.cornerMasks.map(\.0)
        guard let items = try array(value, at: path, of: "corner names (\(Self.list(names)))") else { return nil }
        var mask: CACornerMask = []
        var ok = true
        for (k, item) in items.enumerated() {
            guard let n = try name(item, at: path / k, from: names),
                  let corner = SceneKeys.cornerMasks.first(where: { $0.0 == n })?.1
            else { ok = false; continue }
            if mask.contains(corner) {
                try report(.invalidValue, item, at: path / k, "the corner \(JSONWriter.quoted(n)) is listed twice")
                ok = false
            }
            mask.insert(corner)
        }
        return ok ? mask : nil
    }
}
