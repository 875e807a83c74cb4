import Foundation
import LaminaCore

extension FrameRenderer {
    /// One frame of a sequence: its index, its media time, its picture.
    public struct Frame: Sendable {
        /// The frame's place in the timeline, from 0.
        public let index: Int
        /// The media time the scene was sampled at, in seconds.
        public let time: CFTimeInterval
        /// The frame's picture.
        public let image: CGImage
    }

    /// The frames as an asynchronous sequence, in order, for Swift code that
    /// lives in async functions:
    ///
    /// ```swift
    /// for try await frame in FrameRenderer(timeline: timeline, backend: .cpu) { try decode() }.frames {
    ///     try apng.add(frame.image, delay: timeline.delayFraction(ofFrame: frame.index))
    /// }
    /// ```
    ///
    /// Rendering starts at the first `next()`, on threads of its own (never
    /// on Swift's cooperative pool), and runs at most a few frames ahead of
    /// the consumer: a frame is handed over only when it is asked for, so a
    /// slow consumer holds the workers back instead of piling up pictures.
    /// Leaving the loop early (or cancelling the task) stops the workers.
    public var frames: AsyncFrames { AsyncFrames(renderer: self) }
}

/// `FrameRenderer.frames`: an `AsyncSequence` of `FrameRenderer.Frame`s.
public struct AsyncFrames: AsyncSequence, Sendable {
    /// Each element is one frame, in timeline order.
    public typealias Element = FrameRenderer.Frame
    let renderer: FrameRenderer

    /// Starts the workers and returns the iterator that hands their frames over in order.
    public func makeAsyncIterator() -> Iterator {
        Iterator(owner: HandoffOwner(FrameHandoff(renderer: renderer)))
    }

    /// Hands the frames over one at a time, as the consumer asks.
    public struct Iterator: AsyncIteratorProtocol {
        fileprivate let owner: HandoffOwner

        /// The next frame in order, nil after the last; throws the first error of any worker.
        public mutating func next() async throws -> FrameRenderer.Frame? {
            try await owner.handoff.next()
        }
    }
}

/// The consumer's hold on a handoff: when the iterator goes (the loop was
/// left early), the rendering thread, which holds the handoff but not this,
/// is told to stop.
private final class HandoffOwner: Sendable {
    let handoff: FrameHandoff
    init(_ handoff: FrameHandoff) { self.handoff = handoff }
    deinit { handoff.cancel() }
}

/// The meeting point of the rendering thread and the consumer: the thread
/// offers one frame at a time and waits until the consumer takes it; the
/// consumer's `next()` suspends (without blocking a thread) until a frame is
/// offered. Released by the consumer, it stops the rendering.
private final class FrameHandoff: @unchecked Sendable {
    private let renderer: FrameRenderer
    private let condition = NSCondition()
    // Touched only with `condition` locked.
    private var started = false
    private var finished = false
    private var cancelled = false
    private var offered: Result<FrameRenderer.Frame?, any Error>?
    private var waiting: CheckedContinuation<FrameRenderer.Frame?, any Error>?

    init(renderer: FrameRenderer) { self.renderer = renderer }

    func next() async throws -> FrameRenderer.Frame? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<FrameRenderer.Frame?, any Error>) in
                condition.lock()
                if finished || cancelled {
                    condition.unlock()
                    continuation.resume(returning: nil)
                    return
                }
                if let offered {
                    self.offered = nil
                    if case .success(nil) = offered { finished = true }
                    if case .failure = offered { finished = true }
                    condition.broadcast()
                    condition.unlock()
                    continuation.resume(with: offered)
                    return
                }
                waiting = continuation
                let start = !started
                started = true
                condition.unlock()
                if start { startRendering() }
            }
        } onCancel: {
            cancel()
        }
    }

    private func startRendering() {
        let thread = Thread { [self] in
            do {
                try renderer.render { index, image in
                    try offer(.success(FrameRenderer.Frame(index: index, time: renderer.timeline.time(ofFrame: index), image: image)))
                }
                try? offer(.success(nil))
            } catch is CancellationError {
                // The consumer left; nobody is waiting.
            } catch {
                try? offer(.failure(error))
            }
        }
        thread.name = "lamina.frames"
        thread.start()
    }

    /// Hands `result` to the consumer, waiting until it is taken.
    /// - Throws: `CancellationError` when the consumer has gone.
    private func offer(_ result: Result<FrameRenderer.Frame?, any Error>) throws {
        condition.lock()
        if cancelled {
            condition.unlock()
            throw CancellationError()
        }
        if let waiting {
            self.waiting = nil
            if case .success(nil) = result { finished = true }
            if case .failure = result { finished = true }
            condition.unlock()
            waiting.resume(with: result)
            return
        }
        offered = result
        while offered != nil && !cancelled { condition.wait() }
        let gone = cancelled && offered != nil
        condition.unlock()
        if gone { throw CancellationError() }
    }

    func cancel() {
        condition.lock()
        cancelled = true
        let waiting = self.waiting
        self.waiting = nil
        condition.broadcast()
        condition.unlock()
        waiting?.resume(throwing: CancellationError())
    }
}
