import Foundation
import Testing
import Lamina

/// GL draws each pass through one multisample tile at a time, so that its
/// surfaces cost what the budget counts (`GLPainter.drawMultisampled`).
/// A picture wider than a tile (2048 pixels) must come out as the same
/// content drawn where it fits in one tile.
@Suite("GL pictures larger than a multisample tile")
struct LargePictureTests {
    /// A star path, a rounded rect with a blurred shadow inside a group
    /// (an offscreen surface), all crossing x = `seam`.
    private func scene(width: Int, seam: Int) -> String {
        let x = seam - 150
        var star = "M 150 5"
        for k in 1..<10 {
            let a = Double(k) * .pi / 5, r = k.isMultiple(of: 2) ? 70.0 : 28.0
            star += " L \(150 + r * sin(a)) \(75 - r * cos(a))"
        }
        return """
        {"width": \(width), "height": 160, "backgroundColor": "#ffffff", "sublayers": [
          {"type": "shape", "frame": [\(x), 0, 300, 150], "path": "\(star) Z", "fillColor": "#3366cc", "strokeColor": "#000000", "lineWidth": 1.5},
          {"frame": [\(x + 60), 80, 180, 70], "opacity": 0.8, "sublayers": [
            {"frame": [10, 10, 160, 40], "backgroundColor": "#e04040", "cornerRadius": 12,
             "shadowOpacity": 0.7, "shadowRadius": 6, "shadowOffset": [0, 4], "transform": [{"rotateDegrees": [7, 0, 0, 1]}]}]}
        ]}
        """
    }

    @Test(.enabled(if: availableBackends.contains(.gl), "no EGL context on this machine"))
    func tilesMeetWithoutSeams() throws {
        let renderer = try LayerRenderer(backend: .gl, fallBack: false)
        // Two tiles across, the content on the seam; and one tile, the same
        // content shifted by whole pixels.
        let wide = try renderer.render(try SceneDecoder().decode(scene(width: 2600, seam: 2048)))
        let narrow = try renderer.render(try SceneDecoder().decode(scene(width: 1200, seam: 648)))
        var worst = 0, differing = 0
        for y in 0..<160 {
            for x in 0..<1200 {
                let a = rgba(wide, x + 1400, y), b = rgba(narrow, x, y)
                let d = zip(a, b).map { abs($0 - $1) }.max() ?? 0
                worst = max(worst, d)
                if d > 0 { differing += 1 }
            }
        }
        // Rasterizing at another viewport offset may round a sample position
        // the other way: a level at a few edge pixels, never a seam.
        #expect(worst <= 2, "the tiled picture differs by up to \(worst) levels")
        #expect(differing < 1200 * 160 / 500, "\(differing) pixels differ")
    }
}
