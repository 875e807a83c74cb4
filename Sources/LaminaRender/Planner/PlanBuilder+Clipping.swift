import Foundation
import LaminaCore
import LaminaRaster

// Extents and clipping: how far a layer's drawing reaches, and the parts of
// it that can show in the target.
extension PlanBuilder {
    /// Everything a layer draws in its own plane (bounds, contents,
    /// flattened sublayers; not the shadow), limited to a finite box.
    func contentExtent(_ layer: RenderLayer) -> CGRect {
        if layer.masksToBounds { return layer.bounds }
        var extent = ownExtent(layer)
        // Each sublayer's box is kept within a finite limit: the extent is
        // finite exactly when the layer's own is (`flatSceneOrder` asks).
        let limit = layer.bounds.insetBy(dx: -16384, dy: -16384)
        for item in sceneItems(of: layer) where item.layer.kind == .ordinary {
            if let box = item.matrix.projectedBounds(of: contentExtent(item.layer)) { extent = extent.union(box.intersection(limit)) }
        }
        return extent
    }

    /// The box, in the layer's plane, of the pixels it and its sublayers can
    /// paint (`paintedContentExtent`), spread by its filters and shadow, cut
    /// by its mask; `.null` when nothing paints. Unlike `contentExtent` the
    /// bounds alone count for nothing, so a Lottie layer (its bounds the
    /// whole composition) holding one small shape is that shape's box.
    func paintedExtent(_ layer: RenderLayer) -> CGRect {
        guard !layer.isHidden, layer.opacity > 0 else { return .null }
        var extent = paintedContentExtent(layer)
        let reach = layer.filters.reduce(0) { $0 + $1.reach }
        if reach > 0 { extent = extent.insetBy(dx: -reach, dy: -reach) }
        if let shadow = layer.shadow, shadow.opacity > 0 {
            // Cast by what the layer paints, or by its shadow path.
            let caster = shadow.path.map { extent.union($0.bounds) } ?? extent
            if !caster.isNull {
                let pad = 3 * shadow.radius
                extent = caster.union(caster.offsetBy(dx: shadow.offset.width, dy: shadow.offset.height).insetBy(dx: -pad, dy: -pad))
            }
        }
        // The mask cuts all of it, the shadow too.
        if let mask = layer.mask?.value, !layer.maskIsInverted {
            extent = extent.intersection(maskedExtent(by: mask))
        }
        return extent.isNull || extent.isEmpty ? .null : extent
    }

    /// What a layer and its sublayers paint before its own mask, shadow and
    /// filters: a background or border fills the bounds, content its own
    /// rect, a sublayer its `paintedExtent`; cut by the bounds when they
    /// clip. All an offscreen surface of the layer needs to hold.
    func paintedContentExtent(_ layer: RenderLayer) -> CGRect {
        var extent = piecesExtent(layer)
        if layer.backgroundColor != nil || layer.borderWidth > 0 || !layer.backgroundFilters.isEmpty {
            extent = extent.union(layer.bounds)
        }
        let limit = layer.bounds.insetBy(dx: -16384, dy: -16384)
        let known = visitScene(of: layer) { item in
            let painted = paintedExtent(item.layer)
            guard !painted.isNull else { return true }
            // Seen through the eye plane, its box is not known: all of it.
            guard let box = item.matrix.projectedBounds(of: painted) else { return false }
            extent = extent.union(box.intersection(limit))
            return true
        }
        guard known else { return layer.masksToBounds ? layer.bounds : limit }
        return layer.masksToBounds ? extent.intersection(layer.bounds) : extent
    }

    /// The part of its layer's plane a (not inverted) mask lets through: what
    /// it paints, in the masked layer's coordinates; `.infinite` when that is
    /// not known (a mask seen through the eye plane).
    func maskedExtent(by mask: RenderLayer) -> CGRect {
        let painted = paintedExtent(mask)
        guard !painted.isNull else { return .null }
        return mask.transformToSuperlayer.projectedBounds(of: painted) ?? .infinite
    }

    /// What a layer draws in its own plane without its sublayers: its
    /// bounds and contents (its bounds alone when they clip).
    func ownExtent(_ layer: RenderLayer) -> CGRect {
        ownExtent(bounds: layer.bounds, masksToBounds: layer.masksToBounds, content: layer.content)
    }

    /// `ownExtent` of a layer's fields, for a caller that reads them where
    /// the layer lies (handed to a function, a layer is copied whole: its
    /// references retained and released).
    func ownExtent(bounds: CGRect, masksToBounds: Bool, content: [RenderContent]) -> CGRect {
        masksToBounds ? bounds : bounds.union(piecesExtent(of: content, bounds: bounds))
    }

    /// The box of a layer's content pieces (a picture's rect, a fill's
    /// bounds, a gradient's layer bounds); `.null` when it has none.
    private func piecesExtent(_ layer: RenderLayer) -> CGRect {
        piecesExtent(of: layer.content, bounds: layer.bounds)
    }

    /// `piecesExtent` of a layer's `content` and `bounds`.
    private func piecesExtent(of content: [RenderContent], bounds: CGRect) -> CGRect {
        var extent = CGRect.null
        for piece in content {
            switch piece {
            case .image(let picture):
                let layout = ContentsLayout(picture, in: bounds)
                if !layout.quads.isEmpty { extent = extent.union(layout.rect) }
            case .fill(let fill):
                extent = extent.union(fill.bounds)
            case .gradient:
                extent = extent.union(bounds)
            }
        }
        return extent
    }

    /// Whether fading `layer`'s draws one by one would differ from fading
    /// them as a group: when any two of them cover a common point. Without
    /// overlap, each pixel shows at most one draw, and the group's fade is
    /// each draw's fade: no offscreen surface is needed.
    ///
    /// A sublayer that only holds, through layers that only hold it, one
    /// layer that paints (a Lottie layer's group holding its shape) is that
    /// layer, where it lies. Conservative: one that is not a single flat
    /// draw (it has sublayers of its own, a border with a background, a
    /// shadow, a mask, a clip) counts as overlapping, as does anything seen
    /// through the eye plane. Boxes are compared in the layer's own plane.
    func drawsOverlap(_ layer: RenderLayer) -> Bool {
        var boxes: [CGRect] = []
        if layer.backgroundColor != nil || layer.borderWidth > 0 {
            if layer.backgroundColor != nil && layer.borderWidth > 0 { return true }
            boxes.append(layer.bounds)
        }
        for piece in layer.content {
            switch piece {
            case .image(let content):
                let layout = ContentsLayout(content, in: layer.bounds)
                if !layout.quads.isEmpty { boxes.append(layout.rect) }
            case .gradient:
                boxes.append(layer.bounds)
            case .fill(let fill):
                // One draw, its contours' overlaps covered once (a fill of
                // several contours is one coverage): its box. A fill and a
                // stroke of one shape overlap through their boxes.
                boxes.append(fill.bounds)
            }
        }
        for item in sceneItems(of: layer) {
            let (sub, matrix) = Self.onlyPaintingLayer(in: item.layer, placed: item.matrix, alpha: 1)
                .map { found in (found.0, found.1) } ?? (item.layer, item.matrix)
            guard sub.sublayers.isEmpty, sub.mask == nil, sub.shadow == nil, !sub.masksToBounds, sub.content.count <= 1,
                  (sub.backgroundColor == nil || sub.borderWidth == 0),
                  sub.content.isEmpty || (sub.backgroundColor == nil && sub.borderWidth == 0)
            else { return true }
            var corners: [CGPoint] = []
            for p in contentExtent(sub).cornerPolygon {
                let h = matrix.apply(x: p.x, y: p.y)
                guard Double(h.w) > 1e-9 else { return true }
                corners.append(CGPoint(x: Double(h.x) / Double(h.w), y: Double(h.y) / Double(h.w)))
            }
            guard let box = CGRect.bounding(corners) else { continue }
            boxes.append(box)
        }
        for i in boxes.indices {
            for j in boxes.indices where j > i {
                let common = boxes[i].intersection(boxes[j])
                if !common.isNull, common.width > 0, common.height > 0 { return true }
            }
        }
        return false
    }
}
