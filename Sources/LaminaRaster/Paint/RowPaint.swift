// Row paints: draws decided down to the pixels, painted a band of rows at a
// time, so that one draw or a whole pass of them can be split across cores.

/// The bytes of a pixmap being painted, as a `RowPaint` writes them: rows of
/// `width` premultiplied RGBA pixels, top to bottom.
///
/// Several threads hold the same view while a pixmap is painted in bands;
/// each writes only the rows of its band, which is what makes the shared
/// pointer safe. It lives no longer than the `Pixmap.paint` call that made it.
package struct PixelRows: @unchecked Sendable {
    /// The first byte of row 0.
    package let base: UnsafeMutableRawPointer
    package let width: Int
    package let height: Int

    /// The first byte of pixel `(x, y)`.
    @inline(__always)
    package func pixel(x: Int, y: Int) -> UnsafeMutableRawPointer { base + (y &* width &+ x) &* 4 }
}

/// One draw with every decision made but the pixels: the rows it changes,
/// and how to paint any band of them.
///
/// Everything that can fail (checking numbers, rasterizing coverage, making
/// tinted copies) happens when the paint is made; painting cannot fail. A
/// draw's rows are independent of one another, so the same paint gives the
/// same bytes whether its rows are painted at once, in bands on several
/// threads (`Pixmap.paint(_:)`), or as parts of a pass painted band by band
/// with every draw of the pass in each band (`Pixmap.paint(all:)`).
///
/// ```swift
/// if let fill = try MaskFill(mask, color: red, within: pixmap.bounds) {
///     pixmap.paint(fill)
/// }
/// ```
package protocol RowPaint: Sendable {
    /// The pixels it may change, within the target it was made for.
    var area: PixelRect { get }
    /// About how many pixels it visits: what splitting it is worth.
    var pixels: Int { get }
    /// Paints the rows `band` (part of `rows`) of `target`.
    func paint(_ band: Range<Int>, of target: PixelRows)
}

extension RowPaint {
    /// The rows it may change: its area's.
    package var rows: Range<Int> { area.minY..<area.maxY }
}

/// One of the row paints a draw makes, held inline.
///
/// The paints are a few hundred bytes each: as `any RowPaint` every draw's
/// paint went into a heap box of its own (a thousand tiles, a thousand
/// boxes a frame). This holds any of them in place, with its rows and size
/// beside it, so that a pass's list can be searched by rows without
/// copying paints out of it.
package struct AnyRowPaint: RowPaint {
    private enum Kind: Sendable {
        case polygon(PolygonPainting)
        case maskFill(MaskFill)
        case pathFill(PathFill)
        case composite(PixmapComposite)
        case maskedComposite(MaskedComposite)
        case tintedComposite(TintedComposite)
        indirect case blended(BlendedPaint)
    }
    private let kind: Kind
    package let area: PixelRect
    package let pixels: Int

    package init(_ paint: PolygonPainting) { (kind, area, pixels) = (.polygon(paint), paint.area, paint.pixels) }
    package init(_ paint: MaskFill) { (kind, area, pixels) = (.maskFill(paint), paint.area, paint.pixels) }
    package init(_ paint: PathFill) { (kind, area, pixels) = (.pathFill(paint), paint.area, paint.pixels) }
    package init(_ paint: PixmapComposite) { (kind, area, pixels) = (.composite(paint), paint.area, paint.pixels) }
    package init(_ paint: MaskedComposite) { (kind, area, pixels) = (.maskedComposite(paint), paint.area, paint.pixels) }
    package init(_ paint: TintedComposite) { (kind, area, pixels) = (.tintedComposite(paint), paint.area, paint.pixels) }
    package init(_ paint: BlendedPaint) { (kind, area, pixels) = (.blended(paint), paint.area, paint.pixels) }

    /// Gives the coverage the paint rasterized back to `BufferPool.masks`:
    /// call it once the paint is painted and dropped, so that the next
    /// frame's draws of the same sizes allocate no masks.
    package consuming func recycle() {
        switch kind {
        case .polygon(let p): p.recycle()
        case .maskFill(let p): p.recycle()
        case .blended(let p): p.inner.recycle()
        case .pathFill, .composite, .maskedComposite, .tintedComposite: break
        }
    }

    package func paint(_ band: Range<Int>, of target: PixelRows) {
        switch kind {
        case .polygon(let p): p.paint(band, of: target)
        case .maskFill(let p): p.paint(band, of: target)
        case .pathFill(let p): p.paint(band, of: target)
        case .composite(let p): p.paint(band, of: target)
        case .maskedComposite(let p): p.paint(band, of: target)
        case .tintedComposite(let p): p.paint(band, of: target)
        case .blended(let p): p.paint(band, of: target)
        }
    }
}

extension Pixmap {
    /// Paints `paint`, in bands of rows on idle cores when it is large.
    /// It must have been made for a pixmap of this size.
    package mutating func paint(_ paint: some RowPaint) {
        let rows = paint.rows.clamped(to: 0..<height)
        guard !rows.isEmpty else { return }
        withPixelRows(painting: paint.area) { target in
            RowBands.forEach(rows: rows, pixels: paint.pixels) { band in paint.paint(band, of: target) }
        }
    }

    /// Paints the rows of `paint` that are among `spans` alone: the same
    /// bytes there as `paint(_:)`, every other row left as it is.
    package mutating func paint(_ paint: some RowPaint, within spans: RowSpans) {
        let rows = paint.rows.clamped(to: 0..<height)
        guard spans.overlaps(rows) else { return }
        withPixelRows(painting: paint.area) { target in
            for span in spans where span.overlaps(rows) {
                let part = rows.clamped(to: span)
                RowBands.forEach(rows: part, pixels: paint.pixels * part.count / max(1, rows.count)) { band in
                    paint.paint(band, of: target)
                }
            }
        }
    }

    /// Paints `paints` in order (nil ones paint nothing). With idle cores
    /// the pixmap is cut into bands of rows and each thread paints every
    /// paint's part of its bands: many small draws (a thousand tiles, a
    /// field of stars) share the cores as one large draw would. Each must
    /// have been made for a pixmap of this size.
    /// Within `spans`, only the rows among them are painted (`paint(_:within:)`).
    package mutating func paint(all paints: [AnyRowPaint?], within spans: RowSpans? = nil) {
        var area = PixelRect(width: 0, height: 0), pixels = 0
        for case let paint? in paints {
            area = area.union(paint.area)
            pixels &+= paint.pixels
        }
        let rows = max(0, area.minY)..<min(height, area.maxY)
        guard !area.isEmpty, !rows.isEmpty else { return }
        withPixelRows(painting: area) { target in
            for part in spans.map({ $0.runs.map { rows.clamped(to: $0) }.filter { !$0.isEmpty } }) ?? [rows] {
                // More bands than threads: draws cluster, and a thread that
                // finishes early takes the next band.
                RowBands.forEach(rows: part, pixels: pixels * part.count / max(1, rows.count), bandsPerThread: 4) { band in
                    for i in paints.indices {
                        // Reads the rows in place; only a paint in the band is copied out to paint.
                        guard let span = paints[i]?.rows, span.overlaps(band) else { continue }
                        paints[i]?.paint(span.clamped(to: band), of: target)
                    }
                }
            }
        }
    }

}
