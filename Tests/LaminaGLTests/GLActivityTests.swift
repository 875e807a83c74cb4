import LaminaRaster
// The GL backend keeps a stream of frames on the GPU: after the first
// frame, nothing is compiled or made, and each frame reads back once.
// Counted from the calls Lamina makes, so it holds for any driver; on
// llvmpipe here as on a GPU.
import Foundation
import Testing
import LaminaRender
@testable import LaminaGL
@testable import LaminaCore

@Suite("GL activity per frame")
struct GLActivityTests {
    /// A layer with a shadow (an offscreen pass and a blur), a star path
    /// (stencilled), an image's texture and a translucent group: every kind
    /// of GL object a frame can want.
    private static func plan() throws -> RenderPlan {
        var root = RenderLayer()
        root.bounds = CGRect(x: 0, y: 0, width: 160, height: 120)
        root.backgroundColor = .white
        var card = RenderLayer()
        card.bounds = CGRect(x: 0, y: 0, width: 80, height: 60)
        card.transformToSuperlayer = CATransform3D(translationX: 20, y: 20, z: 0)
        card.backgroundColor = RGBA(red: 0.2, green: 0.4, blue: 0.9, alpha: 1)
        card.shadow = RenderShadow(color: .black, opacity: 0.6, offset: CGSize(width: 0, height: 5), radius: 6)
        card.opacity = 0.8
        var star = RenderLayer()
        star.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
        star.transformToSuperlayer = CATransform3D(translationX: 100, y: 30, z: 0)
        let points = (0..<10).map { k -> CGPoint in
            let r = k % 2 == 0 ? 20.0 : 8.0, a = Double(k) * .pi / 5
            return CGPoint(x: 20 + r * sin(a), y: 20 - r * cos(a))
        }
        star.content = [.fill(FillContent(outline: .polygons([points]), evenOdd: false,
                                          color: RGBA(red: 1, green: 0.6, blue: 0, alpha: 1),
                                          bounds: CGRect(x: 0, y: 0, width: 40, height: 40)))]
        var picture = RenderLayer()
        picture.bounds = CGRect(x: 0, y: 0, width: 30, height: 30)
        picture.transformToSuperlayer = CATransform3D(translationX: 110, y: 80, z: 0)
        let pixels = (0..<(8 * 8)).flatMap { i -> [UInt8] in (i / 8 + i % 8) % 2 == 0 ? [255, 0, 0, 255] : [0, 0, 0, 255] }
        picture.content = [.image(ImageContent(image: try CGImage(width: 8, height: 8, premultipliedRGBA: pixels), gravity: .resize))]
        root.sublayers = [card, star, picture]
        return try RenderPlanner().plan(root, canvas: RenderCanvas(width: 160, height: 120))
    }

    @Test(.enabled(if: GLTestSupport.isAvailable, "\(GLTestSupport.unavailableReason ?? "")"))
    func framesAfterTheFirstMakeNothingAndReadBackOnce() throws {
        let plan = try Self.plan()
        let renderer = try GLRenderer()
        let first = try renderer.render(plan)
        #expect(first.width == 160)
        // The first frame made what the stream needs.
        #expect(renderer.activity.objectsMade > 0)
        #expect(renderer.activity.readbacks == 1)
        for frame in 1..<4 {
            let before = renderer.activity
            let image = try renderer.render(plan)
            let frameActivity = renderer.activity.since(before)
            #expect(frameActivity.objectsMade == 0, "frame \(frame): \(frameActivity)")
            #expect(frameActivity.readbacks == 1, "frame \(frame): \(frameActivity)")
            #expect(image.pixelBytes == first.pixelBytes, "frame \(frame) drew another picture")
        }
    }

    @Test(.enabled(if: GLTestSupport.isAvailable, "\(GLTestSupport.unavailableReason ?? "")"))
    func readbacksAreTimedApartFromTheDrawingTheyWaitFor() throws {
        let renderer = try GLRenderer()
        let before = renderer.activity
        let rate = try renderer.measureReadback(side: 256)
        let probe = renderer.activity.since(before)
        // Two readbacks of 256 x 256 pixels, the second timed for the rate.
        #expect(probe.readbacks == 2)
        #expect(probe.readbackBytes == 2 * 256 * 256 * 4)
        #expect(rate.isFinite && rate > 0)
        #expect(probe.readbackBytesPerSecond.map { $0 > 0 } == true)
        let plan = try Self.plan()
        let frameBefore = renderer.activity
        let image = try renderer.render(plan)
        let frame = renderer.activity.since(frameBefore)
        #expect(frame.readbackBytes == image.width * image.height * 4)
        #expect(frame.readbackNanoseconds > 0)
        #expect(frame.waits.contains("MB/s"), "\(frame.waits)")
    }
}
