import Foundation
import Testing
import Lamina

/// `BackendChoice.auto` draws with GL only on a GPU that hands pictures
/// back fast enough to beat the CPU backend.
@Suite struct AutoBackendTests {
    private static let gpu = BackendIdentity(backend: .gl, platform: "egl-device", renderer: "NVIDIA H200/PCIe/SSE2", isSoftware: false)
    private static let llvmpipe = BackendIdentity(backend: .gl, platform: "egl-surfaceless",
                                                  renderer: "llvmpipe (LLVM 15.0.6, 256 bits)", isSoftware: true)

    @Test func aSoftwareRendererDrawsOnTheCPUWithoutMeasuringItsReadback() {
        var measured = false
        let reason = LayerRenderer.reasonToDrawOnTheCPU(Self.llvmpipe, readback: { measured = true; return 9e9 }())
        #expect(reason?.contains("software renderer") == true)
        #expect(!measured)
    }

    @Test func aGPUWhoseReadbackCrawlsDrawsOnTheCPU() throws {
        // What an H200 behind a virtual machine read back at.
        let reason = try #require(LayerRenderer.reasonToDrawOnTheCPU(Self.gpu, readback: 17e6))
        #expect(reason.contains("17 MB/s"), "\(reason)")
        #expect(reason.contains("NVIDIA H200"), "\(reason)")
        #expect(LayerRenderer.reasonToDrawOnTheCPU(Self.gpu, readback: 0.999e9) != nil)
    }

    @Test func aGPUThatReadsBackFastDrawsWithGL() {
        #expect(LayerRenderer.reasonToDrawOnTheCPU(Self.gpu, readback: 1e9) == nil)
        #expect(LayerRenderer.reasonToDrawOnTheCPU(Self.gpu, readback: 12e9) == nil)
        // A probe that failed says nothing against the GPU.
        #expect(LayerRenderer.reasonToDrawOnTheCPU(Self.gpu, readback: nil) == nil)
    }

    /// A GPU is reached through a DRM render node, NVIDIA's control
    /// device or WSL's; a card node alone (a display without a render engine) or
    /// nothing at all is no GPU to draw with.
    @Test func aGPUIsARenderNodeOrNVIDIAsControlDevice() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-dev-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("dri"), withIntermediateDirectories: true)
        #expect(!GPUDevices.anyPresent(in: root.path))
        FileManager.default.createFile(atPath: root.appendingPathComponent("dri/card0").path, contents: nil)
        #expect(!GPUDevices.anyPresent(in: root.path))
        FileManager.default.createFile(atPath: root.appendingPathComponent("dri/renderD128").path, contents: nil)
        #expect(GPUDevices.anyPresent(in: root.path))
        try FileManager.default.removeItem(at: root.appendingPathComponent("dri"))
        FileManager.default.createFile(atPath: root.appendingPathComponent("nvidiactl").path, contents: nil)
        #expect(GPUDevices.anyPresent(in: root.path))
        try FileManager.default.removeItem(at: root.appendingPathComponent("nvidiactl"))
        #expect(!GPUDevices.anyPresent(in: root.path))
        FileManager.default.createFile(atPath: root.appendingPathComponent("dxg").path, contents: nil)
        #expect(GPUDevices.anyPresent(in: root.path))
    }

    /// Whatever this machine has, `auto` ends on a backend and says why
    /// when that is the CPU; without a GPU device it does not ask EGL.
    @Test func autoDrawsOnTheCPUWithAReasonOrWithGLOnAGPU() throws {
        var reasons: [String] = []
        let renderer = try LayerRenderer.choosing(.auto, warn: { _ in }, explain: { reasons.append($0) })
        switch renderer.backend {
        case .cpu:
            #expect(reasons.count == 1, "\(reasons)")
            if !GPUDevices.anyPresent() { #expect(reasons.first?.hasPrefix("no GPU device") == true, "\(reasons)") }
        case .gl:
            #expect(reasons.isEmpty, "\(reasons)")
            #expect(!renderer.identity.isSoftware)
        }
    }

    @Test func cpuIsTheCPUAndGLIsGLWhereEGLIs() throws {
        var reasons: [String] = []
        #expect(try LayerRenderer.choosing(.cpu, explain: { reasons.append($0) }).backend == .cpu)
        let gl = try LayerRenderer.choosing(.gl, warn: { _ in }, explain: { reasons.append($0) })
        #expect(gl.backend == (availableBackends.contains(.gl) ? .gl : .cpu))
        #expect(reasons.count == (gl.backend == .gl ? 0 : 1), "\(reasons)")
    }
}
