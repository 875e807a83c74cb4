import Foundation
import Lamina
import Synchronization

/// A job, and the one answer it will get: from the worker, the deadline
/// timer or cancellation, whichever is first.
final class RenderTicket: Sendable {
    typealias Answer = Result<RenderedPicture, RenderFailure>
    let job: RenderJob
    private let state = Mutex<State>(State())

    private struct State {
        var result: Answer?
        var waiters: [CheckedContinuation<Answer, Never>] = []
        var onFinish: [@Sendable () -> Void] = []
    }

    init(_ job: RenderJob) { self.job = job }

    var isFinished: Bool { state.withLock { $0.result != nil } }

    /// The answer, waiting for it if it has not come yet.
    func answer() async -> Answer {
        await withCheckedContinuation { continuation in
            let now: Answer? = state.withLock { s in
                if let result = s.result { return result }
                s.waiters.append(continuation)
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    /// Runs `body` once the ticket is answered (at once if it is).
    func onFinish(_ body: @escaping @Sendable () -> Void) {
        let now = state.withLock { s in
            if s.result != nil { return true }
            s.onFinish.append(body)
            return false
        }
        if now { body() }
    }

    /// Answers the job; only the first answer counts.
    func finish(_ result: Answer) {
        let (waiters, onFinish): ([CheckedContinuation<Answer, Never>], [@Sendable () -> Void]) = state.withLock { s in
            guard s.result == nil else { return ([], []) }
            s.result = result
            defer { s.waiters = []; s.onFinish = [] }
            return (s.waiters, s.onFinish)
        }
        waiters.forEach { $0.resume(returning: result) }
        onFinish.forEach { $0() }
    }
}

/// A one-shot signal tasks can wait for.
final class AsyncSignal: Sendable {
    private let state = Mutex<(fired: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func signal() {
        let waiters = state.withLock { s in
            s.fired = true
            defer { s.waiters = [] }
            return s.waiters
        }
        waiters.forEach { $0.resume() }
    }

    var hasFired: Bool { state.withLock { $0.fired } }

    func wait() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { s in
                if s.fired { return true }
                s.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}
