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
                if setup.backend == .auto, let reason = Self.reasonToDrawOnTheCPU(gl.identity, readback: gl.measureReadback()) {
                    note = reason
                    return cpu()
                }
                return gl
            } catch {
                note = "no EGL context (\(String(describing: error).split(separator: "\n").first ?? "")); drawing on the CPU"
                return cpu()
            }
        }
    }

    /// The slowest readback `auto` draws with GL at, in bytes a second.
    /// The CPU backend draws a Lottie sample's frame at 3 to 6 GB of
    /// picture a second on one core (LottieLogo2: 2.2 MB in 0.35 ms): a GPU
    /// that hands pictures back slower than 1 GB/s spends more on the
    /// readback alone than the CPU takes for the whole frame.
    static let slowestReadbackForGL = 1e9

    /// Why `auto` should draw on the CPU with this GL context, or nil to
    /// draw with it: a software renderer (llvmpipe draws slower than the
    /// CPU backend), or a GPU that reads pictures back slower than
    /// `slowestReadbackForGL` (a GPU behind a virtual machine read back at
    /// 13 to 17 MB/s, where it drew in a few milliseconds: docs/benchmarks.md).
    static func reasonToDrawOnTheCPU(_ gl: BackendIdentity, readback bytesPerSecond: @autoclosure () -> Double?) -> String? {
        if gl.isSoftware {
            return "GL is \(gl.renderer), a software renderer: the CPU backend is faster there"
        }
        if let rate = bytesPerSecond(), rate < slowestReadbackForGL {
            return String(format: "GL (%@) reads pictures back at %.0f MB/s, under %.0f MB/s: the CPU backend is faster there",
                          gl.renderer, rate / 1e6, slowestReadbackForGL / 1e6)
        }
        return nil
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

    /// Every frame of `frames.timeline`, drawn in order and handed to the
    /// animation encoder as it is drawn (one frame in memory at a time);
    /// the deadline is checked before each frame and between draw commands.
    private func animate(_ job: RenderJob, _ frames: FramesWork, renderer: LayerRenderer, deadline: RenderDeadline,
                         start: ContinuousClock.Instant) throws -> RenderedPicture {
        let clock = ContinuousClock()
        let canvas = job.scene.canvas(scale: job.scale)
        let (width, height) = (canvas.pixelWidth, canvas.pixelHeight)
        var options = frames.options
        options.png = setup.pngOptions
        let progress = frames.progress
        defer { progress.enter(.finished) }
        // Each frame drawn over an earlier one where they differ; the frames
        // kept for that are let go when the request is done.
        renderer.drawsOnlyChanges = true
        defer { renderer.drawsOnlyChanges = false }
        progress.enter(.rendering)
        let encoder = try AnimationEncoder(frames.format, width: width, height: height, timeline: frames.timeline, options: options)
        var (planTime, drawTime, encodeTime) = (Duration.zero, Duration.zero, Duration.zero)
        for index in 0..<frames.timeline.count {
            try deadline.check()
            let t0 = clock.now
            let plan = try renderer.prepare(job.scene, scale: job.scale, time: frames.timeline.time(ofFrame: index))
            let t1 = clock.now
            let image = try renderer.draw(plan, deadline: deadline)
            progress.frameRendered()
            let t2 = clock.now
            try encoder.add(image)
            progress.frameEncoded()
            (planTime, drawTime, encodeTime) = (planTime + (t1 - t0), drawTime + (t2 - t1), encodeTime + (clock.now - t2))
        }
        try deadline.check()
        progress.enter(.encoding)
        let t3 = clock.now
        let bytes = try encoder.finish()
        encodeTime += clock.now - t3
        return RenderedPicture(bytes: bytes, width: width, height: height, frameCount: frames.timeline.count,
                               backend: renderer.backend, queue: start - job.enqueued, plan: planTime, render: drawTime,
                               encode: encodeTime)
    }

    /// Plans, draws and encodes one job, stopping at its deadline.
    func run(_ job: RenderJob, abandoned: @escaping @Sendable () -> Bool) -> Result<RenderedPicture, RenderFailure> {
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = RenderDeadline(job.deadline, isAbandoned: abandoned)
        do {
            try deadline.check()
            let renderer = try renderer(for: job.backend)
            if let frames = job.frames {
                return .success(try animate(job, frames, renderer: renderer, deadline: deadline, start: start))
            }
            let plan = try renderer.prepare(job.scene, scale: job.scale, time: job.time)
            let planned = clock.now
            if job.planOnly {
                return .success(RenderedPicture(bytes: [], width: plan.width, height: plan.height, backend: renderer.backend,
                                                queue: start - job.enqueued, plan: planned - start, render: .zero, encode: .zero))
            }
            try deadline.check()
            let image = try renderer.draw(plan, deadline: deadline)
            let drawn = clock.now
            try deadline.check()
            let png = try PNGEncoder(options: setup.pngOptions).encode(image)
            let encoded = clock.now
            return .success(RenderedPicture(
                bytes: png, width: image.width, height: image.height, backend: renderer.backend,
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
