// Coverage of known shapes, area conservation, fill rules and clipping.
import Foundation
import Testing
import Synchronization
@testable import LaminaRaster
@testable import LaminaCore

@Suite struct CoverageRasterizerTests {
    /// Each band gets the edges that reach into it, ordered by the band
    /// where they start and then as they were given: the order the cells
    /// are summed in, which decides their last bits. Checked against that
    /// rule written out directly, for random edges, some horizontal, some
    /// outside, on bands reused from a larger shape.
    @Test func bandsHandOutTheirEdgesInTheGivenOrder() {
        var random = SystemRandomNumberGenerator()
        var bands = EdgeBands()
        for trial in 0..<60 {
            let height = Int.random(in: 1...300, using: &random), bandRows = [1, 7, 32][trial % 3]
            let segments = (0..<Int.random(in: 0...80, using: &random)).map { _ in
                let y0 = Double.random(in: -40...340, using: &random)
                let y1 = Int.random(in: 0..<6, using: &random) == 0 ? y0 : Double.random(in: -40...340, using: &random)
                return LineSegment(x0: Double.random(in: -10...10, using: &random), y0: y0,
                                   x1: Double.random(in: -10...10, using: &random), y1: y1)
            }
            bands.reset(segments, left: 0.5, top: -2, height: height, bandRows: bandRows)
            // Expected: the kept edges, moved, with the bands they span.
            var kept: [(first: Int, last: Int, edge: LineSegment)] = []
            for s in segments where s.y0 != s.y1 {
                let e = LineSegment(x0: s.x0 - 0.5, y0: s.y0 + 2, x1: s.x1 - 0.5, y1: s.y1 + 2)
                let lo = min(e.y0, e.y1), hi = max(e.y0, e.y1)
                guard hi > 0, lo < Double(height) else { continue }
                let firstRow = Int(max(lo, 0)), lastRow = Int(min(hi, Double(height)).rounded(.up)) - 1
                kept.append((firstRow / bandRows, max(firstRow, lastRow) / bandRows, e))
            }
            var band = 0
            bands.forEachBand { _, _, edges in
                let expected = kept.filter { $0.first <= band && band <= $0.last }
                    .enumerated().sorted { ($0.element.first, $0.offset) < ($1.element.first, $1.offset) }.map(\.element.edge)
                #expect(edges == expected, "trial \(trial), band \(band)")
                band += 1
            }
            #expect(band == (height + bandRows - 1) / bandRows)
        }
    }

    /// The rasterizer's working memory is reused from draw to draw (and
    /// across threads): a shape gives the same mask after larger and smaller
    /// shapes, and whatever else runs at once, as the first time.
    @Test func reusedWorkingMemoryGivesTheSameMasks() throws {
        func star(_ cx: Double, _ cy: Double, _ r: Double) -> [[CGPoint]] {
            [(0..<10).map { k in
                let radius = k % 2 == 0 ? r : r * 0.4, a = Double(k) * .pi / 5
                return CGPoint(x: cx + radius * sin(a), y: cy - radius * cos(a))
            }]
        }
        let rasterizer = try CoverageRasterizer(width: 400, height: 300)
        let shapes = [star(200, 150, 140), star(20.3, 30.7, 9), star(300, 100, 60), star(-5, 150, 50)]
        let first = try shapes.map { try rasterizer.rasterize(contours: $0, fillRule: .nonZero) }
        for round in 0..<3 {
            for (k, shape) in shapes.enumerated().reversed() {
                #expect(try rasterizer.rasterize(contours: shape, fillRule: .nonZero) == first[k], "round \(round), shape \(k)")
            }
        }
        let results = Mutex<[Int: Bool]>([:])
        DispatchQueue.concurrentPerform(iterations: 16) { i in
            let k = i % shapes.count
            let same = (try? rasterizer.rasterize(contours: shapes[k], fillRule: .nonZero)) == first[k]
            results.withLock { $0[i] = same }
        }
        #expect(results.withLock { $0.values.allSatisfy { $0 } && $0.count == 16 })
    }

    let tolerance = 1.0 / 255

    @Test func unitSquareOnAPixelIsFullyCovered() throws {
        let r = try CoverageRasterizer(width: 4, height: 4)
        let mask = try r.rasterize(contours: [points([(1, 1), (2, 1), (2, 2), (1, 2)])], fillRule: .nonZero)
        #expect(mask.bounds == PixelRect(x: 1, y: 1, width: 1, height: 1))
        #expect(mask.coverage(x: 1, y: 1) == 255)
        #expect(mask.coverage(x: 0, y: 1) == 0)
        #expect(mask.coverage(x: 2, y: 1) == 0)
    }

    @Test func axisAlignedEdgeThroughPixelMiddleGivesHalf() throws {
        let r = try CoverageRasterizer(width: 4, height: 4)
        // Left edge at x = 1.5: pixel column 1 is half covered.
        let mask = try r.rasterize(contours: [points([(1.5, 0), (3, 0), (3, 3), (1.5, 3)])], fillRule: .nonZero)
        for y in 0..<3 {
            #expect(abs(fraction(mask, 1, y) - 0.5) <= tolerance)
            #expect(mask.coverage(x: 2, y: y) == 255)
        }
        // Both orientations, and a horizontal edge.
        let reversed = try r.rasterize(contours: [points([(1.5, 3), (3, 3), (3, 0), (1.5, 0)]).reversed()], fillRule: .nonZero)
        #expect(abs(fraction(reversed, 1, 1) - 0.5) <= tolerance)
        let horizontal = try r.rasterize(contours: [points([(0, 2.5), (3, 2.5), (3, 4), (0, 4)])], fillRule: .evenOdd)
        #expect(abs(fraction(horizontal, 1, 2) - 0.5) <= tolerance)
        #expect(horizontal.coverage(x: 1, y: 3) == 255)
    }

    @Test func diagonalThroughPixelCornersGivesHalf() throws {
        let r = try CoverageRasterizer(width: 4, height: 4)
        // A right triangle whose hypotenuse is the 45° line y = x.
        let mask = try r.rasterize(contours: [points([(0, 0), (4, 0), (4, 4)])], fillRule: .nonZero)
        for i in 0..<4 {
            #expect(abs(fraction(mask, i, i) - 0.5) <= tolerance)
            if i > 0 { #expect(mask.coverage(x: i, y: i - 1) == 255) }
            if i < 3 { #expect(mask.coverage(x: i, y: i + 1) == 0) }
        }
        // A shallow edge crossing several pixels of one row: y = x / 4 over [0, 4].
        let shallow = try r.rasterize(contours: [points([(0, 0), (4, 1), (0, 1)])], fillRule: .nonZero)
        for i in 0..<4 {
            // The part below the line in column i is 1 − (i + 0.5) / 4.
            #expect(abs(fraction(shallow, i, 0) - (1 - (Double(i) + 0.5) / 4)) <= tolerance)
        }
    }

    @Test(arguments: 0..<40)
    func totalCoverageEqualsPolygonArea(seed: Int) throws {
        var rng = SeededRandom(seed: UInt64(seed))
        // A random polygon that is star-shaped around a random centre, hence
        // simple: one vertex per equal angular sector, so no gap reaches π (n ≥ 4;
        // every triangle is simple anyway).
        let cx = Double.random(in: 20...44, using: &rng), cy = Double.random(in: 20...44, using: &rng)
        let n = Int.random(in: 3...12, using: &rng)
        let sector = 2 * Double.pi / Double(n)
        let angles = (0..<n).map { Double($0) * sector + Double.random(in: 0..<sector, using: &rng) }
        let polygon = angles.map { a -> CGPoint in
            let radius = Double.random(in: 2...18, using: &rng)
            return CGPoint(x: cx + radius * cos(a), y: cy + radius * sin(a))
        }
        let area = abs(shoelaceArea(polygon))
        let r = try CoverageRasterizer(width: 64, height: 64)
        for rule in [FillRule.nonZero, .evenOdd] {
            let mask = try r.rasterize(contours: [polygon], fillRule: rule)
            // Rounding to bytes costs at most 1/510 per touched pixel.
            let edgePixels = Double(mask.values.filter { $0 > 0 && $0 < 255 }.count)
            #expect(abs(mask.totalCoverage - area) <= max(0.01, edgePixels / 510 + 1e-3))
        }
    }

    @Test func tallShapesAreSeamlessAcrossBands() throws {
        // A slanted strip 3 px wide over 200 rows (many accumulation bands):
        // every row must hold exactly 3 px of coverage, and the strip must move
        // by the same sub-pixel amount from each row to the next.
        let r = try CoverageRasterizer(width: 100, height: 200)
        let strip = points([(10.25, 0), (13.25, 0), (63.25, 200), (60.25, 200)])
        let mask = try r.rasterize(contours: [strip], fillRule: .nonZero)
        #expect(mask.bounds == PixelRect(x: 10, y: 0, width: 54, height: 200))
        for y in 0..<200 {
            let row = (mask.bounds.minX..<mask.bounds.maxX).reduce(0.0) { $0 + fraction(mask, $1, y) }
            #expect(abs(row - 3) <= 4.0 / 255, "row \(y)")
        }
        // Rows 4 apart are the same picture moved one pixel right.
        for y in 0..<196 {
            for x in 10..<62 {
                #expect(mask.coverage(x: x, y: y) == mask.coverage(x: x + 1, y: y + 4), "pixel \(x), \(y)")
            }
        }
    }

    @Test func pentagramCentreDependsOnFillRule() throws {
        // A five-pointed star drawn as one self-intersecting contour: its centre
        // pentagon has winding number 2.
        let star = (0..<5).map { k -> CGPoint in
            let a = -Double.pi / 2 + Double(k) * 4 * .pi / 5
            return CGPoint(x: 50 + 40 * cos(a), y: 50 + 40 * sin(a))
        }
        let r = try CoverageRasterizer(width: 100, height: 100)
        let nonZero = try r.rasterize(contours: [star], fillRule: .nonZero)
        let evenOdd = try r.rasterize(contours: [star], fillRule: .evenOdd)
        #expect(nonZero.coverage(x: 50, y: 50) == 255)
        #expect(evenOdd.coverage(x: 50, y: 50) == 0)
        // A point arm (winding 1) is covered under both.
        #expect(nonZero.coverage(x: 50, y: 20) == 255)
        #expect(evenOdd.coverage(x: 50, y: 20) == 255)
    }

    @Test func innerSquareIsAHoleAccordingToDirectionAndRule() throws {
        let outer = points([(0, 0), (10, 0), (10, 10), (0, 10)])
        let sameDirection = points([(3, 3), (7, 3), (7, 7), (3, 7)])
        let reversedInner = Array(sameDirection.reversed())
        let r = try CoverageRasterizer(width: 10, height: 10)
        for rule in [FillRule.nonZero, .evenOdd] {
            let mask = try r.rasterize(contours: [outer, reversedInner], fillRule: rule)
            #expect(mask.coverage(x: 5, y: 5) == 0, "reversed inner square is a hole under \(rule)")
            #expect(mask.coverage(x: 1, y: 5) == 255)
        }
        let nonZero = try r.rasterize(contours: [outer, sameDirection], fillRule: .nonZero)
        let evenOdd = try r.rasterize(contours: [outer, sameDirection], fillRule: .evenOdd)
        #expect(nonZero.coverage(x: 5, y: 5) == 255)
        #expect(evenOdd.coverage(x: 5, y: 5) == 0)
        #expect(abs(nonZero.totalCoverage - 100) < 1e-9)
        #expect(abs(evenOdd.totalCoverage - 84) < 1e-9)
    }

    @Test func hugePolygonCostsOnlyTheTarget() throws {
        let r = try CoverageRasterizer(width: 100, height: 100)
        // A 10,000 x 10,000 square around the target, and a huge triangle whose
        // diagonal cuts through it.
        let square = points([(-5000, -5000), (5000, -5000), (5000, 5000), (-5000, 5000)])
        let mask = try r.rasterize(contours: [square], fillRule: .nonZero)
        #expect(mask.bounds == PixelRect(width: 100, height: 100))
        #expect(mask.values.count == 100 * 100)
        #expect(mask.values.allSatisfy { $0 == 255 })

        // The line from (-10000, 10050) to (10000, -9950) is x + y = 50.
        let triangle = points([(-10000, -10000), (10000, -9950), (-10000, 10050)])
        let cut = try r.rasterize(contours: [triangle], fillRule: .evenOdd)
        #expect(cut.values.count <= 100 * 100)
        #expect(cut.coverage(x: 10, y: 10) == 255)
        #expect(cut.coverage(x: 40, y: 40) == 0)
        #expect(abs(fraction(cut, 20, 29) - 0.5) <= tolerance)  // the diagonal crosses its corners
        #expect(abs(cut.totalCoverage - 50 * 50 / 2.0) < 0.5)
    }

    @Test func partlyOffTargetShapesKeepTheirVisiblePart() throws {
        let r = try CoverageRasterizer(width: 10, height: 10)
        // Crosses the left border with a slanted edge: x from -4 to 6 across y 0...10.
        let mask = try r.rasterize(contours: [points([(-4, 0), (20, 0), (20, 10), (6, 10)])], fillRule: .nonZero)
        #expect(mask.bounds == PixelRect(width: 10, height: 10))
        // Visible area right of the edge x = y − 4: all 10 columns for y < 4,
        // then 14 − y: 40 + ∫₄¹⁰ (14 − y) dy = 82.
        #expect(abs(mask.totalCoverage - 82) < 0.05)
        #expect(mask.coverage(x: 0, y: 0) == 255)
        #expect(abs(fraction(mask, 2, 6) - 0.5) <= tolerance)
        // Entirely outside: an empty mask.
        let outside = try r.rasterize(contours: [points([(20, 20), (30, 20), (30, 30)])], fillRule: .nonZero)
        #expect(outside.bounds.isEmpty && outside.values.isEmpty)
    }

    @Test func badCoordinatesThrow() throws {
        let r = try CoverageRasterizer(width: 10, height: 10)
        #expect(throws: RasterError.self) {
            try r.rasterize([LineSegment(x0: 0, y0: 0, x1: Double.nan, y1: 3)], fillRule: .nonZero)
        }
        #expect(throws: RasterError.self) {
            try r.rasterize([LineSegment(x0: 0, y0: 0, x1: 1e300, y1: 3)], fillRule: .nonZero)
        }
        #expect(throws: RasterError.self) { try CoverageRasterizer(width: -1, height: 3) }
    }

    /// Resolving writes runs of groups no edge wrote to a word at a time,
    /// without reading their cells: the bytes are those of the running sum
    /// taken pixel by pixel, for both rules, for random polygons large and
    /// small (long empty runs, runs that start and end anywhere, widths that
    /// are no multiple of eight, rows of several words of marks). One
    /// accumulator serves every trial, as the rasterizer's kept one does:
    /// each new band finds every cell zero again.
    @Test func resolvingSkipsUnwrittenCellsWithoutChangingAByte() {
        var random = SystemRandomNumberGenerator()
        var accumulator = CoverageAccumulator(width: 1, maximumHeight: 1)
        for trial in 0..<60 {
            let width = [203, 8, 16, 1, 77, 700, 1100][trial % 7], rows = [24, 3, 17][trial % 3]
            accumulator.reset(width: width, maximumHeight: rows)
            accumulator.startBand(rows: rows)
            #expect(accumulator.cells.allSatisfy { $0 == 0 }, "trial \(trial): a cell left from the band before")
            let corners = Int.random(in: 3...9, using: &random)
            let points = (0..<corners).map { _ in
                (Double.random(in: -5...Double(width) + 5, using: &random), Double.random(in: -2...Double(rows) + 2, using: &random))
            }
            for i in 0..<corners {
                let (a, b) = (points[i], points[(i + 1) % corners])
                accumulator.addLine(a.0, a.1, b.0, b.1)
            }
            for rule in [FillRule.nonZero, .evenOdd] {
                var resolved = [UInt8](repeating: 0, count: width * rows)
                resolved.withUnsafeMutableBufferPointer { accumulator.resolve(rule, into: $0.baseAddress!) }
                var expected: [UInt8] = []
                for row in 0..<rows {
                    var winding: Float = 0
                    for x in 0..<width {
                        winding += accumulator.cells[row * accumulator.stride + x]
                        let v = abs(winding)
                        let folded = v - 2 * (v * 0.5).rounded(.down)
                        let value = rule == .nonZero ? min(v, 1) : min(folded > 1 ? 2 - folded : folded, 1)
                        expected.append(UInt8(value * 255 + 0.5))
                    }
                }
                #expect(resolved == expected, "\(rule), width \(width), trial \(trial)")
            }
        }
    }

    /// Eight running sums turned into coverage bytes side by side give each
    /// byte the one-at-a-time conversion gives, at the values where the
    /// floor of `v · 255 + ½` is decided by the last bit: every level's
    /// tie and its neighbours, both signs, zeros of both signs, 1 and past it.
    @Test func eightCoveragesAtOnceAreTheOneByOneBytes() {
        var windings: [Float] = [0, -0.0, 1, -1, 1.5, -7, 2, .ulpOfOne, -.ulpOfOne, .leastNonzeroMagnitude]
        for level in 0...255 {
            let tie = (Float(level) + 0.5) / 255
            for v in [tie, tie.nextUp, tie.nextDown, tie.nextUp.nextUp, tie.nextDown.nextDown, Float(level) / 255] {
                windings += [v, -v]
            }
        }
        var random = SystemRandomNumberGenerator()
        windings += (0..<4000).map { _ in Float.random(in: -1.25...1.25, using: &random) }
        while windings.count % 8 != 0 { windings.append(0.5) }
        for start in stride(from: 0, to: windings.count, by: 8) {
            var eight = SIMD8<Float>()
            for i in 0..<8 { eight[i] = windings[start + i] }
            let bytes = CoverageAccumulator.nonZeroCoverages(eight)
            for i in 0..<8 {
                let expected = UInt8(min(abs(eight[i]), 1) * 255 + 0.5)
                #expect(UInt8(truncatingIfNeeded: bytes >> (8 * UInt64(i))) == expected, "winding \(eight[i])")
            }
        }
    }

    /// A band's eight pixels blended at their coverage bytes, the bytes
    /// taken as the scales, are `blendSolid`'s pixels through the opacity-1
    /// table, whose scale of m is m (checked too): runs of empty and full
    /// bytes, opaque and translucent words, over random premultiplied pixels.
    @Test func eightPixelsBlendAtTheirCoverageAsThroughTheOpaqueTable() {
        #expect(CoverageScales.opaque == (0...255).map { UInt32($0) })
        var random = SystemRandomNumberGenerator()
        func premultiplied() -> UInt32 {
            let a = UInt32.random(in: 0...255, using: &random)
            return pixelWord(.random(in: 0...a, using: &random), .random(in: 0...a, using: &random), .random(in: 0...a, using: &random), a)
        }
        for trial in 0..<3000 {
            let word = trial % 3 == 0 ? premultiplied() | 0xFF00_0000 : premultiplied()
            let opaqueWord = trial % 3 == 0 ? pixelWord(word & 0xFF, word >> 8 & 0xFF, word >> 16 & 0xFF, 255) : word
            var coverage = (0..<8).map { _ in UInt8.random(in: 0...255, using: &random) }
            if trial % 4 == 1 { for i in 0..<4 { coverage[i] = 255 } }
            if trial % 4 == 2 { for i in 4..<8 { coverage[i] = 0 } }
            if trial % 8 == 3 { coverage = Array(repeating: 255, count: 8) }
            let destination = (0..<8).map { _ in premultiplied() }
            var expected = destination, actual = destination
            coverage.withUnsafeBufferPointer { c in
                CoverageScales.opaque.withUnsafeBufferPointer { scale in
                    expected.withUnsafeMutableBytes { blendSolid(opaqueWord, coverage: c.baseAddress!, count: 8, scale: scale.baseAddress!, into: $0.baseAddress!) }
                }
            }
            let bytes = coverage.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
            actual.withUnsafeMutableBytes {
                CoverageAccumulator.blend(SIMD4(repeating: opaqueWord), opaque: opaqueWord >> 24 == 255, coverages: bytes, into: $0.baseAddress!)
            }
            #expect(actual == expected, "word \(String(opaqueWord, radix: 16)), coverage \(coverage)")
        }
    }
}

