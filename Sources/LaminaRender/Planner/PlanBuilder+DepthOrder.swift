import Foundation
import LaminaCore
import LaminaRaster

// The 3D scene of a layer's sublayers: its members, culled, projected and
// put in depth order (splitting planes that cut each other).
extension PlanBuilder {
    /// The ordinary layers that a layer's sublayers contribute to its 3D
    /// scene, in sublayer order, through transform layers.
    func sceneItems(of layer: RenderLayer) -> [SceneItem] {
        var items: [SceneItem] = []
        visitScene(of: layer) { items.append($0); return true }
        return items
    }

    /// Hands `visit` each of `sceneItems`' items in turn, where they lie,
    /// no list made (a caller that only reads them: the extent of a
    /// surface, asked at every level above a layer); stops, and answers
    /// false, as soon as `visit` answers false.
    @discardableResult
    func visitScene(of layer: RenderLayer, _ visit: (SceneItem) -> Bool) -> Bool {
        func walk(_ sublayers: [RenderLayer], into parent: CATransform3D, opacity: Double, tint: RGBA?) -> Bool {
            for sub in sublayers where !sub.isHidden {
                let m = sub.transformToSuperlayer.concatenating(parent)
                switch sub.kind {
                case .ordinary:
                    guard visit(SceneItem(layer: sub, matrix: m, opacity: opacity, tint: tint)) else { return false }
                case .transform:
                    // No group: the opacity reaches each sublayer separately.
                    guard walk(sub.sublayers, into: m, opacity: opacity * sub.opacity, tint: combine(tint, sub.tint)) else { return false }
                }
            }
            return true
        }
        return walk(layer.sublayers, into: .identity, opacity: 1, tint: nil)
    }

    func emitScene(of layer: RenderLayer, matrix: CATransform3D, clipping: Clipping, opacity: Double, tint: RGBA?, into commands: inout [DrawCommand]) throws(RenderRefusal) {
        if try emitFlatScene(of: layer, matrix: matrix, clipping: clipping, opacity: opacity, tint: tint, into: &commands) { return }
        let items = sceneItems(of: layer)
        guard !items.isEmpty else { return }
        let budget = options.budget.depthFragments - depthFragments
        let refusal = { self.depthBudgetRefusal(at: layer.path) }
        let pieces: [ScenePolygon]
        if let flat = flatSceneOrder(items) {
            // Counted as the sorter counts.
            guard flat.count <= 1 || flat.count <= budget else { throw refusal() }
            pieces = flat
        } else {
            pieces = try DepthSorter.backToFront(sceneOutlines(items), budget: budget, refusal: refusal)
        }
        depthFragments += pieces.count
        for piece in pieces {
            let item = items[piece.item]
            // The scene's cuts of this piece are pixel-exact, so the pieces
            // of one split layer tile it without a seam.
            let itemClipping = clipping.pulledBack(through: item.matrix.planeHomography)
                .cut(by: piece.cuts.map { pullBack($0, through: item.matrix) })
            try emitPlane(item.layer, matrix: item.matrix.flattened.concatenating(matrix),
                      clipping: itemClipping, opacity: opacity * item.opacity, tint: combine(tint, item.tint), into: &commands)
        }
    }

    /// The usual case, drawn without a scene: sublayers that are all
    /// ordinary layers (no transform layer to look through), each in the
    /// layer's own plane and in front of the eye, in sublayer order, each
    /// drawn as `emitScene` draws a flat scene's item, without the list of
    /// items (a copy of every sublayer). False, having drawn nothing, when
    /// the scene must be made.
    func emitFlatScene(of layer: RenderLayer, matrix: CATransform3D, clipping: Clipping, opacity: Double, tint: RGBA?,
                       into commands: inout [DrawCommand]) throws(RenderRefusal) -> Bool {
        // By index, each test on the fields it reads where the sublayer
        // lies: a sublayer handed to a function is copied whole for the
        // call (its references retained and released).
        let sublayers = layer.sublayers
        var drawn = 0, shown = 0
        for i in sublayers.indices where !sublayers[i].isHidden {
            guard sublayers[i].kind == .ordinary else { return false }
            shown += 1
            // As `sceneItems` places an item under the identity (a finite
            // matrix is its own product with the identity).
            let m = sublayers[i].transformToSuperlayer
            guard Self.isInLayerPlane(m, nearPlaneW: nearPlaneW) else { return false }
            if Self.isCulled(doubleSided: sublayers[i].isDoubleSided, matrix: m) { continue }
            let extent = ownExtent(bounds: sublayers[i].bounds, masksToBounds: sublayers[i].masksToBounds, content: sublayers[i].content)
            guard extent.minX.isFinite, extent.minY.isFinite, extent.maxX.isFinite, extent.maxY.isFinite else { return false }
            drawn += 1
        }
        guard shown > 0 else { return true }
        let budget = options.budget.depthFragments - depthFragments
        guard drawn <= 1 || drawn <= budget else { throw depthBudgetRefusal(at: layer.path) }
        depthFragments += drawn
        for i in sublayers.indices where !sublayers[i].isHidden {
            let m = sublayers[i].transformToSuperlayer
            if Self.isCulled(doubleSided: sublayers[i].isDoubleSided, matrix: m) { continue }
            // An item under the identity has opacity 1 and no tint: the layer's own reach it unchanged.
            try emitPlane(sublayers[i], matrix: m.flattened.concatenating(matrix),
                          clipping: clipping.pulledBack(through: m.planeHomography), opacity: opacity, tint: tint, into: &commands)
        }
        return true
    }

    /// The refusal of a scene whose planes cut each other into more pieces than the budget allows.
    func depthBudgetRefusal(at path: LayerPath) -> RenderRefusal {
        RenderRefusal(at: path, "its sublayers' planes cut each other into more than \(options.budget.depthFragments) pieces (the budget for depth sorting)")
    }

    /// Whether an item's matrix keeps it in the scene's plane (z stays 0),
    /// in front of the eye, finite.
    static func isInLayerPlane(_ m: CATransform3D, nearPlaneW: Double) -> Bool {
        m.m13 == 0 && m.m23 == 0 && m.m43 == 0 && m.m14 == 0 && m.m24 == 0 && m.m44 >= nearPlaneW && m.isFinite
    }

    /// The scene's items in drawing order, without sorting, when every one
    /// lies in the layer's own plane (its matrix keeps z at 0) wholly in
    /// front of the eye, with a finite extent: a flat interface, the usual
    /// case. Polygons in one plane keep their sublayer order in
    /// `DepthSorter` too, so this is the sorter's answer without the
    /// projected outline it would make of every item. Nil when any item
    /// leaves the plane, and the scene is sorted.
    func flatSceneOrder(_ items: [SceneItem]) -> [ScenePolygon]? {
        var order: [ScenePolygon] = []
        order.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            guard Self.isInLayerPlane(item.matrix, nearPlaneW: nearPlaneW) else { return nil }
            if isCulled(item) { continue }
            // Finite exactly when `contentExtent` is, without walking the
            // item's subtree (each level of a deep tree walked all below it).
            let extent = ownExtent(item.layer)
            guard extent.minX.isFinite, extent.minY.isFinite, extent.maxX.isFinite, extent.maxY.isFinite else { return nil }
            order.append(ScenePolygon(points: [], item: index))
        }
        return order
    }

    /// Whether the item is a single-sided layer seen from behind (its
    /// plane map reverses orientation in the scene), which is not drawn.
    func isCulled(_ item: SceneItem) -> Bool {
        isCulled(item.layer, matrix: item.matrix)
    }

    /// Whether `layer`, placed by `matrix`, is single-sided and seen from behind.
    func isCulled(_ layer: RenderLayer, matrix: CATransform3D) -> Bool {
        Self.isCulled(doubleSided: layer.isDoubleSided, matrix: matrix)
    }

    /// `isCulled(_:matrix:)` of a layer's `isDoubleSided`.
    static func isCulled(doubleSided: Bool, matrix: CATransform3D) -> Bool {
        !doubleSided && matrix.planeHomography.determinant < 0
    }

    /// The outlines the depth sorter orders: each item not culled, with
    /// what of it lies in front of the eye, in sublayer order.
    func sceneOutlines(_ items: [SceneItem]) -> [ScenePolygon] {
        var polygons: [ScenePolygon] = []
        for (index, item) in items.enumerated() where !isCulled(item) {
            let outline = projectedOutline(of: item)
            if outline.count >= 3 { polygons.append(ScenePolygon(points: outline, item: index)) }
        }
        return polygons
    }

    /// The item's extent in the scene's projected space: cut at the near
    /// plane, divided by w.
    func projectedOutline(of item: SceneItem) -> [SIMD3<Double>] {
        func projected(_ p: CGPoint) -> SIMD3<Double> {
            let h = item.matrix.apply(x: p.x, y: p.y)
            let w = Double(h.w)
            return SIMD3(Double(h.x) / w, Double(h.y) / w, Double(h.z) / w)
        }
        let extent = contentExtent(item.layer), near = item.matrix.nearPlane
        let (x0, y0, x1, y1) = (extent.minX, extent.minY, extent.maxX, extent.maxY)
        let corners = (CGPoint(x: x0, y: y0), CGPoint(x: x1, y: y0), CGPoint(x: x1, y: y1), CGPoint(x: x0, y: y1))
        if near.value(at: corners.0) >= 0, near.value(at: corners.1) >= 0, near.value(at: corners.2) >= 0, near.value(at: corners.3) >= 0 {
            // Wholly in front, the usual case: what the clip below would
            // give, without its list of corners in between.
            return [projected(corners.0), projected(corners.1), projected(corners.2), projected(corners.3)]
        }
        return PolygonClipper.clip(extent.cornerPolygon, to: near).map(projected)
    }

    /// A cut in projected scene space as a half-plane of the item's local
    /// space (exact where w > 0).
    func pullBack(_ plane: ScenePlane, through m: CATransform3D) -> HalfPlane {
        let n = plane.normal, d = plane.offset
        return HalfPlane(
            a: n.x * Double(m.m11) + n.y * Double(m.m12) + n.z * Double(m.m13) + d * Double(m.m14),
            b: n.x * Double(m.m21) + n.y * Double(m.m22) + n.z * Double(m.m23) + d * Double(m.m24),
            c: n.x * Double(m.m41) + n.y * Double(m.m42) + n.z * Double(m.m43) + d * Double(m.m44))
    }

    /// A rect grown by about one target pixel, for drawing with coverage.
    func paddedForCoverage(_ rect: CGRect, matrix: CATransform3D) -> [CGPoint] {
        let scale = matrix.maxPixelScale(over: rect)
        let pad = scale > 0 ? min(1 / scale, Double(max(rect.width, rect.height))) : 0
        return corners(of: rect.insetBy(dx: -pad, dy: -pad))
    }
}
