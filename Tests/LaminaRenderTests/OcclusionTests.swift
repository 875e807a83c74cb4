import LaminaRaster
import LaminaGeometry
import Foundation
import Testing
@testable import LaminaRender

/// `dropOccludedCommands`: what a draw covering its target hides.
@Suite struct OcclusionTests {
    static let red = RGBA(red: 1, green: 0, blue: 0, alpha: 1)

    /// A 40x30 target's commands: `count` small squares, then `cover`.
    static func plan(under cover: DrawCommand, count: Int = 3) -> RenderPlan {
        var plan = RenderPlan(width: 40, height: 30)
        let squares = (0..<count).map { i in
            DrawCommand.polygon(PolygonDraw(matrix: .identity, polygon: Self.rectangle(CGRect(x: 4 * i, y: 2, width: 3, height: 3)),
                                            fill: .color(red)))
        }
        plan.passes = [RenderPass(target: .output, commands: squares + [cover])]
        return plan
    }

    static func rectangle(_ r: CGRect) -> [CGPoint] {
        [CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY), CGPoint(x: r.maxX, y: r.maxY), CGPoint(x: r.minX, y: r.maxY)]
    }

    static func covers(_ contours: [[CGPoint]], evenOdd: Bool = false, matrix: CATransform3D = .identity) -> Bool {
        DrawCommand.path(PathFillDraw(matrix: matrix, contours: contours, evenOdd: evenOdd, color: red))
            .coversOpaquely(width: 40, height: 30)
    }

    @Test func anOpaqueRectangleOverTheTargetHidesTheDrawsUnderIt() {
        let cover = DrawCommand.polygon(PolygonDraw(matrix: CATransform3D(scaleX: 2, y: 2, z: 1),
                                                    polygon: Self.rectangle(CGRect(x: -1, y: 0, width: 22, height: 15)),
                                                    fill: .color(.black)))
        var plan = Self.plan(under: cover)
        plan.dropOccludedCommands()
        #expect(plan.passes[0].commands.count == 1)
        #expect(plan.passes[0].firstDrawCovers)
    }

    @Test func whatCoversIsAnyRectangleOverTheTargetFilledOnce() {
        let box = Self.rectangle(CGRect(x: 0, y: 0, width: 40, height: 30))
        #expect(Self.covers([box]))
        #expect(Self.covers([box.reversed()], evenOdd: true))
        // Points along its sides, as a clip leaves them.
        #expect(Self.covers([[CGPoint(x: -2, y: -2), CGPoint(x: 20, y: -2), CGPoint(x: 45, y: -2), CGPoint(x: 45, y: 31),
                              CGPoint(x: 45, y: 31), CGPoint(x: -2, y: 31), CGPoint(x: -2, y: 10)]]))
        // Drawn by a matrix that scales and moves it.
        #expect(Self.covers([Self.rectangle(CGRect(x: 0, y: 0, width: 4, height: 3))],
                            matrix: CATransform3D(scaleX: 10, y: 10, z: 1)))
    }

    @Test func whatDoesNotCover() {
        let box = Self.rectangle(CGRect(x: 0, y: 0, width: 40, height: 30))
        // Half a pixel short of the right edge.
        #expect(!Self.covers([Self.rectangle(CGRect(x: 0, y: 0, width: 39.5, height: 30))]))
        // A bow tie: its corners on the box, its middle open.
        #expect(!Self.covers([[box[0], box[2], box[1], box[3]]]))
        // Traced twice: winding 2, which even-odd leaves empty.
        #expect(!Self.covers([box, box], evenOdd: true))
        // A rectangle and a hole in it.
        #expect(!Self.covers([Self.rectangle(CGRect(x: -5, y: -5, width: 50, height: 40)),
                              Self.rectangle(CGRect(x: 10, y: 10, width: 5, height: 5)).reversed()]))
        // Turned: its edges leave the box's sides.
        #expect(!Self.covers([Self.rectangle(CGRect(x: -100, y: -100, width: 240, height: 230))],
                             matrix: CATransform3D(rotationAngle: 0.3, x: 0, y: 0, z: 1)))
        // Seen in perspective.
        var perspective = CATransform3D.identity
        perspective.m24 = 0.001
        #expect(!Self.covers([Self.rectangle(CGRect(x: -10, y: -10, width: 60, height: 50))], matrix: perspective))
        // Translucent, cut, blended, or with a translucent stop.
        var translucent = PathFillDraw(matrix: .identity, contours: [box], evenOdd: false, color: Self.red)
        translucent.color.alpha = 0.99
        #expect(!DrawCommand.path(translucent).coversOpaquely(width: 40, height: 30))
        let polygon = PolygonDraw(matrix: .identity, polygon: box, fill: .color(.black))
        #expect(DrawCommand.polygon(polygon).coversOpaquely(width: 40, height: 30))
        var faded = polygon, cut = polygon, blended = polygon, gradient = polygon
        faded.opacity = 0.5
        cut.cuts = [HalfPlane(a: 1, b: 0, c: 0)]
        blended.blend = .multiply
        gradient.fill = .gradient(GradientFill(shape: .axial, stops: [(0, (1, 0, 0, 1)), (1, (0, 0, 0.5, 0.5))],
                                               start: (0, 0), end: (40, 0)))
        for draw in [faded, cut, blended, gradient] {
            #expect(!DrawCommand.polygon(draw).coversOpaquely(width: 40, height: 30))
        }
        gradient.fill = .gradient(GradientFill(shape: .axial, stops: [(0, (1, 0, 0, 1)), (1, (0, 0, 1, 1))], start: (0, 0), end: (40, 0)))
        #expect(DrawCommand.polygon(gradient).coversOpaquely(width: 40, height: 30))
    }

    @Test func aPassThatDoesNotCoverKeepsItsDraws() {
        var plan = Self.plan(under: .polygon(PolygonDraw(matrix: .identity, polygon: Self.rectangle(CGRect(x: 1, y: 0, width: 39, height: 30)),
                                                         fill: .color(.black))))
        plan.dropOccludedCommands()
        #expect(plan.passes[0].commands.count == 4)
        #expect(!plan.passes[0].firstDrawCovers)
    }

    @Test func theSurfacesOnlyHiddenDrawsSampledAreNotDrawn() {
        var plan = RenderPlan(width: 40, height: 30)
        plan.surfaces = [SurfaceDescription(width: 8, height: 8, purpose: .mask, layer: .root),
                         SurfaceDescription(width: 8, height: 8, purpose: .groupOpacity, layer: .root),
                         SurfaceDescription(width: 8, height: 8, purpose: .groupOpacity, layer: .root)]
        let sample = { (i: Int) in
            DrawCommand.polygon(PolygonDraw(matrix: .identity, polygon: Self.rectangle(CGRect(x: 0, y: 0, width: 8, height: 8)),
                                            fill: .texture(.surface(.offscreen(i)), localRect: CGRect(x: 0, y: 0, width: 8, height: 8),
                                                           uvRect: CGRect(x: 0, y: 0, width: 1, height: 1), filter: .linear, tint: .white)))
        }
        let cover = DrawCommand.polygon(PolygonDraw(matrix: .identity, polygon: Self.rectangle(CGRect(x: 0, y: 0, width: 40, height: 30)),
                                                    fill: .color(.black)))
        // Surface 0 is sampled by surface 1's pass, which the hidden draw
        // samples; surface 2 is drawn over the cover.
        plan.passes = [RenderPass(target: .offscreen(0)), RenderPass(target: .offscreen(1), commands: [sample(0)]),
                       RenderPass(target: .offscreen(2)),
                       RenderPass(target: .output, commands: [sample(1), cover, sample(2)])]
        plan.dropOccludedCommands()
        #expect(plan.passes.map(\.target) == [.offscreen(2), .output])
        #expect(plan.passes[1].commands.count == 2)
        #expect(plan.passes[1].firstDrawCovers)
    }
}
