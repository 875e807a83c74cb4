import Foundation
import Testing
import Lamina

/// The backends this machine has: always the CPU, and GL where EGL works.
let availableBackends: [RenderBackend] = {
    (try? LayerRenderer(backend: .gl, fallBack: false)) != nil ? [.gl, .cpu] : [.cpu]
}()

/// Where GL is missing, the GL cases of the backend-parametrized tests are
/// not run: this test says so as a skip (and fails where the run insists
/// on GL, LAMINA_REQUIRE_GL=1), so a missing GL never reads as a pass.
@Test("GL cases of the backend-parametrized tests run",
      .enabled(if: availableBackends.contains(.gl) || ProcessInfo.processInfo.environment["LAMINA_REQUIRE_GL"] == "1",
               "no EGL context on this machine: every backend-parametrized test ran on the CPU only"))
func glCasesRun() {
    #expect(availableBackends.contains(.gl), "LAMINA_REQUIRE_GL=1 but no EGL context could be made")
}

/// A pixel's premultiplied RGBA as integers, or all zeros outside the image.
func rgba(_ image: CGImage, _ x: Int, _ y: Int) -> [Int] {
    guard let p = image.pixel(x: x, y: y) else { return [0, 0, 0, 0] }
    return [Int(p.red), Int(p.green), Int(p.blue), Int(p.alpha)]
}
