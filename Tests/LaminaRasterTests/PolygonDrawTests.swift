// Projected polygons: solid and textured, perspective, rounded rects, planes.
import Foundation
import Testing
@testable import LaminaRaster
@testable import LaminaCore

@Suite struct PolygonDrawTests {
    let red = PremultipliedColor(r: 255, g: 0, b: 0, a: 255)
    let blue = PremultipliedColor(r: 0, g: 0, b: 255, a: 255)

    func translation(_ tx: Double, _ ty: Double, scale: Double = 1) -> CATransform3D {
        var m = CATransform3D.identity
        m.m11 = scale; m.m22 = scale; m.m41 = tx; m.m42 = ty
        return m
    }

    /// A 4 x 4 texture whose texel (i, j) has red = 60·i + 10, green = 60·j + 10.
    func gradientTexture() throws -> Pixmap {
        var t = try Pixmap(width: 4, height: 4)
        for j in 0..<4 { for i in 0..<4 {
            try t.setPixel(PremultipliedColor(r: UInt8(60 * i + 10), g: UInt8(60 * j + 10), b: 0, a: 255), x: i, y: j)
        } }
        return t
    }

    @Test func solidQuadThroughATranslation() throws {
        var p = try Pixmap(width: 10, height: 10)
        try p.draw(PolygonPaint(rect: CGRect(x: 0, y: 0, width: 4, height: 3), transform: translation(2.5, 2), source: .solid(red)))
        #expect(try p.pixel(x: 3, y: 2) == red)
        #expect(try p.pixel(x: 5, y: 4) == red)
        #expect(try p.pixel(x: 2, y: 3).a == 128)  // left edge at x = 2.5
        #expect(try p.pixel(x: 6, y: 3).a == 128)  // right edge at x = 6.5
        #expect(try p.pixel(x: 3, y: 5) == .clear)
    }

    @Test func nearestTextureScaledTwiceMapsPixelsToTexels() throws {
        var p = try Pixmap(width: 8, height: 8)
        let texture = MappedTexture(pixmap: try gradientTexture(), localRect: CGRect(x: 0, y: 0, width: 4, height: 4), filter: .nearest)
        try p.draw(PolygonPaint(rect: CGRect(x: 0, y: 0, width: 4, height: 4), transform: translation(0, 0, scale: 2), source: .texture(texture)))
        for y in 0..<8 { for x in 0..<8 {
            let c = try p.pixel(x: x, y: y)
            #expect(c.r == UInt8(60 * (x / 2) + 10) && c.g == UInt8(60 * (y / 2) + 10) && c.a == 255)
        } }
    }

    @Test func bilinearSamplesTexelCentresExactlyAndClampsAtEdges() throws {
        var p = try Pixmap(width: 4, height: 4)
        let texture = MappedTexture(pixmap: try gradientTexture(), localRect: CGRect(x: 0, y: 0, width: 4, height: 4))
        try p.draw(PolygonPaint(rect: CGRect(x: 0, y: 0, width: 4, height: 4), transform: .identity, source: .texture(texture)))
        #expect(p == (try gradientTexture()))

        // Magnified twice, pixel x's centre maps to texel coordinate (x + 0.5) / 2,
        // between texel centres, which sit at half-integers.
        var q = try Pixmap(width: 8, height: 8)
        try q.draw(PolygonPaint(rect: CGRect(x: 0, y: 0, width: 4, height: 4), transform: translation(0, 0, scale: 2), source: .texture(texture)))
        // Pixel 1: texel coordinate 0.75 → 0.25 of the way from texel 0 (10) to texel 1 (70): 25.
        #expect(try q.pixel(x: 1, y: 0).r == 25)
        // Pixel 0: texel 0.25, left of the first centre: clamped to texel 0.
        #expect(try q.pixel(x: 0, y: 0).r == 10)
        #expect(try q.pixel(x: 7, y: 7).r == 190)
    }

    @Test func uvRectSelectsPartOfTheTexture() throws {
        var p = try Pixmap(width: 2, height: 2)
        // The right half of the texture's bottom half, stretched over 2 x 2 pixels.
        let texture = MappedTexture(
            pixmap: try gradientTexture(), localRect: CGRect(x: 0, y: 0, width: 2, height: 2),
            uvRect: CGRect(x: 0.5, y: 0.5, width: 0.5, height: 0.5), filter: .nearest)
        try p.draw(PolygonPaint(rect: CGRect(x: 0, y: 0, width: 2, height: 2), transform: .identity, source: .texture(texture)))
        #expect(try p.pixel(x: 0, y: 0) == PremultipliedColor(r: 130, g: 130, b: 0, a: 255))
        #expect(try p.pixel(x: 1, y: 1) == PremultipliedColor(r: 190, g: 190, b: 0, a: 255))
    }

    @Test func perspectiveMappingIsProjectiveNotAffine() throws {
        // X = 100x + 10, Y = 100y + 10, W = 1 + x: the far side (x = 1) is half
        // the size of the near one. Local x = 0.5 appears at pixel x = 60/1.5 = 40,
        // not at the screen midpoint 32.5 that affine interpolation would give.
        var m = CATransform3D.identity
        m.m11 = 100; m.m22 = 100; m.m41 = 10; m.m42 = 10; m.m14 = 1
        let halves = try Pixmap(width: 2, height: 1, premultipliedRGBA: [255, 0, 0, 255, 0, 0, 255, 255])
        let texture = MappedTexture(pixmap: halves, localRect: CGRect(x: 0, y: 0, width: 1, height: 1), filter: .nearest)
        var p = try Pixmap(width: 80, height: 80)
        try p.draw(PolygonPaint(rect: CGRect(x: 0, y: 0, width: 1, height: 1), transform: m, source: .texture(texture)))
        #expect(try p.pixel(x: 39, y: 40) == red)
        #expect(try p.pixel(x: 40, y: 40) == blue)
        #expect(try p.pixel(x: 33, y: 40) == red)
        // The far edge x = 1 is at pixel 55; its height there is 100/2 = 50 px, from 5 to 55.
        #expect(try p.pixel(x: 54, y: 6) == blue)
        #expect(try p.pixel(x: 54, y: 3) == .clear)
        #expect(try p.pixel(x: 56, y: 40) == .clear)
    }

    @Test func perspectiveTexelsLandWhereTheyProject() throws {
        // A general homography: texel centres projected forwards must find
        // their own colour at the pixel they land in.
        var m = CATransform3D.identity
        m.m11 = 150; m.m12 = 20; m.m14 = 0.6
        m.m21 = -30; m.m22 = 140; m.m24 = 0.3
        m.m41 = 60; m.m42 = 20; m.m44 = 1
        let texture = try gradientTexture()
        var p = try Pixmap(width: 200, height: 200)
        try p.draw(PolygonPaint(
            rect: CGRect(x: 0, y: 0, width: 1, height: 1), transform: m,
            source: .texture(MappedTexture(pixmap: texture, localRect: CGRect(x: 0, y: 0, width: 1, height: 1), filter: .nearest))))
        for j in 0..<4 { for i in 0..<4 {
            let h = m.apply(x: (Double(i) + 0.5) / 4, y: (Double(j) + 0.5) / 4)
            let c = try p.pixel(x: Int(h.x / h.w), y: Int(h.y / h.w))
            #expect(c == (try texture.pixel(x: i, y: j)), "texel \(i), \(j)")
        } }
    }

    @Test func roundedRectCutsCornersAndKeepsArea() throws {
        var p = try Pixmap(width: 20, height: 20)
        // Radius 10 on a 20 x 20 square: a disc.
        var d = PolygonPaint(rect: CGRect(x: 0, y: 0, width: 20, height: 20), transform: .identity, source: .solid(red))
        d.roundedRect = RoundedRectCoverage(rect: CGRect(x: 0, y: 0, width: 20, height: 20), radii: CornerRadii(uniform: 10))
        try p.draw(d)
        #expect(try p.pixel(x: 0, y: 0) == .clear)
        #expect(try p.pixel(x: 2, y: 2) == .clear)  // centre (2.5, 2.5) is 10.6 from (10, 10)
        #expect(try p.pixel(x: 10, y: 10) == red)
        #expect(try p.pixel(x: 10, y: 0).a > 200)  // the disc touches the top edge here
        let area = Double(stride(from: 3, to: p.data.count, by: 4).reduce(0) { $0 + Int(p.data[$1]) }) / 255
        #expect(abs(area - Double.pi * 100) < 1)

        // Through a 2x scale the shape's anti-aliasing is still one pixel wide,
        // so the area is the scaled disc's: the local → pixel footprint at work.
        var scaled = try Pixmap(width: 40, height: 40)
        var big = d
        big.transform = translation(0, 0, scale: 2)
        try scaled.draw(big)
        let scaledArea = Double(stride(from: 3, to: scaled.data.count, by: 4).reduce(0) { $0 + Int(scaled.data[$1]) }) / 255
        #expect(abs(scaledArea - Double.pi * 400) < 2)
        #expect(try scaled.pixel(x: 20, y: 0).a > 200 && scaled.pixel(x: 3, y: 3) == .clear)

        // A radius larger than fits is limited to half the side; unequal corners.
        var q = try Pixmap(width: 20, height: 20)
        d.roundedRect = RoundedRectCoverage(
            rect: CGRect(x: 0, y: 0, width: 20, height: 20),
            radii: CornerRadii(minXMinY: 8, maxXMinY: 0, maxXMaxY: 0, minXMaxY: 0))
        try q.draw(d)
        #expect(try q.pixel(x: 0, y: 0) == .clear)
        #expect(try q.pixel(x: 19, y: 0) == red)
        #expect(try q.pixel(x: 0, y: 19) == red)
        #expect(try q.pixel(x: 19, y: 19) == red)
        // Straight edges are not darkened by the shape's own anti-aliasing.
        #expect(try q.pixel(x: 19, y: 10) == red)

        // Radii too large to fit shrink to half the side: 50 draws the same disc as 10.
        var huge = try Pixmap(width: 20, height: 20)
        d.roundedRect = RoundedRectCoverage(rect: CGRect(x: 0, y: 0, width: 20, height: 20), radii: CornerRadii(uniform: 50))
        try huge.draw(d)
        #expect(huge == p)
    }

    @Test func ringPaintsOnlyTheBorder() throws {
        var p = try Pixmap(width: 20, height: 20)
        var d = PolygonPaint(rect: CGRect(x: 0, y: 0, width: 20, height: 20), transform: .identity, source: .solid(red))
        d.roundedRect = RoundedRectCoverage(rect: CGRect(x: 0, y: 0, width: 20, height: 20), radii: CornerRadii(uniform: 6), borderWidth: 2)
        try p.draw(d)
        #expect(try p.pixel(x: 0, y: 10) == red)
        #expect(try p.pixel(x: 1, y: 10) == red)
        #expect(try p.pixel(x: 2, y: 10) == .clear)
        #expect(try p.pixel(x: 10, y: 10) == .clear)
        #expect(try p.pixel(x: 10, y: 19) == red)
        #expect(try p.pixel(x: 0, y: 0) == .clear)
        // Inner corner radius 4 around (6, 6): pixel (4, 4)'s centre is 2.1 from
        // it, well inside the inner shape, so unpainted; (2.5, 2.5) is 4.9 away:
        // in the ring.
        #expect(try p.pixel(x: 4, y: 4) == .clear)
        #expect(try p.pixel(x: 2, y: 2).a > 200)
        #expect(throws: RasterError.self) {
            var bad = d
            bad.roundedRect?.borderWidth = -1
            try p.draw(bad)
        }
    }

    @Test func cutsSplitPixelsWithoutASeam() throws {
        let rect = CGRect(x: 0, y: 0, width: 20, height: 4)
        var left = try Pixmap(width: 20, height: 4), right = try Pixmap(width: 20, height: 4), both = try Pixmap(width: 20, height: 4)
        var d = PolygonPaint(rect: rect, transform: .identity, source: .solid(red))
        let cut = HalfPlane(a: 1, b: 0, c: -10.5)  // x ≥ 10.5: the centre of column 10 lies on it
        d.cuts = [cut]
        try right.draw(d); try both.draw(d)
        d.cuts = [cut.flipped]
        try left.draw(d); try both.draw(d)
        #expect(try right.pixel(x: 9, y: 1) == .clear)
        #expect(try right.pixel(x: 11, y: 1) == red)
        #expect(try left.pixel(x: 9, y: 1) == red)
        // The pixel on the cut belongs to one side whole, not half to each.
        #expect(try right.pixel(x: 10, y: 1) == red)
        #expect(try left.pixel(x: 10, y: 1) == .clear)
        // Together, every pixel once: no seam.
        for x in 0..<20 { #expect(try both.pixel(x: x, y: 1) == red) }
    }

    @Test func alphaAndClipMaskLimitThePaint() throws {
        var p = try Pixmap(width: 4, height: 1)
        var d = PolygonPaint(rect: CGRect(x: 0, y: 0, width: 4, height: 1), transform: .identity, source: .solid(red))
        d.alpha = 0.5
        d.clipMask = try CoverageMask(bounds: PixelRect(x: 1, y: 0, width: 2, height: 1), values: [255, 128])
        try p.draw(d)
        #expect(try p.pixel(x: 0, y: 0) == .clear)
        #expect(try p.pixel(x: 1, y: 0) == PremultipliedColor(r: 128, g: 0, b: 0, a: 128))
        #expect(try p.pixel(x: 2, y: 0) == PremultipliedColor(r: 64, g: 0, b: 0, a: 64))
        #expect(try p.pixel(x: 3, y: 0) == .clear)
    }

    /// A trilinear read whose mipmap levels are chosen once for a whole
    /// draw (an affine map, one footprint everywhere) gives, at every point,
    /// the bytes the read that chooses them at each pixel gives: magnified,
    /// between two levels, on a level, beyond the last, squeezed along one
    /// axis only.
    @Test func levelsChosenOnceReadWhatLevelsChosenPerPixelRead() throws {
        var texture = try Pixmap(width: 37, height: 23)
        var seed: UInt32 = 7
        for y in 0..<23 { for x in 0..<37 {
            seed = seed &* 1_103_515_245 &+ 12345
            let a = UInt8(truncatingIfNeeded: seed >> 24)
            try texture.setPixel(PremultipliedColor(r: UInt8(truncatingIfNeeded: seed >> 8) & a, g: UInt8(truncatingIfNeeded: seed >> 16) & a,
                                                    b: a / 2, a: a), x: x, y: y)
        } }
        let sampler = try TextureSampler(MappedTexture(pixmap: texture, localRect: CGRect(x: 2, y: -1, width: 18.5, height: 11), filter: .trilinear))
        let footprints = [
            LocalFootprint(xPerPx: 0.3, yPerPx: 0, xPerPy: 0, yPerPy: 0.3),
            LocalFootprint(xPerPx: 1.7, yPerPx: 0.4, xPerPy: -0.4, yPerPy: 1.7),
            LocalFootprint(xPerPx: 2, yPerPx: 0, xPerPy: 0, yPerPy: 0.5),
            LocalFootprint(xPerPx: 0.5, yPerPx: 0, xPerPy: 0, yPerPy: 6.3),
            LocalFootprint(xPerPx: 90, yPerPx: 0, xPerPy: 0, yPerPy: 90),
        ]
        var levelsSeen = Set<Int>()
        try texture.data.withUnsafeBufferPointer { texels in
            let t = try #require(texels.baseAddress)
            for fp in footprints {
                let (lower, k) = sampler.trilinearLevels(at: fp)
                levelsSeen.insert(lower)
                for i in 0..<200 {
                    let x = -1 + Double(i % 20) * 1.13, y = -2 + Double(i / 20) * 1.41
                    let perPixel = sampler.sample(t, x: x, y: y, footprint: fp)
                    let once = sampler.withLevel(lower, texels: t) { low in
                        k == 0 ? sampler.sample(lower: low, upper: nil, k: 0, x: x, y: y)
                            : sampler.withLevel(lower + 1, texels: t) { sampler.sample(lower: low, upper: $0, k: k, x: x, y: y) }
                    }
                    #expect(perPixel == once, "footprint \(fp) at (\(x), \(y))")
                }
            }
        }
        // The footprints reach the texture itself, levels between, and the last level.
        #expect(levelsSeen.contains(0) && levelsSeen.contains(sampler.mipmaps.count) && levelsSeen.count >= 4)
    }

    /// A picture that lands texel for pixel reads, at every pixel centre
    /// and whatever its filter, the texel the centre lies in: what a
    /// nearest read gives. Moved by a fraction of a pixel, scaled or turned,
    /// it does not land so.
    @Test func aPictureLandingTexelForPixelReadsItsTexels() throws {
        var texture = try Pixmap(width: 9, height: 7)
        for y in 0..<7 { for x in 0..<9 {
            try texture.setPixel(PremultipliedColor(r: UInt8(x * 28), g: UInt8(y * 36), b: UInt8((x * y * 7) % 256), a: 255), x: x, y: y)
        } }
        // Local units of 0.8 texels (the texture spans 11.25 x 8.75 of them),
        // drawn at 0.8 pixels a unit from pixel (3, 2): a texel a pixel.
        let local = CGRect(x: -2, y: 1, width: 11.25, height: 8.75)
        let area = PixelRect(x: 3, y: 2, width: 9, height: 7)
        func inverse(scale: Double = 0.8, dx: Double = 3, turn: Double = 0) throws -> PlaneHomography {
            // pixel = local · 0.8 (turned) + (dx − (−2) · 0.8, 2 − 1 · 0.8)
            let (c, s) = (cos(turn) * scale, sin(turn) * scale)
            let forward = PlaneHomography((c, s, 0, -s, c, 0, dx + 2 * 0.8, 2 - 0.8, 1))
            return try #require(forward.inverted())
        }
        for filter in [TextureFilter.linear, .smoothLinear, .trilinear] {
            let sampler = try TextureSampler(MappedTexture(pixmap: texture, localRect: local, filter: filter))
            #expect(sampler.landsTexelForPixel(under: try inverse(), over: area), "\(filter)")
            #expect(!sampler.landsTexelForPixel(under: try inverse(dx: 3.5), over: area))
            #expect(!sampler.landsTexelForPixel(under: try inverse(scale: 0.81), over: area))
            #expect(!sampler.landsTexelForPixel(under: try inverse(turn: 0.01), over: area))
            let (i00, i01, _, i10, i11, _, i20, i21, i22) = try inverse().h
            let footprint = LocalFootprint(xPerPx: i00 / i22, yPerPx: i01 / i22, xPerPy: i10 / i22, yPerPy: i11 / i22)
            try texture.data.withUnsafeBufferPointer { texels in
                let t = try #require(texels.baseAddress)
                for py in area.minY..<area.maxY { for px in area.minX..<area.maxX {
                    let (cx, cy) = (Double(px) + 0.5, Double(py) + 0.5)
                    let x = (cx * i00 + cy * i10 + i20) / i22, y = (cx * i01 + cy * i11 + i21) / i22
                    let read = sampler.sample(t, x: x, y: y, footprint: footprint)
                    #expect(read == sampler.sampleNearest(t, x: x, y: y))
                    let texel = try texture.pixel(x: px - area.minX, y: py - area.minY)
                    #expect(read == (UInt32(texel.r), UInt32(texel.g), UInt32(texel.b), UInt32(texel.a)))
                } }
            }
        }
    }

    @Test func badDrawInputThrows() throws {
        var p = try Pixmap(width: 4, height: 4)
        var behind = CATransform3D.identity
        behind.m44 = -1
        #expect(throws: RasterError.self) {
            try p.draw(PolygonPaint(rect: CGRect(x: 0, y: 0, width: 1, height: 1), transform: behind, source: .solid(red)))
        }
        #expect(throws: RasterError.self) {
            try p.draw(PolygonPaint(polygon: points([(0, 0), (.nan, 0), (1, 1)]), transform: .identity, source: .solid(red)))
        }
        let empty = MappedTexture(pixmap: try Pixmap(width: 0, height: 0), localRect: CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(throws: RasterError.self) {
            try p.draw(PolygonPaint(rect: CGRect(x: 0, y: 0, width: 1, height: 1), transform: .identity, source: .texture(empty)))
        }
        let overflowing = MappedTexture(pixmap: try gradientTexture(), localRect: CGRect(x: 0, y: 0, width: CGFloat.leastNonzeroMagnitude, height: 1))
        #expect(throws: RasterError.self) {
            try p.draw(PolygonPaint(rect: CGRect(x: 0, y: 0, width: 1, height: 1), transform: .identity, source: .texture(overflowing)))
        }
        // Seen edge-on (a singular map): nothing drawn, no error.
        var edgeOn = CATransform3D.identity
        edgeOn.m11 = 0; edgeOn.m12 = 0
        try p.draw(PolygonPaint(rect: CGRect(x: 0, y: 0, width: 4, height: 4), transform: edgeOn, source: .solid(red)))
        #expect(p.data.allSatisfy { $0 == 0 })
    }
}

@Suite("Axis-aligned rectangles")
struct AxisAlignedRectangleTests {
    /// A rectangle whose edges fall between pixels is covered as the
    /// rasterizer covers the same outline given with a fifth vertex (on an
    /// edge), within a level: each pixel's coverage is its column's times
    /// its row's.
    @Test func aRectangleBetweenPixelsIsCoveredAsTheRasterizerCoversIt() throws {
        var state: UInt64 = 11
        func random(_ range: ClosedRange<Double>) -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return range.lowerBound + Double(state >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
        }
        for _ in 0..<40 {
            let x0 = random(-5...30), y0 = random(-5...20)
            let rect = CGRect(x: x0, y: y0, width: random(0.2...30), height: random(0.2...25))
            let color = PremultipliedColor(r: 200, g: 100, b: 50, a: 200)
            let scale = random(0.5...2)
            let transform = CATransform3DConcat(CATransform3DMakeScale(scale, scale, 1), CATransform3DMakeTranslation(random(-3...3), random(-3...3), 0))
            var quad = try Pixmap(width: 48, height: 40), pentagon = try Pixmap(width: 48, height: 40)
            try quad.draw(PolygonPaint(polygon: rect.cornerPolygon, transform: transform, source: .solid(color)))
            var five = rect.cornerPolygon
            five.insert(CGPoint(x: rect.midX, y: rect.minY), at: 1)
            try pentagon.draw(PolygonPaint(polygon: five, transform: transform, source: .solid(color)))
            let worst = zip(quad.data, pentagon.data).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(worst <= 1, "\(rect) at scale \(scale): \(worst) levels apart")
        }
    }
}
