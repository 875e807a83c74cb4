import Foundation
import Lamina
import Synchronization

/// A fixed number of render workers behind a bounded queue: what turns a
/// decoded scene into PNG bytes for the server.
///
/// Each worker is a thread that owns its renderer for its whole life (a GL
/// worker its EGL context, which must stay on one thread; a CPU worker its
/// scratch buffers; each its own text caches), so workers never wait on
/// each other. A request waits in the queue for a free worker; when every
/// worker is busy and `queueCapacity` requests already wait, the next one is
/// refused at once (`RenderFailure.queueFull`, a 429) instead of piling up.
///
/// Every job has a deadline that counts its time in the queue. A job still
/// waiting at its deadline is answered then; a job being drawn stops at the
/// next pass boundary (`RenderDeadline`), so its worker is free again soon.
///
/// Where `Setup.cores` gives each worker a core of its own (`CPUAffinity`),
/// a job is handed to the idle worker on the core the submitting thread is
/// running on: that thread is about to wait for the answer, so its core is
/// the one about to be free, and the job starts there without waiting for
/// the scheduler to move anything. There a request's decoding runs on an
/// idle worker too (`runOnIdleWorker`), and its picture is then drawn by the
/// same worker where it is still free: see that method for why.
final class RenderPool: Sendable {
    /// What the workers were asked for and really got.
    struct Setup: Sendable {
        var workers: Int
        var queueCapacity: Int
        var backend: BackendChoice
        var eglPlatform: EGLPlatformChoice?
        var budget: RenderBudget
        var pngOptions: PNGEncoder.Options
        /// The core each worker keeps to (`CPUAffinity.plan`); nil: none.
        var cores: [Int]? = nil
    }

    /// What a worker reports once its renderer is made.
    struct WorkerReport: Sendable {
        var index: Int
        var identity: BackendIdentity
        /// Why a GL worker draws on the CPU, when it does.
        var note: String?
        /// The core it keeps to, when pinned.
        var core: Int?
    }

    /// How busy the pool is, for readiness and metrics.
    struct Load: Sendable, Encodable {
        var startedWorkers: Int
        var workers: Int
        var busy: Int
        var queued: Int
        var queueCapacity: Int
        var draining: Bool

        var isStarting: Bool { startedWorkers < workers }
        var isSaturated: Bool { queued >= queueCapacity && busy >= workers }
    }

    let setup: Setup
    private let state: Mutex<State>
    /// One per worker: what wakes it when it is handed a job or the pool
    /// stops (semaphores: workers are threads that block, not tasks).
    private let wakeUps: [DispatchSemaphore]
    private let started = AsyncSignal()
    /// Signalled by each worker once its renderer is destroyed and its
    /// thread is about to end (`join`).
    private let ended = DispatchSemaphore(value: 0)
    /// The workers' threads, joinable: `join` waits for each to have ended
    /// whole (its thread-local state, Mesa's among it, torn down) before the
    /// process may exit and run the libraries' destructors.
    private let threads = Mutex<[pthread_t]>([])
    private let reports = Mutex<[WorkerReport]>([])
    private let onLoadChange: @Sendable (Load) -> Void
    /// Held while the load is read and told to `onLoadChange` (`reportLoad`).
    private let loadReport = Mutex<Void>(())

    private struct State {
        var queue: [RenderTicket] = []
        var busy = 0
        var startedWorkers = 0
        /// Workers waiting for a job, the most recently idle last.
        var idle: [Int] = []
        /// Per worker, an errand handed to it while it was idle
        /// (`runOnIdleWorker`); it comes before the queue.
        var errands: [(@Sendable (_ worker: Int) -> @Sendable () -> Void)?]
        /// When the shutdown began: requests that arrived after it are refused.
        var drainingSince: ContinuousClock.Instant?
        var stopped = false
    }

    /// Starts the workers; each makes its renderer on its own thread.
    /// `onLoadChange` hears every change of queue depth or busy workers.
    init(_ setup: Setup, onLoadChange: @escaping @Sendable (Load) -> Void = { _ in }) {
        self.setup = setup
        self.onLoadChange = onLoadChange
        state = Mutex(State(errands: Array(repeating: nil, count: setup.workers)))
        wakeUps = (0..<setup.workers).map { _ in DispatchSemaphore(value: 0) }
        for index in 0..<setup.workers {
            // Shader compilers (LLVM in llvmpipe) recurse deeply: 8 MiB of stack.
            if let thread = Self.startThread(stackSize: 8 << 20, { [self] in runWorker(index) }) {
                threads.withLock { $0.append(thread) }
            } else {
                // No joinable thread to be had: a Foundation thread, joined by its signal only.
                let thread = Thread { [self] in runWorker(index) }
                thread.stackSize = 8 << 20
                thread.start()
            }
        }
    }

    /// What a thread started by `startThread` runs.
    private final class ThreadStart {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// A joinable thread running `body`; nil when the system refuses one.
    private static func startThread(stackSize: Int, _ body: @escaping @Sendable () -> Void) -> pthread_t? {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackSize)
        let start = Unmanaged.passRetained(ThreadStart(body)).toOpaque()
        var thread = pthread_t()
        let made = pthread_create(&thread, &attributes, { raw in
            guard let raw else { return nil }
            Unmanaged<ThreadStart>.fromOpaque(raw).takeRetainedValue().body()
            return nil
        }, start)
        guard made == 0 else {
            Unmanaged<ThreadStart>.fromOpaque(start).release()
            return nil
        }
        return thread
    }

    /// Waits until every worker has its renderer, and says what each got.
    func waitUntilStarted() async -> [WorkerReport] {
        await started.wait()
        return reports.withLock { $0.sorted { $0.index < $1.index } }
    }

    /// When the shutdown began, if it has.
    var drainingSince: ContinuousClock.Instant? { state.withLock { $0.drainingSince } }

    var load: Load {
        state.withLock { loadOf($0) }
    }

    /// Draws `job` on the next free worker and encodes it; cancelling the
    /// calling task abandons the job. `near`: the worker to hand it to if
    /// that one is idle (the one that decoded its scene).
    /// - Throws: `RenderFailure`.
    func render(_ job: RenderJob, near worker: Int? = nil) async throws(RenderFailure) -> RenderedPicture {
        let ticket = try submit(job, near: worker)
        let result = await withTaskCancellationHandler {
            await ticket.answer()
        } onCancel: {
            ticket.finish(.failure(.abandoned))
        }
        return try result.get()
    }

    /// Queues `job` and returns at once with its ticket, whose `answer()`
    /// comes from a worker, or at the job's deadline; finishing the ticket
    /// early (`.abandoned`) stops the job. The job form of `/frames` waits on
    /// its ticket after the request that made it has been answered.
    /// - Throws: `RenderFailure.queueFull` or `.draining`, before any work.
    func submit(_ job: RenderJob, near worker: Int? = nil) throws(RenderFailure) -> RenderTicket {
        let ticket = RenderTicket(job)
        if let refusal = enqueue(ticket, near: worker) { throw refusal }
        // Answer at the deadline even if no worker has taken the job.
        let deadline = job.deadline
        let timer = Task {
            try? await Task.sleep(until: deadline, clock: .continuous)
            ticket.finish(.failure(.deadlinePassed))
        }
        ticket.onFinish { timer.cancel() }
        return ticket
    }

    /// Puts a ticket in the queue, or says why not.
    private func enqueue(_ ticket: RenderTicket, near worker: Int?) -> RenderFailure? {
        let refusal: RenderFailure? = state.withLock { s in
            // A request that arrived before the shutdown began is finished.
            if let since = s.drainingSince, ticket.job.enqueued >= since { return .draining }
            // Idle workers take jobs at once: they are not queue places.
            let idle = max(0, s.startedWorkers - s.busy)
            if s.queue.count >= setup.queueCapacity + idle { return .queueFull }
            s.queue.append(ticket)
            return nil
        }
        if refusal == nil { wakeIdleWorker(near: worker) }
        reportLoad()
        return refusal
    }

    /// Wakes one idle worker for a job just queued: `near` if it is idle,
    /// else the one pinned to the calling thread's core where there is one,
    /// else the most recently idle (its caches are the warmest).
    private func wakeIdleWorker(near preferred: Int?) {
        let here = currentCoreIfPinned()
        let worker: Int? = state.withLock { s in
            guard let index = idleWorkerIndex(s, near: preferred, here: here) else { return nil }
            return s.idle.remove(at: index)
        }
        if let worker { wakeUps[worker].signal() }
    }

    /// Which of the idle workers (its place in `idle`) a job or errand
    /// should go to; see `wakeIdleWorker`. `here`: the calling thread's
    /// core, asked before taking the lock (`currentCoreIfPinned`).
    private func idleWorkerIndex(_ s: State, near preferred: Int?, here: Int?) -> Int? {
        guard !s.idle.isEmpty else { return nil }
        if let preferred, let index = s.idle.lastIndex(of: preferred) { return index }
        if let cores = setup.cores, let here, let index = s.idle.lastIndex(where: { cores[$0] == here }) {
            return index
        }
        return s.idle.count - 1
    }

    /// The calling thread's core where workers keep to cores (nil elsewhere:
    /// then no worker is on any particular core).
    private func currentCoreIfPinned() -> Int? {
        setup.cores == nil ? nil : CPUAffinity.currentCore()
    }

    // MARK: Errands

    /// Runs `work` (a request's decoding) on an idle worker's thread and
    /// returns its result and that worker, to be handed the request's job
    /// (`render(_:near:)`); runs it on the calling thread, with no worker,
    /// where workers do not keep to cores or none is idle.
    ///
    /// Why: with one core per pinned worker, the threads that serve requests
    /// (NIO's and the tasks') are the only ones the scheduler places, and it
    /// placed a request's decoding on the core where the other request was
    /// being drawn while this request's core sat idle (two requests at a
    /// time, two cores: the first core idle 7% of the time, the decoding
    /// using 15% of the cores between the workers' turns). An idle worker's
    /// core is one no picture is being drawn on, and decoding there puts the
    /// scene in the caches of the core that then draws it. A request never
    /// waits for a worker to decode: a cache hit or a `304` must not queue
    /// behind pictures being drawn.
    func runOnIdleWorker<Value>(_ work: @escaping @Sendable () throws -> Value) async throws -> (value: Value, worker: Int?) {
        guard setup.cores != nil else { return (try work(), nil) }
        let here = currentCoreIfPinned()
        let outcome: Result<Handover<Value>, any Error>? = await withCheckedContinuation { continuation in
            let errand: @Sendable (Int) -> @Sendable () -> Void = { worker in
                let outcome = Result { Handover(value: try work(), worker: worker) }
                return { continuation.resume(returning: outcome) }
            }
            let handed: Int? = state.withLock { s in
                guard !s.stopped, let index = idleWorkerIndex(s, near: nil, here: here) else { return nil }
                let worker = s.idle.remove(at: index)
                s.errands[worker] = errand
                s.busy += 1
                return worker
            }
            guard let handed else { return continuation.resume(returning: nil) }
            wakeUps[handed].signal()
            reportLoad()
        }
        guard let outcome else { return (try work(), nil) }
        let handover = try outcome.get()
        return (handover.value, handover.worker)
    }

    /// A value made on a worker's thread and handed, whole, to the task that
    /// asked for it (a decoded scene is not `Sendable`: nobody else holds it).
    private struct Handover<Value>: @unchecked Sendable {
        var value: Value
        var worker: Int
    }

    /// Tells `onLoadChange` the load as it is now. Reports are made one at a
    /// time, each reading the load inside its turn, so the last one told is
    /// never older than the last change. (A figure read under the state's
    /// lock and told after it was released could arrive after a newer one:
    /// a job queued, taken at once by a worker that reported one busy, and
    /// then the queuing thread's older "none busy" told last, standing for
    /// the seconds the worker drew.)
    private func reportLoad() {
        loadReport.withLock { _ in onLoadChange(load) }
    }

    private func loadOf(_ s: State) -> Load {
        Load(startedWorkers: s.startedWorkers, workers: setup.workers, busy: s.busy, queued: s.queue.count,
             queueCapacity: setup.queueCapacity, draining: s.drainingSince != nil)
    }

    /// Requests that arrive from now on are refused (503); those that
    /// arrived before, queued, running or still being read, are finished.
    func beginDraining() {
        state.withLock { s in s.drainingSince = s.drainingSince ?? .now }
        reportLoad()
    }

    /// Waits until every worker has ended, its renderer destroyed, or until
    /// `deadline`; says whether they all did. The process must not exit
    /// before: `exit()` runs the libraries' destructors (Mesa's among them),
    /// and a renderer torn down at the same moment corrupts the heap.
    func join(until deadline: ContinuousClock.Instant) async -> Bool {
        let ended = self.ended, workers = setup.workers
        // Taken once: each thread is joined at most once.
        let threads = self.threads.withLock { t in defer { t = [] }; return t }
        return await withCheckedContinuation { continuation in
            // Semaphores block: wait on a thread of its own, not the cooperative pool.
            Thread.detachNewThread {
                var joined = 0
                while joined < workers {
                    let left = deadline - .now
                    guard left > .zero,
                          ended.wait(timeout: .now() + .nanoseconds(Int(clamping: left.nanoseconds))) == .success
                    else { break }
                    joined += 1
                }
                // Every worker said it ended; its thread is ending too: wait
                // until it has, so that nothing of it runs while the process
                // exits (a thread's own state torn down under exit()'s
                // destructors corrupted the heap in some idle stops).
                if joined == workers {
                    for thread in threads { pthread_join(thread, nil) }
                }
                continuation.resume(returning: joined == workers)
            }
        }
    }

    /// Ends the workers once the queue is empty (their renderers are
    /// destroyed on their own threads); `join` waits for them.
    func stop() {
        let idle = state.withLock { s in
            s.stopped = true
            defer { s.idle = [] }
            return s.idle
        }
        for worker in idle { wakeUps[worker].signal() }
    }

    // MARK: The workers

    private func runWorker(_ index: Int) {
        serve(asWorker: index)
        // The renderer went with `serve`'s frame.
        ended.signal()
    }

    private func serve(asWorker index: Int) {
        CPUAffinity.nameCurrentThread("lamina.render.\(index)")
        let core = setup.cores?[index]
        let pinned = core.map { CPUAffinity.pinCurrentThread(to: $0) } ?? false
        let worker = RenderWorker(index: index, setup: setup)
        var report = worker.report
        report.core = pinned ? core : nil
        reports.withLock { [report] in $0.append(report) }
        let startedWorkers = state.withLock { s in
            s.startedWorkers += 1
            return s.startedWorkers
        }
        reportLoad()
        if startedWorkers == setup.workers { started.signal() }

        var last: Ended? = nil
        while let work = nextWork(worker: index, after: last) {
            switch work {
            case .errand(let errand):
                last = Ended(answer: errand(index))
            case .ticket(let ticket):
                // A job answered already (deadline, client gone) is skipped.
                guard !ticket.isFinished else { last = Ended(answer: nil); continue }
                let result = worker.run(ticket.job, abandoned: { ticket.isFinished })
                last = Ended(answer: { ticket.finish(result) })
            }
        }
    }

    /// What a worker is handed: a job from the queue, or an errand, which
    /// does its work and returns how to answer it.
    private enum Work {
        case ticket(RenderTicket)
        case errand(@Sendable (_ worker: Int) -> @Sendable () -> Void)
    }

    /// A worker's work, done: how to answer it, if it still needs an answer.
    private struct Ended {
        var answer: (@Sendable () -> Void)?
    }

    /// Ends the worker's last work (`last`; nil: none yet) and takes the next errand
    /// or job, counting the worker busy; nil when the pool has stopped.
    ///
    /// The last work's answer is given only once the worker is on the idle
    /// list or has its next work: the request that hears it may send its
    /// next scene at once, and that scene's decoding should find this worker
    /// idle (answering first let the woken request run, and come back, before
    /// this thread had marked itself idle: a quarter of the decodings at two
    /// connections found no idle worker).
    private func nextWork(worker: Int, after last: Ended?) -> Work? {
        var last = last
        while true {
            let (work, stopped): (Work?, Bool) = state.withLock { s in
                if last != nil { s.busy -= 1 }
                if let errand = s.errands[worker] {
                    // Counted busy when it was handed over.
                    s.errands[worker] = nil
                    return (.errand(errand), false)
                }
                if !s.queue.isEmpty {
                    s.busy += 1
                    let ticket = s.queue.removeFirst()
                    return (.ticket(ticket), false)
                }
                if !s.stopped { s.idle.append(worker) }
                return (nil, s.stopped)
            }
            last?.answer?()
            if last != nil || work != nil { reportLoad() }
            last = nil
            if let work { return work }
            if stopped { return nil }
            // Signalled once it has been taken off the idle list: by a
            // job's arrival, an errand or `stop()`.
            wakeUps[worker].wait()
        }
    }
}
