import Foundation
import Lamina

/// One fuzz input through the pipeline a render server runs for a stranger's
/// scene: load it as the server does (`SceneLoader`: scene JSON or a Lottie
/// animation, told apart by content; a CAML document; a `.tendies` or
/// dotLottie zip archive whose structure is mutated as well as its
/// documents; no files, only data URIs and the archive's own), render on
/// the CPU (a Lottie at the middle of its range), encode. A
/// refusal (a thrown error) is a correct answer; a trap, a hang (libFuzzer's
/// `-timeout`) or running out of memory (`-rss_limit_mb`) is a finding.
///
/// The scene format's limits are the defaults a server uses; the picture is
/// drawn at a scale that keeps it within 256 pixels a side, so that each run
/// stays fast enough to explore while every conformance scene used as a seed
/// still reaches the renderer: what is fuzzed is whether every limit and
/// budget holds, not how fast big pictures draw.
enum FuzzPipeline {
    static let loader = SceneLoader(options: .init(allowsFiles: false))

    nonisolated(unsafe) static let renderer: LayerRenderer = {
        var budget = RenderBudget.default
        budget.surfacePixels = 1 << 20
        budget.backingPixels = 1 << 20
        return try! LayerRenderer(backend: .cpu, budget: budget, warn: { _ in })
    }()

    static func run(_ bytes: UnsafeRawBufferPointer) {
        let input = [UInt8](bytes)
        // The format by the first bytes, as a server's media types would say
        // it: a zip archive (application/zip), XML (application/xml), else JSON.
        guard let loaded = try? loader.load(input, format: SceneLoader.Format(sniffing: input) ?? .json) else { return }
        let scene = loaded.scene
        let side = Double(max(scene.width, scene.height) * scene.scale)
        let scale = side > 256 ? Double(scene.scale) * 256 / side : nil
        guard let image = try? renderer.render(scene, scale: scale, time: loaded.duration.map { $0 / 2 }) else { return }
        _ = try? PNGEncoder().encode(image)
    }
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

// Made-up font names are the fuzzer's daily bread: their warnings would
// bury libFuzzer's own lines.
FontWarnings.setHandler { _ in }
var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
    FuzzPipeline.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
})
