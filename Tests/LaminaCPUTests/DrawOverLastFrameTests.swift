// Frames drawn over the frame before: the rows where two plans differ
// (`PlanDamage`), and the CPU backend's picture redrawn there alone, the
// same bytes as the frame drawn whole.
import Foundation
import Testing
@testable import LaminaRender
@testable import LaminaCPU
@testable import LaminaRaster
@testable import LaminaCore

@Suite("Frames drawn over the frame before")
struct DrawOverLastFrameTests {
    static let red = RGBA(red: 1, green: 0, blue: 0, alpha: 1)
    static let green = RGBA(red: 0, green: 1, blue: 0, alpha: 1)
    static let blue = RGBA(red: 0, green: 0, blue: 1, alpha: 0.5)

    static func fill(_ rect: CGRect, _ color: RGBA, blend: BlendMode = .normal) -> DrawCommand {
        .polygon(PolygonDraw(matrix: .identity, polygon: rect.cornerPolygon, fill: .color(color), blend: blend))
    }

    static func back(_ surface: Int, in rect: CGRect, opacity: Double = 0.5) -> DrawCommand {
        .polygon(PolygonDraw(matrix: .identity, polygon: rect.cornerPolygon,
                             fill: .texture(.surface(.offscreen(surface)), localRect: rect, uvRect: CGRect(x: 0, y: 0, width: 1, height: 1),
                                            filter: .linear, tint: .white),
                             opacity: opacity))
    }

    static func disc(at centre: CGPoint, radius: Double, _ color: RGBA) -> DrawCommand {
        let points = (0..<48).map { k -> CGPoint in
            let a = Double(k) / 48 * 2 * .pi
            return CGPoint(x: centre.x + radius * cos(a), y: centre.y + radius * sin(a))
        }
        return .path(PathFillDraw(matrix: .identity, contours: [points], evenOdd: false, color: color))
    }

    /// A 60 x 80 frame: a ground, a square at `squareY`, a disc at
    /// `discY`, and a surface (its content's `surfaceColor`) drawn back low down.
    static func frame(squareY: Double, discY: Double = 20, surfaceColor: RGBA = blue, extra: [DrawCommand] = []) -> RenderPlan {
        var plan = RenderPlan(width: 60, height: 80)
        plan.surfaces = [SurfaceDescription(width: 60, height: 20)]
        plan.passes = [
            RenderPass(target: .offscreen(0), commands: [fill(CGRect(x: 5, y: 5, width: 30, height: 10), surfaceColor)]),
            RenderPass(target: .output, commands: [
                fill(CGRect(x: 0, y: 0, width: 60, height: 80), RGBA(red: 0.2, green: 0.2, blue: 0.2, alpha: 0.8)),
                fill(CGRect(x: 10, y: squareY, width: 12.5, height: 9.25), red),
                disc(at: CGPoint(x: 40, y: discY), radius: 7.3, green),
                back(0, in: CGRect(x: 0, y: 60, width: 60, height: 20)),
            ] + extra),
        ]
        plan.computeSurfaceLifetimes()
        return plan
    }

    @Test func aMovedDrawDamagesWhereItWasAndWhereItIs() throws {
        let damage = try #require(PlanDamage(from: Self.frame(squareY: 10), to: Self.frame(squareY: 30.5)))
        // Rows 10..<19.25 and 30.5..<39.75, a row more either side, joined across the gap under 16 rows.
        #expect(damage.rows.runs == [9..<41])
        #expect(damage.redraws == [nil, [true, true, true, false]], "the ground, the square, and the disc, which the rows reach")
        #expect(damage.skipsPass == [true, false], "nothing redrawn samples the surface")

        let same = try #require(PlanDamage(from: Self.frame(squareY: 10), to: Self.frame(squareY: 10)))
        #expect(same.rows.isEmpty && same.redraws == [nil, [false, false, false, false]])
    }

    @Test func aSurfaceDrawnDifferentlyDamagesWhereItIsDrawnBack() throws {
        let damage = try #require(PlanDamage(from: Self.frame(squareY: 10), to: Self.frame(squareY: 10, surfaceColor: Self.red)))
        #expect(damage.rows.runs == [59..<80])
        #expect(damage.skipsPass == [false, false])
        #expect(damage.redraws == [nil, [true, false, false, true]])
    }

    @Test func drawsThatComeOrGoDamageTheirRows() throws {
        let added = [Self.fill(CGRect(x: 0, y: 45, width: 5, height: 5), Self.green)]
        let damage = try #require(PlanDamage(from: Self.frame(squareY: 10), to: Self.frame(squareY: 10, extra: added)))
        #expect(damage.rows.runs == [44..<51])
        let removed = try #require(PlanDamage(from: Self.frame(squareY: 10, extra: added), to: Self.frame(squareY: 10)))
        #expect(removed.rows.runs == [44..<51])
    }

    @Test func whatCannotBeComparedIsDrawnWhole() {
        var backdrop = Self.frame(squareY: 10)
        backdrop.surfaces += [SurfaceDescription(width: 10, height: 10, purpose: .backdrop)]
        let region = PixelRect(x: 0, y: 0, width: 10, height: 10)
        backdrop.passes[1].commands.append(.backdrop(BackdropDraw(
            region: region, copy: 1, filters: [],
            draw: PolygonDraw(matrix: .identity, polygon: CGRect(x: 0, y: 0, width: 10, height: 10).cornerPolygon,
                              fill: .texture(.surface(.offscreen(1)), localRect: CGRect(x: 0, y: 0, width: 10, height: 10),
                                             uvRect: CGRect(x: 0, y: 0, width: 1, height: 1), filter: .linear, tint: .white)))))
        #expect(PlanDamage(from: Self.frame(squareY: 10), to: backdrop) == nil, "a backdrop reads rows around its own")
        var larger = Self.frame(squareY: 10)
        larger.height += 1
        #expect(PlanDamage(from: Self.frame(squareY: 10), to: larger) == nil)
    }

    /// Frames drawn in turn over the last one are, byte for byte, the
    /// frames drawn whole, while most of them are drawn over the last.
    @Test func framesDrawnOverTheLastAreTheFramesDrawnWhole() throws {
        var frames: [RenderPlan] = []
        for k in 0..<12 {
            let t = Double(k)
            // Now and then a draw comes (blended onto what is under it) and goes.
            let blended = Self.fill(CGRect(x: 30, y: 2 * t, width: 20, height: 4), Self.green, blend: .multiply)
            frames.append(Self.frame(squareY: 3 + 5.3 * t, discY: 20 + Double(k % 3), surfaceColor: k < 6 ? Self.blue : Self.red,
                                     extra: k % 4 == 0 ? [blended] : []))
        }
        let whole = CPURenderer()
        let over = CPURenderer()
        over.drawsOverLastFrame = true
        for plan in frames {
            let expected = try whole.render(plan)
            let drawn = try over.render(plan)
            #expect(drawn.pixelBytes == expected.pixelBytes)
        }
        #expect(over.framesDrawnOverLast == frames.count - 1)
    }

    /// A frame that holds still (nothing it draws differs from the last
    /// frame's) is the last frame's pixels as they are, and a frame that
    /// moves again after it is drawn over them.
    @Test func aFrameThatHoldsStillIsTheLastFramesPicture() throws {
        let frames = [10.0, 10, 10, 30, 30].map { Self.frame(squareY: $0) }
        let whole = CPURenderer()
        let over = CPURenderer()
        over.drawsOverLastFrame = true
        #expect(try #require(PlanDamage(from: frames[0], to: frames[1])).rows.isEmpty)
        for plan in frames {
            #expect(try over.render(plan).pixelBytes == whole.render(plan).pixelBytes)
        }
        #expect(over.framesDrawnOverLast == frames.count - 1)
    }

    /// A picture handed out never changes: while it is held, the next
    /// frame is drawn whole into other pixels.
    @Test func aHeldPictureIsNotDrawnOver() throws {
        let renderer = CPURenderer()
        renderer.drawsOverLastFrame = true
        let first = try renderer.render(Self.frame(squareY: 10))
        let bytes = first.pixelBytes.map { $0 }
        let second = try renderer.render(Self.frame(squareY: 40))
        #expect(first.pixelBytes == bytes)
        #expect(second.pixelBytes != bytes)
        #expect(renderer.framesDrawnOverLast == 0)
        // Once let go, the next frame is drawn over it.
        _ = consume second
        _ = try renderer.render(Self.frame(squareY: 20))
        #expect(renderer.framesDrawnOverLast == 1)
    }
}
