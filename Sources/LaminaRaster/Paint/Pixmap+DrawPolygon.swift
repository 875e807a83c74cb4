import Foundation
import LaminaGeometry

// The polygon painting stage: project → rasterize edges → per pixel, map back
// to local coordinates (perspective-correct), evaluate the shape limits,
// sample the source, blend.

extension Pixmap {
    /// Paints `command` over the pixmap (source-over).
    ///
    /// The polygon's edges are anti-aliased by the coverage rasterizer after
    /// projection; each covered pixel's centre is mapped back through the
    /// inverse projective map to the local point seen there, which places the
    /// texture and the rounded rectangle exactly under perspective. Cuts
    /// keep the pixels whose centres they own, with no anti-aliasing: the
    /// other pieces of the draw paint the rest.
    package mutating func draw(_ command: PolygonPaint) throws {
        if let painting = try PolygonPainting(command, within: bounds) { paint(painting) }
    }

    /// The pixels `command` covers in a pixmap of `bounds` (its clip mask
    /// and cuts applied), with the inverse of its map; nil when it covers
    /// none. It depends on the command and the bounds alone, not on the
    /// pixels, so it can be made ahead, on another thread.
    package static func coverage(of command: PolygonPaint, within bounds: PixelRect) throws -> PolygonCoverage? {
        // The projected vertices live on the stack: this is asked of every draw.
        try withUnsafeTemporaryAllocation(of: CGPoint.self, capacity: command.polygon.count) { buffer in
            try coverage(of: command, projected: project(command.polygon, command.transform, into: buffer), within: bounds)
        }
    }

    private static func coverage(of command: PolygonPaint, projected: UnsafeBufferPointer<CGPoint>,
                                 within bounds: PixelRect) throws -> PolygonCoverage? {
        var area = command.clipMask.map { $0.bounds.intersection(bounds) } ?? bounds
        guard projected.count >= 3, !area.isEmpty else { return nil }
        for (i, cut) in command.cuts.enumerated() {
            try requireFinite(cut.a, "cut \(i) a"); try requireFinite(cut.b, "cut \(i) b"); try requireFinite(cut.c, "cut \(i) c")
        }
        // A singular map means the plane is seen edge-on: it has no area.
        guard let inverse = command.transform.planeHomography.inverted() else { return nil }
        if !command.cuts.isEmpty {
            // Only the piece's own pixels (and one around them) are visited.
            let piece = try project(PolygonClipper.clip(command.polygon, to: command.cuts), command.transform)
            guard let box = PixelRect.covering(piece) else { return nil }
            area = area.intersection(box)
            guard !area.isEmpty else { return nil }
        }
        if command.cuts.isEmpty, let rect = wholePixelRectangle(projected) {
            // Edges on pixel edges: every pixel inside is wholly covered and
            // every other one not at all, which is what rasterizing would
            // find, at the cost of one row.
            let inside = rect.intersection(area)
            guard !inside.isEmpty else { return nil }
            var row = BufferPool.masks.take(count: inside.width, zeroed: false)
            row.withUnsafeMutableBufferPointer { $0.update(repeating: 255) }
            return PolygonCoverage(mask: CoverageMask(uncheckedBounds: inside, values: row, pooled: true),
                                   inverse: inverse, rowsAreAlike: true)
        }
        if command.cuts.isEmpty, let box = axisAlignedRectangle(projected) {
            // Edges between pixels: a pixel's coverage is the product of its
            // column's and its row's, so rows wholly inside repeat one
            // profile: worked out, not accumulated edge by edge and summed
            // along every row (most of a large picture's cost).
            guard let mask = rectangleCoverage(box, within: area) else { return nil }
            return PolygonCoverage(mask: mask, inverse: inverse, rowsAreAlike: false)
        }
        let mask = try CoverageRasterizer(clip: area).rasterize(polygon: projected, fillRule: .nonZero)
            .owned(by: command.cuts.map { $0.inPixels(through: inverse) })
        guard !mask.bounds.isEmpty else { return nil }
        return PolygonCoverage(mask: mask, inverse: inverse, rowsAreAlike: false)
    }

    /// The coverage of `outline` (pixel coordinates) over `area` when it is
    /// an axis-aligned rectangle (four corners, or five with the first
    /// repeated to close it), worked out as `rectangleCoverage` does; nil
    /// when it is not one or covers nothing there. Either fill rule gives
    /// a rectangle the same coverage.
    package static func coverage(ofRectangle outline: [CGPoint], within area: PixelRect) -> CoverageMask? {
        var corners = outline
        if corners.count == 5, corners[4] == corners[0] { corners.removeLast() }
        guard corners.count == 4 else { return nil }
        return corners.withUnsafeBufferPointer { quad in
            axisAlignedRectangle(quad).flatMap { rectangleCoverage($0, within: area) }
        }
    }

    /// The exact-area coverage of the axis-aligned rectangle `box` (pixel
    /// coordinates) over the pixels of `area` it touches, as the coverage
    /// rasterizer rounds it (`min(c, 1) · 255 + ½`); nil when it touches none.
    private static func rectangleCoverage(_ box: (x0: Double, y0: Double, x1: Double, y1: Double),
                                          within area: PixelRect) -> CoverageMask? {
        let touched = PixelRect(x: Int(box.x0.rounded(.down)), y: Int(box.y0.rounded(.down)),
                                width: Int(box.x1.rounded(.up)) - Int(box.x0.rounded(.down)),
                                height: Int(box.y1.rounded(.up)) - Int(box.y0.rounded(.down))).intersection(area)
        guard !touched.isEmpty else { return nil }
        /// How much of pixel `i` (from `i` to `i + 1`) lies between `a` and `b`.
        func overlap(_ i: Int, _ a: Double, _ b: Double) -> Double {
            max(0, min(Double(i + 1), b) - max(Double(i), a))
        }
        let columns = (touched.minX..<touched.maxX).map { overlap($0, box.x0, box.x1) }
        var values = BufferPool.masks.take(count: touched.width * touched.height, zeroed: false)
        values.withUnsafeMutableBufferPointer { out in
            guard let base = out.baseAddress else { return }
            let w = touched.width
            var full: UnsafeMutablePointer<UInt8>?  // the first row wholly inside, copied to the rest
            for (r, y) in (touched.minY..<touched.maxY).enumerated() {
                let row = base + r * w
                let cy = overlap(y, box.y0, box.y1)
                if cy == 1, let full {
                    row.update(from: full, count: w)
                    continue
                }
                for (i, cx) in columns.enumerated() {
                    row[i] = UInt8(Float(min(cx * cy, 1)) * 255 + 0.5)
                }
                if cy == 1 { full = row }
            }
        }
        return CoverageMask(uncheckedBounds: touched, values: values, pooled: true)
    }

    /// The corners of a quadrilateral that is an axis-aligned rectangle of
    /// finite, non-zero size, as its two xs and two ys; nil otherwise.
    private static func axisAlignedRectangle(_ quad: UnsafeBufferPointer<CGPoint>) -> (x0: Double, y0: Double, x1: Double, y1: Double)? {
        guard quad.count == 4 else { return nil }
        // In registers, not arrays and a set: this is asked of every draw.
        let xs = SIMD4(Double(quad[0].x), Double(quad[1].x), Double(quad[2].x), Double(quad[3].x))
        let ys = SIMD4(Double(quad[0].y), Double(quad[1].y), Double(quad[2].y), Double(quad[3].y))
        for k in 0..<4 where !xs[k].isFinite || !ys[k].isFinite || abs(xs[k]) > 1e9 || abs(ys[k]) > 1e9 { return nil }
        let x0 = xs.min(), x1 = xs.max(), y0 = ys.min(), y1 = ys.max()
        guard x0 < x1, y0 < y1 else { return nil }
        for i in 0..<4 {
            let j = (i + 1) % 4
            // A corner of the box, and an edge along one axis to the next
            // corner (not a bow tie's diagonal).
            guard xs[i] == x0 || xs[i] == x1, ys[i] == y0 || ys[i] == y1, (xs[i] == xs[j]) != (ys[i] == ys[j]) else { return nil }
        }
        // Four different corners.
        for i in 0..<4 {
            for j in (i + 1)..<4 where xs[i] == xs[j] && ys[i] == ys[j] { return nil }
        }
        return (x0, y0, x1, y1)
    }

    /// The pixels of a quadrilateral whose vertices all lie on pixel
    /// corners and which is an axis-aligned rectangle; nil otherwise.
    private static func wholePixelRectangle(_ quad: UnsafeBufferPointer<CGPoint>) -> PixelRect? {
        guard let box = axisAlignedRectangle(quad) else { return nil }
        func whole(_ v: Double) -> Bool { v == v.rounded() && abs(v) < 1e9 }
        guard whole(box.x0), whole(box.x1), whole(box.y0), whole(box.y1) else { return nil }
        return PixelRect(x: Int(box.x0), y: Int(box.y0), width: Int(box.x1 - box.x0), height: Int(box.y1 - box.y0))
    }

    /// The polygon's vertices in pixel coordinates.
    private static func project(_ polygon: [CGPoint], _ m: CATransform3D) throws -> [CGPoint] {
        try [CGPoint](unsafeUninitializedCapacity: polygon.count) { buffer, count in
            count = try project(polygon, m, into: buffer).count
        }
    }

    /// The polygon's vertices in pixel coordinates, written into `buffer`
    /// (at least as long as the polygon); returns the part written.
    private static func project(_ polygon: [CGPoint], _ m: CATransform3D,
                                into buffer: UnsafeMutableBufferPointer<CGPoint>) throws -> UnsafeBufferPointer<CGPoint> {
        if !m.isFinite {
            for (i, v) in m.fields.enumerated() { try requireFinite(Double(v), "matrix entry \(i)") }
        }
        for (i, p) in polygon.enumerated() {
            try requireFinite(Double(p.x), "polygon vertex \(i) x")
            try requireFinite(Double(p.y), "polygon vertex \(i) y")
            let h = m.apply(x: p.x, y: p.y)
            guard h.w > 0 else {
                throw RasterError.invalidArgument(
                    what: "polygon vertex \(i)", reason: "maps to W = \(h.w); it must lie in front of the camera")
            }
            buffer.initializeElement(at: i, to: CGPoint(x: h.x / h.w, y: h.y / h.w))
        }
        return UnsafeBufferPointer(rebasing: buffer[..<polygon.count])
    }
}

/// A polygon painted: its coverage, and per covered pixel the local point
/// seen there, the shape's coverage and the source's colour, blended
/// source-over (`Pixmap.draw(_:)`).
package struct PolygonPainting: RowPaint {
    private enum Source: Sendable {
        case solid(PremultipliedColor)
        /// `texelForPixel`: the picture lands texel for pixel
        /// (`TextureSampler.landsTexelForPixel`), whatever its filter.
        case texture(TextureSampler, texels: [UInt8], texelForPixel: Bool)
        case gradient(GradientRamp)
    }
    private var mask: CoverageMask
    /// Bytes from one row of `mask` to the next: 0 when its rows are alike.
    private var maskStride: Int
    private var clip: CoverageMask?
    private let stage: PolygonStage
    private let source: Source

    /// `command` painted on a target of `bounds`; nil when it paints nothing.
    /// A gradient is read through the ramp `ramp` gives (one made for it,
    /// unless the caller keeps the tables of stops it has seen).
    package init?(_ command: PolygonPaint, within bounds: PixelRect,
                  ramp: (GradientFill) -> GradientRamp = { GradientRamp($0) }) throws {
        let opacity = try opacityByte(command.alpha, "polygon alpha")
        let covered = try Pixmap.coverage(of: command, within: bounds)
        guard opacity > 0, let covered else { return nil }
        let shape = try command.roundedRect.map(RoundedRectEvaluator.init)
        switch command.source {
        case .solid(let c):
            guard c.a > 0 else { return nil }
            source = .solid(c)
        case .texture(let t):
            let sampler = try TextureSampler(t)
            source = .texture(sampler, texels: t.pixmap.data,
                              texelForPixel: sampler.landsTexelForPixel(under: covered.inverse, over: covered.mask.bounds))
        case .gradient(let g):
            guard !g.stops.isEmpty else { return nil }
            source = .gradient(ramp(g))
        }
        mask = covered.mask
        maskStride = covered.rowsAreAlike ? 0 : covered.mask.bounds.width
        clip = command.clipMask
        stage = PolygonStage(inverse: covered.inverse, shape: shape, opacity: Double(opacity) / 255)
        if case .gradient = source, let clip, stage.isAffineWithoutShape {
            // A gradient through a mask path's coverage (lottie-ios masks
            // every gradient fill with its shape): the two coverages
            // multiplied once, here, so that the gradient's rows are
            // painted as an unclipped gradient's are.
            mask = Self.product(of: mask, stride: maskStride, and: clip)
            maskStride = mask.bounds.width
            self.clip = nil
        }
    }

    /// `mask` (rows `stride` apart: 0 for rows alike) times `clip` at every
    /// pixel, over `mask`'s bounds, which lie within `clip`'s.
    private static func product(of mask: CoverageMask, stride: Int, and clip: CoverageMask) -> CoverageMask {
        let mb = mask.bounds, cb = clip.bounds
        // Every byte written before it is read: not zeroed.
        var values = BufferPool.masks.take(count: mb.width * mb.height, zeroed: false)
        values.withUnsafeMutableBufferPointer { out in
            mask.values.withUnsafeBufferPointer { m in
                clip.values.withUnsafeBufferPointer { c in
                    guard let o = out.baseAddress, let m = m.baseAddress, let c = c.baseAddress else { return }
                    for y in 0..<mb.height {
                        let maskRow = m + y * stride, outRow = o + y * mb.width
                        let clipRow = c + (mb.minY + y - cb.minY) * cb.width + (mb.minX - cb.minX)
                        for x in 0..<mb.width {
                            outRow[x] = UInt8(truncatingIfNeeded: div255(UInt32(maskRow[x]) &* UInt32(clipRow[x])))
                        }
                    }
                }
            }
        }
        return CoverageMask(uncheckedBounds: mb, values: values, pooled: true)
    }

    package var area: PixelRect { mask.bounds }

    /// Gives the coverage it rasterized back to the pool (once painted).
    package consuming func recycle() { mask.recycle() }
    package var pixels: Int { mask.bounds.width * mask.bounds.height }

    package func paint(_ band: Range<Int>, of target: PixelRows) {
        // Choose the source once, so each row loop is specialised for it.
        switch source {
        case .solid(let color):
            paint(band, of: target, shader: SolidShader(color: color))
        case .texture(let sampler, let texels, let texelForPixel):
            texels.withUnsafeBufferPointer { texels in
                guard let t = texels.baseAddress else { return }
                if texelForPixel {
                    // A surface laid on the target's pixels, cut by a clip
                    // between pixels: each pixel its one texel.
                    paint(band, of: target, shader: NearestTextureShader(sampler: sampler, texels: t))
                    return
                }
                switch sampler.filter {
                case .linear, .smoothLinear:
                    paint(band, of: target, shader: LinearTextureShader(
                        sampler: sampler, texels: t, eased: sampler.filter == .smoothLinear))
                case .trilinear:
                    guard let footprint = stage.affineFootprint, !sampler.mipmaps.isEmpty else {
                        paint(band, of: target, shader: TextureShader(sampler: sampler, texels: t))
                        return
                    }
                    // Every pixel's footprint is the same: its levels are too.
                    let (lower, k) = sampler.trilinearLevels(at: footprint)
                    sampler.withLevel(lower, texels: t) { lowerLevel in
                        guard k > 0 else {
                            paint(band, of: target, shader: FixedLevelsTextureShader(sampler: sampler, lower: lowerLevel, upper: nil, k: 0))
                            return
                        }
                        sampler.withLevel(lower + 1, texels: t) { upperLevel in
                            paint(band, of: target, shader: FixedLevelsTextureShader(
                                sampler: sampler, lower: lowerLevel, upper: upperLevel, k: k))
                        }
                    }
                case .nearest:
                    paint(band, of: target, shader: NearestTextureShader(sampler: sampler, texels: t))
                }
            }
        case .gradient(let ramp):
            ramp.words.withUnsafeBufferPointer { table in
                guard let t = table.baseAddress else { return }
                let g = ramp.fill
                if g.shape == .axial, clip == nil, stage.isAffineWithoutShape {
                    paintAxial(band, of: target, ramp: ramp, table: t)
                } else if g.shape == .radial, clip == nil, stage.isAffineWithoutShape, g.end.x != g.start.x || g.end.y != g.start.y {
                    paintRadial(band, of: target, ramp: ramp, table: t)
                } else {
                    paint(band, of: target, shader: GradientShader(ramp: ramp, table: t))
                }
            }
        }
    }

    /// An axial gradient under an affine map, no shape, no clip (a mask
    /// path's is multiplied into its coverage first): along a
    /// row its parameter moves by a constant step, so each pixel's table
    /// entry is one multiply-add from the row's start. Where the gradient
    /// runs along the rows (a horizontal one, unturned) every row reads the
    /// same entries, looked up once; where it runs across them (a vertical
    /// one: `CAGradientLayer`'s default) a row is one colour.
    private func paintAxial(_ band: Range<Int>, of target: PixelRows, ramp: GradientRamp, table: UnsafePointer<UInt32>) {
        let (i00, i01, _, i10, i11, _, i20, i21, i22) = stage.inverse.h
        let g = ramp.fill
        let dx = g.end.x - g.start.x, dy = g.end.y - g.start.y
        let lengthSquared = dx * dx + dy * dy
        // position(px, py) = (t(px, py) − lower) · scale + ½, with t the
        // parameter at local point ((px·i00 + py·i10 + i20) / i22, (px·i01 + py·i11 + i21) / i22).
        let k = lengthSquared > 0 ? ramp.scale / (lengthSquared * i22) : 0
        let perX = (i00 * dx + i01 * dy) * k
        // The part of the position that no pixel changes: the start's own
        // parameter and the table's lower end, in entries.
        let fixed = ((g.start.x * dx + g.start.y * dy) / (lengthSquared > 0 ? lengthSquared : 1) + ramp.lower) * ramp.scale
        let row = { (py: Double) in
            AxialRow(atZero: ((py * i10 + i20) * dx + (py * i11 + i21) * dy) * k - fixed + 0.5, perX: perX)
        }
        // No product with py is anything but zero: every row's positions
        // are the first's, to the bit (but a zero's sign, which reads the
        // same entry).
        if (i10 == 0 || dx == 0) && (i11 == 0 || dy == 0), let first = band.first {
            let mb = mask.bounds
            let gradient = row(Double(first) + 0.5)
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: mb.width) { words in
                for i in words.indices { words[i] = GradientRamp.word(table, at: gradient.position(atCentre: Double(mb.minX + i) + 0.5)) }
                let colours = CopiedColours(words: UnsafePointer(words.baseAddress!) - mb.minX)
                paintGradientRows(band, of: target) { _ in colours }
            }
        } else if perX == 0 {
            // Zero times a pixel's centre: the row's one entry at every pixel.
            let x = Double(mask.bounds.minX) + 0.5
            paintGradientRows(band, of: target) { py in ConstantColour(colour: GradientRamp.word(table, at: row(py).position(atCentre: x))) }
        } else {
            paintGradientRows(band, of: target) { py in LookedUpColours(row: row(py), table: table) }
        }
    }

    /// A radial gradient under an affine map, no shape, no clip, its
    /// ellipse not flat in both directions: along a row the point's offset
    /// from the centre, in radii, moves by a constant step each way, so each
    /// pixel's entry is the square root of a sum of two squares of
    /// multiply-adds, with no division.
    private func paintRadial(_ band: Range<Int>, of target: PixelRows, ramp: GradientRamp, table: UnsafePointer<UInt32>) {
        let (i00, i01, _, i10, i11, _, i20, i21, i22) = stage.inverse.h
        let g = ramp.fill
        let rx = abs(g.end.x - g.start.x), ry = abs(g.end.y - g.start.y)
        // u = (x − sx) / rx at local x = (px·i00 + py·i10 + i20) / i22 (0 where rx is); v likewise.
        let ku = rx > 0 ? 1 / (rx * i22) : 0, kv = ry > 0 ? 1 / (ry * i22) : 0
        let su = rx > 0 ? g.start.x / rx : 0, sv = ry > 0 ? g.start.y / ry : 0
        let (uPerX, vPerX) = (i00 * ku, i01 * kv)
        let (lower, scale) = (ramp.lower, ramp.scale)
        paintGradientRows(band, of: target) { py in
            LookedUpColours(row: RadialRow(u: (py * i10 + i20) * ku - su, v: (py * i11 + i21) * kv - sv,
                                           uPerX: uPerX, vPerX: vPerX, lower: lower, scale: scale), table: table)
        }
    }

    /// Paints a gradient whose colours along each row `colours(py)` gives
    /// at each pixel centre: skipped four pixels at a time where none is
    /// covered, four blended (or stored, opaque) as one vector where all
    /// four are fully covered, else pixel by pixel. Compiled once for each
    /// kind of colours, not inlined: the axial painter's three loops inlined
    /// in it ran its general one 2.7% more instructions.
    @inline(never)
    private func paintGradientRows<Colours: GradientColours>(_ band: Range<Int>, of target: PixelRows,
                                                             colours makeColours: (Double) -> Colours) {
        let (mask, maskStride, stage) = (mask, maskStride, stage)
        mask.values.withUnsafeBufferPointer { maskValues in
            stage.coverageScale.withUnsafeBufferPointer { scale in
                guard let coverageBase = maskValues.baseAddress, let scale = scale.baseAddress else { return }
                let mb = mask.bounds
                // Full coverage scales by 255 (no opacity below 1): four full
                // coverage bytes are four pixels of the table's words as they are.
                let fullIsWhole = scale[255] == 255
                for y in band {
                    let colours = makeColours(Double(y) + 0.5)
                    let coverage = coverageBase + (y - mb.minY) * maskStride - mb.minX
                    let row = UnsafeMutableRawPointer(target.pixel(x: 0, y: y))
                    @inline(__always) func blendPixel(_ x: Int) {
                        let c = scale[Int(coverage[x])]
                        if c == 0 { return }
                        let word = colours.word(x)
                        blendWord(row + x * 4, c == 255 ? word : scaled(word, by: c))
                    }
                    var x = mb.minX
                    while x &+ 4 <= mb.maxX {
                        let four = UnsafeRawPointer(coverage + x).loadUnaligned(as: UInt32.self)
                        if four == 0 {
                            x &+= 4
                            continue
                        }
                        if four == 0xFFFF_FFFF && fullIsWhole {
                            let words = colours.words(x)
                            if (words &>> 24) == SIMD4(repeating: 255) {
                                (row + x &* 4).storeBytes(of: words, as: SIMD4<UInt32>.self)
                            } else {
                                blendWords(row + x &* 4, words)
                            }
                        } else {
                            for i in 0..<4 { blendPixel(x &+ i) }
                        }
                        x &+= 4
                    }
                    while x < mb.maxX {
                        blendPixel(x)
                        x &+= 1
                    }
                }
            }
        }
    }

    private func paint<Shader: PixelShader>(_ band: Range<Int>, of target: PixelRows, shader: Shader) {
        let (mask, maskStride, clip, stage) = (mask, maskStride, clip, stage)
        mask.values.withUnsafeBufferPointer { maskValues in
            (clip?.values ?? []).withUnsafeBufferPointer { clipValues in
                guard let coverage = maskValues.baseAddress else { return }
                let mb = mask.bounds
                for y in band {
                    let clipRow: UnsafePointer<UInt8>? = clip.flatMap { clip in
                        clipValues.baseAddress.map {
                            $0 + (y - clip.bounds.minY) * clip.bounds.width - clip.bounds.minX
                        }
                    }
                    stage.paintRow(
                        y: y, from: mb.minX, to: mb.maxX,
                        coverage: coverage + (y - mb.minY) * maskStride - mb.minX,
                        clipRow: clipRow, shader: shader,
                        destination: target.pixel(x: 0, y: y).assumingMemoryBound(to: UInt8.self))
                }
            }
        }
    }
}

/// A gradient's table positions along one row of pixels under an affine
/// map (`PolygonPainting.paintAxial`, `paintRadial`), at a pixel's centre
/// and at four of them.
private protocol GradientRow {
    func position(atCentre x: Double) -> Double
    func positions(atCentres x: SIMD4<Double>) -> SIMD4<Double>
}

/// An axial gradient's row: the position moves by `perX` a pixel.
private struct AxialRow: GradientRow {
    let atZero: Double, perX: Double
    @inline(__always) func position(atCentre x: Double) -> Double { atZero + x * perX }
    @inline(__always) func positions(atCentres x: SIMD4<Double>) -> SIMD4<Double> { x * perX + atZero }
}

/// A radial gradient's row: the offset from the centre in radii, (u, v) at
/// the row's x = 0, moves by (`uPerX`, `vPerX`) a pixel; the parameter is
/// its length.
private struct RadialRow: GradientRow {
    let u: Double, v: Double, uPerX: Double, vPerX: Double, lower: Double, scale: Double
    @inline(__always) func position(atCentre x: Double) -> Double {
        let (pu, pv) = (u + x * uPerX, v + x * vPerX)
        return ((pu * pu + pv * pv).squareRoot() - lower) * scale + 0.5
    }
    @inline(__always) func positions(atCentres x: SIMD4<Double>) -> SIMD4<Double> {
        let pu = x * uPerX + u, pv = x * vPerX + v
        return ((pu * pu + pv * pv).squareRoot() - lower) * scale + 0.5
    }
}

/// A gradient's colours along one row of pixels (`paintGradientRows`): the
/// word of pixel `x`, and of the four from `x`.
private protocol GradientColours {
    func word(_ x: Int) -> UInt32
    func words(_ x: Int) -> SIMD4<UInt32>
}

/// Looked up in the ramp's table at the row's positions.
private struct LookedUpColours<Row: GradientRow>: GradientColours {
    let row: Row, table: UnsafePointer<UInt32>
    @inline(__always) func word(_ x: Int) -> UInt32 { GradientRamp.word(table, at: row.position(atCentre: Double(x) + 0.5)) }
    @inline(__always) func words(_ x: Int) -> SIMD4<UInt32> {
        // Pixel centres as exact sums: each lane's position is the one pixel by pixel.
        GradientRamp.words(table, at: row.positions(atCentres: SIMD4<Double>(repeating: Double(x)) + SIMD4<Double>(0.5, 1.5, 2.5, 3.5)))
    }
}

/// Read from a row worked out before: pixel `x`'s word at `words[x]`.
private struct CopiedColours: GradientColours {
    let words: UnsafePointer<UInt32>
    @inline(__always) func word(_ x: Int) -> UInt32 { words[x] }
    @inline(__always) func words(_ x: Int) -> SIMD4<UInt32> { UnsafeRawPointer(words + x).loadUnaligned(as: SIMD4<UInt32>.self) }
}

/// One colour the row through.
private struct ConstantColour: GradientColours {
    let colour: UInt32
    @inline(__always) func word(_ x: Int) -> UInt32 { colour }
    @inline(__always) func words(_ x: Int) -> SIMD4<UInt32> { SIMD4(repeating: colour) }
}

/// What a polygon draw covers: its anti-aliased coverage in pixels, and the
/// inverse of its map, which takes each pixel back to the local point seen there.
package struct PolygonCoverage: Sendable {
    /// The coverage; when `rowsAreAlike`, its values are one row that every
    /// row of its bounds shares (a rectangle on pixel edges).
    package let mask: CoverageMask
    package let inverse: PlaneHomography
    package let rowsAreAlike: Bool
}

/// Where a polygon draw's colour comes from, per local point.
private protocol PixelShader {
    /// Whether the colour depends on the local point (a texture) or not (a
    /// solid colour, whose pixels then need no mapping back at all).
    static var needsLocalPoint: Bool { get }
    /// Whether the colour depends on the pixel's footprint too (a trilinear
    /// texture choosing its mipmap levels).
    var needsFootprint: Bool { get }
    /// The premultiplied colour at local point (x, y), channels 0...255.
    func shade(x: Double, y: Double, footprint: LocalFootprint?) -> (UInt32, UInt32, UInt32, UInt32)
}

private struct SolidShader: PixelShader {
    package static var needsLocalPoint: Bool { false }
    package var needsFootprint: Bool { false }
    package let color: PremultipliedColor
    @inline(__always)
    package func shade(x: Double, y: Double, footprint: LocalFootprint?) -> (UInt32, UInt32, UInt32, UInt32) {
        (UInt32(color.r), UInt32(color.g), UInt32(color.b), UInt32(color.a))
    }
}

/// A texture read as its filter says at each point: a trilinear one whose
/// footprint changes from pixel to pixel (a projective map) chooses its
/// levels at each.
private struct TextureShader: PixelShader {
    package static var needsLocalPoint: Bool { true }
    package var needsFootprint: Bool { sampler.filter == .trilinear }
    package let sampler: TextureSampler
    package let texels: UnsafePointer<UInt8>
    @inline(__always)
    package func shade(x: Double, y: Double, footprint: LocalFootprint?) -> (UInt32, UInt32, UInt32, UInt32) {
        sampler.sample(texels, x: x, y: y, footprint: footprint)
    }
}

/// A texture read at the texel each point lies in: a `nearest` filter, or
/// any filter where the picture lands texel for pixel (there every filter
/// reads that texel).
private struct NearestTextureShader: PixelShader {
    package static var needsLocalPoint: Bool { true }
    package var needsFootprint: Bool { false }
    package let sampler: TextureSampler
    package let texels: UnsafePointer<UInt8>
    @inline(__always)
    package func shade(x: Double, y: Double, footprint: LocalFootprint?) -> (UInt32, UInt32, UInt32, UInt32) {
        sampler.sampleNearest(texels, x: x, y: y)
    }
}

/// A texture read between its four nearest texels (its filter `linear`,
/// the usual one, or `smoothLinear` when `eased`: a magnified picture), the
/// filter chosen once per draw rather than per pixel.
private struct LinearTextureShader: PixelShader {
    package static var needsLocalPoint: Bool { true }
    package var needsFootprint: Bool { false }
    package let sampler: TextureSampler
    package let texels: UnsafePointer<UInt8>
    package let eased: Bool
    @inline(__always)
    package func shade(x: Double, y: Double, footprint: LocalFootprint?) -> (UInt32, UInt32, UInt32, UInt32) {
        sampler.sampleLinear(texels, x: x, y: y, eased: eased)
    }
}

/// A trilinear texture under an affine map: every pixel's footprint is
/// the same, so its two mipmap levels and their mix are chosen once a draw
/// (`TextureSampler.trilinearLevels`) rather than with a logarithm and a
/// lookup of each level at every pixel. The bytes `TextureShader` gives.
private struct FixedLevelsTextureShader: PixelShader {
    package static var needsLocalPoint: Bool { true }
    package var needsFootprint: Bool { false }
    package let sampler: TextureSampler
    package let lower: TextureSampler.BoundLevel
    package let upper: TextureSampler.BoundLevel?
    package let k: UInt32
    @inline(__always)
    package func shade(x: Double, y: Double, footprint: LocalFootprint?) -> (UInt32, UInt32, UInt32, UInt32) {
        sampler.sample(lower: lower, upper: upper, k: k, x: x, y: y)
    }
}

/// A gradient read at each pixel's local point from its colour table.
private struct GradientShader: PixelShader {
    package static var needsLocalPoint: Bool { true }
    package var needsFootprint: Bool { false }
    package let ramp: GradientRamp
    package let table: UnsafePointer<UInt32>
    @inline(__always)
    package func shade(x: Double, y: Double, footprint: LocalFootprint?) -> (UInt32, UInt32, UInt32, UInt32) {
        let w = ramp.word(table, x: x, y: y)
        return (w & 0xFF, (w >> 8) & 0xFF, (w >> 16) & 0xFF, w >> 24)
    }
}

/// The per-pixel work of a polygon draw, with everything hoisted out of the loop.
private struct PolygonStage {
    package let inverse: PlaneHomography
    package let shape: RoundedRectEvaluator?
    package let opacity: Double
    /// Local points whose whole pixel the rounded rectangle surely covers
    /// (`RoundedRectDistance.interiorBoxes`): there its coverage is exactly
    /// 1 and is not evaluated. Only for a filled shape (not a border ring)
    /// and an affine inverse map (the same pixel footprint everywhere);
    /// none otherwise. Most of a rounded layer's pixels fall in them.
    /// How many there are (0, 1 or 2); `across` is the first, `down` the
    /// second, an empty box where there is none.
    private let interiorCount: Int
    package typealias Box = RoundedRectDistance.Box
    private let across: Box, down: Box
    private static let emptyBox: Box = (minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
    /// What a pixel without a clip mask is scaled by, per coverage byte, at
    /// this draw's opacity (`CoverageScales`).
    package let coverageScale: [UInt32]

    package init(inverse: PlaneHomography, shape: RoundedRectEvaluator?, opacity: Double) {
        self.inverse = inverse
        self.shape = shape
        self.opacity = opacity
        coverageScale = opacity == 1 ? CoverageScales.opaque : CoverageScales.at(opacity: opacity)
        let (i00, i01, i02, i10, i11, i12, _, _, i22) = inverse.h
        guard let shape, shape.inner == nil, i02 == 0, i12 == 0, i22 > 0 else {
            interiorCount = 0
            (across, down) = (Self.emptyBox, Self.emptyBox)
            return
        }
        // Local units per pixel step, the same at every pixel of an affine map.
        let arms = shape.outer.interiorBoxes(reachX: 0.5 * (abs(i00) + abs(i10)) / i22,
                                             reachY: 0.5 * (abs(i01) + abs(i11)) / i22)
        switch (arms.across, arms.down) {
        case let (a?, d?): (interiorCount, across, down) = (2, a, d)
        case let (a?, nil), let (nil, a?): (interiorCount, across, down) = (1, a, Self.emptyBox)
        case (nil, nil): (interiorCount, across, down) = (0, Self.emptyBox, Self.emptyBox)
        }
    }

    /// The footprint of every pixel under an affine map (the one each
    /// pixel's `localFootprint` works out, to the bit); nil under a
    /// projective one, where it changes from pixel to pixel.
    package var affineFootprint: LocalFootprint? {
        let (i00, i01, i02, i10, i11, i12, _, _, i22) = inverse.h
        guard i02 == 0, i12 == 0 else { return nil }
        let invW = 1 / i22
        return LocalFootprint(xPerPx: i00 * invW, yPerPx: i01 * invW, xPerPy: i10 * invW, yPerPy: i11 * invW)
    }

    /// An affine map (W the same positive number everywhere) and no rounded shape.
    package var isAffineWithoutShape: Bool {
        let (_, _, i02, _, _, i12, _, _, i22) = inverse.h
        return shape == nil && i02 == 0 && i12 == 0 && i22 > 0
    }

    /// Whether local point (x, y) lies in an interior box.
    @inline(__always)
    private func inInterior(_ x: Double, _ y: Double) -> Bool {
        (x >= across.minX && x <= across.maxX && y >= across.minY && y <= across.maxY)
            || (x >= down.minX && x <= down.maxX && y >= down.minY && y <= down.maxY)
    }

    /// Paints columns `from ..< to` of row `y`. `coverage`, `clipRow` and
    /// `destination` point at the (possibly virtual) column 0 of the row.
    @inline(__always)
    package func paintRow<Shader: PixelShader>(
        y: Int, from: Int, to: Int, coverage: UnsafePointer<UInt8>, clipRow: UnsafePointer<UInt8>?,
        shader: Shader, destination: UnsafeMutablePointer<UInt8>
    ) {
        let (_, _, i02, _, _, i12, _, _, i22) = inverse.h
        if !Shader.needsLocalPoint, shape == nil, i02 == 0, i12 == 0, i22 > 0 {
            // A solid colour with nothing but edges and a mask to limit it,
            // under an affine map (W > 0 everywhere): no pixel needs its
            // local point, so none is computed.
            let (r, g, b, a) = shader.shade(x: 0, y: 0, footprint: nil)
            let word = pixelWord(r, g, b, a)
            let row = UnsafeMutableRawPointer(destination)
            if clipRow == nil {
                paintSolid(word, columns: from..<to, coverage: coverage, row: row)
                return
            }
            for x in from..<to {
                let m = coverage[x]
                if m == 0 { continue }
                var cover = Double(m) * (1.0 / 255) * opacity
                if let clipRow { cover *= Double(clipRow[x]) * (1.0 / 255) }
                let k = UInt32(cover * 255 + 0.5)
                if k == 0 { continue }
                blendWord(row + x * 4, k == 255 ? word : scaled(word, by: k))
            }
            return
        }
        if !Shader.needsLocalPoint, clipRow == nil, to - from >= 8, interiorCount > 0 {
            // A solid rounded shape under an affine map: the pixels whose local
            // points lie in an interior box need no mapping, as in the solid
            // path. A row crosses each box in one run; the two runs may
            // overlap (the plus sign's middle) or lie apart (a row cutting
            // past a corner).
            var first = interiorRun(y: y, from: from, to: to, in: across)
            var second = interiorCount > 1 ? interiorRun(y: y, from: from, to: to, in: down) : nil
            if let a = first, let b = second, b.lowerBound < a.lowerBound { (first, second) = (b, a) }
            let (r, g, b, a) = shader.shade(x: 0, y: 0, footprint: nil)
            let word = pixelWord(r, g, b, a)
            // Paints from column `x` to the end of `run`; returns the column after it.
            @inline(__always) func paint(_ run: ClosedRange<Int>?, from x: Int) -> Int {
                guard let run, run.upperBound >= x else { return x }
                let start = max(run.lowerBound, x)
                paintPixels(y: y, from: x, to: start, coverage: coverage, clipRow: nil, shader: shader, destination: destination)
                paintSolid(word, columns: start..<(run.upperBound + 1), coverage: coverage, row: UnsafeMutableRawPointer(destination))
                return run.upperBound + 1
            }
            let x = paint(second, from: paint(first, from: from))
            paintPixels(y: y, from: x, to: to, coverage: coverage, clipRow: nil, shader: shader, destination: destination)
            return
        }
        paintPixels(y: y, from: from, to: to, coverage: coverage, clipRow: clipRow, shader: shader, destination: destination)
    }

    /// Blends the solid pixel `word` over `columns` of `row`, each scaled by
    /// its coverage byte as the general path scales it (`coverageScale`).
    @inline(__always)
    private func paintSolid(_ word: UInt32, columns: Range<Int>, coverage: UnsafePointer<UInt8>, row: UnsafeMutableRawPointer) {
        coverageScale.withUnsafeBufferPointer { scale in
            blendSolid(word, coverage: coverage + columns.lowerBound, count: columns.count,
                       scale: scale.baseAddress!, into: row + columns.lowerBound * 4)
        }
    }

    /// Whether the local point of pixel `x` of row `y` lies in `box`,
    /// computed exactly as `paintPixels` computes it.
    @inline(__always)
    private func isInterior(x: Int, y: Int, in box: Box) -> Bool {
        let (i00, i01, i02, i10, i11, i12, i20, i21, i22) = inverse.h
        let px = Double(x) + 0.5, py = Double(y) + 0.5
        let u = px * i00 + py * i10 + i20, v = px * i01 + py * i11 + i21, w = px * i02 + py * i12 + i22
        guard w > 0 else { return false }
        let invW = 1 / w
        let lx = u * invW, ly = v * invW
        return lx.isFinite && ly.isFinite && lx >= box.minX && lx <= box.maxX && ly >= box.minY && ly <= box.maxY
    }

    /// The columns of row `y` (within `from ..< to`) whose local points lie in
    /// `box`, or nil when there are none or they cannot be found
    /// exactly. Under an affine map the local point moves linearly along the
    /// row, so the run is solved for, then its two ends are checked with the
    /// per-pixel test itself: the computed local coordinates are monotonic
    /// in x (rounding is monotonic), so when both ends pass, every column
    /// between passes, and the run is exactly the pixels the test accepts.
    private func interiorRun(y: Int, from: Int, to: Int, in box: Box) -> ClosedRange<Int>? {
        let (i00, i01, _, i10, i11, _, i20, i21, i22) = inverse.h
        let py = Double(y) + 0.5
        var lo = Double(from), hi = Double(to - 1)
        // x where a + b·(x + 0.5) lies in [minimum, maximum].
        func limit(_ a: Double, _ b: Double, _ minimum: Double, _ maximum: Double) {
            if b == 0 {
                if a < minimum || a > maximum { lo = 1; hi = 0 }
                return
            }
            let e0 = (minimum - a) / b - 0.5, e1 = (maximum - a) / b - 0.5
            lo = max(lo, min(e0, e1)); hi = min(hi, max(e0, e1))
        }
        limit((py * i10 + i20) / i22, i00 / i22, box.minX, box.maxX)
        limit((py * i11 + i21) / i22, i01 / i22, box.minY, box.maxY)
        guard lo.isFinite, hi.isFinite, lo <= hi else { return nil }
        var x0 = Int(lo.rounded(.up)), x1 = Int(hi.rounded(.down))
        // Rounding in the solve may put an end a column out: step inwards,
        // at most twice, testing each column once.
        var first = x0 <= x1 && isInterior(x: x0, y: y, in: box)
        for _ in 0..<2 where !first && x0 <= x1 {
            x0 += 1
            first = x0 <= x1 && isInterior(x: x0, y: y, in: box)
        }
        guard first else { return nil }
        var last = x0 == x1 || isInterior(x: x1, y: y, in: box)
        for _ in 0..<2 where !last && x0 < x1 {
            x1 -= 1
            last = x0 == x1 || isInterior(x: x1, y: y, in: box)
        }
        guard last else { return nil }
        return x0...x1
    }

    /// Paints columns `from ..< to` of row `y` pixel by pixel: each pixel's
    /// local point, the shape's coverage there, the shader's colour.
    @inline(__always)
    private func paintPixels<Shader: PixelShader>(
        y: Int, from: Int, to: Int, coverage: UnsafePointer<UInt8>, clipRow: UnsafePointer<UInt8>?,
        shader: Shader, destination: UnsafeMutablePointer<UInt8>
    ) {
        guard from < to else { return }
        let (i00, i01, i02, i10, i11, i12, i20, i21, i22) = inverse.h
        let py = Double(y) + 0.5
        // The shape, bound once: read through `self` in the loop, the
        // optional's large payload would be copied for every pixel.
        let shape = self.shape
        // Under an affine map W is i22 at every pixel (px · 0 + py · 0 + i22,
        // exactly), so its reciprocal is the same bits computed once.
        let affine = i02 == 0 && i12 == 0
        let affineInvW = 1 / i22
        if isAffineWithoutShape, clipRow == nil, !shader.needsFootprint {
            // The common textured or gradient draw: an affine map, no rounded
            // shape, no clip. The same arithmetic as the loop below, less
            // what it skips (the shape, the footprint, the clip), with each
            // coverage byte's scale from the table.
            coverageScale.withUnsafeBufferPointer { scale in
                for x in from..<to {
                    let m = coverage[x]
                    if m == 0 { continue }
                    let px = Double(x) + 0.5
                    let lx = (px * i00 + py * i10 + i20) * affineInvW, ly = (px * i01 + py * i11 + i21) * affineInvW
                    guard lx.isFinite, ly.isFinite else { continue }
                    let k = scale[Int(m)]
                    if k == 0 { continue }
                    let (r, g, b, a) = shader.shade(x: lx, y: ly, footprint: nil)
                    let word = pixelWord(r, g, b, a)
                    blendWord(UnsafeMutableRawPointer(destination + x * 4), k == 255 ? word : scaled(word, by: k))
                }
            }
            return
        }
        for x in from..<to {
            let m = coverage[x]
            if m == 0 { continue }
            let px = Double(x) + 0.5
            // [px py 1] · H⁻¹ = [x y 1] / W: the local point at the pixel centre.
            let u = px * i00 + py * i10 + i20, v = px * i01 + py * i11 + i21, w = px * i02 + py * i12 + i22
            // Anti-aliased border pixels of a plane near the horizon can have
            // centres beyond it; they show nothing of the plane.
            guard w > 0 else { continue }
            let invW = affine ? affineInvW : 1 / w
            let lx = u * invW, ly = v * invW
            guard lx.isFinite, ly.isFinite else { continue }

            var cover = Double(m) * (1.0 / 255)
            @inline(__always) func localFootprint() -> LocalFootprint {
                LocalFootprint(
                    xPerPx: (i00 - lx * i02) * invW, yPerPx: (i01 - ly * i02) * invW,
                    xPerPy: (i10 - lx * i12) * invW, yPerPy: (i11 - ly * i12) * invW)
            }
            let footprint = shader.needsFootprint ? localFootprint() : nil
            if inInterior(lx, ly) {
                // Inside the shape by more than a pixel: its coverage is 1.
            } else if let shape {
                let fp = footprint ?? localFootprint()
                // The polygon is usually the very rectangle the rounded shape
                // rounds, so their straight edges coincide: multiplying would
                // count the edge twice (½·½ = ¼); the minimum is exact there and
                // for nested shapes.
                cover = min(cover, shape.coverage(x: lx, y: ly, footprint: fp))
            }
            cover *= opacity
            if let clipRow { cover *= Double(clipRow[x]) * (1.0 / 255) }
            let k = UInt32(cover * 255 + 0.5)
            if k == 0 { continue }

            let (r, g, b, a) = shader.shade(x: lx, y: ly, footprint: footprint)
            let word = pixelWord(r, g, b, a)
            blendWord(UnsafeMutableRawPointer(destination + x * 4), k == 255 ? word : scaled(word, by: k))
        }
    }
}
