// Surfaces drawn where they are used: a plan's passes reordered so that
// each surface is made just before the draw that samples it, the sampling
// pass split around it and continued, with the same pixels and fewer
// surfaces alive at once.
import Foundation
import Testing
import LaminaRender
@testable import LaminaCPU
@testable import LaminaRaster
@testable import LaminaCore

@Suite("Passes: surfaces drawn where they are used")
struct PassOrderTests {
    /// A 40 x 20 output: a green ground, then two 20 x 20 surfaces (one
    /// red, one blue) drawn back side by side, as a layer with two masked or
    /// grouped sublayers plans them: both surfaces first, then the output.
    func plannedInOrder() -> RenderPlan {
        var plan = RenderPlan(width: 40, height: 20)
        plan.surfaces = [SurfaceDescription(width: 20, height: 20), SurfaceDescription(width: 20, height: 20)]
        func fill(_ rect: CGRect, _ color: RGBA) -> DrawCommand {
            .polygon(PolygonDraw(matrix: .identity, polygon: rect.cornerPolygon, fill: .color(color)))
        }
        func back(_ surface: Int, at x: Double) -> DrawCommand {
            let rect = CGRect(x: x, y: 0, width: 20, height: 20)
            return .polygon(PolygonDraw(matrix: .identity, polygon: rect.cornerPolygon,
                                        fill: .texture(.surface(.offscreen(surface)), localRect: rect, uvRect: CGRect(x: 0, y: 0, width: 1, height: 1), filter: .linear, tint: .white),
                                        opacity: 0.5))
        }
        let square = CGRect(x: 2, y: 2, width: 16, height: 16)
        plan.passes = [
            RenderPass(target: .offscreen(0), commands: [fill(square, RGBA(red: 1, green: 0, blue: 0, alpha: 1))]),
            RenderPass(target: .offscreen(1), commands: [fill(square, RGBA(red: 0, green: 0, blue: 1, alpha: 1))]),
            RenderPass(target: .output, commands: [fill(CGRect(x: 0, y: 0, width: 40, height: 20), RGBA(red: 0, green: 1, blue: 0, alpha: 1)),
                                                   back(0, at: 0), back(1, at: 20)]),
        ]
        return plan
    }

    @Test func eachSurfaceIsMadeJustBeforeItIsDrawnBack() throws {
        var inOrder = plannedInOrder()
        var whereUsed = inOrder
        whereUsed.drawSurfacesWhereUsed()
        // The ground, surface 0, its draw-back, surface 1, its draw-back.
        #expect(whereUsed.passes.map(\.target) == [.output, .offscreen(0), .output, .offscreen(1), .output])
        #expect(whereUsed.passes.map(\.continuesTarget) == [false, false, true, false, true])
        #expect(whereUsed.passes.map(\.commands.count) == [1, 1, 1, 1, 1])
        inOrder.computeSurfaceLifetimes()
        whereUsed.computeSurfaceLifetimes()
        #expect(inOrder.peakSurfacePixels == 800 && whereUsed.peakSurfacePixels == 400, "one surface alive at a time")
        // The same pixels.
        let before = try CPURenderer().render(inOrder), after = try CPURenderer().render(whereUsed)
        #expect(before.pixelBytes == after.pixelBytes)
        #expect(after.pixel(x: 10, y: 10).map { $0.red > 100 && $0.green > 100 } == true, "half red over green")
        #expect(after.pixel(x: 30, y: 10).map { $0.blue > 100 && $0.green > 100 } == true, "half blue over green")
    }

    @Test func aSurfaceNoDrawSamplesIsNotDrawn() {
        var plan = plannedInOrder()
        plan.surfaces.append(SurfaceDescription(width: 5, height: 5))
        plan.passes.insert(RenderPass(target: .offscreen(2), commands: []), at: 0)
        plan.drawSurfacesWhereUsed()
        #expect(!plan.passes.contains { $0.target == .offscreen(2) })
    }

    @Test func aPlanThatDrawsATargetInSeveralPassesKeepsItsOrder() {
        var plan = plannedInOrder()
        plan.passes.insert(RenderPass(target: .offscreen(1), commands: []), at: 0)
        let order = plan.passes.map(\.target)
        plan.drawSurfacesWhereUsed()
        #expect(plan.passes.map(\.target) == order)
    }

    @Test func aPassThatContinuesASurfaceNotDrawnIsABadPlan() {
        var plan = plannedInOrder()
        plan.passes.insert(RenderPass(target: .offscreen(1), commands: [], continuesTarget: true), at: 0)
        plan.computeSurfaceLifetimes()
        #expect(throws: InvalidRenderPlan.self) { try CPURenderer().render(plan) }
    }

    /// The targets a plan's passes draw are followed pass by pass: the
    /// output continued before it is drawn, a surface continued after it
    /// was let go, or one the plan does not have, is a bad plan.
    @Test func passesContinueOnlyWhatIsDrawnAndHeld() throws {
        var outputFirst = plannedInOrder()
        outputFirst.passes.insert(RenderPass(target: .output, continuesTarget: true), at: 0)
        #expect(throws: InvalidRenderPlan.self) { try CPURenderer().render(outputFirst) }

        var released = plannedInOrder()
        released.passes.insert(RenderPass(target: .offscreen(0)), at: 0)
        released.passes[0].releasedSurfaces = [0]
        released.passes.insert(RenderPass(target: .offscreen(0), continuesTarget: true), at: 1)
        #expect(throws: InvalidRenderPlan.self) { try CPURenderer().render(released) }

        var unknown = plannedInOrder()
        unknown.passes.insert(RenderPass(target: .offscreen(7)), at: 0)
        #expect(throws: InvalidRenderPlan.self) { try CPURenderer().render(unknown) }

        // Drawn first, continued after: a good plan.
        var continued = plannedInOrder()
        continued.passes.insert(RenderPass(target: .offscreen(0)), at: 0)
        continued.passes.insert(RenderPass(target: .offscreen(0), continuesTarget: true), at: 1)
        _ = try CPURenderer().render(continued)
    }
}
