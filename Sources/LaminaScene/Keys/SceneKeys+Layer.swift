import Foundation

// The keys every layer has (scene-format.md, "Keys of every layer"), in the
// encoder's order. `type`, `frame`, `mask`, `animations` and `sublayers` are
// handled by the layer decoder and encoder themselves, because they need the
// whole object or recurse.
extension SceneKeys {
    static let gravities: [(String, CALayerContentsGravity)] = [
        ("center", .center), ("top", .top), ("bottom", .bottom), ("left", .left), ("right", .right),
        ("topLeft", .topLeft), ("topRight", .topRight), ("bottomLeft", .bottomLeft), ("bottomRight", .bottomRight),
        ("resize", .resize), ("resizeAspect", .resizeAspect), ("resizeAspectFill", .resizeAspectFill),
    ]

    static let filters: [(String, CALayerContentsFilter)] = [
        ("linear", .linear), ("nearest", .nearest), ("trilinear", .trilinear),
    ]

    static let cornerMasks: [(String, CACornerMask)] = [
        ("minXMinY", .layerMinXMinYCorner), ("maxXMinY", .layerMaxXMinYCorner),
        ("minXMaxY", .layerMinXMaxYCorner), ("maxXMaxY", .layerMaxXMaxYCorner),
    ]

    static let unitRect = CGRect(x: 0, y: 0, width: 1, height: 1)

    static let layerKeys: [SceneKey] = [
        .property("name", \CALayer.name, default: nil,
                  read: { c, v, p throws(SceneError) in try c.string(v, at: p).map { .some($0) } },
                  write: { $0.map(JSONValue.string) ?? .null }),
        // Geometry
        .rect("bounds", \CALayer.bounds, default: .zero),
        .point("position", \CALayer.position, default: .zero),
        .point("anchorPoint", \CALayer.anchorPoint, default: CGPoint(x: 0.5, y: 0.5)),
        .number("anchorPointZ", \CALayer.anchorPointZ, default: 0),
        .number("zPosition", \CALayer.zPosition, default: 0),
        .transform("transform", \CALayer.transform),
        .decodeOnly("affineTransform") { c, v, p, layer throws(SceneError) in
            // As CALayer.setAffineTransform(_:); the encoder writes `transform`.
            if let m = try c.affineTransform(v, at: p) { layer.setAffineTransform(m) }
        },
        .transform("sublayerTransform", \CALayer.sublayerTransform),
        // Visibility and compositing
        .bool("hidden", \CALayer.isHidden, default: false),
        .number("opacity", \CALayer.opacity, .unit, default: 1),
        .bool("doubleSided", \CALayer.isDoubleSided, default: true),
        // Background and border
        .color("backgroundColor", \CALayer.backgroundColor, default: nil),
        .number("cornerRadius", \CALayer.cornerRadius, .nonNegative, default: 0),
        .property("maskedCorners", \CALayer.maskedCorners, default: .allCorners,
                  read: { c, v, p throws(SceneError) in try c.cornerMask(v, at: p) },
                  write: { mask in .array(cornerMasks.filter { mask.contains($0.1) }.map { .string($0.0) }) }),
        .number("borderWidth", \CALayer.borderWidth, .nonNegative, default: 0),
        .color("borderColor", \CALayer.borderColor, default: CGColor.black),
        .bool("masksToBounds", \CALayer.masksToBounds, default: false),
        // Shadow
        .color("shadowColor", \CALayer.shadowColor, default: CGColor.black),
        .number("shadowOpacity", \CALayer.shadowOpacity, .unit, default: 0),
        .property("shadowOffset", \CALayer.shadowOffset, default: CGSize(width: 0, height: -3),
                  read: { c, v, p throws(SceneError) in try c.offset(v, at: p) }, write: GeometryValue.encode),
        .number("shadowRadius", \CALayer.shadowRadius, .nonNegative, default: 3),
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
        .names("contentsGravity", \CALayer.contentsGravity, gravities, default: .resize),
        .number("contentsScale", \CALayer.contentsScale, .positive, default: 1),
        .rect("contentsRect", \CALayer.contentsRect, default: unitRect),
        .rect("contentsCenter", \CALayer.contentsCenter, default: unitRect),
        .names("minificationFilter", \CALayer.minificationFilter, filters, default: .linear),
        .names("magnificationFilter", \CALayer.magnificationFilter, filters, default: .linear),
        .bool("geometryFlipped", \CALayer.isGeometryFlipped, default: false),
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
