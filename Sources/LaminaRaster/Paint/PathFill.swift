import Foundation

/// A path's fill in one colour, painted straight from its edges: each band
/// of rows is accumulated and blended as it is resolved, and no coverage
/// mask is made.
///
/// Rasterizing to a mask and then filling through it (`MaskFill`) writes
/// and reads a byte for every pixel of the path's box, and scans the box
/// again for the pixels to blend; this blends where the coverage is found
/// (`CoverageAccumulator.blend`), skipping runs of empty pixels and
/// storing runs of full ones. The pixels are those `MaskFill` paints from
/// `CoverageRasterizer`'s mask of the same edges, to the byte: the same
/// bands, the same sums, the same blend.
///
/// Through a clip mask (a mask path's coverage: a Lottie matte) and
/// faded, each row's coverage is multiplied by the clip's and the fade
/// first, as `MaskFill` multiplies them, and blended the same: the path's
/// own coverage is not made into a mask to be read again.
///
/// A mask is still the way for coverage that is used more than once (a
/// still shape drawn frame after frame is kept as one), cut by a split
/// draw's planes, and for paints made ahead beside others on
/// idle cores: each call of `paint` accumulates the rasterizer's bands
/// that meet its rows, so a draw painted in several bands of rows sorts
/// its edges once a band, and accumulates a band its rows share twice.
///
/// ```swift
/// let fill = try PathFill(contours: star.contours, fillRule: .nonZero, color: red, within: target.bounds) { matrix.apply(to: $0) }
/// if let fill { target.paint(fill) }
/// ```
package struct PathFill: RowPaint {
    /// The edges in target pixels.
    private let segments: [LineSegment]
    private let fillRule: FillRule
    private let word: UInt32
    /// The edges' pixels within the target, which the coverage is summed
    /// over (as the rasterizer sums a mask of them: the same bytes).
    private let edgeArea: PixelRect
    /// Coverage multiplied into the path's, nil for none.
    private let clip: CoverageMask?
    /// The fade, 0...255.
    private let opacity: UInt32
    /// The pixels painted: the edges' within the target and the clip.
    package let area: PixelRect

    /// The fill of `contours` (each closed back to its first point, every
    /// point mapped to target pixels by `map`) under `fillRule` with
    /// `color`, on a target of `bounds`, faded by `alpha` (clamped to
    /// 0...1) and through `clip`'s coverage where there is one; nil when
    /// it paints nothing.
    /// - Throws: `RasterError.nonFinite` for a point that maps beyond
    ///   `CoverageRasterizer.coordinateLimit`.
    package init?(contours: [[CGPoint]], fillRule: FillRule, color: PremultipliedColor, alpha: Double = 1, clip: CoverageMask? = nil,
                  within bounds: PixelRect, mapping map: (CGPoint) -> CGPoint) throws {
        let opacity = try opacityByte(alpha, "fill alpha")
        guard color.a > 0, opacity > 0 else { return nil }
        let segments = CoverageRasterizer.segments(ofContours: contours, mapping: map)
        guard let edgeArea = try CoverageRasterizer(clip: bounds).bounds(of: segments) else { return nil }
        let area = clip.map { edgeArea.intersection($0.bounds) } ?? edgeArea
        guard !area.isEmpty else { return nil }
        self.segments = segments
        self.fillRule = fillRule
        self.word = pixelWord(UInt32(color.r), UInt32(color.g), UInt32(color.b), UInt32(color.a))
        (self.edgeArea, self.clip, self.opacity, self.area) = (edgeArea, clip, opacity, area)
    }

    package var pixels: Int { area.width * area.height }

    package func paint(_ band: Range<Int>, of target: PixelRows) {
        let (fillRule, word, edgeArea) = (fillRule, word, edgeArea)
        guard clip == nil, opacity == 255 else { return paintMultiplied(band, of: target) }
        let rowBytes = target.width &* 4
        CoverageRasterizer.accumulate(segments, over: edgeArea, meeting: band) { bandTop, accumulator in
            // This band's rows that `band` asks for, counted from its top.
            let rows = (max(band.lowerBound, bandTop) - bandTop)..<(min(band.upperBound, bandTop + accumulator.height) - bandTop)
            accumulator.blend(fillRule, rows: rows, word: word, into: target.pixel(x: edgeArea.minX, y: bandTop), rowBytes: rowBytes)
        }
    }

    /// `paint` through the clip and the fade: each row's coverage bytes
    /// (summed over the edges' whole area, as a mask of them is), times
    /// the clip's and the fade as `MaskFill` multiplies them, blended.
    private func paintMultiplied(_ band: Range<Int>, of target: PixelRows) {
        let (fillRule, word, edgeArea, area, opacity) = (fillRule, word, edgeArea, area, opacity)
        let rows = band.clamped(to: area.minY..<area.maxY)
        guard !rows.isEmpty else { return }
        (clip?.values ?? []).withUnsafeBufferPointer { clipValues in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: edgeArea.width + area.width) { buffer in
                guard let coverage = buffer.baseAddress else { return }
                let product = coverage + edgeArea.width
                CoverageRasterizer.accumulate(segments, over: edgeArea, meeting: rows) { bandTop, accumulator in
                    let bandRows = max(rows.lowerBound, bandTop)..<min(rows.upperBound, bandTop + accumulator.height)
                    for y in bandRows {
                        accumulator.resolve(fillRule, rows: (y - bandTop)..<(y - bandTop + 1), into: coverage)
                        let m = coverage + (area.minX - edgeArea.minX)
                        if let clip, let clipBase = clipValues.baseAddress {
                            let c = clipBase + (y - clip.bounds.minY) * clip.bounds.width + (area.minX - clip.bounds.minX)
                            for i in 0..<area.width { product[i] = UInt8(truncatingIfNeeded: div255(UInt32(m[i]) &* UInt32(c[i]))) }
                        } else {
                            product.update(from: m, count: area.width)
                        }
                        if opacity != 255 {
                            for i in 0..<area.width { product[i] = UInt8(truncatingIfNeeded: div255(UInt32(product[i]) &* opacity)) }
                        }
                        blendSolid(word, coverage: product, count: area.width, into: target.pixel(x: area.minX, y: y))
                    }
                }
            }
        }
    }
}
