import Foundation
import LaminaCore
import LaminaRaster

// Backdrops: a layer's `backgroundFilters`, what lies under it in the target
// copied, filtered and drawn back within its bounds.
extension PlanBuilder {
    /// Adds the backdrop of `layer` (drawn through `matrix`, cut by
    /// `clipping`, faded by `opacity`) to `commands`, when it has
    /// background filters and shows in the target.
    ///
    /// The copy is made in the target's own pixels: the projected bounds'
    /// box, grown by the blurs' reach so that a blur near the edge sees what
    /// lies beyond it, within the target. It is drawn back as the projected
    /// bounds (an exact quad under any matrix), rounded where the layer is
    /// and the matrix keeps corners round (a uniform scale and a move).
    func emitBackdrop(of layer: RenderLayer, matrix: CATransform3D, clipping: Clipping, opacity: Double,
                      into commands: inout [DrawCommand]) {
        guard !layer.backgroundFilters.isEmpty, layer.bounds.width > 0, layer.bounds.height > 0 else { return }
        let outline = PolygonClipper.clip(layer.bounds.cornerPolygon, to: clipping.clips + [matrix.nearPlane])
        var projected: [CGPoint] = []
        for p in outline {
            let h = matrix.apply(x: p.x, y: p.y)
            guard h.w > 0 else { return }
            projected.append(CGPoint(x: h.x / h.w, y: h.y / h.w))
        }
        guard let box = CGRect.bounding(projected)?.intersection(viewport), !box.isNull, box.width > 0, box.height > 0 else { return }
        let pixelsPerPoint = matrix.maxPixelScale(over: layer.bounds)
        var reach = 0.0
        let filters: [SurfaceFilter] = layer.backgroundFilters.map { filter in
            switch filter {
            case .blur(let sigma):
                let pixels = sigma * pixelsPerPoint
                reach += 3 * (pixels.isFinite ? pixels : 0)
                return .blur(BlurMethod(sigma: pixels))
            case .colorMatrix(let matrix):
                return .colorMatrix(matrix)
            }
        }
        let grown = box.insetBy(dx: -min(reach, 1e6), dy: -min(reach, 1e6)).intersection(viewport)
        let x0 = Int(max(0, grown.minX.rounded(.down))), y0 = Int(max(0, grown.minY.rounded(.down)))
        let x1 = Int(min(viewport.maxX, grown.maxX.rounded(.up))), y1 = Int(min(viewport.maxY, grown.maxY.rounded(.up)))
        guard x1 > x0, y1 > y0 else { return }
        let region = PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        let regionRect = CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)

        var ids: [Int] = []
        for _ in 0...filters.count {
            ids.append(surfaces.count)
            surfaces.append(SurfaceDescription(width: region.width, height: region.height, purpose: .backdrop, layer: layer.path))
        }
        // Rounded corners where the map keeps them round; else the projected quad.
        var polygon = projected
        var coverage: RoundedRectCoverage?
        let m = matrix
        if layer.isRounded, m.m12 == 0, m.m21 == 0, m.m14 == 0, m.m24 == 0, m.m44 == 1, abs(abs(m.m11) - abs(m.m22)) < 1e-9 * abs(m.m11) {
            let r = layer.cornerRadii.fitted(to: layer.bounds)
            let k = Double(abs(m.m11))
            // A mirrored axis swaps the corners along it.
            let (flipX, flipY) = (m.m11 < 0, m.m22 < 0)
            func radius(_ minX: Bool, _ minY: Bool) -> Double {
                let (x, y) = (minX != flipX, minY != flipY)
                return k * (x ? (y ? r.minXMinY : r.minXMaxY) : (y ? r.maxXMinY : r.maxXMaxY))
            }
            let rect = CGRect.bounding(projected) ?? box
            coverage = RoundedRectCoverage(rect: rect, radii: CornerRadii(minXMinY: radius(true, true), maxXMinY: radius(false, true),
                                                                         maxXMaxY: radius(false, false), minXMaxY: radius(true, false)))
            polygon = rect.insetBy(dx: -1, dy: -1).cornerPolygon
        }
        let inRegion = PolygonClipper.clip(polygon, to: [
            HalfPlane(a: 1, b: 0, c: -Double(x0)), HalfPlane(a: -1, b: 0, c: Double(x1)),
            HalfPlane(a: 0, b: 1, c: -Double(y0)), HalfPlane(a: 0, b: -1, c: Double(y1)),
        ])
        guard !inRegion.isEmpty else { return }
        let draw = PolygonDraw(
            matrix: CATransform3DIdentity, polygon: inRegion,
            fill: .texture(.surface(.offscreen(ids.last!)), localRect: regionRect, uvRect: CGRect(x: 0, y: 0, width: 1, height: 1),
                           filter: .nearest, tint: .white),
            coverage: coverage, opacity: opacity)
        commands.append(.backdrop(BackdropDraw(region: region, copy: ids[0], filters: Array(zip(ids.dropFirst(), filters)), draw: draw)))
    }
}
