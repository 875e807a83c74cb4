// A draw blended by a mode other than source-over: it is painted as usual
// onto transparent rows of its own, which then meet the target's pixels
// through the mode.

/// Any row paint, blended onto its target by `mode`.
///
/// The inner paint writes what it would write onto a transparent picture
/// (its colour at each pixel, faded by the pixel's coverage); each of those
/// pixels then meets the target's through `BlendMode.blend(word:over:)`.
/// Every mode is linear in the source's premultiplied channels, so a
/// partly covered pixel comes out as the blend at full coverage faded to
/// that coverage, as a GPU's multisampled blend gives it. A band's scratch
/// rows are its own, so bands still paint on several threads at once.
///
/// ```swift
/// if let paint = try PolygonPainting(command, within: pixmap.bounds) {
///     pixmap.paint(BlendedPaint(AnyRowPaint(paint), mode: .multiply))
/// }
/// ```
package struct BlendedPaint: RowPaint {
    package let inner: AnyRowPaint
    package let mode: BlendMode

    package init(_ inner: AnyRowPaint, mode: BlendMode) { (self.inner, self.mode) = (inner, mode) }

    package var area: PixelRect { inner.area }
    package var pixels: Int { inner.pixels }

    package func paint(_ band: Range<Int>, of target: PixelRows) {
        guard !band.isEmpty else { return }
        let width = target.width
        let count = band.count * width
        var scratch = BufferPool.pixels.take(count: count * 4, zeroed: true)
        defer { BufferPool.pixels.giveBack(scratch) }
        scratch.withUnsafeMutableBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            // The scratch holds the band's rows only: row `y` of the view is
            // row `y - band.lowerBound` of the scratch. The inner paint
            // touches no row outside the band it is given.
            let rows = PixelRows(base: base - band.lowerBound * width * 4, width: width, height: target.height)
            inner.paint(band, of: rows)
            let source = base.assumingMemoryBound(to: UInt32.self)
            let destination = target.pixel(x: 0, y: band.lowerBound).assumingMemoryBound(to: UInt32.self)
            for i in 0..<count {
                let s = source[i]
                if s == 0 { continue }
                destination[i] = mode.blend(word: s, over: destination[i])
            }
        }
    }
}
