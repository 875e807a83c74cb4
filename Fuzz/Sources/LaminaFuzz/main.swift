import Foundation
import Lamina

/// One fuzz input through the pipeline a render server runs for a stranger's
/// scene: decode (scene JSON, a CAML document, or a `.tendies` zip archive
/// whose structure is mutated as well as its documents; no files, only data
/// URIs and the archive's own), render on the CPU, encode. A
/// refusal (a thrown error) is a correct answer; a trap, a hang (libFuzzer's
/// `-timeout`) or running out of memory (`-rss_limit_mb`) is a finding.
///
/// The scene format's limits are the defaults a server uses; the picture is
/// drawn at a scale that keeps it within 256 pixels a side, so that each run
/// stays fast enough to explore while every conformance scene used as a seed
/// still reaches the renderer: what is fuzzed is whether every limit and
/// budget holds, not how fast big pictures draw.
enum FuzzPipeline {
    static let decoder = SceneDecoder(options: SceneDecoder.Options(allowsFiles: false))

    nonisolated(unsafe) static let renderer: LayerRenderer = {
        var budget = RenderBudget.default
        budget.surfacePixels = 1 << 20
        budget.backingPixels = 1 << 20
        return try! LayerRenderer(backend: .cpu, budget: budget, warn: { _ in })
    }()

    /// CAML bodies are read as the server reads them: files none, images as data URIs.
    static let camlReader = CAMLReader()

    static func run(_ bytes: UnsafeRawBufferPointer) {
        let data = Data(bytes)
        // A zip archive is a .tendies (as a server's application/zip body); XML
        // is a CAML document (application/xml); the rest scene JSON.
        let isZip = bytes.starts(with: [0x50, 0x4B])
        let isXML = bytes.first { ![0x20, 0x0A, 0x0D, 0x09].contains($0) } == UInt8(ascii: "<")
        let decoded = isZip ? (try? camlReader.read(tendies: [UInt8](bytes)))?.scene
            : isXML ? (try? camlReader.read(caml: [UInt8](bytes)))?.scene : try? decoder.decode(data)
        guard let scene = decoded else { return }
        let side = Double(max(scene.width, scene.height) * scene.scale)
        let scale = side > 256 ? Double(scene.scale) * 256 / side : nil
        guard let image = try? renderer.render(scene, scale: scale) else { return }
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
