import Foundation
import Lamina

/// The backends this machine has: always the CPU, and GL where EGL works.
let availableBackends: [RenderBackend] = {
    (try? LayerRenderer(backend: .gl, fallBack: false)) != nil ? [.gl, .cpu] : [.cpu]
}()

/// A pixel's premultiplied RGBA as integers, or all zeros outside the image.
func rgba(_ image: CGImage, _ x: Int, _ y: Int) -> [Int] {
    guard let p = image.pixel(x: x, y: y) else { return [0, 0, 0, 0] }
    return [Int(p.red), Int(p.green), Int(p.blue), Int(p.alpha)]
}
