import Foundation
import Testing
@testable import LaminaRender
import LaminaRaster

/// A five-pointed star of `radius` (a curve in each point when `curved`),
/// filled and stroked, with its centre at `center`.
private func star(radius: Double, at center: CGPoint = CGPoint(x: 100, y: 100), curved: Bool = true,
                  color: CGColor = CGColor(red: 1, green: 0.5, blue: 0, alpha: 1)) -> CAShapeLayer {
    let path = CGMutablePath()
    for k in 0..<10 {
        let a = Double(k) * .pi / 5, r = k % 2 == 0 ? radius : radius * 0.45
        let p = CGPoint(x: radius + r * sin(a), y: radius - r * cos(a))
        if k == 0 { path.move(to: p) } else if curved {
            path.addQuadCurve(to: p, control: CGPoint(x: radius + r * 1.1 * sin(a - 0.3), y: radius - r * 1.1 * cos(a - 0.3)))
        } else { path.addLine(to: p) }
    }
    path.closeSubpath()
    let shape = CAShapeLayer()
    shape.bounds = CGRect(x: 0, y: 0, width: 2 * radius, height: 2 * radius)
    shape.position = center
    shape.path = path
    shape.fillColor = color
    shape.strokeColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
    shape.lineWidth = 3
    return shape
}

private func scene(_ sublayers: [CALayer], width: Double = 200, height: Double = 200) throws -> RenderLayer {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: width, height: height)
    root.position = CGPoint(x: width / 2, y: height / 2)
    for layer in sublayers { root.addSublayer(layer) }
    return try RenderLayer(snapshotOf: root)
}

private func pathDraws(_ plan: RenderPlan) -> [PathFillDraw] {
    plan.passes.flatMap(\.commands).compactMap { if case .path(let draw) = $0 { draw } else { nil } }
}

private let canvas = RenderCanvas(width: 200, height: 200)

@Suite("Outline cache")
struct OutlineCacheTests {
    @Test func aSceneDrawnAgainWorksOutNoOutlines() throws {
        let planner = RenderPlanner()
        let first = try planner.plan(try scene([star(radius: 40)]), canvas: canvas)
        let made = planner.outlines.statistics.made
        #expect(made >= 2)  // the fill, the stroke (and the root's rect)
        let again = try planner.plan(try scene([star(radius: 40)]), canvas: canvas)
        // A new layer with an equal path (a scene decoded again) finds them.
        #expect(planner.outlines.statistics.made == made)
        #expect(pathDraws(first).map(\.contours) == pathDraws(again).map(\.contours))
        // And they are what a planner of its own works out.
        let fresh = try RenderPlanner().plan(try scene([star(radius: 40)]), canvas: canvas)
        #expect(pathDraws(fresh).map(\.contours) == pathDraws(again).map(\.contours))
    }

    @Test func aPathMovedOrRecolouredKeepsItsOutlinesAndAScaledOneDoesNot() throws {
        let planner = RenderPlanner()
        _ = try planner.plan(try scene([star(radius: 40)]), canvas: canvas)
        let made = planner.outlines.statistics.made
        _ = try planner.plan(try scene([star(radius: 40, at: CGPoint(x: 60, y: 130),
                                             color: CGColor(red: 0, green: 0, blue: 1, alpha: 1))]), canvas: canvas)
        #expect(planner.outlines.statistics.made == made)
        // Seen twice as large, the curves are flattened more finely.
        let grown = star(radius: 40)
        grown.transform = CATransform3DMakeScale(2, 2, 1)
        let plan = try planner.plan(try scene([grown]), canvas: canvas)
        #expect(planner.outlines.statistics.made == made + 2)
        let fresh = try RenderPlanner().plan(try scene([grown]), canvas: canvas)
        #expect(pathDraws(fresh).map(\.contours) == pathDraws(plan).map(\.contours))
    }

    /// A stroke trimmed further each frame (a Lottie trim path) is a new
    /// outline each frame, of a path flattened and measured once.
    @Test func aStrokeTrimmedAnewMeasuresItsPathOnce() throws {
        let planner = RenderPlanner()
        let shape = star(radius: 40)
        shape.fillColor = nil
        shape.lineDashPattern = [9, 4]
        _ = try planner.plan(try scene([shape]), canvas: canvas)
        // The stroke's outline and its path measured.
        let made = planner.outlines.statistics.made
        #expect(made >= 2)
        for frame in 1...5 {
            let trimmed = star(radius: 40)
            trimmed.fillColor = nil
            trimmed.lineDashPattern = [9, 4]
            trimmed.strokeStart = 0.05 * Double(frame)
            trimmed.strokeEnd = 1 - 0.1 * Double(frame)
            let plan = try planner.plan(try scene([trimmed]), canvas: canvas)
            // One new outline a frame: the path is not measured again.
            #expect(planner.outlines.statistics.made == made + frame)
            // The contours a planner of its own works out.
            let fresh = try RenderPlanner().plan(try scene([trimmed]), canvas: canvas)
            #expect(pathDraws(fresh).map(\.contours) == pathDraws(plan).map(\.contours))
            #expect(!pathDraws(plan).isEmpty)
        }
    }

    @Test func aPathWhollyOutsideAClipOrTheTargetIsNotFlattened() throws {
        let planner = RenderPlanner()
        // Beyond the canvas's right edge, and inside a clipped holder but
        // beyond its bounds.
        let holder = CALayer()
        holder.frame = CGRect(x: 10, y: 10, width: 50, height: 50)
        holder.masksToBounds = true
        holder.addSublayer(star(radius: 10, at: CGPoint(x: 80, y: 20)))
        let plan = try planner.plan(try scene([star(radius: 40, at: CGPoint(x: 280, y: 100)), holder]), canvas: canvas)
        #expect(pathDraws(plan).isEmpty)
        #expect(planner.outlines.statistics.made == 0)
        // Partly inside the clip: drawn.
        holder.sublayers?[0].position = CGPoint(x: 55, y: 20)
        #expect(pathDraws(try planner.plan(try scene([holder]), canvas: canvas)).count == 2)
    }

    @Test func theCacheKeepsWithinItsPoints() throws {
        let planner = RenderPlanner(outlines: OutlineCache(maximumPoints: 600))
        // An animated path: a new shape every frame, never asked for again.
        for frame in 0..<40 {
            let plan = try planner.plan(try scene([star(radius: 20 + Double(frame))]), canvas: canvas)
            #expect(pathDraws(plan).count == 2)
            #expect(planner.outlines.statistics.points <= 600)
        }
        // An outline larger than the whole cache is drawn, and not kept.
        let huge = CAShapeLayer()
        huge.path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 190, height: 190), transform: nil)
        huge.lineWidth = 40
        huge.strokeColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        huge.lineDashPattern = [1, 1]
        let plan = try planner.plan(try scene([huge]), canvas: canvas)
        let points = pathDraws(plan).flatMap(\.contours).reduce(0) { $0 + $1.count }
        #expect(points > 600)
        #expect(planner.outlines.statistics.points <= 600)
    }

    /// A scene of more paths than the cache holds sweeps it once, not once
    /// a path (each sweep goes through everything kept).
    @Test func aSceneLargerThanTheCacheSweepsItOnce() throws {
        let planner = RenderPlanner(outlines: OutlineCache(maximumPoints: 400))
        let stars = (0..<150).map { (i: Int) -> CAShapeLayer in
            let column = Double(i % 15), row = Double(i / 15)
            return star(radius: 3 + Double(i) / 100, at: CGPoint(x: 10 + column * 12, y: 10 + row * 12))
        }
        let plan = try planner.plan(try scene(stars), canvas: canvas)
        #expect(pathDraws(plan).count == 300)
        let first = planner.outlines.statistics
        #expect(first.made == 300 && first.points <= 400)
        #expect(first.sweeps <= 1)
        // The next frame sweeps out what it does not use, once, and fills up again.
        _ = try planner.plan(try scene(stars), canvas: canvas)
        #expect(planner.outlines.statistics.sweeps <= first.sweeps + 1)
        #expect(planner.outlines.statistics.points <= 400)
    }

    @Test func equalRectanglesShareOneListOfCorners() throws {
        // A grid of equal rounded tiles, each turned differently: one list of
        // corners for all their polygons, however many there are.
        let tiles = (0..<60).map { i -> CALayer in
            let tile = CALayer()
            tile.bounds = CGRect(x: 0, y: 0, width: 16, height: 16)
            tile.position = CGPoint(x: 15 + Double(i % 8) * 24, y: 15 + Double(i / 8) * 24)
            tile.cornerRadius = 4
            tile.backgroundColor = CGColor(red: 0, green: 0, blue: Double(i) / 60, alpha: 1)
            tile.transform = CATransform3DMakeRotation(Double(i) * 0.1, 0, 0, 1)
            return tile
        }
        let planner = RenderPlanner()
        let plan = try planner.plan(try scene(tiles), canvas: canvas)
        let draws = polygons(try #require(plan.passes.last))
        #expect(draws.count == 60)
        // (A turn can change the pad of about a pixel in the last bit: equal
        // polygons, to the bit, share their storage.)
        let storage = Set(draws.map { $0.polygon.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) } })
        let distinct = Set(draws.map { $0.polygon.map { [$0.x, $0.y] } })
        #expect(storage.count == distinct.count && distinct.count <= 2)
        let made = planner.outlines.statistics.made
        #expect(made <= 2)
        // Drawn again, nothing is made.
        _ = try planner.plan(try scene(tiles), canvas: canvas)
        #expect(planner.outlines.statistics.made == made)
    }

    @Test func plansOnSeveralThreadsShareOneCache() throws {
        let planner = RenderPlanner(outlines: OutlineCache(maximumPoints: 2_000))
        let radii = (0..<16).map { 20 + Double($0 % 5) * 7 }
        let expected = try radii.map { try pathDraws(RenderPlanner().plan(try scene([star(radius: $0)]), canvas: canvas)).map(\.contours) }
        nonisolated(unsafe) var got = [[[[CGPoint]]]](repeating: [], count: radii.count)
        let scenes = try radii.map { try scene([star(radius: $0)]) }
        got.withUnsafeMutableBufferPointer { results in
            nonisolated(unsafe) let results = results
            DispatchQueue.concurrentPerform(iterations: radii.count) { i in
                results[i] = (try? pathDraws(planner.plan(scenes[i], canvas: canvas)).map(\.contours)) ?? []
            }
        }
        #expect(got == expected)
        #expect(planner.outlines.statistics.points <= 2_000)
    }

    @Test func pathsAreCutAtTheGuardBandOnlyWhereTheyReachIt() throws {
        let planner = RenderPlanner()
        // Inside the target: the contours are the kept ones, not cut copies.
        let inside = try #require(pathDraws(try planner.plan(try scene([star(radius: 40)]), canvas: canvas)).first)
        let insideAgain = try #require(pathDraws(try planner.plan(try scene([star(radius: 40)]), canvas: canvas)).first)
        #expect(inside.contours[0].withUnsafeBufferPointer { $0.baseAddress } == insideAgain.contours[0].withUnsafeBufferPointer { $0.baseAddress })
        // Reaching past the right edge (its bounds do): cut at the guard band.
        let past = try #require(pathDraws(try planner.plan(try scene([star(radius: 40, at: CGPoint(x: 190, y: 100))]),
                                                             canvas: canvas)).first)
        let xs = past.contours.flatMap { $0 }.map { Double(past.matrix.apply(to: $0).x) }
        #expect(xs.max()! <= 200 + PlanBuilder.guardBand + 1e-9)
        #expect(xs.max()! > 200)
    }

    /// A matrix flattened without the product is the product's value, entry
    /// for entry (a zero's sign aside, which `==` does not see).
    @Test func aFlattenedMatrixIsItsProductWithTheFlatteningMatrix() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            var m = CATransform3D.identity
            for path in [\CATransform3D.m11, \.m12, \.m13, \.m14, \.m21, \.m22, \.m23, \.m24,
                         \.m31, \.m32, \.m33, \.m34, \.m41, \.m42, \.m43, \.m44] {
                m[keyPath: path] = .random(in: -500...500, using: &rng)
            }
            #expect(m.flattened == m.concatenating(flatteningMatrix))
        }
        #expect(CATransform3D.identity.flattened == flatteningMatrix)
    }

    /// The box and the scale the planner works out from a rect's corners
    /// without lists, against the lists they were worked out from before.
    @Test func projectedBoundsAndPixelScaleAreThoseOfTheCornerLists() {
        var rng = SystemRandomNumberGenerator()
        for i in 0..<2_000 {
            var m = CATransform3D.identity
            m.m34 = i % 3 == 0 ? 0 : -1 / Double.random(in: 50...800, using: &rng)
            let turn = CATransform3DMakeRotation(Double.random(in: -3...3, using: &rng), 0.2, 1, 0.1)
            let move = CATransform3D(translationX: .random(in: -300...300, using: &rng), y: .random(in: -300...300, using: &rng),
                                     z: .random(in: -400...200, using: &rng))
            let matrix = turn.concatenating(move).concatenating(m)
            let rect = CGRect(x: .random(in: -200...200, using: &rng), y: .random(in: -200...200, using: &rng),
                              width: .random(in: 0...300, using: &rng), height: .random(in: 0...300, using: &rng))
            let visible = PolygonClipper.clip(rect.cornerPolygon, to: matrix.nearPlane)
            #expect(matrix.projectedBounds(of: rect) == CGRect.bounding(visible.map { matrix.apply(to: $0) }))
            let samples = rect.cornerPolygon + [CGPoint(x: rect.midX, y: rect.midY)] + visible
            let scale = matrix.maxPixelScale(over: rect), listed = samples.map { matrix.pixelScale(at: $0) }.max() ?? 0
            #expect(scale == listed || (scale.isNaN && listed.isNaN))
        }
    }
}

/// The plan's validation of a path draw whose contours' box is known
/// (`PathFillDraw(outline:)`, as the planner makes them) decides as it does
/// point by point.
@Suite("Path draws with their box")
struct PathDrawBoxTests {
    @Test func aDrawWithItsBoxIsValidatedAsOneWithout() {
        var rng = SystemRandomNumberGenerator()
        func point(_ spread: Double) -> CGPoint {
            CGPoint(x: .random(in: -spread...spread, using: &rng), y: .random(in: -spread...spread, using: &rng))
        }
        func plane() -> HalfPlane {
            // Axis-aligned ones (a guard band's) and slanted ones (a cut's).
            let slant = Bool.random(using: &rng)
            let a = Double.random(in: -1...1, using: &rng), b = slant ? Double.random(in: -1...1, using: &rng) : 0
            return HalfPlane(a: a, b: b, c: .random(in: -50...150, using: &rng))
        }
        var fast = 0
        for i in 0..<3_000 {
            let spread = [10.0, 100, 1e7][i % 3]
            var contours = (0..<Int.random(in: 1...3, using: &rng)).map { _ in
                (0..<Int.random(in: 2...9, using: &rng)).map { _ in point(spread) }
            }
            if i % 50 == 0 { contours[0][0].x = .nan }
            var matrix = CATransform3D(translationX: .random(in: -50...50, using: &rng), y: 0, z: 0)
                .concatenating(CATransform3D(scaleX: .random(in: 0.5...3, using: &rng), y: 2, z: 1))
            if i % 7 == 0 { matrix.m14 = 0.001 }
            let clipPlanes = (0..<Int.random(in: 0...3, using: &rng)).map { _ in plane() }
            let cuts = (0..<Int.random(in: 0...2, using: &rng)).map { _ in plane() }
            let color = RGBA(red: 1.5, green: 0.5, blue: -1, alpha: 0.5)
            let known = PathFillDraw(matrix: matrix, outline: FlatOutline(contours), evenOdd: false, color: color,
                                     clipPlanes: clipPlanes, cuts: cuts)
            let unknown = PathFillDraw(matrix: matrix, contours: contours, evenOdd: false, color: color,
                                       clipPlanes: clipPlanes, cuts: cuts)
            #expect(known.bounds != nil || contours.joined().contains { !$0.x.isFinite })
            let a = known.clippedIfDrawable(), b = unknown.clippedIfDrawable()
            #expect((a == nil) == (b == nil))
            guard let a, let b else { continue }
            #expect(a.contours == b.contours && a.cuts == b.cuts && a.clipPlanes.isEmpty && b.clipPlanes.isEmpty)
            #expect(a.color == b.color && a.evenOdd == b.evenOdd)
            if a.bounds != nil { fast += 1 }
        }
        // The box let a good share of them through without the point-by-point tests.
        #expect(fast > 300)
    }

    @Test func changedContoursForgetTheirBox() {
        var draw = PathFillDraw(matrix: .identity, outline: FlatOutline([[CGPoint(x: 0, y: 0), CGPoint(x: 1, y: 0), CGPoint(x: 0, y: 1)]]),
                                evenOdd: false, color: .white)
        #expect(draw.bounds == CGRect(x: 0, y: 0, width: 1, height: 1))
        draw.contours = [[CGPoint(x: 0, y: 0), CGPoint(x: 5, y: 0), CGPoint(x: 0, y: 5)]]
        #expect(draw.bounds == nil)
        #expect(FlatOutline([]).bounds == nil && FlatOutline([[CGPoint(x: CGFloat.infinity, y: 0)]]).bounds == nil)
        // The box `CGRect.bounding` gives all the points, nil where it is.
        let far = [[CGPoint(x: -CGFloat.greatestFiniteMagnitude, y: 0), CGPoint(x: CGFloat.greatestFiniteMagnitude, y: 1)]]
        let contours = [[CGPoint(x: 3, y: -2), CGPoint(x: 5, y: 7)], [], [CGPoint(x: -1, y: 4)]]
        #expect(FlatOutline(far).bounds == nil && CGRect.bounding(far.flatMap { $0 }) == nil)
        #expect(FlatOutline(contours).bounds == CGRect.bounding(contours.flatMap { $0 }))
    }
}
