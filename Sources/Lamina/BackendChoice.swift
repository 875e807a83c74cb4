import Foundation

/// Which backend to draw with, as a user picks it: `lamina render
/// --backend`, `lamina frames --backend`, `lamina serve --backend`.
///
/// `auto`, the default everywhere, draws with GL only where GL is the
/// faster of the two: on a hardware GPU that hands pictures back quickly.
/// Mesa's llvmpipe, the GL a machine without a GPU has, draws the same
/// pictures slower than the CPU backend (docs/benchmarks.md), so there
/// `auto` draws on the CPU.
///
/// ```swift
/// let renderer = try LayerRenderer.choosing(.auto) { reason in print(reason) }
/// print(renderer.identity)   // "cpu" on a machine without a GPU
/// ```
public enum BackendChoice: String, Sendable, CaseIterable {
    /// GL where EGL finds a hardware GPU that hands pictures back at 1 GB/s
    /// or faster (measured as the renderer starts), the CPU otherwise: on
    /// llvmpipe, and behind a GPU whose readback crawls (a virtual
    /// machine's), the CPU backend is faster.
    case auto
    /// GL, whatever draws it (a GPU, or llvmpipe on the CPU); the CPU
    /// backend, with a warning, where no EGL context can be made.
    case gl
    /// The CPU backend.
    case cpu
}

extension LayerRenderer {
    /// A renderer drawing with the backend `choice` picks.
    ///
    /// `explain` hears why the renderer draws on the CPU where `gl` or
    /// `auto` was asked for: no EGL context (for `gl`, unless `fallBack` is
    /// false: then the error is thrown), or for `auto` no GPU, a software
    /// renderer or a slow readback. A server logs it; a command line tool
    /// says it for `gl` and keeps quiet for `auto`, which chose. `warn`
    /// hears the rest (text rendering that could not start), as
    /// `init(backend:eglPlatform:fallBack:budget:text:environment:warn:)`
    /// says it, whose other parameters these are.
    public static func choosing(_ choice: BackendChoice, eglPlatform: EGLPlatformChoice? = nil, fallBack: Bool = true,
                                budget: RenderBudget = .default, text: TextCaches = .shared,
                                environment: [String: String] = ProcessInfo.processInfo.environment,
                                warn: (String) -> Void = { FileHandle.standardError.write(Data(("lamina: " + $0 + "\n").utf8)) },
                                explain: (String) -> Void = { _ in }) throws -> LayerRenderer {
        // Falling back is done here, where `explain` hears why.
        func renderer(_ backend: RenderBackend) throws -> LayerRenderer {
            try LayerRenderer(backend: backend, eglPlatform: eglPlatform, fallBack: false, budget: budget, text: text,
                              environment: environment, warn: warn)
        }
        switch choice {
        case .cpu:
            return try renderer(.cpu)
        case .gl:
            do {
                return try renderer(.gl)
            } catch {
                guard fallBack else { throw error }
                explain("no EGL context (\(firstLine(of: error))); drawing on the CPU")
                return try renderer(.cpu)
            }
        case .auto:
            // Asking EGL costs a context (a tenth of a second on llvmpipe,
            // more than a small picture takes to draw): not where no GPU can be.
            guard eglPlatform != nil || GPUDevices.anyPresent() else {
                explain("no GPU device (\(GPUDevices.describedPaths)); drawing on the CPU")
                return try renderer(.cpu)
            }
            let gl: LayerRenderer
            do {
                gl = try renderer(.gl)
            } catch {
                explain("no EGL context (\(firstLine(of: error))); drawing on the CPU")
                return try renderer(.cpu)
            }
            if let reason = reasonToDrawOnTheCPU(gl.identity, readback: gl.measureReadback()) {
                explain(reason)
                return try renderer(.cpu)
            }
            return gl
        }
    }

    /// The slowest readback `auto` draws with GL at, in bytes a second.
    /// The CPU backend draws a Lottie sample's frame at 3 to 6 GB of
    /// picture a second on one core (LottieLogo2: 2.2 MB in 0.35 ms): a GPU
    /// that hands pictures back slower than 1 GB/s spends more on the
    /// readback alone than the CPU takes for the whole frame.
    package static let slowestReadbackForGL = 1e9

    /// Why `auto` should draw on the CPU with this GL context, or nil to
    /// draw with it: a software renderer (llvmpipe draws slower than the
    /// CPU backend; its readback is not measured), or a GPU that reads
    /// pictures back slower than `slowestReadbackForGL` (a GPU behind a
    /// virtual machine read back at 13 to 17 MB/s, where it drew in a few
    /// milliseconds: docs/benchmarks.md). A readback that could not be
    /// measured (nil) says nothing against the GPU.
    package static func reasonToDrawOnTheCPU(_ gl: BackendIdentity, readback bytesPerSecond: @autoclosure () -> Double?) -> String? {
        if gl.isSoftware {
            return "GL is \(gl.renderer), a software renderer: the CPU backend is faster there"
        }
        if let rate = bytesPerSecond(), rate < slowestReadbackForGL {
            return String(format: "GL (%@) reads pictures back at %.0f MB/s, under %.0f MB/s: the CPU backend is faster there",
                          gl.renderer, rate / 1e6, slowestReadbackForGL / 1e6)
        }
        return nil
    }
}

/// The device files through which a process reaches a GPU on Linux: a
/// DRM render node (Mesa's drivers, `/dev/dri/renderD128`), NVIDIA's
/// control device, or WSL's GPU (`/dev/dxg`, Mesa's d3d12 driver). A
/// container is given a GPU as these files; without any, EGL can offer
/// only a software renderer.
package enum GPUDevices {
    /// The places looked at, for messages.
    static let describedPaths = "/dev/dri/renderD*, /dev/nvidiactl, /dev/dxg"

    /// Whether any of them is present in `root` (the machine's `/dev`).
    package static func anyPresent(in root: String = "/dev") -> Bool {
        let files = FileManager.default
        if files.fileExists(atPath: root + "/nvidiactl") || files.fileExists(atPath: root + "/dxg") { return true }
        let dri = (try? files.contentsOfDirectory(atPath: root + "/dri")) ?? []
        return dri.contains { $0.hasPrefix("renderD") }
    }
}
