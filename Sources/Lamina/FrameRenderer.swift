import Foundation
import LaminaCore
import LaminaRender
import LaminaScene

/// Renders the frames of an animation on several threads at once and hands
/// them over in order.
///
/// Each worker has its own `LayerRenderer` (and so its own GL context) and
/// its own copy of the scene, made by `makeScene` on the worker's thread: a
/// layer tree belongs to one thread. Frames are handed to `body` on the
/// calling thread in frame order as soon as each is ready; workers stay at
/// most `2 * workers` frames ahead of it, so a long sequence never holds more
/// than that many pictures. A frame depends only on its time, so the output
/// is the same whatever the number of workers.
///
/// ```swift
/// let timeline = try AnimationTimeline(start: 0, end: 3, framesPerSecond: 30)
/// let frames = FrameRenderer(timeline: timeline, backend: .cpu) { try SceneDecoder().decode(json) }
/// try frames.render { index, image in try apng.add(image, delay: timeline.delayFraction(ofFrame: index)) }
/// ```
public struct FrameRenderer: Sendable {
    /// The frames to draw: their times.
    public let timeline: AnimationTimeline
    /// Which backend each worker draws with.
    public let backend: RenderBackend
    /// Pixels per point instead of the scene's own.
    public var scale: Double?
    /// What one frame may ask for (see `RenderBudget`).
    public var budget: RenderBudget
    /// How many frames render at once (default: one per core).
    public var workers: Int
    /// For `gl`: draw on the CPU when no EGL context can be made (else fail).
    public var fallBack: Bool
    private let makeScene: @Sendable () throws -> Scene

    /// A renderer of `timeline`'s frames; `makeScene` builds each worker's own copy
    /// of the scene, on that worker's thread.
    public init(timeline: AnimationTimeline, backend: RenderBackend, scale: Double? = nil, budget: RenderBudget = .default,
                workers: Int = ProcessInfo.processInfo.activeProcessorCount, fallBack: Bool = true,
                makeScene: @escaping @Sendable () throws -> Scene) {
        self.fallBack = fallBack
        self.timeline = timeline
        self.backend = backend
        self.scale = scale
        self.budget = budget
        self.workers = max(1, min(workers, timeline.count))
        self.makeScene = makeScene
    }

    /// Renders every frame and calls `body` with each, in order.
    /// - Throws: the first error of any worker (a refusal names the frame's
    ///   layer) or of `body`; the other workers stop at their next frame.
    public func render(_ body: (_ index: Int, _ image: CGImage) throws -> Void) throws {
        let state = SharedFrames(ahead: 2 * workers)
        var threads: [Thread] = []
        for worker in 0..<workers {
            let thread = Thread { [self] in
                do {
                    let renderer = try LayerRenderer(backend: backend, fallBack: fallBack, budget: budget, warn: { _ in })
                    // Its frames follow one another: each drawn over an earlier one where they differ.
                    renderer.drawsOnlyChanges = true
                    let scene = try makeScene()
                    var index = worker
                    while index < timeline.count, state.waitForRoom(before: index) {
                        let image = try renderer.render(scene, scale: scale, time: timeline.time(ofFrame: index))
                        state.deliver(image, at: index)
                        index += workers
                    }
                } catch {
                    state.fail(error)
                }
                state.workerFinished()
            }
            thread.stackSize = 8 << 20
            threads.append(thread)
        }
        threads.forEach { $0.start() }
        defer { state.stop(); state.waitForWorkers(workers) }
        for index in 0..<timeline.count {
            let image = try state.take(index)
            try body(index, image)
        }
    }
}

/// The frames between the workers and the consumer, behind one condition.
private final class SharedFrames: @unchecked Sendable {
    private let condition = NSCondition()
    private var ready: [Int: CGImage] = [:]
    private var consumed = 0
    private var failure: (any Error)?
    private var stopped = false
    private var finishedWorkers = 0
    private let ahead: Int

    init(ahead: Int) { self.ahead = ahead }

    /// Waits until frame `index` may be rendered without running too far
    /// ahead of the consumer; false when the sequence has stopped.
    func waitForRoom(before index: Int) -> Bool {
        condition.lock(); defer { condition.unlock() }
        while index >= consumed + ahead && !stopped && failure == nil { condition.wait() }
        return !stopped && failure == nil
    }

    func deliver(_ image: CGImage, at index: Int) {
        condition.lock(); ready[index] = image; condition.broadcast(); condition.unlock()
    }

    func fail(_ error: any Error) {
        condition.lock()
        if failure == nil { failure = error }
        condition.broadcast(); condition.unlock()
    }

    func take(_ index: Int) throws -> CGImage {
        condition.lock(); defer { condition.unlock() }
        while ready[index] == nil && failure == nil { condition.wait() }
        if let image = ready.removeValue(forKey: index) {
            consumed = index + 1
            condition.broadcast()
            return image
        }
        throw failure ?? CancellationError()
    }

    func stop() { condition.lock(); stopped = true; condition.broadcast(); condition.unlock() }

    func workerFinished() { condition.lock(); finishedWorkers += 1; condition.broadcast(); condition.unlock() }

    func waitForWorkers(_ count: Int) {
        condition.lock(); defer { condition.unlock() }
        while finishedWorkers < count { condition.wait() }
    }
}
