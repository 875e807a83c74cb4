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
/// A mask is still the way for coverage that is used more than once (a
/// still shape drawn frame after frame is kept as one), cut by a split
/// draw's planes, or a clip, and for paints made ahead beside others on
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
    /// The pixels the edges may cover within the target.
    package let area: PixelRect

    /// The fill of `contours` (each closed back to its first point, every
    /// point mapped to target pixels by `map`) under `fillRule` with
    /// `color`, on a target of `bounds`; nil when it paints nothing.
    /// - Throws: `RasterError.nonFinite` for a point that maps beyond
    ///   `CoverageRasterizer.coordinateLimit`.
    package init?(contours: [[CGPoint]], fillRule: FillRule, color: PremultipliedColor, within bounds: PixelRect,
                  mapping map: (CGPoint) -> CGPoint) throws {
        guard color.a > 0 else { return nil }
        let segments = CoverageRasterizer.segments(ofContours: contours, mapping: map)
        guard let area = try CoverageRasterizer(clip: bounds).bounds(of: segments) else { return nil }
        self.segments = segments
        self.fillRule = fillRule
        self.word = pixelWord(UInt32(color.r), UInt32(color.g), UInt32(color.b), UInt32(color.a))
        self.area = area
    }

    package var pixels: Int { area.width * area.height }

    package func paint(_ band: Range<Int>, of target: PixelRows) {
        let (fillRule, word, area) = (fillRule, word, area)
        let rowBytes = target.width &* 4
        CoverageRasterizer.accumulate(segments, over: area, meeting: band) { bandTop, accumulator in
            // This band's rows that `band` asks for, counted from its top.
            let rows = (max(band.lowerBound, bandTop) - bandTop)..<(min(band.upperBound, bandTop + accumulator.height) - bandTop)
            accumulator.blend(fillRule, rows: rows, word: word, into: target.pixel(x: area.minX, y: bandTop), rowBytes: rowBytes)
        }
    }
}
