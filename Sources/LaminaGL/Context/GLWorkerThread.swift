import Foundation

/// A dedicated thread that owns GL state and runs jobs on it, for code that
/// lives in Swift concurrency.
///
/// A `GLContext` must stay on the thread that created it, while a task may
/// resume on any thread after an `await`. A worker thread squares the two: it
/// creates its `State` (a `GLContext`, or an object built around one such as a
/// plan executor) on its own thread, keeps it there, and runs each submitted
/// job there, one at a time, in submission order. Only `Sendable` values go in
/// and out; the state itself never leaves the thread.
///
/// ```swift
/// let gpu = try GLWorkerThread { try GLContext() }
/// let renderer = try await gpu.perform { context in context.info.renderer }
/// ```
///
/// Releasing the last reference stops the thread once its queued jobs have
/// run; the state is destroyed on the thread, where its context is current.
final class GLWorkerThread<State>: Sendable {
    private let mailbox = Mailbox<State>()

    /// Starts the thread and builds the state on it, waiting until that is done.
    /// - Throws: whatever `make` throws (the thread then ends).
    init(name: String = "lamina.gl", make: @escaping @Sendable () throws -> State) throws {
        let mailbox = self.mailbox
        let thread = Thread {
            mailbox.run(make: make)
        }
        thread.name = name
        // Shader compilers (LLVM in llvmpipe) recurse deeply; do not rely on a
        // small secondary-thread default.
        thread.stackSize = 8 << 20
        thread.start()
        try mailbox.waitUntilStarted()
    }

    deinit {
        mailbox.stop()
    }

    /// Runs `job` on the GL thread and returns its result.
    func perform<Value: Sendable>(
        _ job: @escaping @Sendable (State) throws -> Value
    ) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            mailbox.enqueue { state in
                continuation.resume(with: Result { try job(state) })
            }
        }
    }

    /// Runs `job` on the GL thread, blocking the calling thread until it is done.
    /// - Throws: `GLError.wrongThread` when called from a job on this same
    ///   thread (which would wait for itself forever), or what `job` throws.
    func performAndWait<Value: Sendable>(
        _ job: @escaping @Sendable (State) throws -> Value
    ) throws -> Value {
        guard !mailbox.isWorkerThread else {
            throw GLError.wrongThread(step: "GLWorkerThread.performAndWait from its own thread")
        }
        let done = ResultSlot<Value>()
        mailbox.enqueue { state in
            done.fill(Result { try job(state) })
        }
        return try done.wait().get()
    }
}

/// The queue between callers and the worker thread. Its mutable state is
/// guarded by `condition`, which is what makes the unchecked conformance true.
private final class Mailbox<State>: @unchecked Sendable {
    typealias Job = @Sendable (State) -> Void

    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var stopping = false
    private var started: Result<Void, Error>?
    private var worker: pthread_t?

    /// The worker thread's body: build the state, then run jobs until stopped.
    func run(make: () throws -> State) {
        let state: State
        do {
            state = try make()
        } catch {
            report(.failure(error))
            return
        }
        report(.success(()))
        while let job = next() {
            job(state)
        }
    }

    func waitUntilStarted() throws {
        condition.lock()
        defer { condition.unlock() }
        while started == nil { condition.wait() }
        try started?.get()
    }

    var isWorkerThread: Bool {
        condition.lock()
        defer { condition.unlock() }
        guard let worker else { return false }
        return pthread_equal(worker, pthread_self()) != 0
    }

    func enqueue(_ job: @escaping Job) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    private func report(_ result: Result<Void, Error>) {
        condition.lock()
        started = result
        worker = pthread_self()
        condition.broadcast()
        condition.unlock()
    }

    /// The next job, or nil once stopped with nothing left to run.
    private func next() -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while jobs.isEmpty && !stopping { condition.wait() }
        return jobs.isEmpty ? nil : jobs.removeFirst()
    }
}

/// A one-shot result that a blocked caller waits for.
private final class ResultSlot<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var result: Result<Value, Error>?

    func fill(_ value: Result<Value, Error>) {
        condition.lock()
        result = value
        condition.signal()
        condition.unlock()
    }

    func wait() -> Result<Value, Error> {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let result { return result }
            condition.wait()
        }
    }
}
