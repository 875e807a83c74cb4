import Synchronization
// The fast paths of the raster stages give, byte for byte, what the plain
// per-channel, per-pixel arithmetic gives.
import Foundation
import Testing
@testable import LaminaRender
@testable import LaminaCPU
@testable import LaminaRaster
@testable import LaminaCore
import LaminaGeometry

@Suite struct FastPathTests {
    @Test func scaledWordsRoundAsDiv255DoesPerChannel() {
        // Every channel value against every scale, in each of the four lanes.
        for k in UInt32(0)...255 {
            for v in UInt32(0)...255 {
                let pixel = v | (255 &- v) << 8 | (v / 2) << 16 | (v ^ 0x5A) << 24
                let expected = pixelWord(div255(v &* k), div255((255 &- v) &* k), div255((v / 2) &* k), div255((v ^ 0x5A) &* k))
                if scaled(pixel, by: k) != expected {
                    Issue.record("scaled(\(pixel), by: \(k))")
                    return
                }
            }
        }
    }

    @Test func sourceOverOfWordsIsTheChannelFormula() {
        var random = SeededRandom(seed: 0xB1E4D)
        for _ in 0..<100_000 {
            let a = UInt32(random.int(0...255))
            let s = (0..<3).map { _ in UInt32(random.int(0...Int(a))) } + [a]
            let d = (0..<4).map { _ in UInt32(random.int(0...255)) }
            let expected = (0..<4).map { s[$0] &+ div255(d[$0] &* (255 &- a)) }
            var bytes = d.map(UInt8.init)
            bytes.withUnsafeMutableBufferPointer { blendScaled($0.baseAddress!, s[0], s[1], s[2], s[3]) }
            #expect(bytes.map(UInt32.init) == expected)
        }
    }

    @Test func compositingThroughAMaskIsCompositingTheTintedMask() throws {
        var random = SeededRandom(seed: 0x7147)
        var mask = try Pixmap(width: 37, height: 23)
        mask.withUnsafeMutableData { data in
            for i in stride(from: 0, to: data.count, by: 4) {
                let a = UInt8(random.int(0...255))
                data[i] = a; data[i + 1] = a; data[i + 2] = a; data[i + 3] = a
            }
        }
        let color = PremultipliedColor(r: 40, g: 20, b: 90, a: 128)
        for alpha in [1.0, 0.35, 0.0] {
            var base = try Pixmap(width: 50, height: 30)
            base.withUnsafeMutableData { data in
                for i in data.indices { data[i] = UInt8(random.int(0...255)) | (i % 4 == 3 ? 0xFF : 0) }
            }
            var a = base, b = base
            try a.composite(mask.tinted(with: color), atX: 5, y: -3, alpha: alpha)
            try b.compositeTinted(color, through: mask, atX: 5, y: -3, alpha: alpha)
            #expect(a.data == b.data, "alpha \(alpha)")
        }
    }

    /// A solid rounded rectangle painted through a clip mask that covers
    /// everything takes the per-pixel path; without one it takes the
    /// interior run. Both must give the same bytes, under any affine map.
    @Test func theInteriorRunPaintsWhatThePixelPathPaints() throws {
        var random = SeededRandom(seed: 0x1A7E)
        for trial in 0..<60 {
            let w = 20 + Double(random.int(0...120)), h = 10 + Double(random.int(0...80))
            let radius = Double(random.int(0...Int(min(w, h) / 2)))
            var m = CATransform3D.identity
            let angle = trial % 3 == 0 ? 0 : Double(random.int(0...628)) / 100
            let scale = 0.5 + Double(random.int(0...300)) / 100
            m.m11 = cos(angle) * scale; m.m12 = sin(angle) * scale
            m.m21 = -sin(angle) * scale * (trial % 5 == 0 ? 0.4 : 1); m.m22 = cos(angle) * scale
            m.m41 = 100 + Double(random.int(0...1000)) / 37; m.m42 = 90 + Double(random.int(0...1000)) / 41
            var paint = PolygonPaint(rect: CGRect(x: 0, y: 0, width: w, height: h), transform: m,
                                     source: .solid(PremultipliedColor(r: 200, g: 100, b: 50, a: 230)))
            paint.roundedRect = RoundedRectCoverage(rect: CGRect(x: 0, y: 0, width: w, height: h), radii: CornerRadii(uniform: radius))
            paint.alpha = trial % 2 == 0 ? 1 : 0.6
            var fast = try Pixmap(width: 260, height: 240), slow = fast
            try fast.draw(paint)
            paint.clipMask = try CoverageMask(bounds: fast.bounds, values: [UInt8](repeating: 255, count: 260 * 240))
            try slow.draw(paint)
            #expect(fast.data == slow.data, "trial \(trial)")
            #expect(fast.data.contains { $0 != 0 }, "trial \(trial) painted something")
        }
    }
}

/// Pictures drawn with their loops split into bands of rows on several
/// threads are the bytes drawn on one.
@Suite(.serialized) struct RowBandsTests {
    @Test func bandsFollowTheIdleCores() {
        #expect(RowBands.bands(rows: 1000, pixels: 100) == 1, "small loops stay on one thread")
        // Alone, every core (unless another test's frame is in flight in this
        // process at the same moment: then fewer, never more).
        let alone = RowBands.drawingFrame { RowBands.bands(rows: 1000, pixels: 1 << 20) }
        #expect((1...min(RowBands.cores, RowBands.maximumBands)).contains(alone))
        // As many frames as cores: nothing is split.
        let busy = (0..<RowBands.cores).reduce({ RowBands.bands(rows: 1000, pixels: 1 << 20) }) { inner, _ in
            { RowBands.drawingFrame(inner) }
        }()
        #expect(busy == 1)
    }

    @Test func everyJobRunsOnce() {
        for count in [0, 1, 2, 7, 33, 1000] {
            let runs = Mutex([Int](repeating: 0, count: count))
            RowBands.drawingFrame {
                RowBands.forEachJob(count: count) { job in runs.withLock { $0[job] += 1 } }
            }
            #expect(runs.withLock { $0 } == [Int](repeating: 1, count: count), "\(count) jobs")
        }
    }

    @Test func finerBandsStillCoverEveryRowOnce() {
        let seen = Mutex([Int](repeating: 0, count: 1000))
        let bands = Mutex(0)
        RowBands.drawingFrame {
            RowBands.forEach(rows: 0..<1000, pixels: 1 << 20, bandsPerThread: 4) { band in
                bands.withLock { $0 += 1 }
                seen.withLock { for y in band { $0[y] += 1 } }
            }
        }
        #expect(seen.withLock { $0 } == [Int](repeating: 1, count: 1000))
        // How many bands depends on the frames other tests have in flight;
        // never more than four a thread.
        #expect((1...(4 * RowBands.maximumBands)).contains(bands.withLock { $0 }))
    }

    /// A card: a rounded translucent panel with a shadow over a background,
    /// holding a tilted rounded layer with a border and a group-faded pair.
    static func card() throws -> RenderPlan {
        func layer(_ w: Double, _ h: Double, at x: Double, _ y: Double, _ color: RGBA?, _ m: CATransform3D = .identity) -> RenderLayer {
            var l = RenderLayer()
            l.bounds = CGRect(x: 0, y: 0, width: w, height: h)
            l.transformToSuperlayer = CATransform3D(translationX: -w / 2, y: -h / 2, z: 0).concatenating(m)
                .concatenating(CATransform3D(translationX: x, y: y, z: 0))
            l.backgroundColor = color
            return l
        }
        var root = layer(300, 200, at: 150, 100, RGBA(red: 0.1, green: 0.1, blue: 0.3, alpha: 1))
        var panel = layer(240, 150, at: 150, 100, RGBA(red: 1, green: 1, blue: 1, alpha: 0.9))
        panel.cornerRadii = CornerRadii(uniform: 20)
        panel.shadow = RenderShadow(color: .black, opacity: 0.4, offset: CGSize(width: 0, height: 8), radius: 14)
        var tilted = layer(80, 60, at: 80, 70, RGBA(red: 0.9, green: 0.3, blue: 0.2, alpha: 1),
                           CATransform3DMakeRotation(0.4, 0, 0, 1))
        tilted.cornerRadii = CornerRadii(uniform: 12)
        tilted.borderWidth = 3
        tilted.borderColor = RGBA(red: 0.2, green: 0.2, blue: 0.2, alpha: 1)
        var group = layer(100, 80, at: 170, 90, nil)
        group.opacity = 0.6
        group.sublayers = [layer(60, 60, at: 40, 40, RGBA(red: 0, green: 0.6, blue: 0.3, alpha: 1)),
                           layer(60, 60, at: 60, 45, RGBA(red: 0.2, green: 0.3, blue: 0.9, alpha: 1))]
        // Twenty stars as path fills: their coverage is rasterized ahead, in parallel.
        var stars = layer(300, 200, at: 150, 100, nil)
        stars.content = (0..<20).map { i in
            let cx = 20 + Double(i % 5) * 60, cy = 30 + Double(i / 5) * 45, r = 12 + Double(i % 3) * 4
            return .fill(FillContent(outline: .polygons(
                [(0..<10).map { k in
                    let a = Double(k) * .pi / 5 + Double(i) * 0.3, rk = k % 2 == 0 ? r : r * 0.45
                    return CGPoint(x: cx + rk * cos(a), y: cy + rk * sin(a))
                }]
            ), evenOdd: i % 2 == 0, color: RGBA(red: 1, green: 0.8, blue: 0.1 * Double(i % 10), alpha: 0.8),
               bounds: CGRect(x: cx - r, y: cy - r, width: 2 * r, height: 2 * r)))
        }
        panel.sublayers = [tilted, group]
        root.sublayers = [panel, stars]
        return try RenderPlanner().plan(root, canvas: RenderCanvas(width: 300, height: 200, scale: 2))
    }

    @Test func splitPicturesAreTheSameBytes() throws {
        // Every stage that splits: solid polygons with rounded shapes,
        // composites of group surfaces, a shadow's blur and its tinted
        // composite, path coverage rasterized ahead on several threads.
        let plan = try Self.card()
        func draw(bands: Int?) throws -> [UInt8] {
            RowBands.forcedBands = bands
            defer { RowBands.forcedBands = nil }
            return try CPURenderer().render(plan).pixelBytes
        }
        let whole = try draw(bands: 1)
        for bands in [2, 3, 7] {
            #expect(try draw(bands: bands) == whole, "\(bands) bands")
        }
    }
}

/// A textured draw of part of a texture landing texel for pixel is copied,
/// not resampled, and gives the bytes resampling gives.
@Suite struct AlignedPlacementTests {
    @Test func partsOfATextureCopyAsTheyResample() throws {
        var random = SeededRandom(seed: 0xA11E)
        var texture = try Pixmap(width: 30, height: 20)
        texture.withUnsafeMutableData { data in
            for i in stride(from: 0, to: data.count, by: 4) {
                let a = random.int(0...255)
                data[i + 3] = UInt8(a)
                for c in 0..<3 { data[i + c] = UInt8(random.int(0...a)) }
            }
        }
        let local = CGRect(x: -5, y: 3, width: 15, height: 10)
        var matrix = CATransform3D.identity
        matrix.m11 = 2; matrix.m22 = 2; matrix.m41 = 17; matrix.m42 = 9
        var table = TextureTable<Pixmap>()
        table.insert(texture, for: .image(ImageID(0)))
        let xs: [CGFloat] = [-5, -1.5, 4.5, 10, -1.25], ys: [CGFloat] = [3, 4, 8.5, 13]
        for (x0, x1) in [(0, 3), (1, 2), (0, 1), (4, 2), (2, 3)] {
            for (y0, y1) in [(0, 3), (1, 2), (2, 3)] {
                let polygon = [CGPoint(x: xs[x0], y: ys[y0]), CGPoint(x: xs[x1], y: ys[y0]),
                               CGPoint(x: xs[x1], y: ys[y1]), CGPoint(x: xs[x0], y: ys[y1])]
                for opacity in [1.0, 0.55] {
                    var base = try Pixmap(width: 60, height: 45)
                    base.withUnsafeMutableData { data in for i in data.indices where i % 4 == 3 { data[i] = 255 } }
                    var copied = base, resampled = base
                    let draw = PolygonDraw(matrix: matrix, polygon: polygon,
                                           fill: .texture(.image(ImageID(0)), localRect: local,
                                                          uvRect: CGRect(x: 0, y: 0, width: 1, height: 1),
                                                          filter: .linear, tint: .white),
                                           opacity: opacity)
                    try CPUPainter().drawPolygon(draw, textures: table, into: &copied)
                    try resampled.draw(PolygonPaint(polygon: polygon, transform: matrix,
                                                    source: .texture(MappedTexture(pixmap: texture, localRect: local)),
                                                    alpha: opacity))
                    #expect(copied.data == resampled.data, "x \(x0)-\(x1), y \(y0)-\(y1), opacity \(opacity)")
                }
            }
        }
    }
}

/// A rectangle whose edges fall on pixel edges gets its coverage without
/// rasterizing: the same values the rasterizer finds.
@Suite struct WholePixelRectangleTests {
    @Test(arguments: [
        // x0, y0, x1, y1, and whether the corners go the other way round.
        (2.0, 3.0, 17.0, 9.0, false), (2.0, 3.0, 17.0, 9.0, true),
        (-4.0, -2.0, 6.0, 5.0, false),   // partly off the target
        (10.0, 1.0, 40.0, 30.0, true),   // past the right and bottom edges
        (0.0, 0.0, 24.0, 16.0, false),   // the whole target
    ])
    func coverageIsWhatRasterizingFinds(x0: Double, y0: Double, x1: Double, y1: Double, reversed: Bool) throws {
        let bounds = PixelRect(width: 24, height: 16)
        var quad = [CGPoint(x: x0, y: y0), CGPoint(x: x1, y: y0), CGPoint(x: x1, y: y1), CGPoint(x: x0, y: y1)]
        if reversed { quad.reverse() }
        // Local units twice the pixels', moved by whole pixels: still on pixel edges.
        var m = CATransform3D.identity
        m.m11 = 2; m.m22 = 2; m.m41 = 0; m.m42 = 0
        let local = quad.map { CGPoint(x: $0.x / 2, y: $0.y / 2) }
        let paint = PolygonPaint(polygon: local, transform: m, source: .solid(.clear))
        let fast = try #require(try Pixmap.coverage(of: paint, within: bounds))
        #expect(fast.rowsAreAlike)
        let exact = try CoverageRasterizer(clip: bounds).rasterize(contours: [quad], fillRule: .nonZero)
        for y in 0..<bounds.height {
            for x in 0..<bounds.width {
                let value = fast.mask.bounds.contains(x: x, y: y) ? fast.mask.values[x - fast.mask.bounds.minX] : 0
                #expect(value == exact.coverage(x: x, y: y), "pixel \(x), \(y)")
            }
        }
    }

    @Test func otherQuadsAreRasterized() throws {
        let bounds = PixelRect(width: 24, height: 16)
        for quad in [
            [CGPoint(x: 2, y: 3), CGPoint(x: 17, y: 9), CGPoint(x: 17, y: 3), CGPoint(x: 2, y: 9)],  // a bow tie
            [CGPoint(x: 2.5, y: 3), CGPoint(x: 17, y: 3), CGPoint(x: 17, y: 9), CGPoint(x: 2.5, y: 9)],  // off the grid
            [CGPoint(x: 2, y: 3), CGPoint(x: 17, y: 4), CGPoint(x: 17, y: 9), CGPoint(x: 2, y: 9)],  // not a rectangle
        ] {
            let paint = PolygonPaint(polygon: quad, transform: .identity, source: .solid(.clear))
            let covered = try #require(try Pixmap.coverage(of: paint, within: bounds))
            #expect(!covered.rowsAreAlike)
        }
    }
}

/// Where the polygon stage skips a rounded shape's coverage (its interior
/// boxes), the coverage it skips is exactly 1, for every footprint.
@Suite struct InteriorBoxTests {
    @Test func theShapeWhollyCoversEveryPixelCentredInAnInteriorBox() throws {
        var random = SeededRandom(seed: 0xB0C5)
        var checked = 0
        for trial in 0..<400 {
            let w = 4 + Double(random.int(0...400)) / 4, h = 4 + Double(random.int(0...400)) / 4
            let most = min(w, h) / 2
            func radius() -> Double { Double(random.int(0...100)) / 100 * most }
            let radii = trial % 3 == 0
                ? CornerRadii(uniform: radius())
                : CornerRadii(minXMinY: radius(), maxXMinY: radius(), maxXMaxY: radius(), minXMaxY: radius())
            let shape = try RoundedRectEvaluator(RoundedRectCoverage(rect: CGRect(x: -3, y: 2, width: w, height: h), radii: radii))
            // An affine footprint: rotated, scaled, sheared.
            let angle = Double(random.int(0...628)) / 100, scale = 0.2 + Double(random.int(0...400)) / 100
            let shear = trial % 4 == 0 ? Double(random.int(0...100)) / 100 : 0
            let footprint = LocalFootprint(xPerPx: cos(angle) * scale, yPerPx: sin(angle) * scale,
                                           xPerPy: (-sin(angle) + shear) * scale, yPerPy: cos(angle) * scale)
            let reachX = 0.5 * (abs(footprint.xPerPx) + abs(footprint.xPerPy))
            let reachY = 0.5 * (abs(footprint.yPerPx) + abs(footprint.yPerPy))
            let arms = shape.outer.interiorBoxes(reachX: reachX, reachY: reachY)
            for box in [arms.across, arms.down].compactMap({ $0 }) {
                for _ in 0..<40 {
                    let x = box.minX + (box.maxX - box.minX) * Double(random.int(0...1000)) / 1000
                    let y = box.minY + (box.maxY - box.minY) * Double(random.int(0...1000)) / 1000
                    #expect(shape.coverage(x: x, y: y, footprint: footprint) == 1, "trial \(trial) at \(x), \(y)")
                    checked += 1
                }
            }
        }
        #expect(checked > 10_000)
    }
}

/// Small solid draws go through their shape's own frame (`RepeatedShapes`):
/// what they paint is what the plain path paints (to within one level, its
/// arithmetic rounds in a different frame), the same shape moved by whole
/// pixels paints the same bytes moved, and a shape seen before is reused.
@Suite struct RepeatedShapesTests {
    @Test func shapesPaintWhatThePlainPathPaintsAndRepeatExactly() throws {
        var random = SeededRandom(seed: 0x5EA1)
        var identical = 0
        for trial in 0..<60 {
            let w = 6 + Double(random.int(0...60)), h = 6 + Double(random.int(0...40))
            let radius = Double(random.int(0...Int(min(w, h) / 2)))
            let angle = Double(random.int(0...628)) / 100
            var m = CATransform3D.identity
            m.m11 = cos(angle); m.m12 = sin(angle); m.m21 = -sin(angle); m.m22 = cos(angle)
            // Places on a 1/64 pixel grid (as layouts put layers), so that moving
            // by whole pixels is exact; other places are checked further down.
            m.m41 = 60 + Double(random.int(0...1000)) / 64; m.m42 = 50 + Double(random.int(0...1000)) / 64
            let color = RGBA(red: 0.8, green: 0.3, blue: 0.1, alpha: trial % 3 == 0 ? 0.6 : 1)
            let draw = PolygonDraw(
                matrix: m, polygon: CGRect(x: -w / 2, y: -h / 2, width: w, height: h).cornerPolygon, fill: .color(color),
                coverage: trial % 4 == 0 ? nil : RoundedRectCoverage(rect: CGRect(x: -w / 2, y: -h / 2, width: w, height: h),
                                                                   radii: CornerRadii(uniform: radius),
                                                                   borderWidth: trial % 5 == 0 ? 2 : nil),
                opacity: trial % 2 == 0 ? 1 : 0.7)
            let shapes = RepeatedShapes()
            var plain = try Pixmap(width: 240, height: 200, filledWith: PremultipliedColor(r: 10, g: 40, b: 90, a: 255))
            var framed = plain, moved = plain
            let premultiplied = PremultipliedColor(r: UInt8((0.8 * color.alpha * 255).rounded()), g: UInt8((0.3 * color.alpha * 255).rounded()),
                                                   b: UInt8((0.1 * color.alpha * 255).rounded()), a: UInt8((color.alpha * 255).rounded()))
            try plain.draw(PolygonPaint(polygon: draw.polygon, transform: m, source: .solid(premultiplied),
                                        roundedRect: draw.coverage, alpha: draw.opacity))
            let placement = try #require(shapes.placement(of: draw, within: framed.bounds), "trial \(trial)")
            if let paint = try shapes.paint(of: draw, at: placement, color: premultiplied, within: framed.bounds) { framed.paint(paint) }
            let differences = zip(plain.data, framed.data).map { abs(Int($0) - Int($1)) }
            #expect(differences.max() ?? 0 <= 1, "trial \(trial)")
            if differences.allSatisfy({ $0 == 0 }) { identical += 1 }

            // The same shape 37 pixels right and 23 down: the same bytes, moved, from the shape already found.
            var shifted = draw
            shifted.matrix.m41 += 37; shifted.matrix.m42 += 23
            let again = try #require(shapes.placement(of: shifted, within: moved.bounds))
            #expect(again.matrix == placement.matrix, "trial \(trial): the same frame")
            if let paint = try shapes.paint(of: shifted, at: again, color: premultiplied, within: moved.bounds) { moved.paint(paint) }
            for y in 0..<(200 - 23) {
                for x in 0..<(240 - 37) {
                    let a = (y * 240 + x) * 4, b = ((y + 23) * 240 + x + 37) * 4
                    // The background is one colour: every pixel of the overlap must match.
                    if framed.data[a..<a + 4] != moved.data[b..<b + 4] {
                        Issue.record("trial \(trial): pixel \(x), \(y) differs once moved")
                    }
                }
            }
        }
        #expect(identical > 30, "most draws come out the same bytes as the plain path (\(identical) of 60)")
    }

    /// One table for many shapes, some differing only in the last bit of
    /// their opacity or a corner: each looked-up shape is its own, as a
    /// fresh table gives it, however many share the table (or a hash).
    @Test func shapesThatDifferByABitAreNotConfused() throws {
        let shared = RepeatedShapes()
        let color = PremultipliedColor(r: 200, g: 90, b: 20, a: 255)
        var draws: [PolygonDraw] = []
        for i in 0..<40 {
            var m = CATransform3D.identity
            m.m41 = 30 + Double(i % 7) / 8; m.m42 = 20 + Double(i % 5) / 8
            let rect = CGRect(x: 0, y: 0, width: 12 + Double(i % 3), height: 9)
            let opacity = 0.7
            draws.append(PolygonDraw(matrix: m, polygon: rect.cornerPolygon, fill: .color(.white),
                                     coverage: RoundedRectCoverage(rect: rect, radii: CornerRadii(uniform: Double(i % 4))),
                                     opacity: i % 2 == 0 ? opacity : opacity.nextUp))
        }
        for round in 0..<2 {
            for (i, draw) in draws.enumerated() {
                var fromShared = try Pixmap(width: 80, height: 60), fromFresh = fromShared
                let placement = try #require(shared.placement(of: draw, within: fromShared.bounds))
                if let paint = try shared.paint(of: draw, at: placement, color: color, within: fromShared.bounds) { fromShared.paint(paint) }
                let fresh = RepeatedShapes()
                if let paint = try fresh.paint(of: draw, at: placement, color: color, within: fromFresh.bounds) { fromFresh.paint(paint) }
                let same = fromShared.data == fromFresh.data  // (not the arrays in a failure's message)
                #expect(same, "round \(round), draw \(i)")
            }
        }
    }

    /// Anywhere, not only on a grid: within one level of the plain path.
    @Test func shapesAnywhereStayWithinOneLevel() throws {
        var random = SeededRandom(seed: 0x5EA2)
        for trial in 0..<40 {
            let w = 6 + Double(random.int(0...50)), h = 6 + Double(random.int(0...50))
            let angle = Double(random.int(0...628)) / 100
            var m = CATransform3D.identity
            m.m11 = cos(angle); m.m12 = sin(angle); m.m21 = -sin(angle); m.m22 = cos(angle)
            m.m41 = 60 + Double(random.int(0...100_000)) / 997; m.m42 = 50 + Double(random.int(0...100_000)) / 991
            let rect = CGRect(x: -w / 2, y: -h / 2, width: w, height: h)
            let draw = PolygonDraw(matrix: m, polygon: rect.cornerPolygon, fill: .color(.white),
                                   coverage: RoundedRectCoverage(rect: rect, radii: CornerRadii(uniform: min(w, h) / 4)))
            let shapes = RepeatedShapes()
            var plain = try Pixmap(width: 260, height: 260), framed = plain
            try plain.draw(PolygonPaint(polygon: draw.polygon, transform: m, source: .solid(.white), roundedRect: draw.coverage))
            let placement = try #require(shapes.placement(of: draw, within: framed.bounds))
            if let paint = try shapes.paint(of: draw, at: placement, color: .white, within: framed.bounds) { framed.paint(paint) }
            #expect(zip(plain.data, framed.data).allSatisfy { abs(Int($0) - Int($1)) <= 1 }, "trial \(trial)")
        }
    }

    /// A shape is kept while frames draw it: the next frame finds it and
    /// works out nothing, a frame that no longer draws it lets it go, and
    /// what is painted is the same either way.
    @Test func shapesAreKeptWhileFramesDrawThem() throws {
        let shapes = RepeatedShapes()
        let color = PremultipliedColor(r: 30, g: 160, b: 90, a: 255)
        func tile(_ x: Double) -> PolygonDraw {
            var m = CATransform3D.identity
            m.m41 = x; m.m42 = 10.25
            let rect = CGRect(x: 0, y: 0, width: 20, height: 14)
            return PolygonDraw(matrix: m, polygon: rect.cornerPolygon, fill: .color(.white),
                               coverage: RoundedRectCoverage(rect: rect, radii: CornerRadii(uniform: 4)))
        }
        let a = tile(10.5), b = tile(40.375)
        func draw(_ draws: [PolygonDraw]) throws -> [UInt8] {
            var target = try Pixmap(width: 80, height: 40)
            for d in draws {
                let placement = try #require(shapes.placement(of: d, within: target.bounds))
                if let paint = try shapes.paint(of: d, at: placement, color: color, within: target.bounds) { target.paint(paint) }
            }
            return target.data
        }
        let first = try draw([a])
        #expect(shapes.statistics.made == 1)
        shapes.endFrame()
        #expect(try draw([a]) == first, "a kept shape paints what it painted")
        _ = try draw([b])
        #expect(shapes.statistics.made == 2, "only the new shape was worked out")
        shapes.endFrame()
        #expect(shapes.statistics.kept == 2)
        _ = try draw([b])
        shapes.endFrame()
        #expect(shapes.statistics.kept == 1, "the shape the last frame did not draw is gone")
        #expect(try draw([a]) == first)
        #expect(shapes.statistics.made == 3)
    }

    @Test func drawsItDoesNotApplyToArePaintedDirectly() throws {
        let shapes = RepeatedShapes()
        let bounds = PixelRect(width: 300, height: 300)
        var perspective = CATransform3D.identity
        perspective.m14 = 0.001
        let big = PolygonDraw(matrix: .identity, polygon: CGRect(x: 0, y: 0, width: 290, height: 290).cornerPolygon, fill: .color(.white))
        let offTarget = PolygonDraw(matrix: .identity, polygon: CGRect(x: -10, y: 5, width: 20, height: 20).cornerPolygon, fill: .color(.white))
        let projective = PolygonDraw(matrix: perspective, polygon: CGRect(x: 5, y: 5, width: 20, height: 20).cornerPolygon, fill: .color(.white))
        for draw in [big, offTarget, projective] { #expect(shapes.placement(of: draw, within: bounds) == nil) }
    }
}

/// Gradients' colour tables are kept by stops (`GradientTables`): a table
/// found again is the one that would be made, gradients of the same stops
/// share it whatever their geometry, and a frame forgets the tables it did
/// not use.
@Suite struct GradientTablesTests {
    static func fill(_ stops: [(Double, (Double, Double, Double, Double))], from start: (Double, Double) = (0, 0),
                     to end: (Double, Double) = (100, 0)) -> GradientFill {
        GradientFill(shape: .axial, stops: stops.map { (location: $0.0, color: $0.1) }, start: start, end: end)
    }

    @Test func aKeptTableIsTheOneThatWouldBeMadeAndIsSharedByStops() {
        let tables = GradientTables()
        let redToBlue = Self.fill([(0, (1, 0, 0, 1)), (0.3, (0, 0.5, 0, 0.5)), (1, (0, 0, 1, 1))])
        let first = tables.ramp(for: redToBlue)
        #expect(first.words == GradientRamp(redToBlue).words)
        // Another gradient of the same stops, turned and longer: the same table.
        let turned = Self.fill([(0, (1, 0, 0, 1)), (0.3, (0, 0.5, 0, 0.5)), (1, (0, 0, 1, 1))], from: (10, 10), to: (10, 400))
        let shared = tables.ramp(for: turned)
        #expect(tables.count == 1)
        #expect(shared.fill.end == (10, 400), "the ramp reads its own geometry")
        #expect(shared.words == GradientRamp(turned).words)
        // Stops a bit apart are another table.
        let other = Self.fill([(0, (1, 0, 0, 1)), (0.31, (0, 0.5, 0, 0.5)), (1, (0, 0, 1, 1))])
        #expect(tables.ramp(for: other).words == GradientRamp(other).words)
        #expect(tables.count == 2)
        #expect(GradientRamp(other).words != first.words)
    }

    @Test func aFrameForgetsTheTablesItDidNotUse() {
        let tables = GradientTables()
        let kept = Self.fill([(0, (1, 1, 1, 1)), (1, (0, 0, 0, 1))])
        let dropped = Self.fill([(0, (0, 0, 0, 0)), (1, (1, 0, 0, 1))])
        _ = tables.ramp(for: kept)
        _ = tables.ramp(for: dropped)
        tables.endFrame()
        #expect(tables.count == 2, "both were used in the frame that ended")
        _ = tables.ramp(for: kept)
        tables.endFrame()
        #expect(tables.count == 1, "the next frame used one of them")
    }
}

/// Images' pixmaps and mipmaps are kept while frames draw them
/// (`ImagePixmaps`): the same image gives the same pixels, its mipmap is
/// the one a draw would make, and an image no frame draws is let go.
@Suite struct ImagePixmapsTests {
    static func image(_ side: Int, seed: UInt8) throws -> CGImage {
        let bytes = (0..<side * side * 4).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ Int(seed)) | 0x0F }
        return try CGImage(width: side, height: side, straightRGBA: bytes)
    }

    static func address(_ pixmap: Pixmap) -> UInt { UInt(bitPattern: pixmap.data.withUnsafeBytes { $0.baseAddress }) }

    @Test func anImageIsReadOnceAndItsMipmapMadeOnce() throws {
        let images = ImagePixmaps()
        let picture = try Self.image(16, seed: 3)
        let first = try images.pixmap(of: picture), again = try images.pixmap(of: picture)
        #expect(first.data == (try Pixmap(width: 16, height: 16, premultipliedRGBA: picture.pixelBytes)).data)
        #expect(Self.address(first) == Self.address(again), "the same pixels, not read again")
        let mipmaps = try #require(images.mipmaps(of: first))
        #expect(mipmaps.map(\.data) == TextureSampler.mipmaps(of: first).map(\.data))
        #expect(images.mipmaps(of: again)?.first.map(Self.address) == mipmaps.first.map(Self.address), "made once")
        // Pixels that are no kept image's (a surface, a tinted copy) have none.
        #expect(images.mipmaps(of: try Pixmap(width: 16, height: 16)) == nil)
    }

    @Test func anImageNoFrameDrawsIsLetGo() throws {
        let images = ImagePixmaps()
        let drawn = try Self.image(4, seed: 1), dropped = try Self.image(4, seed: 2)
        _ = try images.pixmap(of: drawn)
        _ = try images.pixmap(of: dropped)
        for _ in 0...ImagePixmaps.maximumIdleFrames {
            _ = try images.pixmap(of: drawn)
            images.endFrame()
        }
        #expect(images.count == 1)
    }

    /// A picture drawn smaller than its pixels (trilinear) comes out the
    /// same from a renderer that kept its mipmap as from a new one.
    @Test func aKeptMipmapDrawsWhatANewOneDraws() throws {
        let picture = try Self.image(64, seed: 9)
        func scene() -> CALayer {
            let root = CALayer(), layer = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
            layer.frame = CGRect(x: 3.5, y: 2.25, width: 21, height: 17)
            layer.contents = picture
            layer.minificationFilter = .trilinear
            root.addSublayer(layer)
            return root
        }
        let renderer = CPURenderer()
        let plan = try RenderPlanner().plan(RenderLayer(snapshotOf: scene()), canvas: RenderCanvas(width: 40, height: 40))
        let once = try renderer.render(plan, deadline: nil), twice = try renderer.render(plan, deadline: nil)
        let fresh = try CPURenderer().render(plan, deadline: nil)
        #expect(twice.pixelBytes == fresh.pixelBytes && once.pixelBytes == fresh.pixelBytes)
    }
}

/// Path fills' coverage is kept from their second drawing on
/// (`PathCoverages`): found again only for the same list of contours under
/// the same matrix, rule and target, the bytes that would be made, and let
/// go by the frame after the last that drew it.
@Suite struct PathCoveragesTests {
    static let star: [[CGPoint]] = [(0..<10).map { i in
        let angle = Double(i) * .pi / 5, radius = i % 2 == 0 ? 20.0 : 8.0
        return CGPoint(x: 25 + radius * sin(angle), y: 25 - radius * cos(angle))
    }]

    static func rasterize(_ contours: [[CGPoint]], _ matrix: CATransform3D) throws -> CoverageMask {
        try CoverageRasterizer(width: 64, height: 64).rasterize(contours: contours, fillRule: .nonZero) { matrix.apply(to: $0) }
    }

    @Test func aFillDrawnAgainIsFoundFromItsSecondDrawing() throws {
        let cache = PathCoverages()
        let moved = CATransform3D(translationX: 3.25, y: 1.5, z: 0)
        var made = 0
        func coverage(_ contours: [[CGPoint]], _ matrix: CATransform3D = .identity) throws -> CoverageMask? {
            try cache.coverage(of: contours, matrix: matrix, evenOdd: false, width: 64, height: 64) {
                made += 1
                return try Self.rasterize(contours, matrix)
            }
        }
        let first = try #require(try coverage(Self.star))
        cache.endFrame()
        let second = try #require(try coverage(Self.star))
        cache.endFrame()
        let third = try #require(try coverage(Self.star))
        #expect(made == 2, "made when first drawn and when drawn again, then found")
        let expected = try Self.rasterize(Self.star, .identity)
        #expect(first == second && third == second && third == expected)
        #expect(cache.statistics.kept == 1)
        // Moved, or an equal list that is not the same one: made again.
        _ = try coverage(Self.star, moved)
        _ = try coverage(Self.star.map { $0 })
        #expect(made == 4)
        let movedMask = try Self.rasterize(Self.star, moved)
        #expect(try coverage(Self.star, moved) == movedMask)
        cache.endFrame()
        // A frame that draws none of them lets them go.
        cache.endFrame()
        #expect(cache.statistics.kept == 0)
    }

    /// A scene drawn again and again by one renderer gives the bytes a new
    /// renderer gives, its paths' coverage kept or not.
    @Test func aKeptCoverageDrawsWhatANewOneDraws() throws {
        func scene() -> CALayer {
            let root = CALayer(), shape = CAShapeLayer()
            root.frame = CGRect(x: 0, y: 0, width: 60, height: 60)
            let path = CGMutablePath()
            path.addLines(between: Self.star[0])
            path.closeSubpath()
            shape.path = path
            shape.fillColor = CGColor(red: 0.2, green: 0.6, blue: 0.9, alpha: 0.8)
            shape.position = CGPoint(x: 3.3, y: 4.1)
            root.addSublayer(shape)
            return root
        }
        let renderer = CPURenderer(), planner = RenderPlanner()
        let plan = try planner.plan(RenderLayer(snapshotOf: scene()), canvas: RenderCanvas(width: 60, height: 60))
        let fresh = try CPURenderer().render(plan, deadline: nil).pixelBytes
        for _ in 0..<3 {
            let again = try planner.plan(RenderLayer(snapshotOf: scene()), canvas: RenderCanvas(width: 60, height: 60))
            #expect(try renderer.render(again, deadline: nil).pixelBytes == fresh)
        }
    }
}
