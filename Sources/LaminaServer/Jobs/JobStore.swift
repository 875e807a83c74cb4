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
/// client's polls to the replica that took its job), and a shutdown ends
/// them.
final class JobStore: Sendable {
    struct Limits: Sendable {
        var maxJobs: Int
        var retention: Duration
        var resultBytes: Int
    }

    /// Where a job is, as `GET /jobs/{id}` says it (and `lamina_jobs{stage}`).
    enum Stage: String, Encodable, Sendable, CaseIterable {
        case queued, rendering
        /// Every frame is in; the file is being finished.
        case encoding
        case done, failed
    }

    /// What `GET /jobs/{id}` answers (and `POST /jobs`, with 202).
    struct Status: Encodable, Sendable {
        var id: String
        var stage: Stage
        var format: String
        var mediaType: String
        /// Frames in the animation.
        var frames: Int
        var renderedFrames: Int
        var encodedFrames: Int
        var createdAt: String
        var finishedAt: String?
        /// When a finished job is forgotten.
        var expiresAt: String?
        /// Where the file is, once `done`.
        var result: String?
        var bytes: Int?
        var backend: String?
        /// Why a `failed` job failed.
        var error: APIError.Problem?
    }

    /// A finished job's file, or why there is none.
    enum Result {
        case ready(RenderedPicture, format: AnimationEncoder.Format)
        case notReady(Status)
        case failed(APIError)
    }

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

    let limits: Limits
    private let state = Mutex(State())
    private let onChange: @Sendable ([Stage: Int]) -> Void

    /// `onChange` hears the number of jobs in each stage after every change.
    init(limits: Limits, onChange: @escaping @Sendable ([Stage: Int]) -> Void = { _ in }) {
        self.limits = limits
        self.onChange = onChange
    }

    /// Queues `work` as a new job through `submit` (the pool's), and returns
    /// its first status.
    /// - Throws: `APIError` 429 `tooManyJobs` when the store is full, 503
    ///   when the server is draining, or the pool's refusal (429 `queueFull`).
    func add(_ work: FramesWork, submit: () throws(RenderFailure) -> RenderTicket) throws(APIError) -> Status {
        let id = Self.newID()
        let (status, ticket) = try state.withLock { (s: inout State) throws(APIError) -> (Status, RenderTicket) in
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
            let entry = Entry(id: id, created: Date(), work: work, ticket: ticket)
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

    /// A job's status; nil for an id this server does not hold.
    func status(_ id: String) -> Status? {
        state.withLock { s in
            expire(&s)
            return s.entries[id].map { Self.status(of: $0, limits: limits) }
        }
    }

    /// A job's file; nil for an id this server does not hold.
    func result(_ id: String) -> Result? {
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
    func beginDraining() {
        let tickets = state.withLock { s in
            s.draining = true
            return s.entries.values.filter { $0.outcome == nil }.compactMap(\.ticket)
        }
        tickets.forEach { $0.finish(.failure(.draining)) }
    }

    // MARK: Private

    private func complete(_ id: String, _ answer: RenderTicket.Answer) {
        state.withLock { s in
            guard var entry = s.entries[id] else { return }  // deleted meanwhile
            entry.finished = (Date(), .now)
            entry.ticket = nil
            switch answer {
            case .success(let picture):
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
        }
        changed()
    }

    private func changed() {
        let counts = state.withLock { s in
            var counts = Dictionary(uniqueKeysWithValues: Stage.allCases.map { ($0, 0) })
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

    private static func stage(of entry: Entry) -> Stage {
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

    private static func status(of entry: Entry, limits: Limits) -> Status {
        let progress = entry.work.progress
        var status = Status(
            id: entry.id, stage: stage(of: entry), format: entry.work.format.rawValue,
            mediaType: entry.work.format.mediaType, frames: entry.work.timeline.count,
            renderedFrames: progress.renderedFrames, encodedFrames: progress.encodedFrames,
            createdAt: timestamp(entry.created))
        if let finished = entry.finished {
            status.finishedAt = timestamp(finished.date)
            status.expiresAt = timestamp(finished.date.addingTimeInterval(Double(limits.retention.nanoseconds) / 1e9))
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
        return status
    }

    private static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// 128 random bits: a job's file is reachable only by whoever was given
    /// its id.
    private static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}
