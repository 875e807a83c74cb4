import Lamina
import Testing
@testable import LaminaServer

/// `--backend auto` draws with GL only on a GPU that hands pictures back
/// fast enough to beat the CPU backend.
@Suite struct AutoBackendTests {
    private static let gpu = BackendIdentity(backend: .gl, platform: "egl-device", renderer: "NVIDIA H200/PCIe/SSE2", isSoftware: false)
    private static let llvmpipe = BackendIdentity(backend: .gl, platform: "egl-surfaceless",
                                                  renderer: "llvmpipe (LLVM 15.0.6, 256 bits)", isSoftware: true)

    @Test func aSoftwareRendererDrawsOnTheCPUWithoutMeasuringItsReadback() {
        var measured = false
        let reason = RenderWorker.reasonToDrawOnTheCPU(Self.llvmpipe, readback: { measured = true; return 9e9 }())
        #expect(reason?.contains("software renderer") == true)
        #expect(!measured)
    }

    @Test func aGPUWhoseReadbackCrawlsDrawsOnTheCPU() throws {
        // What an H200 behind a virtual machine read back at.
        let reason = try #require(RenderWorker.reasonToDrawOnTheCPU(Self.gpu, readback: 17e6))
        #expect(reason.contains("17 MB/s"), "\(reason)")
        #expect(reason.contains("NVIDIA H200"), "\(reason)")
        #expect(RenderWorker.reasonToDrawOnTheCPU(Self.gpu, readback: 0.999e9) != nil)
    }

    @Test func aGPUThatReadsBackFastDrawsWithGL() {
        #expect(RenderWorker.reasonToDrawOnTheCPU(Self.gpu, readback: 1e9) == nil)
        #expect(RenderWorker.reasonToDrawOnTheCPU(Self.gpu, readback: 12e9) == nil)
        // A probe that failed says nothing against the GPU.
        #expect(RenderWorker.reasonToDrawOnTheCPU(Self.gpu, readback: nil) == nil)
    }
}
