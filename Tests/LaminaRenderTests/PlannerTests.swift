import LaminaRaster
import LaminaGeometry
import Foundation
import Testing
@testable import LaminaRender

/// A plain layer of the given size placed with its centre at `center` in its
/// superlayer (identity anchor maths: anchor 0.5).
func makeLayer(_ size: CGSize, center: CGPoint, transform: CATransform3D = .identity, color: RGBA? = .black) -> RenderLayer {
    var layer = RenderLayer()
    layer.bounds = CGRect(origin: .zero, size: size)
    // Local -> superlayer: move the anchor (centre) to the origin, transform, move to the position.
    layer.transformToSuperlayer = CATransform3D(translationX: -size.width / 2, y: -size.height / 2, z: 0)
        .concatenating(transform)
        .concatenating(CATransform3D(translationX: center.x, y: center.y, z: 0))
    layer.backgroundColor = color
    return layer
}

func canvasRoot(_ width: Double, _ height: Double, sublayers: [RenderLayer]) -> RenderLayer {
    var root = makeLayer(CGSize(width: width, height: height), center: CGPoint(x: width / 2, y: height / 2), color: nil)
    root.sublayers = sublayers
    return root
}

/// The pixel positions of a polygon draw's vertices.
func pixelPolygon(_ draw: PolygonDraw) -> [CGPoint] { draw.polygon.map { draw.matrix.apply(to: $0) } }

func polygons(_ pass: RenderPass) -> [PolygonDraw] {
    pass.commands.compactMap { if case .polygon(let p) = $0 { return p } else { return nil } }
}

func solidColor(_ draw: PolygonDraw) -> RGBA? {
    if case .color(let c) = draw.fill { return c }
    return nil
}

@Suite("Render plan")
struct PlannerTests {
    let planner = RenderPlanner()

    @Test func flatLayerLandsWhereItsFrameIs() throws {
        let root = canvasRoot(200, 100, sublayers: [makeLayer(CGSize(width: 50, height: 20), center: CGPoint(x: 100, y: 50))])
        let plan = try planner.plan(root, canvas: RenderCanvas(width: 200, height: 100, scale: 2))
        #expect(plan.width == 400 && plan.height == 200)
        let draws = polygons(try #require(plan.passes.last))
        #expect(draws.count == 1)
        let box = try #require(CGRect.bounding(pixelPolygon(draws[0])))
        #expect(box == CGRect(x: 150, y: 80, width: 100, height: 40))
    }

    @Test func bottomLeftOriginFlipsY() throws {
        let root = canvasRoot(100, 100, sublayers: [makeLayer(CGSize(width: 10, height: 10), center: CGPoint(x: 5, y: 5))])
        let plan = try planner.plan(root, canvas: RenderCanvas(width: 100, height: 100, originBottomLeft: true))
        let box = try #require(CGRect.bounding(pixelPolygon(polygons(plan.passes.last!)[0])))
        #expect(box == CGRect(x: 0, y: 90, width: 10, height: 10))
    }

    @Test func innerAndOuterYRotationsDoNotCancelWhenFlattened() throws {
        // Listing 5.8: the outer layer turns 45° about y, the inner -45°; with
        // perspective on both, flattening keeps the inner one foreshortened.
        var perspective = CATransform3D.identity
        perspective.m34 = -1.0 / 500
        var inner = makeLayer(CGSize(width: 100, height: 100), center: CGPoint(x: 50, y: 50),
                              transform: CATransform3DRotate(perspective, -.pi / 4, 0, 1, 0), color: RGBA(red: 1, green: 0, blue: 0, alpha: 1))
        inner.sublayers = []
        var outer = makeLayer(CGSize(width: 100, height: 100), center: CGPoint(x: 150, y: 150),
                              transform: CATransform3DRotate(perspective, .pi / 4, 0, 1, 0), color: nil)
        outer.sublayers = [inner]
        let plan = try planner.plan(canvasRoot(300, 300, sublayers: [outer]), canvas: RenderCanvas(width: 300, height: 300))
        let draw = try #require(polygons(plan.passes.last!).first)
        let box = try #require(CGRect.bounding(pixelPolygon(draw)))
        // Not restored to a 100-wide square: narrower than it.
        #expect(box.width < 95)
        // Without flattening (a transform layer) the rotations cancel exactly... in shape, width 100.
        var transformOuter = outer
        transformOuter.kind = .transform
        let plan3D = try planner.plan(canvasRoot(300, 300, sublayers: [transformOuter]), canvas: RenderCanvas(width: 300, height: 300))
        let box3D = try #require(CGRect.bounding(pixelPolygon(polygons(plan3D.passes.last!)[0])))
        #expect(box3D.width > box.width)
    }

    @Test func boundingBoxesAreFiniteOrNone() {
        #expect(CGRect.bounding([CGPoint(x: 1, y: 2), CGPoint(x: -3, y: 5)]) == CGRect(x: -3, y: 2, width: 4, height: 3))
        #expect(CGRect.bounding([]) == nil)
        #expect(CGRect.bounding([CGPoint(x: 0, y: 0), CGPoint(x: CGFloat.infinity, y: 1)]) == nil)
        #expect(CGRect.bounding([CGPoint(x: CGFloat.nan, y: 0)]) == nil)
        // Finite corners, infinite width.
        #expect(CGRect.bounding([CGPoint(x: -1e308, y: 0), CGPoint(x: 1e308, y: 0)]) == nil)
    }

    @Test func zPositionOrdersSiblings() throws {
        var back = makeLayer(CGSize(width: 10, height: 10), center: CGPoint(x: 5, y: 5), color: RGBA(red: 1, green: 0, blue: 0, alpha: 1))
        back.transformToSuperlayer = back.transformToSuperlayer.concatenating(CATransform3D(translationX: 0, y: 0, z: 5))
        let front = makeLayer(CGSize(width: 10, height: 10), center: CGPoint(x: 5, y: 5), color: RGBA(red: 0, green: 0, blue: 1, alpha: 1))
        // `back` comes first in the array but is nearer (z = 5): drawn last.
        // (On a larger canvas: covering it, `back` would hide `front`.)
        let plan = try planner.plan(canvasRoot(12, 12, sublayers: [back, front]), canvas: RenderCanvas(width: 12, height: 12))
        let colors = polygons(plan.passes.last!).compactMap(solidColor)
        #expect(colors.map(\.red) == [0, 1])
    }

    @Test("Group opacity makes a surface only when the group's draws overlap")
    func groupOpacityOnlyForOverlappingDraws() throws {
        // Side by side: fading each draw is fading the group.
        var apart = makeLayer(CGSize(width: 40, height: 20), center: CGPoint(x: 20, y: 10), color: nil)
        apart.opacity = 0.5
        apart.sublayers = [makeLayer(CGSize(width: 20, height: 20), center: CGPoint(x: 10, y: 10)),
                           makeLayer(CGSize(width: 20, height: 20), center: CGPoint(x: 30, y: 10))]
        let flat = try planner.plan(canvasRoot(40, 20, sublayers: [apart]), canvas: RenderCanvas(width: 40, height: 20))
        #expect(flat.surfaces.isEmpty)
        #expect(polygons(flat.passes.last!).allSatisfy { $0.opacity == 0.5 })
        // Overlapping: they fade as one picture, through a surface that says why.
        var over = apart
        over.sublayers[1] = makeLayer(CGSize(width: 20, height: 20), center: CGPoint(x: 20, y: 10))
        let grouped = try planner.plan(canvasRoot(40, 20, sublayers: [over]), canvas: RenderCanvas(width: 40, height: 20))
        #expect(grouped.surfaces.map(\.purpose) == [.groupOpacity])
    }

    @Test func intersectingPlanesAreSplit() throws {
        // Two squares crossing at right angles through the same centre line:
        // the first is the BSP's splitter, the second is cut in two, and the
        // splitter is drawn between its halves.
        let a = makeLayer(CGSize(width: 100, height: 100), center: CGPoint(x: 100, y: 100),
                          transform: CATransform3DMakeRotation(.pi / 4, 0, 1, 0), color: RGBA(red: 1, green: 0, blue: 0, alpha: 1))
        let b = makeLayer(CGSize(width: 100, height: 100), center: CGPoint(x: 100, y: 100),
                          transform: CATransform3DMakeRotation(-.pi / 4, 0, 1, 0), color: RGBA(red: 0, green: 0, blue: 1, alpha: 1))
        let plan = try planner.plan(canvasRoot(200, 200, sublayers: [a, b]), canvas: RenderCanvas(width: 200, height: 200))
        let draws = polygons(plan.passes.last!)
        #expect(draws.map { solidColor($0)?.red } == [0, 1, 0])
        // The pieces of each square together cover the whole square: each
        // piece is the whole square with cuts, the cuts of the two halves
        // one line seen from either side.
        let redArea = draws.filter { solidColor($0)?.red == 1 }.map { area($0.piecePolygon) }.reduce(0, +)
        let blueArea = draws.filter { solidColor($0)?.blue == 1 }.map { area($0.piecePolygon) }.reduce(0, +)
        #expect(abs(redArea - 10000) < 1e-6 && abs(blueArea - 10000) < 1e-6)
        let halves = draws.filter { solidColor($0)?.blue == 1 }
        #expect(halves.map(\.cuts.count) == [1, 1])
        #expect(halves[0].cuts[0] == halves[1].cuts[0].flipped)
    }

    @Test func geometryBehindTheEyeIsClippedNotMirrored() throws {
        // A floor tilted towards the viewer, with the eye 100 points away and
        // the layer reaching 200 points towards it.
        var t = CATransform3D.identity
        t.m34 = -1.0 / 100
        t = CATransform3DRotate(t, .pi / 2 * 0.9, 1, 0, 0)
        let floor = makeLayer(CGSize(width: 100, height: 400), center: CGPoint(x: 100, y: 100), transform: t)
        let plan = try planner.plan(canvasRoot(200, 200, sublayers: [floor]), canvas: RenderCanvas(width: 200, height: 200))
        let draw = try #require(polygons(plan.passes.last!).first)
        for p in draw.polygon {
            #expect(draw.matrix.apply(x: p.x, y: p.y).w > 0)
        }
        #expect(area(draw.polygon) < 100 * 400)
    }

    @Test func backFacesAreCulledWhenNotDoubleSided() throws {
        var culled = makeLayer(CGSize(width: 10, height: 10), center: CGPoint(x: 5, y: 5), transform: CATransform3DMakeRotation(.pi, 0, 1, 0))
        culled.isDoubleSided = false
        var shown = culled
        shown.isDoubleSided = true
        #expect(polygons(try planner.plan(canvasRoot(10, 10, sublayers: [culled]), canvas: RenderCanvas(width: 10, height: 10)).passes.last!).isEmpty)
        #expect(polygons(try planner.plan(canvasRoot(10, 10, sublayers: [shown]), canvas: RenderCanvas(width: 10, height: 10)).passes.last!).count == 1)
    }

    @Test func hiddenAndTransparentLayersDrawNothing() throws {
        var hidden = makeLayer(CGSize(width: 10, height: 10), center: CGPoint(x: 5, y: 5))
        hidden.isHidden = true
        var clear = makeLayer(CGSize(width: 10, height: 10), center: CGPoint(x: 5, y: 5))
        clear.opacity = 0
        let plan = try planner.plan(canvasRoot(10, 10, sublayers: [hidden, clear]), canvas: RenderCanvas(width: 10, height: 10))
        #expect(plan.commandCount == 0)
    }

    @Test func groupOpacityGoesOffscreenOnlyWhenDrawsOverlap() throws {
        var single = makeLayer(CGSize(width: 10, height: 10), center: CGPoint(x: 5, y: 5))
        single.opacity = 0.5
        let direct = try planner.plan(canvasRoot(10, 10, sublayers: [single]), canvas: RenderCanvas(width: 10, height: 10))
        #expect(direct.surfaces.isEmpty)
        #expect(polygons(direct.passes.last!).first?.opacity == 0.5)

        var parent = single
        parent.sublayers = [makeLayer(CGSize(width: 4, height: 4), center: CGPoint(x: 5, y: 5))]
        let group = try planner.plan(canvasRoot(10, 10, sublayers: [parent]), canvas: RenderCanvas(width: 10, height: 10))
        #expect(group.surfaces.count == 1)
        #expect(group.passes.count == 2)
        let composite = try #require(polygons(group.passes.last!).first)
        #expect(composite.opacity == 0.5)
        // Inside the group everything is opaque.
        #expect(polygons(group.passes[0]).allSatisfy { $0.opacity == 1 })

        // Sublayers side by side, no background: no pixel shows two draws,
        // so each fades on its own and no surface is made.
        var row = makeLayer(CGSize(width: 10, height: 10), center: CGPoint(x: 5, y: 5), color: nil)
        row.opacity = 0.5
        row.sublayers = [makeLayer(CGSize(width: 4, height: 4), center: CGPoint(x: 2, y: 5)),
                         makeLayer(CGSize(width: 4, height: 4), center: CGPoint(x: 8, y: 5))]
        let apart = try planner.plan(canvasRoot(10, 10, sublayers: [row]), canvas: RenderCanvas(width: 10, height: 10))
        #expect(apart.surfaces.isEmpty)
        #expect(polygons(apart.passes.last!).map(\.opacity) == [0.5, 0.5])
        // Moved to overlap, they need the group.
        row.sublayers[1] = makeLayer(CGSize(width: 4, height: 4), center: CGPoint(x: 4, y: 5))
        let overlapping = try planner.plan(canvasRoot(10, 10, sublayers: [row]), canvas: RenderCanvas(width: 10, height: 10))
        #expect(overlapping.surfaces.count == 1 && overlapping.surfaces[0].purpose == .groupOpacity)
    }

    /// Sublayers that each only hold, through a layer that only holds it,
    /// one painting layer (a Lottie layer's group holding its shape) are
    /// those layers where they lie: side by side they fade each on its own,
    /// moved (by a holder's own placement) to overlap they need the group.
    @Test func groupOpacityLooksThroughLayersThatOnlyHoldOne() throws {
        func held(_ center: CGPoint, holderAt holderCenter: CGPoint = CGPoint(x: 5, y: 5)) -> RenderLayer {
            var holder = makeLayer(CGSize(width: 10, height: 10), center: holderCenter, color: nil)
            holder.sublayers = [makeLayer(CGSize(width: 4, height: 4), center: center)]
            return holder
        }
        var row = makeLayer(CGSize(width: 10, height: 10), center: CGPoint(x: 5, y: 5), color: nil)
        row.opacity = 0.5
        row.sublayers = [held(CGPoint(x: 2, y: 5)), held(CGPoint(x: 8, y: 5))]
        let apart = try planner.plan(canvasRoot(10, 10, sublayers: [row]), canvas: RenderCanvas(width: 10, height: 10))
        #expect(apart.surfaces.isEmpty)
        #expect(polygons(apart.passes.last!).map(\.opacity) == [0.5, 0.5])
        // The second holder moved left by 4: its square now overlaps the first's.
        row.sublayers[1] = held(CGPoint(x: 8, y: 5), holderAt: CGPoint(x: 1, y: 5))
        let overlapping = try planner.plan(canvasRoot(10, 10, sublayers: [row]), canvas: RenderCanvas(width: 10, height: 10))
        #expect(overlapping.surfaces.map(\.purpose) == [.groupOpacity])
        // A holder of two layers is not looked through.
        var pair = held(CGPoint(x: 8, y: 5))
        pair.sublayers.append(makeLayer(CGSize(width: 1, height: 1), center: CGPoint(x: 9, y: 9)))
        row.sublayers = [held(CGPoint(x: 2, y: 5)), pair]
        let two = try planner.plan(canvasRoot(10, 10, sublayers: [row]), canvas: RenderCanvas(width: 10, height: 10))
        #expect(two.surfaces.map(\.purpose) == [.groupOpacity])
    }

    /// A faded shape of one fill is one draw, however its contours
    /// overlap (they are covered once): it fades on its own, no surface.
    /// With a stroke over it, or a sublayer on it, it needs the group.
    @Test func aFadedFillIsOneDrawAndNeedsNoGroup() throws {
        var shape = makeLayer(CGSize(width: 10, height: 10), center: CGPoint(x: 5, y: 5), color: nil)
        shape.opacity = 0.5
        var star = PathData()
        star.addLines(between: [CGPoint(x: 5, y: 0), CGPoint(x: 8, y: 10), CGPoint(x: 0, y: 3), CGPoint(x: 10, y: 3), CGPoint(x: 2, y: 10)])
        star.closeSubpath()
        let fill = FillContent(outline: .fill(star), evenOdd: false, color: .black, bounds: star.boundingBox)
        shape.content = [.fill(fill)]
        let direct = try planner.plan(canvasRoot(10, 10, sublayers: [shape]), canvas: RenderCanvas(width: 10, height: 10))
        #expect(direct.surfaces.isEmpty)
        var stroked = shape
        let stroke = FillContent(outline: .stroke(star, StrokeStyle(lineWidth: 1)), evenOdd: false, color: .black, bounds: star.boundingBox)
        stroked.content = [.fill(fill), .fill(stroke)]
        let grouped = try planner.plan(canvasRoot(10, 10, sublayers: [stroked]), canvas: RenderCanvas(width: 10, height: 10))
        #expect(grouped.surfaces.map(\.purpose) == [.groupOpacity])
        var parent = shape
        parent.sublayers = [makeLayer(CGSize(width: 4, height: 4), center: CGPoint(x: 5, y: 5))]
        let withSublayer = try planner.plan(canvasRoot(10, 10, sublayers: [parent]), canvas: RenderCanvas(width: 10, height: 10))
        #expect(withSublayer.surfaces.map(\.purpose) == [.groupOpacity])
    }

    @Test func transformLayerOpacityReachesEachSublayerSeparately() throws {
        var container = RenderLayer()
        container.kind = .transform
        container.opacity = 0.5
        container.sublayers = [
            makeLayer(CGSize(width: 10, height: 10), center: CGPoint(x: 5, y: 5)),
            makeLayer(CGSize(width: 10, height: 10), center: CGPoint(x: 5, y: 5)),
        ]
        let plan = try planner.plan(canvasRoot(10, 10, sublayers: [container]), canvas: RenderCanvas(width: 10, height: 10))
        #expect(plan.surfaces.isEmpty)
        #expect(polygons(plan.passes.last!).map(\.opacity) == [0.5, 0.5])
    }

    @Test func borderIsDrawnAboveSublayers() throws {
        var parent = makeLayer(CGSize(width: 10, height: 10), center: CGPoint(x: 5, y: 5), color: RGBA(red: 0, green: 1, blue: 0, alpha: 1))
        parent.borderWidth = 2
        parent.sublayers = [makeLayer(CGSize(width: 10, height: 10), center: CGPoint(x: 5, y: 5))]
        // (On a larger canvas: covering it, the sublayer would hide the background.)
        let draws = polygons(try planner.plan(canvasRoot(12, 12, sublayers: [parent]), canvas: RenderCanvas(width: 12, height: 12)).passes.last!)
        #expect(draws.count == 3)
        #expect(draws.last?.coverage?.borderWidth == 2)
        #expect(draws.first?.coverage == nil)
    }

    /// A masked layer takes two surfaces, its picture and its mask's, and
    /// is drawn back through the mask: no third surface holds the masked
    /// picture alone.
    @Test func aMaskedLayerIsDrawnBackThroughItsMask() throws {
        var layer = makeLayer(CGSize(width: 20, height: 20), center: CGPoint(x: 50, y: 50))
        layer.mask = Indirect(makeLayer(CGSize(width: 10, height: 10), center: CGPoint(x: 5, y: 5)))
        let plan = try planner.plan(canvasRoot(100, 100, sublayers: [layer]), canvas: RenderCanvas(width: 100, height: 100))
        #expect(plan.surfaces.count == 2)
        let final = polygons(plan.passes.last!)
        guard case .masked(.surface(let source), .surface(let mask), _, false)? = final.last?.fill else {
            Issue.record("the layer is not drawn back through its mask: \(String(describing: final.last?.fill))"); return
        }
        #expect(source != mask)
    }

    /// A mirrored masked layer (artwork flipped, scale −1) is drawn mirrored
    /// into its surfaces, and drawn back the right way round onto the same
    /// whole pixels, so that it is copied, not resampled; flipped both
    /// ways, too.
    @Test(arguments: [(-1.0, 1.0), (1.0, -1.0), (-1.0, -1.0)])
    func aMirroredMaskedLayerIsDrawnBackUnmirrored(sx: Double, sy: Double) throws {
        var layer = makeLayer(CGSize(width: 20, height: 10), center: CGPoint(x: 50, y: 40),
                              transform: CATransform3D(scaleX: sx, y: sy, z: 1))
        layer.mask = Indirect(makeLayer(CGSize(width: 10, height: 10), center: CGPoint(x: 5, y: 5)))
        let plan = try planner.plan(canvasRoot(100, 100, sublayers: [layer]), canvas: RenderCanvas(width: 100, height: 100, scale: 2))
        let back = try #require(polygons(plan.passes.last!).last)
        #expect(back.matrix.m11 == 2 && back.matrix.m22 == 2, "drawn back by \(back.matrix)")
        let box = try #require(CGRect.bounding(pixelPolygon(back)))
        #expect(box.minX >= 78 && box.maxX <= 122 && box.minY >= 68 && box.maxY <= 92, "\(box)")
        for value in [box.minX, box.maxX, box.minY, box.maxY] { #expect(value == value.rounded(), "\(box)") }
    }

    @Test func shadowsAndMasksUseOffscreenPasses() throws {
        var layer = makeLayer(CGSize(width: 20, height: 20), center: CGPoint(x: 50, y: 50))
        layer.shadow = RenderShadow(color: .black, opacity: 0.5, offset: CGSize(width: 0, height: -3), radius: 3)
        let plan = try planner.plan(canvasRoot(100, 100, sublayers: [layer]), canvas: RenderCanvas(width: 100, height: 100))
        // content, shadow alpha, blurred shadow.
        #expect(plan.surfaces.count == 3)
        let blurs = plan.passes.flatMap(\.commands).filter { if case .blurMask = $0 { return true } else { return false } }
        #expect(blurs.count == 1)
        let final = polygons(plan.passes.last!)
        #expect(final.count == 2)
        if case .alphaTint(_, let rect, let color) = final[0].fill {
            // Local coordinates: the layer's top edge, padded by 3 sigma, moved up 3.
            #expect(abs(rect.minY - (0 - 9 - 3)) < 1e-9)
            #expect(color.alpha == 0.5)
        } else {
            Issue.record("the shadow comes first")
        }
    }

    @Test func offscreenSurfacesFollowTheScaleTheyAreSeenAt() throws {
        var layer = makeLayer(CGSize(width: 10, height: 10), center: CGPoint(x: 50, y: 50), transform: CATransform3DMakeScale(4, 4, 1))
        layer.masksToBounds = true
        layer.cornerRadii = CornerRadii(minXMinY: 2, maxXMinY: 2, maxXMaxY: 2, minXMaxY: 2)
        layer.sublayers = [makeLayer(CGSize(width: 20, height: 20), center: CGPoint(x: 5, y: 5))]
        let plan = try planner.plan(canvasRoot(100, 100, sublayers: [layer]), canvas: RenderCanvas(width: 100, height: 100, scale: 2))
        #expect(plan.surfaces.first == SurfaceDescription(width: 80, height: 80, purpose: .clip, layer: .root))
    }

    @Test func squareBoundsClipBySplittingPlanesNotBySurfaces() throws {
        var layer = makeLayer(CGSize(width: 10, height: 10), center: CGPoint(x: 50, y: 50))
        layer.masksToBounds = true
        layer.sublayers = [makeLayer(CGSize(width: 20, height: 20), center: CGPoint(x: 5, y: 5))]
        let plan = try planner.plan(canvasRoot(100, 100, sublayers: [layer]), canvas: RenderCanvas(width: 100, height: 100))
        #expect(plan.surfaces.isEmpty)
        // The 20-point sublayer is cut to the 10-point bounds: 45...55 on the canvas.
        let drawn = polygons(plan.passes.last!).flatMap { draw in draw.polygon.map { draw.matrix.apply(to: $0) } }
        #expect(!drawn.isEmpty && drawn.allSatisfy { $0.x >= 45 - 1e-9 && $0.x <= 55 + 1e-9 && $0.y >= 45 - 1e-9 && $0.y <= 55 + 1e-9 },
                "\(drawn)")
    }
}

func area(_ polygon: [CGPoint]) -> Double {
    var sum = 0.0
    for i in polygon.indices {
        let a = polygon[i], b = polygon[(i + 1) % polygon.count]
        sum += Double(a.x * b.y - b.x * a.y)
    }
    return abs(sum) / 2
}

@Suite("Render plan: shadows of translucent layers")
struct TranslucentShadowTests {
    /// A translucent layer is not grouped with its shadow: the shadow and
    /// the layer reach the canvas as two draws, each faded by the layer's
    /// opacity, the shadow first (so it shows through the layer, as Core
    /// Animation draws it).
    @Test func aTranslucentLayerAndItsShadowAreEachFaded() throws {
        var layer = makeLayer(CGSize(width: 20, height: 20), center: CGPoint(x: 50, y: 50))
        layer.opacity = 0.5
        layer.shadow = RenderShadow(color: .black, opacity: 1, offset: CGSize(width: 0, height: 5), radius: 2)
        let plan = try RenderPlanner().plan(canvasRoot(100, 100, sublayers: [layer]), canvas: RenderCanvas(width: 100, height: 100))
        let final = polygons(plan.passes.last!)
        #expect(final.count == 2)
        #expect(final.allSatisfy { $0.opacity == 0.5 })
        guard case .alphaTint(_, let rect, _) = final.first?.fill else { Issue.record("expected the shadow first"); return }
        // The shadow covers the layer's alpha blurred (padded by 3 sigma) and moved 5 down.
        #expect(rect.maxY >= 20 + 6 + 5)
        guard case .texture = final.last?.fill else { Issue.record("expected the layer's picture over it"); return }
    }
}

@Suite("Render plan: bounded offscreen work")
struct OffscreenBoundsTests {
    @Test func offscreenSurfacesCoverOnlyWhatCanShow() throws {
        // A 20,000-point layer with a shadow on a 100 x 100 canvas: its
        // surfaces cover the canvas (and the shadow's reach), not the layer.
        var huge = makeLayer(CGSize(width: 20000, height: 20000), center: CGPoint(x: 50, y: 50))
        huge.shadow = RenderShadow(color: .black, opacity: 1, offset: CGSize(width: 0, height: 3), radius: 3)
        let plan = try RenderPlanner().plan(canvasRoot(100, 100, sublayers: [huge]), canvas: RenderCanvas(width: 100, height: 100))
        #expect(!plan.surfaces.isEmpty)
        for s in plan.surfaces { #expect(s.width <= 160 && s.height <= 160) }
    }

    /// A layer the size of the canvas masked by a layer that is as large but
    /// paints one 10 x 10 square (a Lottie mask: bounds the whole
    /// composition, one small path): both surfaces cover the square, not
    /// the canvas. An inverted mask shows everything but the square, so
    /// its surfaces stay canvas-sized; a mask that paints nothing shows
    /// nothing.
    @Test func aMaskedLayersSurfacesCoverWhatItsMaskPaints() throws {
        func plan(_ mask: RenderLayer, inverted: Bool = false) throws -> RenderPlan {
            var layer = makeLayer(CGSize(width: 200, height: 200), center: CGPoint(x: 100, y: 100))
            var holder = makeLayer(CGSize(width: 200, height: 200), center: CGPoint(x: 100, y: 100), color: nil)
            holder.sublayers = [mask]
            layer.mask = Indirect(holder)
            layer.maskIsInverted = inverted
            return try RenderPlanner().plan(canvasRoot(200, 200, sublayers: [layer]), canvas: RenderCanvas(width: 200, height: 200))
        }
        let square = makeLayer(CGSize(width: 10, height: 10), center: CGPoint(x: 60, y: 40))
        let masked = try plan(square)
        #expect(masked.surfaces.count == 2)
        for s in masked.surfaces { #expect(s.width <= 12 && s.height <= 12, "\(s.width) x \(s.height)") }
        for s in try plan(square, inverted: true).surfaces { #expect(s.width >= 200 && s.height >= 200) }
        var transparent = square
        transparent.backgroundColor = nil
        let hidden = try plan(transparent)
        #expect(hidden.surfaces.isEmpty && hidden.commandCount == 0)
    }

    /// A faded group as large as the canvas whose two overlapping sublayers
    /// paint a 30 x 20 area: its surface covers that area. A layer that
    /// paints nothing but casts a shadow from its shadow path still casts it.
    @Test func surfacesCoverWhatTheirLayerPaintsNotItsBounds() throws {
        var group = makeLayer(CGSize(width: 200, height: 200), center: CGPoint(x: 100, y: 100), color: nil)
        group.opacity = 0.5
        group.sublayers = [makeLayer(CGSize(width: 20, height: 20), center: CGPoint(x: 60, y: 40)),
                           makeLayer(CGSize(width: 20, height: 20), center: CGPoint(x: 70, y: 40))]
        let faded = try RenderPlanner().plan(canvasRoot(200, 200, sublayers: [group]), canvas: RenderCanvas(width: 200, height: 200))
        #expect(faded.surfaces.count == 1)
        for s in faded.surfaces { #expect(s.width <= 32 && s.height <= 22, "\(s.width) x \(s.height)") }

        var caster = makeLayer(CGSize(width: 200, height: 200), center: CGPoint(x: 100, y: 100), color: nil)
        let square = CGRect(x: 50, y: 50, width: 40, height: 40)
        caster.shadow = RenderShadow(color: .black, opacity: 1, offset: CGSize(width: 0, height: 5), radius: 2,
                                     path: FillContent(outline: .polygons([[CGPoint(x: 50, y: 50), CGPoint(x: 90, y: 50), CGPoint(x: 90, y: 90), CGPoint(x: 50, y: 90)]]),
                                                       evenOdd: false, color: .black, bounds: square))
        let cast = try RenderPlanner().plan(canvasRoot(200, 200, sublayers: [caster]), canvas: RenderCanvas(width: 200, height: 200))
        #expect(cast.commandCount > 0, "the shadow path's shadow is drawn")
    }

    @Test func surfacesStayWithinAFewTimesTheTarget() throws {
        // A group seen edge-on in steep perspective: its largest magnification
        // is huge, but its surface stays within the budget.
        var t = CATransform3D.identity
        t.m34 = -1.0 / 50
        t = CATransform3DRotate(t, .pi / 2 * 0.98, 1, 0, 0)
        var group = makeLayer(CGSize(width: 4000, height: 4000), center: CGPoint(x: 50, y: 50), transform: t)
        group.opacity = 0.5
        group.sublayers = [makeLayer(CGSize(width: 100, height: 100), center: CGPoint(x: 2000, y: 2000))]
        let plan = try RenderPlanner().plan(canvasRoot(100, 100, sublayers: [group]), canvas: RenderCanvas(width: 100, height: 100))
        for s in plan.surfaces { #expect(s.width * s.height <= 512 * 512 + 2 * 512 + 1) }
    }

    @Test func layersEntirelyOffTheTargetMakeNoSurface() throws {
        var away = makeLayer(CGSize(width: 10, height: 10), center: CGPoint(x: 500, y: 500))
        away.shadow = RenderShadow(color: .black, opacity: 1, offset: .zero, radius: 1)
        let plan = try RenderPlanner().plan(canvasRoot(100, 100, sublayers: [away]), canvas: RenderCanvas(width: 100, height: 100))
        #expect(plan.surfaces.isEmpty && plan.commandCount == 0)
    }
}

@Suite("Render plan: guard band")
struct GuardBandTests {
    @Test func drawnGeometryStaysNearTheTarget() throws {
        // A layer tilted almost edge-on and reaching past the eye: its
        // vertices, once projected, would lie millions of pixels away; the
        // plan cuts them to the target (plus a few pixels).
        var t = CATransform3D.identity
        t.m34 = -1.0 / 20
        t = CATransform3DRotate(t, .pi / 2 * 0.999, 1, 0, 0)
        let floor = makeLayer(CGSize(width: 200, height: 5000), center: CGPoint(x: 50, y: 50), transform: t)
        let plan = try RenderPlanner().plan(canvasRoot(100, 100, sublayers: [floor]), canvas: RenderCanvas(width: 100, height: 100))
        let draws = polygons(plan.passes.last!)
        #expect(!draws.isEmpty)
        for draw in draws {
            for p in pixelPolygon(draw) {
                #expect(p.x >= -4 - 1e-6 && p.x <= 104 + 1e-6 && p.y >= -4 - 1e-6 && p.y <= 104 + 1e-6)
            }
        }
    }
}
