import Foundation
import Lamina
import Synchronization

/// The job form of `POST /frames`, for animations too long to wait for on
/// one request: `POST /jobs` queues the work and answers 202 with an id at
/// once; `GET /jobs/{id}` says how far it is; `GET /jobs/{id}/result` gives
/// the file; `DELETE /jobs/{id}` cancels it and forgets it.
///
/// A job is a `RenderTicket` in the same pool and queue as every request
/// (so a full queue refuses it with 429 like a render), with a longer
/// deadline of its own. The store holds at most `maxJobs` jobs, waiting,
/// drawing or finished; a finished job's file is kept for `retention`, and
/// the files together within `resultBytes` (the oldest go first). Jobs live
/// in this process's memory: another replica does not know them (route a
/// client's polls to the replica that took its job, or share a
/// `PostgresJobStore`), and a shutdown ends them.
final class MemoryJobStore: JobStore {
    private struct Entry {
        let id: String
        let created: Date
        let work: FramesWork
        /// While the job is drawn: its ticket, which holds the decoded scene.
        /// Dropped when the job ends, so that a finished job keeps only its
        /// status and its file (a scene of large images weighs far more).
        var ticket: RenderTicket?
        var outcome: Swift.Result<RenderedPicture, APIError>?
        var finished: (date: Date, instant: ContinuousClock.Instant)?
        /// The webhook's delivery, when the job has one.
        var callback: JobStatus.Callback?
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var draining = false

        /// Bytes of the finished jobs' files.
        var resultBytes: Int {
            entries.values.reduce(0) { sum, entry in
                if case .success(let picture)? = entry.outcome { sum + picture.bytes.count } else { sum }
            }
        }
    }

    let limits: JobLimits
    private let state = Mutex(State())
    private let pool: RenderPool
    private let webhooks: WebhookSender?
    private let metrics: ServerMetrics?
    private let onChange: @Sendable ([JobStage: Int]) -> Void

    /// Jobs drawn on `pool`; `onChange` hears the number of jobs in each
    /// stage after every change; `webhooks` delivers the callbacks.
    init(limits: JobLimits, pool: RenderPool, webhooks: WebhookSender?, metrics: ServerMetrics? = nil,
         onChange: @escaping @Sendable ([JobStage: Int]) -> Void = { _ in }) {
        self.limits = limits
        self.pool = pool
        self.webhooks = webhooks
        self.metrics = metrics
        self.onChange = onChange
    }

    func add(_ job: NewJob) async throws(APIError) -> JobStatus {
        try add(job.job.frames!, callback: job.callback) { () throws(RenderFailure) in try pool.submit(job.job, near: job.worker) }
    }

    /// Queues `work` as a new job through `submit` (the pool's), and returns
    /// its first status.
    /// - Throws: `APIError` 429 `tooManyJobs` when the store is full, 503
    ///   when the server is draining, or the pool's refusal (429 `queueFull`).
    func add(_ work: FramesWork, callback: URL? = nil, submit: () throws(RenderFailure) -> RenderTicket) throws(APIError) -> JobStatus {
        let id = JobID.make()
        let (status, ticket) = try state.withLock { (s: inout State) throws(APIError) -> (JobStatus, RenderTicket) in
            expire(&s)
            if s.draining { throw APIError(RenderFailure.draining) }
            guard s.entries.count < limits.maxJobs else {
                var error = APIError(.tooManyRequests, "tooManyJobs",
                                     "this server already holds \(limits.maxJobs) jobs; fetch or delete finished ones, or retry later")
                error.headers[.retryAfter] = "5"
                throw error
            }
            let ticket: RenderTicket
            do throws(RenderFailure) {
                ticket = try submit()
            } catch {
                throw APIError(error)
            }
            var entry = Entry(id: id, created: Date(), work: work, ticket: ticket)
            entry.callback = callback.map { JobStatus.Callback(url: $0.absoluteString) }
            s.entries[id] = entry
            return (Self.status(of: entry, limits: limits), ticket)
        }
        changed()
        Task { [self] in
            let answer = await ticket.answer()
            complete(id, answer)
        }
        return status
    }

    func status(_ id: String) -> JobStatus? {
        state.withLock { s in
            expire(&s)
            return s.entries[id].map { Self.status(of: $0, limits: limits) }
        }
    }

    func result(_ id: String) -> JobResult? {
        state.withLock { s in
            expire(&s)
            guard let entry = s.entries[id] else { return nil }
            switch entry.outcome {
            case .success(let picture)?: return .ready(picture, format: entry.work.format)
            case .failure(let error)?: return .failed(error)
            case nil: return .notReady(Self.status(of: entry, limits: limits))
            }
        }
    }

    /// Cancels a job (a worker drawing it stops at its next draw command)
    /// and forgets it; false for an id this server does not hold.
    func cancel(_ id: String) -> Bool {
        let removed = state.withLock { $0.entries.removeValue(forKey: id) }
        guard let removed else { return false }
        removed.ticket?.finish(.failure(.abandoned))
        changed()
        return true
    }

    /// The server is shutting down: new jobs are refused, and jobs not yet
    /// finished are cancelled (nobody could fetch their files).
    func beginDraining() async {
        let tickets = state.withLock { s in
            s.draining = true
            return s.entries.values.filter { $0.outcome == nil }.compactMap(\.ticket)
        }
        tickets.forEach { $0.finish(.failure(.draining)) }
    }

    // MARK: Private

    private func complete(_ id: String, _ answer: RenderTicket.Answer) {
        let ended: JobStatus? = state.withLock { s in
            guard var entry = s.entries[id] else { return nil }  // deleted meanwhile
            entry.finished = (Date(), .now)
            entry.ticket = nil
            switch answer {
            case .success(let picture):
                metrics?.recordPicture(picture)
                let size = picture.bytes.count
                if size > limits.resultBytes {
                    entry.outcome = .failure(APIError(
                        .unprocessableContent, "limitExceeded",
                        "the animation's file is \(size) bytes, over the \(limits.resultBytes) bytes this server keeps for jobs; ask for fewer frames, a smaller scale or a lossy format"))
                } else {
                    // Make room: drop the oldest finished files.
                    let finished = s.entries.values.filter { if case .success? = $0.outcome { true } else { false } }
                        .sorted { $0.finished!.instant < $1.finished!.instant }
                    var held = s.resultBytes
                    for old in finished where held + size > limits.resultBytes {
                        s.entries[old.id] = nil
                        if case .success(let picture)? = old.outcome { held -= picture.bytes.count }
                    }
                    entry.outcome = .success(picture)
                }
            case .failure(let failure):
                entry.outcome = .failure(APIError(failure))
            }
            s.entries[id] = entry
            return entry.callback == nil ? nil : Self.status(of: entry, limits: limits)
        }
        changed()
        if let ended, let webhooks, let url = ended.callback.flatMap({ URL(string: $0.url) }) {
            Task { [self] in
                await webhooks.deliver(ended, to: url) { [self] delivery in
                    state.withLock { s in s.entries[id]?.callback = delivery }
                }
            }
        }
    }

    private func changed() {
        let counts = state.withLock { s in
            var counts = Dictionary(uniqueKeysWithValues: JobStage.allCases.map { ($0, 0) })
            for entry in s.entries.values { counts[Self.stage(of: entry), default: 0] += 1 }
            return counts
        }
        onChange(counts)
    }

    /// Forgets finished jobs older than the retention.
    private func expire(_ s: inout State) {
        let now = ContinuousClock.now
        for (id, entry) in s.entries {
            guard let finished = entry.finished, now - finished.instant > limits.retention else { continue }
            s.entries[id] = nil
        }
    }

    private static func stage(of entry: Entry) -> JobStage {
        switch entry.outcome {
        case .success?: return .done
        case .failure?: return .failed
        case nil:
            switch entry.work.progress.stage {
            case .queued: return .queued
            case .rendering: return .rendering
            // `finished` before the answer is stored: still finishing.
            case .encoding, .finished: return .encoding
            }
        }
    }

    private static func status(of entry: Entry, limits: JobLimits) -> JobStatus {
        let progress = entry.work.progress
        var status = JobStatus(
            id: entry.id, stage: stage(of: entry), format: entry.work.format.rawValue,
            mediaType: entry.work.format.mediaType, frames: entry.work.timeline.count,
            renderedFrames: progress.renderedFrames, encodedFrames: progress.encodedFrames,
            createdAt: JobStatus.timestamp(entry.created))
        if let finished = entry.finished {
            status.finishedAt = JobStatus.timestamp(finished.date)
            status.expiresAt = JobStatus.timestamp(finished.date.addingTimeInterval(Double(limits.retention.nanoseconds) / 1e9))
        }
        switch entry.outcome {
        case .success(let picture)?:
            status.result = "/jobs/\(entry.id)/result"
            status.bytes = picture.bytes.count
            status.backend = picture.backend.rawValue
        case .failure(let error)?:
            status.error = error.problem
        case nil:
            break
        }
        status.callback = entry.callback
        return status
    }
}
