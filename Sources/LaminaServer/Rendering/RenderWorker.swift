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

    /// The renderer `setup.backend` asks for (`LayerRenderer.choosing`),
    /// or the CPU one, with a note saying why, where GL cannot be had or,
    /// for `auto`, is not the faster.
    private static func makePrimary(_ setup: RenderPool.Setup, note: inout String?) -> LayerRenderer {
        var reason: String?
        // Neither `gl` nor `auto` throws (both fall back to the CPU), nor
        // does the CPU backend, which needs no EGL.
        let renderer = try! LayerRenderer.choosing(setup.backend, eglPlatform: setup.eglPlatform, budget: setup.budget,
                                                   text: .own, warn: { _ in }, explain: { reason = $0 })
        note = reason
        return renderer
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
