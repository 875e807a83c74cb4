import Foundation
import Testing
@testable import LaminaRender
@testable import LaminaJSON

/// The render budget: each kind of work refused past its limit, before the
/// work, naming the layer; plans that free their surfaces once used; and
/// the plan's validation dropping what no backend could draw.
@Suite("Render budget")
struct BudgetTests {
    @Test func layerPathsReadAsJSONPaths() {
        #expect(LayerPath.root.description == "$")
        #expect(LayerPath([.sublayer(2), .mask, .sublayer(0)]).description == "$.sublayers[2].mask.sublayers[0]")
    }

    /// Paths are held inline up to sixteen steps and as a list past that (or
    /// with an index too large to pack): either way a path built step by
    /// step is the path of its steps, equal and hashed alike, and reads back
    /// the same steps.
    @Test func layerPathsAreTheirStepsHoweverHeld() {
        let choices: [LayerPath.Step] = [.sublayer(0), .mask, .sublayer(7), .sublayer(999), .sublayer(65532), .sublayer(65533),
                                         .sublayer(Int(UInt16.max)), .sublayer(Int(UInt32.max)), .sublayer(-1), .sublayer(Int.max)]
        var random = SystemRandomNumberGenerator()
        for trial in 0..<400 {
            let steps = (0..<(trial % 21)).map { _ in
                trial % 3 == 0 ? choices.randomElement(using: &random)! : choices[Int.random(in: 0...3, using: &random)]
            }
            var built = LayerPath.root
            for step in steps { built = built.appending(step) }
            let whole = LayerPath(steps)
            #expect(built == whole && built.hashValue == whole.hashValue, "\(steps)")
            #expect(built.steps == steps && whole.steps == steps)
            #expect(Set([built, whole]).count == 1)
            if let last = steps.last {
                // One step less is another path.
                #expect(LayerPath(Array(steps.dropLast())) != built, "\(steps) without \(last)")
            }
        }
        var deep = LayerPath.root
        for i in 0..<10 { deep = deep.appending(i % 2 == 0 ? .sublayer(i) : .mask) }
        #expect(deep.description == "$.sublayers[0].mask.sublayers[2].mask.sublayers[4].mask.sublayers[6].mask.sublayers[8].mask")
        var changed = deep
        changed.steps = [.mask]
        #expect(changed == LayerPath([.mask]) && changed.description == "$.mask")
    }

    @Test func canvasesOverTheBudgetOrNotFiniteAreRefused() throws {
        let budget = RenderBudget.default
        try budget.check(RenderCanvas(width: 4000, height: 4000, scale: 2))
        for canvas in [RenderCanvas(width: 4000, height: 4001, scale: 2), RenderCanvas(width: 20000, height: 1),
                       RenderCanvas(width: 1, height: .infinity), RenderCanvas(width: 1, height: 1, scale: .nan),
                       RenderCanvas(width: 1, height: 1e308, scale: 2), RenderCanvas(width: 0, height: 10)] {
            #expect(throws: RenderRefusal.self) { try budget.check(canvas) }
        }
        // Sizes saturate instead of trapping.
        #expect(RenderCanvas(width: 1, height: 1e308, scale: 2).pixelHeight == .max)
    }

    @Test func saturatingConversion() {
        #expect(Int(saturating: 1e300) == .max && Int(saturating: -.infinity) == .min)
        #expect(Int(saturating: .nan) == 0 && Int(saturating: 41.9) == 41)
    }

    @Test func surfacesAreReleasedAfterTheirLastUse() throws {
        // A shadowed layer, then a translucent group: the surfaces drawn into
        // the output live until the output pass, but the shadow's alpha
        // surface dies once blurred, before the group's surface is made.
        var a = makeLayer(CGSize(width: 40, height: 40), center: CGPoint(x: 25, y: 25))
        a.path = LayerPath([.sublayer(1)])
        a.opacity = 0.5
        a.sublayers = [makeLayer(CGSize(width: 10, height: 10), center: CGPoint(x: 5, y: 5)),
                       makeLayer(CGSize(width: 10, height: 10), center: CGPoint(x: 15, y: 15))]
        var shadowed = makeLayer(CGSize(width: 40, height: 40), center: CGPoint(x: 75, y: 25))
        shadowed.path = LayerPath([.sublayer(0)])
        shadowed.shadow = RenderShadow(color: .black, opacity: 1, offset: .zero, radius: 2, path: nil)
        let plan = try RenderPlanner().plan(canvasRoot(100, 50, sublayers: [shadowed, a]), canvas: RenderCanvas(width: 100, height: 50))
        let released = plan.passes.flatMap(\.releasedSurfaces)
        #expect(released.sorted() == Array(plan.surfaces.indices), "every surface is released exactly once")
        // The shadow's alpha surface dies when its blur is made, before the output pass.
        let purposes = plan.surfaces.map(\.purpose)
        #expect(purposes.contains(.groupOpacity) && purposes.contains(.shadow))
        #expect(plan.surfaces.allSatisfy { $0.layer == .root.appending(.sublayer(0)) || $0.layer == .root.appending(.sublayer(1)) })
        #expect(plan.peakSurfacePixels < plan.surfaces.reduce(0) { $0 + $1.pixelCount })
    }

    /// Twenty masked sublayers, each drawn offscreen over the whole canvas
    /// with its mask: each pair of surfaces is made just before it is drawn
    /// back, so the frame holds two at a time (forty, drawn in the order
    /// planned), and a budget of ten surfaces is enough.
    @Test func masksOfSiblingsAreNotAllAliveAtOnce() throws {
        let sublayers = (0..<20).map { i -> RenderLayer in
            var layer = makeLayer(CGSize(width: 100, height: 100), center: CGPoint(x: 50, y: 50))
            layer.path = LayerPath([.sublayer(i)])
            var mask = makeLayer(CGSize(width: 60, height: 60), center: CGPoint(x: 50, y: 50))
            mask.path = layer.path.appending(.mask)
            layer.mask = Indirect(mask)
            return layer
        }
        var planner = RenderPlanner()
        planner.options.budget.surfacePixels = 10 * 100 * 100
        let plan = try planner.plan(canvasRoot(100, 100, sublayers: sublayers), canvas: RenderCanvas(width: 100, height: 100))
        #expect(plan.surfaces.count == 40)
        #expect(plan.peakSurfacePixels <= 2 * 100 * 100 + 100 * 100, "\(plan.peakSurfacePixels)")
        #expect(plan.passes.filter { $0.target == .output }.count == 20, "the output's draws continued around each pair")

        // A backend that pays for each pass (GL) keeps the order planned, one
        // output pass, while the budget allows it, and is drawn where used past it.
        planner.options.drawsSurfacesWhereUsed = false
        planner.options.budget.surfacePixels = 64_000_000
        let asPlanned = try planner.plan(canvasRoot(100, 100, sublayers: sublayers), canvas: RenderCanvas(width: 100, height: 100))
        #expect(asPlanned.passes.filter { $0.target == .output }.count == 1 && asPlanned.passes.count == 41)
        planner.options.budget.surfacePixels = 10 * 100 * 100
        let overBudget = try planner.plan(canvasRoot(100, 100, sublayers: sublayers), canvas: RenderCanvas(width: 100, height: 100))
        #expect(overBudget.passes.filter { $0.target == .output }.count == 20)
    }

    @Test func surfacesOverTheBudgetAreRefusedNamingTheLayer() throws {
        var layer = makeLayer(CGSize(width: 80, height: 80), center: CGPoint(x: 50, y: 50))
        layer.path = LayerPath([.sublayer(0)])
        layer.shadow = RenderShadow(color: .black, opacity: 1, offset: .zero, radius: 4, path: nil)
        var planner = RenderPlanner()
        planner.options.budget.surfacePixels = 5000
        #expect(throws: RenderRefusal.self) { try planner.plan(canvasRoot(100, 100, sublayers: [layer]), canvas: RenderCanvas(width: 100, height: 100)) }
        do {
            _ = try planner.plan(canvasRoot(100, 100, sublayers: [layer]), canvas: RenderCanvas(width: 100, height: 100))
        } catch {
            #expect(error.layer == LayerPath([.sublayer(0)]) && error.message.contains("shadow"))
        }
    }

    @Test func depthSortingStopsAtItsBudget() throws {
        // Two planes crossing: one split, three pieces.
        func square(normal: SIMD3<Double>, item: Int) -> ScenePolygon {
            let u = normal.z == 0 ? SIMD3<Double>(0, 0, 1) : SIMD3<Double>(1, 0, 0)
            let v = SIMD3<Double>(normal.y * u.z - normal.z * u.y, normal.z * u.x - normal.x * u.z, normal.x * u.y - normal.y * u.x)
            return ScenePolygon(points: [-u - v, u - v, u + v, -u + v], item: item)
        }
        let crossing = [square(normal: SIMD3(0, 0, 1), item: 0), square(normal: SIMD3(1, 0, 0), item: 1)]
        #expect(try DepthSorter.backToFront(crossing, budget: 3).count == 3)
        #expect(throws: RenderRefusal.self) { try DepthSorter.backToFront(crossing, budget: 2) }
    }

    @Test func undrawableCommandsAreDropped() {
        var plan = RenderPlan(width: 10, height: 10)
        let ok = PolygonDraw(matrix: .identity, polygon: CGRect(x: 0, y: 0, width: 5, height: 5).cornerPolygon, fill: .color(.black))
        var behind = ok
        behind.matrix = CATransform3D(scaleX: 1, y: 1, z: 1)
        behind.matrix.m44 = -1  // every vertex at w = -1
        var squeezed = ok
        squeezed.fill = .texture(.image(ImageID(0)), localRect: CGRect(x: 0, y: 0, width: 1e-320, height: 5),
                                 uvRect: CGRect(x: 0, y: 0, width: 1, height: 1), filter: .linear, tint: .white)
        var infinite = ok
        infinite.matrix.m41 = .infinity
        plan.passes = [RenderPass(target: .output, commands: [.polygon(ok), .polygon(behind), .polygon(squeezed), .polygon(infinite),
                                                               .blurMask(source: .output, blur: BlurMethod(sigma: .nan)),
                                                               .blurMask(source: .output, blur: BlurMethod(sigma: 1e6))])]
        plan.removeUndrawableCommands()
        #expect(plan.passes[0].commands.count == 3)
        if case .blurMask(_, let blur) = plan.passes[0].commands[1] { #expect(blur.sigma == 0) } else { Issue.record("the blur went missing") }
        // At most a sixth of the surface's side, and the method for that.
        if case .blurMask(_, let blur) = plan.passes[0].commands[2] {
            #expect(blur == BlurMethod(sigma: Double(plan.width) / 6))
        } else { Issue.record("the blur went missing") }
    }
}
