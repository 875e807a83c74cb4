// Exact-area coverage by signed-area accumulation.
//
// Approach (after font-rs and stb_truetype's v2 rasterizer, with the fill-rule
// treatment of libart / FreeType's "gray" rasterizer): every edge adds, to
// each cell (pixel) it touches, the *change* in "signed area of this pixel
// lying to the right of the edge" relative to the cell before it. A running
// sum along a row then gives, for every pixel, Σ over edges of
// direction × (fraction of the pixel right of the edge) — the winding number
// weighted by area. Where a pixel is crossed by at most one edge (or by edges
// whose covered parts do not overlap) that value is exactly ± the covered
// area; in the interior it is exactly the integer winding number. The fill
// rule is applied to this value: nonZero takes min(|v|, 1), evenOdd folds |v|
// into a triangle wave of period 2 (0 at even windings, 1 at odd ones), so a
// pentagram's centre (winding 2) is full under nonZero and empty under
// evenOdd, and holes behave as both rules say. Only pixels where two edges'
// covered parts overlap are approximated (as in FreeType and AGG).
//
// The accumulation buffer is dense over one band of rows of the shape's bounds
// clipped to the target, rather than sparse per cell: the mask we produce is
// dense over that area anyway, a dense buffer needs no sorting of cells, and
// banding keeps the float buffer small. Beside it, one bit per group of eight
// cells says whether an edge wrote there: the runs of groups no edge reached
// (a large shape's inside, the empty corners of its box) are resolved
// without reading their cells, and a band is cleared group by marked group
// rather than whole, so the cells cost what the edges touch, not the area.
// Clipping keeps everything bounded by the target: edge parts above or below
// are cut off; parts right of the target are dropped (a running sum only
// carries area rightwards, so they cannot affect a visible pixel); parts left
// of it are moved onto its left border as vertical edges, which carry exactly
// the same winding into the visible pixels.

/// The accumulation buffer for one band of rows of a shape: `width` columns
/// and `height` rows whose top-left pixel is the origin of the coordinates
/// passed in. The rasterizer walks the shape band by band, so the float
/// buffer stays a few dozen rows tall whatever the size of the mask.
package struct CoverageAccumulator {
    package private(set) var width: Int
    /// Rows in the current band (at most the capacity given at creation).
    package private(set) var height: Int
    /// Cells per row: one past the right border for the spill of the last
    /// column, one more for the spill of an edge lying on that border.
    package private(set) var stride: Int
    /// The cells, read by tests (`@testable`) against the running sum.
    private(set) var cells: [Float]
    /// One bit per group of eight cells of a row (cells `8g ..< 8g + 8` of
    /// row r: bit `g % 64` of word `r * marksPerRow + g / 64`), set when an
    /// edge writes to the group. Every cell of an unmarked group is zero:
    /// the resolving loops skip runs of them without reading the cells (a
    /// large shape's inside and outside), and a band is cleared by zeroing
    /// the marked groups alone.
    private var marks: [UInt64]
    /// Words of `marks` per row.
    private var marksPerRow: Int

    package init(width: Int, maximumHeight: Int) {
        (self.width, height, stride, cells, marks, marksPerRow) = (0, 0, 2, [], [], 1)
        reset(width: width, maximumHeight: maximumHeight)
    }

    /// As `init(width:maximumHeight:)`, reusing this buffer's storage.
    package mutating func reset(width: Int, maximumHeight: Int) {
        // Cleared in the layout it was written in.
        clearMarkedGroups()
        self.width = width
        height = maximumHeight
        stride = width + 2
        marksPerRow = (stride + 8 * 64 - 1) / (8 * 64)
        let count = stride * maximumHeight
        if cells.count < count {
            cells.append(contentsOf: repeatElement(0, count: count - cells.count))
        }
        let markCount = marksPerRow * maximumHeight
        if marks.count < markCount {
            marks.append(contentsOf: repeatElement(0, count: markCount - marks.count))
        }
    }

    /// Cells held, to keep a pooled buffer from hoarding.
    var capacity: Int { cells.capacity + marks.capacity * 2 }

    /// Clears the buffer for a band of `rows` rows.
    package mutating func startBand(rows: Int) {
        clearMarkedGroups()
        height = min(rows, cells.count / stride, marks.count / marksPerRow)
    }

    /// Zeroes the cells of every marked group of the current band's rows,
    /// and the marks: what the band's edges wrote, not the whole band.
    private mutating func clearMarkedGroups() {
        let rows = height, perRow = marksPerRow, stride = stride
        guard rows > 0 else { return }
        cells.withUnsafeMutableBufferPointer { cellBuffer in
            marks.withUnsafeMutableBufferPointer { markBuffer in
                guard let cells = cellBuffer.baseAddress, let marks = markBuffer.baseAddress else { return }
                for row in 0..<min(rows, markBuffer.count / perRow) {
                    let rowCells = cells + row &* stride
                    for w in 0..<perRow {
                        var bits = marks[row &* perRow &+ w]
                        guard bits != 0 else { continue }
                        marks[row &* perRow &+ w] = 0
                        while bits != 0 {
                            let first = (w &* 64 &+ bits.trailingZeroBitCount) &* 8
                            // The row's last group may be short of eight cells.
                            (rowCells + first).update(repeating: 0, count: min(8, stride &- first))
                            bits &= bits &- 1
                        }
                    }
                }
            }
        }
    }

    /// Adds the directed edge (x0, y0) → (x1, y1), clipping it to the area.
    /// Coordinates must be finite and small enough that their differences are
    /// (the rasterizer checks).
    package mutating func addLine(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
        let area = area
        cells.withUnsafeMutableBufferPointer { buffer in
            marks.withUnsafeMutableBufferPointer { markBuffer in
                guard let base = buffer.baseAddress, let marks = markBuffer.baseAddress else { return }
                area.addLine(x0, y0, x1, y1, into: base, marking: marks)
            }
        }
    }

    /// Adds each of `edges` moved by (−dx, −dy), in order: `addLine` for a
    /// whole band's edges with the cells reached once, not once an edge.
    package mutating func addLines(_ edges: [LineSegment], minusX dx: Double, minusY dy: Double) {
        let area = area
        cells.withUnsafeMutableBufferPointer { buffer in
            marks.withUnsafeMutableBufferPointer { markBuffer in
                guard let base = buffer.baseAddress, let marks = markBuffer.baseAddress else { return }
                for e in edges where e.y0 != e.y1 {
                    area.addLine(e.x0 - dx, e.y0 - dy, e.x1 - dx, e.y1 - dy, into: base, marking: marks)
                }
            }
        }
    }

    /// The band's extent, which the edge arithmetic below needs, apart from
    /// the cells it writes.
    private var area: Area { Area(width: width, height: height, stride: stride, marksPerRow: marksPerRow) }

    /// The width, rows and row stride of the band: the edge arithmetic,
    /// writing through a pointer to the cells and marking the groups it
    /// writes.
    private struct Area {
        let width: Int, height: Int, stride: Int, marksPerRow: Int

        @inline(__always)
        func addLine(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, into cells: UnsafeMutablePointer<Float>,
                     marking marks: UnsafeMutablePointer<UInt64>) {
            // Horizontal edges cross no row boundary: no winding, no area.
            guard y0 != y1 else { return }
            // Walk every edge downwards; `dir` remembers which way it really went.
            let (ax, ay, bx, by, dir) = y0 < y1 ? (x0, y0, x1, y1, 1.0) : (x1, y1, x0, y0, -1.0)
            let h = Double(height)
            guard by > 0, ay < h else { return }
            // Interpolate from the original end points, by fraction of the height,
            // so that steep or nearly flat edges stay finite and exact at the ends.
            func x(at y: Double) -> Double { ax + (bx - ax) * ((y - ay) / (by - ay)) }
            let top = max(ay, 0), bottom = min(by, h)
            guard top < bottom else { return }
            addClippedInX(ay < 0 ? x(at: top) : ax, top, by > h ? x(at: bottom) : bx, bottom, dir, cells, marks)
        }

        /// Splits a downward edge already inside the rows where it crosses the left
        /// or right border, and files each piece.
        private func addClippedInX(
            _ xa: Double, _ ya: Double, _ xb: Double, _ yb: Double, _ dir: Double, _ cells: UnsafeMutablePointer<Float>,
            _ marks: UnsafeMutablePointer<UInt64>
        ) {
            let w = Double(width)
            if xa <= 0 && xb <= 0 {
                accumulate(0, ya, 0, yb, dir, cells, marks)  // all left: its winding, on the border
            } else if xa >= w && xb >= w {
                return  // all right: invisible
            } else if (xa < 0) != (xb < 0) {
                let yc = splitY(xa, ya, xb, yb, atX: 0)
                addClippedInX(xa < 0 ? 0 : xa, ya, 0, yc, dir, cells, marks)
                addClippedInX(0, yc, xb < 0 ? 0 : xb, yb, dir, cells, marks)
            } else if (xa > w) != (xb > w) {
                let yc = splitY(xa, ya, xb, yb, atX: w)
                addClippedInX(min(xa, w), ya, w, yc, dir, cells, marks)
                addClippedInX(w, yc, min(xb, w), yb, dir, cells, marks)
            } else {
                accumulate(xa, ya, xb, yb, dir, cells, marks)
            }
        }

        /// The y where the edge crosses the vertical line `x = xc`, kept in [ya, yb].
        private func splitY(_ xa: Double, _ ya: Double, _ xb: Double, _ yb: Double, atX xc: Double) -> Double {
            let t = (xc - xa) / (xb - xa)
            return min(max(ya + (yb - ya) * t, ya), yb)
        }

        /// Adds a downward edge lying inside the area (0 ≤ x ≤ width, 0 ≤ y ≤ height),
        /// one row at a time.
        ///
        /// A row's piece runs from where the edge crosses its top to where
        /// it crosses its bottom, x interpolated from the edge's start by
        /// its slope and clamped to the area. The first row's top is the
        /// edge's start and the last row's bottom its end (x is `xa` and
        /// `xa + dx`); a row's top is the row before's bottom, its x
        /// carried down. Most edges of a flattened curve lie within one or
        /// two rows.
        @inline(__always)
        private func accumulate(
            _ xa: Double, _ ya: Double, _ xb: Double, _ yb: Double, _ dir: Double, _ base: UnsafeMutablePointer<Float>,
            _ marks: UnsafeMutablePointer<UInt64>
        ) {
            let w = Double(width)
            @inline(__always) func clamped(_ x: Double) -> Double { min(max(x, 0), w) }
            // 0 ≤ ya < yb ≤ height: truncation is the floor, and the ceiling
            // is one more where yb is not whole (no call to ceil).
            let firstRow = Int(ya)
            let lastRow = min(Int(yb) - (Double(Int(yb)) == yb ? 1 : 0), height - 1)
            let dx = xb - xa, dy = yb - ya
            let stride = stride, lastColumn = width, perRow = marksPerRow
            @inline(__always) func piece(_ row: Int, _ x0: Double, _ x1: Double, _ height: Double) {
                CoverageAccumulator.addRowPiece(
                    base + row &* stride, min(x0, x1), max(x0, x1), dir * height, lastColumn, marking: marks + row &* perRow)
            }
            let xEnd = clamped(xa + dx)
            guard lastRow > firstRow else {
                piece(firstRow, clamped(xa), xEnd, yb - ya)
                return
            }
            // x moves by `slope` a row: one division for the edge, not one
            // a row (an edge that spans rows has dy > 0 beyond rounding).
            let slope = dx / dy
            var row = firstRow
            var bottom = Double(row &+ 1)
            var xTop = clamped(xa + slope * (bottom - ya))
            piece(row, clamped(xa), xTop, bottom - ya)
            row &+= 1
            while row < lastRow {
                bottom = Double(row &+ 1)
                let xBottom = clamped(xa + slope * (bottom - ya))
                piece(row, xTop, xBottom, 1)
                xTop = xBottom
                row &+= 1
            }
            piece(row, xTop, xEnd, yb - Double(row))
        }
    }

    /// Adds one row's piece of an edge, spanning `lo ... hi` horizontally and
    /// carrying signed height `d`; `lastColumn` (the width) bounds the walk.
    ///
    /// With the piece's x uniform over [lo, hi] as it descends, the part of
    /// column i lying right of it is `c(i) = (R(i+1−lo) − R(i+1−hi)) / (hi−lo)`
    /// (per unit height), where R is the integral of the unit ramp clamp(t, 0, 1).
    /// c rises from 0 left of the piece to 1 right of it; cell i stores
    /// `d·(c(i) − c(i−1))` so that the running sum recovers `d·c(i)`.
    @inline(__always)
    fileprivate static func addRowPiece(
        _ row: UnsafeMutablePointer<Float>, _ lo: Double, _ hi: Double, _ d: Double, _ lastColumn: Int,
        marking marks: UnsafeMutablePointer<UInt64>
    ) {
        let i0 = Int(lo)
        if hi <= Double(i0 + 1) {
            // Within one column: the covered part right of the edge is a
            // trapezoid whose mean width is 1 − (midpoint − i0).
            let mid = (lo + hi) * 0.5 - Double(i0)
            row[i0] += Float(d * (1 - mid))
            row[i0 + 1] += Float(d * mid)
            mark(groupOf: i0, in: marks)
            mark(groupOf: i0 &+ 1, in: marks)
            return
        }
        @inline(__always) func ramp(_ t: Double) -> Double {
            t <= 0 ? 0 : (t < 1 ? 0.5 * t * t : t - 0.5)
        }
        let inverseSpan = 1 / (hi - lo)
        let i1 = min(Int(hi), lastColumn)
        // Column i0's right side is left of hi, and the columns between
        // i0 and i1 lie wholly right of lo and left of hi: there the ramps
        // are known (ramp(edge − hi) is 0, ramp(edge − lo) is edge − lo − ½),
        // the same numbers without the tests.
        var previous = ramp(Double(i0 &+ 1) - lo) * inverseSpan
        row[i0] += Float(d * previous)
        var i = i0 &+ 1
        while i < i1 {
            let c = ((Double(i &+ 1) - lo) - 0.5) * inverseSpan
            row[i] += Float(d * (c - previous))
            previous = c
            i &+= 1
        }
        if i1 > i0 {
            let edge = Double(i1 &+ 1)
            let c = (ramp(edge - lo) - ramp(edge - hi)) * inverseSpan
            row[i1] += Float(d * (c - previous))
            previous = c
        }
        row[i1 &+ 1] += Float(d * (1 - previous))
        mark(groupsOf: i0, through: i1 &+ 1, in: marks)
    }

    /// Marks the group of cell `i` of a row as written.
    @inline(__always)
    private static func mark(groupOf i: Int, in marks: UnsafeMutablePointer<UInt64>) {
        marks[i &>> 9] |= 1 &<< UInt64(truncatingIfNeeded: (i &>> 3) & 63)
    }

    /// Marks the groups of cells `first ... last` of a row as written.
    @inline(__always)
    private static func mark(groupsOf first: Int, through last: Int, in marks: UnsafeMutablePointer<UInt64>) {
        let g0 = first &>> 3, g1 = last &>> 3
        let w0 = g0 &>> 6, w1 = g1 &>> 6
        if w0 == w1 {
            // Bits g0 ... g1 of one word.
            let span = UInt64(truncatingIfNeeded: g1 &- g0 &+ 1)
            let bits: UInt64 = span >= 64 ? ~0 : ((1 &<< span) &- 1)
            marks[w0] |= bits &<< UInt64(truncatingIfNeeded: g0 & 63)
            return
        }
        marks[w0] |= ~0 &<< UInt64(truncatingIfNeeded: g0 & 63)
        var w = w0 &+ 1
        while w < w1 { marks[w] = ~0; w &+= 1 }
        marks[w1] |= ~0 &>> UInt64(truncatingIfNeeded: 63 &- (g1 & 63))
    }

    /// How many groups from group `g` of a row, at most `limit` of them,
    /// no edge wrote to: their cells are all zero.
    @inline(__always)
    private static func unmarkedRun(_ marks: UnsafePointer<UInt64>, from g: Int, limit: Int) -> Int {
        var run = 0
        var word = g &>> 6
        var bits = marks[word] &>> UInt64(truncatingIfNeeded: g & 63)
        var available = 64 &- (g & 63)
        while true {
            if bits != 0 { return min(run &+ bits.trailingZeroBitCount, limit) }
            run &+= available
            if run >= limit { return limit }
            word &+= 1
            bits = marks[word]
            available = 64
        }
    }

    /// Writes the coverage of the band's pixels, rows top to bottom, as bytes
    /// 0...255, to `out` (`width` bytes per row).
    ///
    /// A run of groups of eight cells that no edge wrote to (all zero: the
    /// running sum does not change across them, the inside or outside of a
    /// shape) is written as one value, eight bytes at a time, its cells not
    /// read: a large shape's interior costs a store per eight pixels instead
    /// of a sum and a conversion per pixel. The bytes are those of the
    /// pixel-by-pixel sum.
    package func resolve(_ rule: FillRule, into out: UnsafeMutablePointer<UInt8>) {
        resolve(rule, rows: 0..<height, into: out)
    }

    /// `resolve(_:into:)` of the band's rows `rows` alone, the first of
    /// them written at `out`.
    package func resolve(_ rule: FillRule, rows: Range<Int>, into out: UnsafeMutablePointer<UInt8>) {
        switch rule {
        case .nonZero: resolve(rows: rows, into: out, Self.nonZeroCoverage, Self.nonZeroCoverages)
        case .evenOdd: resolve(rows: rows, into: out, Self.evenOddCoverage, Self.evenOddCoverages)
        }
    }

    /// The coverage byte of a running sum under the non-zero rule.
    @inline(__always)
    private static func nonZeroCoverage(_ winding: Float) -> UInt8 { UInt8(min(abs(winding), 1) * 255 + 0.5) }

    /// The running sums over eight cells from `winding`, added one by one
    /// in order (the sums `resolve` and `blend` turn into bytes), `winding`
    /// left at the last.
    @inline(__always)
    private static func runningSums(of cells: UnsafePointer<Float>, from winding: inout Float) -> SIMD8<Float> {
        var sums = SIMD8<Float>()
        for i in 0..<8 {
            winding += cells[i]
            sums[i] = winding
        }
        return sums
    }

    /// The coverage bytes of eight running sums under the non-zero rule,
    /// the first in the low byte: `nonZeroCoverage` of each, to the bit,
    /// worked out side by side. The conversion to a byte is the floor of
    /// a value in [0.5, 255.5] without a checked conversion: adding 2^23
    /// rounds it to the nearest integer in the low bits, one less where
    /// that rounded up.
    @inline(__always)
    static func nonZeroCoverages(_ windings: SIMD8<Float>) -> UInt64 {
        let magnitude = windings.replacing(with: -windings, where: windings .< 0)
        let value = magnitude.replacing(with: 1, where: magnitude .> 1) * 255 + 0.5
        let magic = SIMD8<Float>(repeating: 0x1p23)
        let shifted = value + magic
        let roundedUp = (shifted - magic) .> value
        let nearest = unsafeBitCast(shifted, to: SIMD8<Int32>.self) & 0xFF
        let floor = nearest &- SIMD8<Int32>(repeating: 1).replacing(with: 0, where: .!roundedUp)
        return unsafeBitCast(SIMD8<UInt8>(truncatingIfNeeded: floor), to: UInt64.self)
    }

    /// The coverage bytes of eight running sums under the even-odd rule.
    @inline(__always)
    private static func evenOddCoverages(_ windings: SIMD8<Float>) -> UInt64 {
        var bytes: UInt64 = 0
        for i in 0..<8 { bytes |= UInt64(evenOddCoverage(windings[i])) << (i &* 8) }
        return bytes
    }

    /// The coverage byte of a running sum under the even-odd rule.
    @inline(__always)
    private static func evenOddCoverage(_ winding: Float) -> UInt8 {
        let v = abs(winding)
        let folded = v - 2 * (v * 0.5).rounded(.down)  // v mod 2, in [0, 2)
        return UInt8(min(folded > 1 ? 2 - folded : folded, 1) * 255 + 0.5)
    }

    /// Resolves the band's rows `rows` (counted from the band's top) as
    /// `resolve(_:into:)` does and blends the solid pixel `word` at each
    /// pixel's coverage straight onto the pixels, source-over, the bytes
    /// `blendSolid` gives from the resolved coverage: no mask is written and
    /// read again. `pixels` is the band's first pixel (its left column, its
    /// top row) and `rowBytes` the target's row length. A run of groups no
    /// edge wrote to is pixels of one coverage: left alone when it is zero
    /// (most of a thin shape's box), stored when it is full and the word
    /// opaque (a solid interior), blended with one source otherwise.
    package func blend(_ rule: FillRule, rows: Range<Int>, word: UInt32, into pixels: UnsafeMutableRawPointer, rowBytes: Int) {
        switch rule {
        case .nonZero: blend(rows: rows, word: word, into: pixels, rowBytes: rowBytes, Self.nonZeroCoverage, Self.nonZeroCoverages)
        case .evenOdd: blend(rows: rows, word: word, into: pixels, rowBytes: rowBytes, Self.evenOddCoverage, Self.evenOddCoverages)
        }
    }

    @inline(__always)
    private func blend(rows: Range<Int>, word: UInt32, into pixels: UnsafeMutableRawPointer, rowBytes: Int,
                       _ coverage: (Float) -> UInt8, _ eightCoverages: (SIMD8<Float>) -> UInt64) {
        let w = width, s = stride, perRow = marksPerRow
        let groups = w &>> 3
        let words = SIMD4<UInt32>(repeating: word)
        let opaque = word >> 24 == 255
        cells.withUnsafeBufferPointer { cellBuffer in
            marks.withUnsafeBufferPointer { markBuffer in
                guard let cells = cellBuffer.baseAddress, let marks = markBuffer.baseAddress else { return }
                for row in rows.clamped(to: 0..<height) {
                    let src = cells + row * s
                    let rowMarks = marks + row &* perRow
                    let p = pixels + row * rowBytes
                    var winding: Float = 0
                    // What an unmarked group paints, for the running sum
                    // as it is: worked out again only where an edge
                    // changed the sum.
                    var k: UInt32 = 0
                    var source = SIMD4<UInt32>(repeating: 0)
                    var g = 0
                    while g < groups {
                        // A run of groups no edge wrote to: pixels of one
                        // coverage, the cells not read.
                        let run = Self.unmarkedRun(rowMarks, from: g, limit: groups &- g)
                        if run > 0 {
                            let first = p + (g &* 8) &* 4, quads = run &* 2
                            if k == 255 && opaque {
                                for q in 0..<quads { (first + q &* 16).storeBytes(of: words, as: SIMD4<UInt32>.self) }
                            } else if k != 0 {
                                for q in 0..<quads { blendWords(first + q &* 16, source) }
                            }
                            g &+= run
                            if g == groups { break }
                        }
                        // An edge passes: the eight coverages, blended four at a time.
                        let x = g &* 8
                        let bytes = eightCoverages(Self.runningSums(of: src + x, from: &winding))
                        Self.blend(words, opaque: opaque, coverages: bytes, into: p + x &* 4)
                        // The last of the eight is the sum the next groups carry.
                        k = UInt32(truncatingIfNeeded: bytes >> 56)
                        source = k == 255 ? words : SIMD4(repeating: scaled(word, by: k))
                        g &+= 1
                    }
                    var x = groups &* 8
                    while x < w {
                        winding += src[x]
                        let k = UInt32(coverage(winding))
                        if k != 0 { blendWord(p + x &* 4, k == 255 ? word : scaled(word, by: k)) }
                        x &+= 1
                    }
                }
            }
        }
    }

    /// Source-over of the solid pixel (`words`, four times) over eight
    /// pixels at `p`, each scaled by its coverage byte of `coverages` (the
    /// first in the low byte): what `blendSolid` gives at opacity 1, whose
    /// scale of coverage m is m itself, so the bytes are the scales. Four
    /// empty bytes leave their pixels, four full ones store the word where
    /// it is opaque. `blendSolid(_:coverage:count:into:)` written for eight
    /// bytes held in a register: calling it through memory cost 3% more
    /// instructions a frame (9squares, vcTransition1).
    @inline(__always)
    static func blend(_ words: SIMD4<UInt32>, opaque: Bool, coverages: UInt64, into p: UnsafeMutableRawPointer) {
        for half in 0..<2 {
            let four = UInt32(truncatingIfNeeded: coverages >> (32 &* UInt64(half)))
            let q = p + half &* 16
            if four == 0xFFFF_FFFF {
                if opaque { q.storeBytes(of: words, as: SIMD4<UInt32>.self) } else { blendWords(q, words) }
            } else if four != 0 {
                let k = SIMD4<UInt32>(four & 0xFF, (four >> 8) & 0xFF, (four >> 16) & 0xFF, four >> 24)
                blendWords(q, scaled(words, by: k))
            }
        }
    }

    @inline(__always)
    private func resolve(rows: Range<Int>, into out: UnsafeMutablePointer<UInt8>, _ coverage: (Float) -> UInt8,
                         _ eightCoverages: (SIMD8<Float>) -> UInt64) {
        let w = width, s = stride, perRow = marksPerRow
        let groups = w &>> 3
        cells.withUnsafeBufferPointer { cellBuffer in
            marks.withUnsafeBufferPointer { markBuffer in
                guard let cells = cellBuffer.baseAddress, let marks = markBuffer.baseAddress else { return }
                let rows = rows.clamped(to: 0..<height)
                for row in rows {
                    let src = cells + row * s
                    let rowMarks = marks + row &* perRow
                    let o = out + (row - rows.lowerBound) * w
                    var winding: Float = 0
                    // The eight bytes of an unmarked group at the running sum
                    // as it is, worked out again only where an edge changed it.
                    var eight: UInt64 = 0
                    var g = 0
                    while g < groups {
                        let run = Self.unmarkedRun(rowMarks, from: g, limit: groups &- g)
                        if run > 0 {
                            let first = UnsafeMutableRawPointer(o + g &* 8)
                            for i in 0..<run { first.storeBytes(of: eight, toByteOffset: i &* 8, as: UInt64.self) }
                            g &+= run
                            if g == groups { break }
                        }
                        let x = g &* 8
                        let bytes = eightCoverages(Self.runningSums(of: src + x, from: &winding))
                        UnsafeMutableRawPointer(o + x).storeBytes(of: bytes, as: UInt64.self)
                        eight = (bytes >> 56) &* 0x0101_0101_0101_0101
                        g &+= 1
                    }
                    var x = groups &* 8
                    while x < w {
                        winding += src[x]
                        o[x] = coverage(winding)
                        x &+= 1
                    }
                }
            }
        }
    }
}
