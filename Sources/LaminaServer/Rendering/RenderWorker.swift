import Foundation
import Lamina

/// One worker's renderers, made and used on the worker's thread only.
///
/// The worker draws with its primary renderer (the backend `lamina serve`
/// chose), and makes a CPU renderer on first use for requests that ask for
/// `backend=cpu` on a GL worker.
final class RenderWorker {
    let index: Int
    let report: RenderPool.WorkerReport
    private let primary: LayerRenderer
    private var cpu: LayerRenderer?
    private let setup: RenderPool.Setup

    init(index: Int, setup: RenderPool.Setup) {
        self.index = index
        self.setup = setup
        var note: String?
        primary = Self.makePrimary(setup, note: &note)
        report = RenderPool.WorkerReport(index: index, identity: primary.identity, note: note)
        if primary.backend == .cpu { cpu = primary }
    }

    /// The renderer `setup.backend` asks for, or the CPU one (with a note
    /// saying why) where GL cannot be had or, for `auto`, is not a GPU.
    private static func makePrimary(_ setup: RenderPool.Setup, note: inout String?) -> LayerRenderer {
        func cpu() -> LayerRenderer {
            // The CPU backend needs no EGL: it cannot fail to start.
            try! LayerRenderer(backend: .cpu, budget: setup.budget, text: .own, warn: { _ in })
        }
        switch setup.backend {
        case .cpu:
            return cpu()
        case .gl, .auto:
            do {
                let gl = try LayerRenderer(backend: .gl, eglPlatform: setup.eglPlatform, fallBack: false,
                                           budget: setup.budget, text: .own, warn: { _ in })
                if setup.backend == .auto, gl.identity.isSoftware {
                    note = "GL is \(gl.identity.renderer), a software renderer: the CPU backend is faster there"
                    return cpu()
                }
                return gl
            } catch {
                note = "no EGL context (\(String(describing: error).split(separator: "\n").first ?? "")); drawing on the CPU"
                return cpu()
            }
        }
    }

    /// The renderer for a request's `backend`.
    private func renderer(for backend: RenderBackend?) throws(RenderFailure) -> LayerRenderer {
        switch backend ?? primary.backend {
        case primary.backend:
            return primary
        case .cpu:
            if let cpu { return cpu }
            let made = try! LayerRenderer(backend: .cpu, budget: setup.budget, text: .own, warn: { _ in })
            cpu = made
            return made
        case .gl:
            throw .backendUnavailable("this server's workers draw with the CPU backend (\(report.note ?? "--backend cpu")); GL is not available")
        }
    }

    /// Plans, draws and encodes one job, stopping at its deadline.
    func run(_ job: RenderJob, abandoned: @escaping @Sendable () -> Bool) -> Result<RenderedPicture, RenderFailure> {
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = RenderDeadline(job.deadline, isAbandoned: abandoned)
        do {
            try deadline.check()
            let renderer = try renderer(for: job.backend)
            let plan = try renderer.prepare(job.scene, scale: job.scale, time: job.time)
            let planned = clock.now
            if job.planOnly {
                return .success(RenderedPicture(png: [], width: plan.width, height: plan.height, backend: renderer.backend,
                                                queue: start - job.enqueued, plan: planned - start, render: .zero, encode: .zero))
            }
            try deadline.check()
            let image = try renderer.draw(plan, deadline: deadline)
            let drawn = clock.now
            try deadline.check()
            let png = try PNGEncoder(options: setup.pngOptions).encode(image)
            let encoded = clock.now
            return .success(RenderedPicture(
                png: png, width: image.width, height: image.height, backend: renderer.backend,
                queue: start - job.enqueued, plan: planned - start, render: drawn - planned, encode: encoded - drawn))
        } catch let failure as RenderFailure {
            return .failure(failure)
        } catch let refusal as RenderRefusal {
            return .failure(.refused(refusal))
        } catch let interruption as RenderInterruption {
            return .failure(interruption == .abandoned ? .abandoned : .deadlinePassed)
        } catch {
            return .failure(.failed(String(describing: error)))
        }
    }
}
