import Foundation
import Testing
@testable import Lamina

private func render(_ json: String, backend: RenderBackend) throws -> CGImage {
    try LayerRenderer(backend: backend, fallBack: false).render(try SceneDecoder().decode(json))
}

@Suite("Shape layers in the pipeline")
struct ShapeRenderingTests {
    @Test(arguments: availableBackends)
    func shapeLayerAsAMaskRoundsThreeCorners(backend: RenderBackend) throws {
        // The book's "rounded corners redux" as a mask: every corner but the
        // top-left is rounded.
        let image = try render("""
            {"width": 100, "height": 100, "sublayers": [
              {"bounds": [0, 0, 80, 80], "position": [50, 50], "backgroundColor": "#ff0000",
               "mask": {"type": "shape", "bounds": [0, 0, 80, 80], "position": [40, 40],
                        "path": [["roundedRectCorners", 0, 0, 80, 80, 30, 30, ["topRight", "bottomLeft", "bottomRight"]]]}}
            ]}
            """, backend: backend)
        #expect(rgba(image, 50, 50) == [255, 0, 0, 255])
        #expect(rgba(image, 11, 11) == [255, 0, 0, 255])  // the square corner
        #expect(rgba(image, 88, 12)[3] == 0)               // rounded away
        #expect(rgba(image, 12, 88)[3] == 0)
        #expect(rgba(image, 88, 88)[3] == 0)
    }

    @Test(arguments: availableBackends)
    func shadowPathCastsItsOwnShape(backend: RenderBackend) throws {
        // No background: only the shadow path's disc, moved down 30 points.
        let image = try render("""
            {"width": 100, "height": 120, "sublayers": [
              {"bounds": [0, 0, 40, 40], "position": [50, 30], "shadowOpacity": 1, "shadowRadius": 0.5,
               "shadowOffset": [0, 50], "shadowPath": [["ellipse", 0, 0, 40, 40]]}
            ]}
            """, backend: backend)
        #expect(rgba(image, 50, 80)[3] > 240)   // centre of the disc's shadow
        #expect(rgba(image, 32, 62)[3] < 40)    // outside the disc, inside its box
        #expect(rgba(image, 50, 30)[3] == 0)    // the layer itself draws nothing
    }

    @Test("A shadow path is flattened for the pixels it is drawn at, not in points")
    func shadowPathFollowsThePixelScale() throws {
        // A 4-point disc seen at 50 pixels per point: its outline must stay
        // within the plan's curve tolerance of a 100-pixel circle, which a
        // fixed tenth of a point (5 pixels here) is not.
        let scene = try SceneDecoder().decode("""
            {"width": 10, "height": 10, "sublayers": [
              {"bounds": [0, 0, 4, 4], "position": [5, 5], "shadowOpacity": 1, "shadowRadius": 0,
               "shadowPath": [["ellipse", 0, 0, 4, 4]]}
            ]}
            """)
        let renderer = try LayerRenderer(backend: .cpu)
        let plan = try renderer.prepare(scene, scale: 50)
        let shadowPasses = plan.passes.filter {
            if case .offscreen(let i) = $0.target { return plan.surfaces[i].purpose == .shadow }
            return false
        }
        var outlines: [PathFillDraw] = []
        for pass in shadowPasses { for case .path(let d) in pass.commands { outlines.append(d) } }
        let outline = try #require(outlines.first?.contours.first)
        // The largest gap between the polygon and the circle, in pixels: the
        // sagitta of each edge, r·(1 − cos(θ/2)), at 50 pixels per point.
        let centre = CGPoint(x: 2, y: 2)
        var worst = 0.0
        for (a, b) in zip(outline, outline.dropFirst() + [outline[0]]) {
            let angle = abs(atan2(Double(b.y - centre.y), Double(b.x - centre.x)) - atan2(Double(a.y - centre.y), Double(a.x - centre.x)))
            let theta = min(angle, 2 * .pi - angle)
            worst = max(worst, 2 * (1 - cos(theta / 2)) * 50)
        }
        #expect(worst <= renderer.planner.options.curveTolerance * 1.01, "the outline strays \(worst) pixels from the circle")
    }

    @Test(arguments: availableBackends)
    func shapesStaySharpWhenScaledUp(backend: RenderBackend) throws {
        // A 10-point circle scaled 8x: the edge is one anti-aliased pixel wide,
        // not a blurred or faceted bitmap.
        let image = try render("""
            {"width": 100, "height": 100, "sublayers": [
              {"type": "shape", "bounds": [0, 0, 10, 10], "position": [50, 50], "fillColor": "#000000",
               "path": [["ellipse", 0, 0, 10, 10]], "transform": [{"scale": [8, 8, 1]}]}
            ]}
            """, backend: backend)
        // Along the middle row, coverage goes from 0 to full within 2 pixels.
        let row = (0..<50).map { rgba(image, $0, 50)[3] }
        let partial = row.filter { $0 > 8 && $0 < 247 }.count
        #expect(partial <= 2)
        #expect(row[11] > 200 && row[9] < 50)
        // And the outline is round: the point at 45° lies on the circle.
        let r = 40.0, c = 50.0, d = r / 2.0.squareRoot()
        #expect(rgba(image, Int(c - d + 2), Int(c - d + 2))[3] > 200)
        #expect(rgba(image, Int(c - d - 2), Int(c - d - 2))[3] < 55)
    }

    @Test(arguments: availableBackends)
    func shapesInsideTransformLayersJoinTheScene(backend: RenderBackend) throws {
        // Two shapes in a transform layer, the blue one 10 points nearer: it is
        // drawn over the red one although it comes first.
        let image = try render("""
            {"width": 100, "height": 100, "backgroundColor": "#ffffff", "sublayers": [
              {"type": "transform", "bounds": [0, 0, 100, 100], "position": [50, 50], "sublayers": [
                {"type": "shape", "bounds": [0, 0, 60, 60], "position": [50, 50], "zPosition": 10,
                 "fillColor": "#0000ff", "path": [["rect", 0, 0, 60, 60]]},
                {"type": "shape", "bounds": [0, 0, 60, 60], "position": [50, 50],
                 "fillColor": "#ff0000", "path": [["rect", 0, 0, 60, 60]]}
              ]}
            ]}
            """, backend: backend)
        #expect(rgba(image, 50, 50) == [0, 0, 255, 255])
    }
}
