import LaminaRaster

// Clips as coverage masks: each region of a `DrawingClip` rasterized
// anti-aliased with its own fill rule, and the regions intersected by
// multiplying their coverage, so a pixel half inside one region and half
// inside another paints at a quarter. That is exact where the regions' edges
// cross a pixel independently; where two regions share an edge (a rectangle
// clipped twice to the same side) the product darkens that edge's pixels
// (½ · ½ = ¼ instead of ½), which only a whole-region boolean could avoid.

extension CoverageMask {
    /// The pixels inside both masks, with the product of their coverage.
    func intersected(with other: CoverageMask) -> CoverageMask {
        let area = bounds.intersection(other.bounds)
        guard !area.isEmpty else { return .empty }
        var values = [UInt8](repeating: 0, count: area.width * area.height)
        var i = 0
        for y in area.minY..<area.maxY {
            var a = (y - bounds.minY) * bounds.width + (area.minX - bounds.minX)
            var b = (y - other.bounds.minY) * other.bounds.width + (area.minX - other.bounds.minX)
            for _ in 0..<area.width {
                values[i] = UInt8(truncatingIfNeeded: div255(UInt32(self.values[a]) &* UInt32(other.values[b])))
                i += 1; a += 1; b += 1
            }
        }
        return CoverageMask(uncheckedBounds: area, values: values)
    }

    /// The mask without anti-aliasing: a pixel is fully in when at least
    /// half of it was covered, else out (`setShouldAntialias(false)`).
    var aliased: CoverageMask {
        CoverageMask(uncheckedBounds: bounds, values: values.map { $0 >= 128 ? 255 : 0 })
    }
}

extension FillRule {
    /// The rasterizer's rule for a Core Graphics one.
    init(_ rule: CGPathFillRule) {
        switch rule {
        case .winding: self = .nonZero
        case .evenOdd: self = .evenOdd
        }
    }
}
