import Foundation
import LaminaJSON

// Layer objects into layers. The tree is walked recursively, which is safe
// because the depth is checked against `SceneLimits.treeDepth` before each
// step down (and the JSON reader already bounded the nesting).
extension DecodingContext {
    /// Reads one layer object; nil (after reporting) when it is not an
    /// object or its type is unknown.
    ///
    /// - Parameters:
    ///   - depth: 1 for the root, one more per sublayer or mask level.
    ///   - copies: how many times the layer is drawn: the product of the
    ///     instance counts of the replicators above it. The layer limit
    ///     counts drawn layers.
    ///   - isRoot: the top-level object, whose canvas keys are read by the
    ///     scene reader and whose geometry comes from the canvas.
    func layer(
        _ value: JSONValue, at path: JSONPath, depth: Int, copies: Int, isRoot: Bool = false
    ) throws(SceneError) -> CALayer? {
        try checkDeadline(at: path, value)
        guard let object = try object(value, at: path, "a layer (an object)") else { return nil }
        guard depth <= limits.treeDepth else {
            throw fatal(.limitExceeded, at: path, value.position,
                        "layers nest more than \(limits.treeDepth) levels deep (the limit)")
        }
        try countLayers((copies, false), at: path, value)

        guard let type = try layerType(object.member("type"), at: path, isRoot: isRoot) else { return nil }
        let layer = type.makeLayer()

        // One pass: each key is set on the layer, or kept for below if
        // this reader handles it itself.
        var frameMember: JSONMember?, maskMember: JSONMember?, sublayersMember: JSONMember?, animationsMember: JSONMember?
        var transformMember: JSONMember?, affineMember: JSONMember?
        for member in object.members {
            let role = SceneKeys.memberRoles[member]
            if let structural = role?.structural {
                switch structural {
                case .type: break
                case .frame: frameMember = member
                case .mask: maskMember = member
                case .sublayers: sublayersMember = member
                case .animations: animationsMember = member
                }
                continue
            }
            if isRoot && role?.isCanvas == true {
                continue
            }
            if isRoot && (member.hasKey("bounds") || member.hasKey("position")) {
                try report(.conflict, at: path / member, member.keyPosition,
                           "the root layer's bounds and position come from 'width' and 'height'")
                continue
            }
            guard let key = role?.key, key.applies(to: type) else {
                try unknownKey(member, at: path / member, type: type, isRoot: isRoot)
                continue
            }
            switch role?.transformSpelling {
            case .matrix?: transformMember = member
            case .affine?: affineMember = member
            case nil: break
            }
            try key.decode(self, member.value, path / member, layer)
        }

        if let affine = affineMember, transformMember != nil {
            try report(.conflict, at: path / "affineTransform", affine.keyPosition,
                       "'affineTransform' and 'transform' both set the layer's transform; give only one")
        }
        if let frame = frameMember {
            try self.frame(frame, of: object, at: path, into: layer, isRoot: isRoot)
        }
        if let gradient = layer as? CAGradientLayer {
            try checkLocations(of: gradient, object, at: path)
        }

        if let replicator = layer as? CAReplicatorLayer, replicator.instanceCount > 1 {
            // Each instance is work even with no sublayers to copy (the
            // snapshot walks them all): instances count as layers too.
            try countLayers(copies.multipliedReportingOverflow(by: replicator.instanceCount), at: path, value)
        }
        if let mask = maskMember {
            if let m = try self.layer(mask.value, at: path / "mask", depth: depth + 1, copies: copies) {
                layer.mask = m
            }
        }
        if let list = sublayersMember?.value {
            let instances = (layer as? CAReplicatorLayer).map { max($0.instanceCount, 1) } ?? 1
            let (product, overflow) = copies.multipliedReportingOverflow(by: instances)
            let sublayerCopies = overflow ? .max : product
            let listPath = (path / "sublayers").shared
            if let items = try array(list, at: listPath, of: "layers") {
                var sublayers: [CALayer] = []
                sublayers.reserveCapacity(items.count)
                for (k, item) in items.enumerated() {
                    if let s = try self.layer(item, at: listPath / k, depth: depth + 1, copies: sublayerCopies) {
                        sublayers.append(s)
                    }
                }
                layer.sublayers = sublayers
            }
        }
        if let list = animationsMember?.value {
            try animations(list, at: path / "animations", to: layer, type: type)
        }
        return layer
    }

    /// Adds `added` drawn layers (saturating) and refuses the scene past
    /// the limit.
    private func countLayers(_ added: (partialValue: Int, overflow: Bool), at path: JSONPath, _ value: JSONValue) throws(SceneError) {
        let (sum, overflow) = layerCount.addingReportingOverflow(added.overflow ? .max : added.partialValue)
        layerCount = overflow ? .max : sum
        guard layerCount <= limits.layerCount else {
            throw fatal(.limitExceeded, at: path, value.position,
                        "the scene has more than \(limits.layerCount) layers (the limit; a replicator's "
                        + "instances count, and its sublayers count once per instance)")
        }
    }

    private func layerType(_ member: JSONMember?, at path: JSONPath, isRoot: Bool) throws(SceneError) -> LayerType? {
        guard let value = member?.value else { return .layer }
        guard let name = try name(value, at: path / "type", from: LayerType.names),
              let type = LayerType(rawValue: name)
        else { return nil }
        if isRoot && type != .layer {
            try report(.invalidValue, value, at: path / "type",
                       "the top-level object is a plain CALayer (\"layer\"); put a \(JSONWriter.quoted(name)) "
                        + "layer in its 'sublayers'")
            return nil
        }
        return type
    }

    private func unknownKey(_ member: JSONMember, at path: JSONPath, type: LayerType, isRoot: Bool) throws(SceneError) {
        let key = member.key
        let owners = SceneKeys.types(having: key)
        let message: String
        if !owners.isEmpty {
            message = "'\(key)' is not a key of a \(type.className); it belongs to "
                + owners.map { "\($0.rawValue) layers (\"type\": \"\($0.rawValue)\")" }.joined(separator: ", ")
        } else if SceneKeys.canvasKeys.contains(key) {
            message = "'\(key)' is a key of the top-level object only"
        } else {
            let known = SceneKeys.names(for: type) + (isRoot ? SceneKeys.canvasKeys : [])
            message = "unknown key '\(key)' for a \(type.className)" + Suggestion.didYouMean(key, in: known)
        }
        try report(.unknownKey, at: path, member.keyPosition, message)
    }

    /// `frame`, applied as `CALayer.frame` is with an identity transform:
    /// `bounds.size` is the frame's size and `position` the point of the
    /// frame under the anchor point.
    private func frame(_ member: JSONMember, of object: JSONObject, at path: JSONPath, into layer: CALayer, isRoot: Bool) throws(SceneError) {
        let at = path / "frame"
        if isRoot {
            try report(.conflict, at: at, member.keyPosition,
                       "the root layer's bounds and position come from 'width' and 'height'")
            return
        }
        let others = ["bounds", "position"].filter { object[$0] != nil }
        guard others.isEmpty else {
            try report(.conflict, at: at, member.keyPosition,
                       "'frame' sets the bounds' size and the position; it cannot be given with "
                        + others.map { "'\($0)'" }.joined(separator: " and "))
            return
        }
        guard let f = try rect(member.value, at: at) else { return }
        let a = layer.anchorPoint
        layer.bounds = CGRect(x: 0, y: 0, width: f.width, height: f.height)
        layer.position = CGPoint(x: f.minX + a.x * f.width, y: f.minY + a.y * f.height)
    }

    /// A gradient's `locations` must pair with its `colors`.
    private func checkLocations(of gradient: CAGradientLayer, _ object: JSONObject, at path: JSONPath) throws(SceneError) {
        guard let locations = gradient.locations, let value = object["locations"] else { return }
        let colorCount = gradient.colors?.count ?? 0
        if locations.count != colorCount {
            try report(.invalidValue, value, at: path / "locations",
                       "expected one location per colour (\(colorCount)), found \(locations.count)")
        }
    }
}
