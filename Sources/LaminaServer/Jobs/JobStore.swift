import Foundation
import Lamina

/// The job form of `POST /frames`, for animations too long to wait for on
/// one request: `POST /jobs` queues the work and answers 202 with an id at
/// once; `GET /jobs/{id}` says how far it is; `GET /jobs/{id}/result` gives
/// the file; `DELETE /jobs/{id}` cancels it and forgets it.
///
/// Two stores keep jobs: `MemoryJobStore`, in the process (one replica),
/// and `PostgresJobStore`, shared by every replica of a fleet.
protocol JobStore: Sendable {
    /// Queues a job that the route has read and checked.
    /// - Throws: `APIError`: 429 `tooManyJobs` when the store is full, 503
    ///   when the server is draining or the store unreachable, or the pool's refusal.
    func add(_ job: NewJob) async throws(APIError) -> JobStatus
    /// A job's status; nil for an id the store does not hold.
    func status(_ id: String) async throws(APIError) -> JobStatus?
    /// A job's file; nil for an id the store does not hold.
    func result(_ id: String) async throws(APIError) -> JobResult?
    /// Cancels a job (whichever replica draws it stops) and forgets it;
    /// false for an id the store does not hold.
    func cancel(_ id: String) async throws(APIError) -> Bool
    /// The server is shutting down: new jobs are refused, and this
    /// replica's part in the jobs ends (`MemoryJobStore` cancels its jobs;
    /// `PostgresJobStore` leaves them to the other replicas).
    func beginDraining() async
}

/// A job as `POST /jobs` read it: the animation to draw, and what another
/// replica needs to draw it again (the body and the query as sent).
struct NewJob: Sendable {
    /// The scene, decoded and checked, with its frames.
    var job: RenderJob
    /// The worker that decoded it.
    var worker: Int?
    var body: [UInt8]
    var format: SceneLoader.Format
    /// The request's query and `Accept`, which say the frames and the format.
    var query: String
    var accept: String?
    /// Where to POST the status when the job ends (`?callback=` or `Lamina-Callback`).
    var callback: URL?
}

/// How a store is bounded: `--max-jobs`, `--job-retention`, `--job-result-bytes`.
struct JobLimits: Sendable {
    var maxJobs: Int
    var retention: Duration
    var resultBytes: Int
}

/// Where a job is, as `GET /jobs/{id}` says it (and `lamina_jobs{stage}`).
enum JobStage: String, Codable, Sendable, CaseIterable {
    case queued, rendering
    /// Every frame is in; the file is being finished.
    case encoding
    case done, failed
}

/// What `GET /jobs/{id}` answers (and `POST /jobs`, with 202).
struct JobStatus: Codable, Sendable {
    var id: String
    var stage: JobStage
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
    /// The webhook, when the job was given one: where, and how its delivery went.
    var callback: Callback?

    /// A time as the status writes it: ISO 8601 with milliseconds, UTC.
    static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// A webhook's delivery, as the job's status records it.
    struct Callback: Codable, Sendable, Equatable {
        var url: String
        /// `pending` until the job ends; then `delivering`, `delivered` or `failed`.
        var state = "pending"
        var attempts = 0
        /// The receiver's last answer's status, or why there was none.
        var lastStatus: Int?
        var lastError: String?
        /// `Lamina-Delivery` of the deliveries (one id, every attempt).
        var delivery: String?
    }
}

/// A finished job's file, or why there is none.
enum JobResult {
    case ready(RenderedPicture, format: AnimationEncoder.Format)
    case notReady(JobStatus)
    case failed(APIError)
}

/// Jobs' ids: 128 random bits, so that a job's file is reachable only by
/// whoever was given its id.
enum JobID {
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    static func isValid(_ id: String) -> Bool {
        id.utf8.count == 32 && id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

}
