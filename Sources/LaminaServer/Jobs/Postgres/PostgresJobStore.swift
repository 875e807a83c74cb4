import Foundation
import Lamina
import LaminaIO
import Logging
import Synchronization

/// Jobs shared by every replica of a fleet, in PostgreSQL
/// (`--jobs-store postgres://...`): any replica takes a job, answers its
/// status, gives its file and cancels it, and the replicas draw the queued
/// jobs between them as their workers free up.
///
/// How the work is shared:
/// - **Taking a job.** A replica with a free worker claims the oldest job
///   that is queued, or whose lease ran out, in one statement
///   (`UPDATE ... WHERE id = (SELECT ... FOR UPDATE SKIP LOCKED LIMIT 1)`):
///   replicas never wait on each other's rows, and no job is taken twice.
/// - **Leases.** The replica drawing a job holds it until `lease_until`,
///   and pushes that forward every third of a lease (with the frames drawn
///   so far). A replica that dies (SIGKILL, a lost node) stops renewing;
///   after the lease another replica takes the job again from its first
///   frame (counted in `lamina_job_lease_takeovers_total`). A job taken
///   `maxAttempts` times fails, so one that kills its replica cannot kill
///   the fleet.
/// - **Cancelling.** `DELETE /jobs/{id}` on any replica marks the row
///   cancelled; the replica drawing it sees the mark at its next renewal
///   and stops, then deletes the row.
/// - **Results** live in the row (bytea) or, with `--results-dir` on a
///   shared volume, in a file named by the job's id; both bounded by
///   `--job-result-bytes` (the oldest go first) and `--job-retention`.
/// - **The schema** is created and migrated by the server at start, in one
///   transaction under an advisory lock (replicas starting together wait
///   for one another); its version is in `lamina_schema`.
/// - **PostgreSQL away.** At start, readiness says `jobStoreUnreachable`
///   and the server retries every few seconds; while running, the jobs
///   routes answer 503 with `Retry-After` and `/render` goes on.
final class PostgresJobStore: JobStore {
    struct Settings: Sendable {
        /// A `postgres://` URL or libpq's `key=value` words.
        var connection: String
        /// Added to the connection (else libpq's PGPASSWORD or ~/.pgpass).
        var password: String?
        /// Connections in the pool.
        var connections = 4
        /// How long a replica holds a job without renewing it.
        var lease: Duration = .seconds(15)
        /// How often an idle replica looks for queued jobs.
        var poll: Duration = .milliseconds(200)
        /// A folder on a shared volume for the results; nil: in the table.
        var resultsDirectory: String?
        /// Jobs taken this many times and never finished fail.
        var maxAttempts = 3
    }

    /// The schema's migrations, in order: the version is the count applied.
    static let migrations: [String] = [
        """
        CREATE TABLE lamina_jobs (
            id text PRIMARY KEY,
            state text NOT NULL CHECK (state IN ('queued', 'rendering', 'encoding', 'done', 'failed', 'cancelled')),
            body bytea NOT NULL,
            body_format text NOT NULL,
            query text NOT NULL,
            accept text,
            format text NOT NULL,
            frames integer NOT NULL,
            rendered_frames integer NOT NULL DEFAULT 0,
            encoded_frames integer NOT NULL DEFAULT 0,
            created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
            finished_at timestamptz,
            expires_at timestamptz,
            lease_owner text,
            lease_until timestamptz,
            attempts integer NOT NULL DEFAULT 0,
            result bytea,
            result_file text,
            result_bytes integer,
            backend text,
            error jsonb,
            callback jsonb
        );
        CREATE INDEX lamina_jobs_waiting ON lamina_jobs (created_at) WHERE state IN ('queued', 'rendering', 'encoding');
        CREATE INDEX lamina_jobs_finished ON lamina_jobs (finished_at) WHERE state IN ('done', 'failed');
        """,
    ]

    let limits: JobLimits
    private let settings: Settings
    private let client: PostgresClient
    private let pool: RenderPool
    private let workers: Int
    private let webhooks: WebhookSender?
    private let metrics: ServerMetrics
    private let logger: Logger
    /// This replica's name in `lease_owner`: host, process and a random part.
    let replica: String

    /// Reads a taken job's request again into a render job (as `POST /jobs` read it).
    typealias Reader = @Sendable (StoredJob) async throws -> (job: RenderJob, worker: Int?)

    private struct State {
        var ready = false
        var draining = false
        /// Jobs this replica draws, by id (nil while it is read again, before its ticket).
        var running: [String: RenderTicket?] = [:]
        var wake: CheckedContinuation<Void, Never>?
    }
    private let state = Mutex(State())

    /// A job as the table holds its request.
    struct StoredJob: Sendable {
        var id: String
        var body: [UInt8]
        var format: SceneLoader.Format
        var query: String
        var accept: String?
    }

    init(settings: Settings, limits: JobLimits, pool: RenderPool, workers: Int, webhooks: WebhookSender?, metrics: ServerMetrics,
         logger: Logger) {
        self.settings = settings
        self.limits = limits
        self.pool = pool
        self.workers = workers
        self.webhooks = webhooks
        self.metrics = metrics
        self.logger = logger
        client = PostgresClient(connection: settings.connection, password: settings.password, size: settings.connections)
        var generator = SystemRandomNumberGenerator()
        replica = "\(ProcessInfo.processInfo.hostName)-\(getpid())-\(String(generator.next() as UInt32, radix: 16))"
    }

    /// Whether the schema is in place (readiness waits for it).
    var isReady: Bool { state.withLock { $0.ready } }

    // MARK: The replica's loop

    /// Migrates the schema (retrying until PostgreSQL answers), then takes
    /// and draws jobs, each read by `reader`, until draining.
    func run(reader: @escaping Reader) async {
        var delay: Duration = .milliseconds(500)
        while !Task.isCancelled, !state.withLock({ $0.draining }) {
            do {
                try await migrate()
                break
            } catch {
                logger.warning("job store not ready; retrying", metadata: ["error": "\(error)", "in": "\(delay)"])
                try? await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(5))
            }
        }
        state.withLock { $0.ready = true }
        logger.info("job store ready", metadata: ["replica": "\(replica)", "schema": "\(Self.migrations.count)"])
        var lastHousekeeping = ContinuousClock.now - .seconds(60)
        while !Task.isCancelled, !state.withLock({ $0.draining }) {
            do {
                if ContinuousClock.now - lastHousekeeping > .seconds(1) {
                    lastHousekeeping = .now
                    try await housekeeping()
                }
                while state.withLock({ $0.running.count < workers && !$0.draining }), let job = try await claim() {
                    start(job, reader: reader)
                }
            } catch {
                logger.warning("job store: \(error)")
            }
            await sleep(settings.poll)
        }
    }

    /// Sleeps `duration`, or less when a job is added here.
    private func sleep(_ duration: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: duration) }
            group.addTask { [self] in
                await withCheckedContinuation { continuation in
                    let earlier = self.state.withLock { s in
                        defer { s.wake = continuation }
                        return s.wake
                    }
                    earlier?.resume()
                }
            }
            await group.next()
            state.withLock { s in
                s.wake?.resume()
                s.wake = nil
            }
            group.cancelAll()
        }
    }

    private func wakeUp() {
        state.withLock { s in
            s.wake?.resume()
            s.wake = nil
        }
    }

    private func migrate() async throws {
        var script = """
            SELECT pg_advisory_xact_lock(7235451001);
            CREATE TABLE IF NOT EXISTS lamina_schema (version integer NOT NULL);
            INSERT INTO lamina_schema SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM lamina_schema);

            """
        for (index, migration) in Self.migrations.enumerated() {
            script += """
                DO $migration$ BEGIN
                IF (SELECT version FROM lamina_schema) < \(index + 1) THEN
                \(migration)
                UPDATE lamina_schema SET version = \(index + 1);
                END IF;
                END $migration$;

                """
        }
        try await client.script(script)
        let version = try await client.query("SELECT version FROM lamina_schema").first?["version"]?.int ?? 0
        guard version <= Self.migrations.count else {
            throw PostgresClient.Failure.statement(
                "the schema is at version \(version), newer than this server's \(Self.migrations.count): run the newer lamina", sqlState: "lamina")
        }
    }

    /// Forgets expired and cancelled jobs, fails jobs taken too often, and
    /// counts the fleet's jobs by stage.
    private func housekeeping() async throws {
        let gone = try await client.query("""
            DELETE FROM lamina_jobs
            WHERE expires_at < clock_timestamp()
               OR (state = 'cancelled' AND (lease_owner IS NULL OR lease_until < clock_timestamp()))
            RETURNING result_file
            """)
        removeFiles(gone.compactMap { $0["result_file"]?.text })
        let poisoned = try await client.query("""
            UPDATE lamina_jobs SET state = 'failed', lease_owner = NULL, finished_at = clock_timestamp(),
                expires_at = clock_timestamp() + $1::interval, error = $2::jsonb
            WHERE state IN ('rendering', 'encoding') AND lease_until < clock_timestamp() AND attempts >= $3
            RETURNING id, callback
            """, [interval(limits.retention), .text(Self.problemJSON(APIError(.internalServerError, "jobAbandoned",
                "the job was started \(settings.maxAttempts) times and its replica stopped each time"))), .int(settings.maxAttempts)])
        for row in poisoned { await callBack(row["id"]?.text ?? "", callback: row["callback"]?.text) }
        var counts = Dictionary(uniqueKeysWithValues: JobStage.allCases.map { ($0, 0) })
        for row in try await client.query("SELECT state, count(*) AS n FROM lamina_jobs WHERE state <> 'cancelled' GROUP BY state") {
            if let stage = row["state"]?.text.flatMap(JobStage.init(rawValue:)) { counts[stage] = row["n"]?.int ?? 0 }
        }
        metrics.recordJobs(counts)
    }

    /// Takes the oldest job that is queued or whose lease ran out.
    private func claim() async throws -> StoredJob? {
        let rows = try await client.query("""
            UPDATE lamina_jobs j SET state = 'rendering', lease_owner = $1, lease_until = clock_timestamp() + $2::interval,
                attempts = j.attempts + 1, rendered_frames = 0, encoded_frames = 0
            FROM (SELECT id, state AS was FROM lamina_jobs
                  WHERE (state = 'queued' OR (state IN ('rendering', 'encoding') AND lease_until < clock_timestamp()))
                    AND attempts < $3
                  ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED) c
            WHERE j.id = c.id
            RETURNING j.id, j.body, j.body_format, j.query, j.accept, c.was
            """, [.text(replica), interval(settings.lease), .int(settings.maxAttempts)])
        guard let row = rows.first, let id = row["id"]?.text else { return nil }
        if row["was"]?.text != "queued" {
            metrics.recordLeaseTakeover()
            logger.notice("took over a job whose lease ran out", metadata: ["job": "\(id)"])
        }
        return StoredJob(id: id, body: row["body"]?.bytes ?? [],
                         format: row["body_format"]?.text.flatMap(SceneLoader.Format.init(rawValue:)) ?? .json,
                         query: row["query"]?.text ?? "", accept: row["accept"]?.text)
    }

    /// Draws a taken job on this replica's pool, renewing its lease.
    private func start(_ stored: StoredJob, reader: @escaping Reader) {
        state.withLock { $0.running[stored.id] = .some(nil) }
        Task { [self] in
            let job: RenderJob, worker: Int?
            do {
                (job, worker) = try await reader(stored)
            } catch {
                await finish(stored.id, .failure(error as? APIError ?? APIError(.internalServerError, "internal", "\(error)")))
                state.withLock { _ = $0.running.removeValue(forKey: stored.id) }
                return
            }
            let ticket: RenderTicket
            do {
                ticket = try pool.submit(job, near: worker)
            } catch {
                // The pool is full (requests came first): back to the queue.
                _ = try? await client.query("UPDATE lamina_jobs SET state = 'queued', lease_owner = NULL, attempts = attempts - 1 WHERE id = $1 AND lease_owner = $2",
                                            [.text(stored.id), .text(replica)])
                state.withLock { _ = $0.running.removeValue(forKey: stored.id) }
                return
            }
            state.withLock { $0.running[stored.id] = ticket }
            let renewal = Task { [self] in await renew(stored.id, progress: job.frames?.progress, ticket: ticket) }
            let answer = await ticket.answer()
            renewal.cancel()
            switch answer {
            case .success(let picture):
                metrics.recordPicture(picture)
                await finish(stored.id, .success(picture))
            case .failure(.draining):
                // This replica is stopping: another takes the job at once.
                _ = try? await client.query("UPDATE lamina_jobs SET state = 'queued', lease_owner = NULL WHERE id = $1 AND lease_owner = $2",
                                            [.text(stored.id), .text(replica)])
            case .failure(.abandoned):
                _ = try? await client.query("DELETE FROM lamina_jobs WHERE id = $1 AND state = 'cancelled'", [.text(stored.id)])
            case .failure(let failure): await finish(stored.id, .failure(APIError(failure)))
            }
            state.withLock { _ = $0.running.removeValue(forKey: stored.id) }
            wakeUp()
        }
    }

    /// Pushes the lease forward every third of it, with the progress; stops
    /// the ticket when the job was cancelled or the lease was lost.
    private func renew(_ id: String, progress: FramesProgress?, ticket: RenderTicket) async {
        while !Task.isCancelled {
            try? await Task.sleep(for: settings.lease / 3)
            if Task.isCancelled { return }
            let stage = progress?.stage == .encoding || progress?.stage == .finished ? "encoding" : "rendering"
            do {
                let rows = try await client.query("""
                    UPDATE lamina_jobs SET lease_until = clock_timestamp() + $3::interval, rendered_frames = $4, encoded_frames = $5,
                        state = CASE WHEN state = 'cancelled' THEN state ELSE $6 END
                    WHERE id = $1 AND lease_owner = $2
                    RETURNING state
                    """, [.text(id), .text(replica), interval(settings.lease), .int(progress?.renderedFrames ?? 0),
                          .int(progress?.encodedFrames ?? 0), .text(stage)])
                if rows.first?["state"]?.text != stage {
                    // Cancelled, or taken by another replica after our lease ran out.
                    ticket.finish(.failure(.abandoned))
                    return
                }
            } catch {
                // PostgreSQL away: keep drawing; the lease may run out, and
                // then the job is drawn again elsewhere (at most once more done).
                logger.warning("job lease not renewed", metadata: ["job": "\(id)", "error": "\(error)"])
            }
        }
    }

    /// Records a job's end (if this replica still holds it) and calls back.
    private func finish(_ id: String, _ outcome: Result<RenderedPicture, APIError>) async {
        var outcome = outcome
        if case .success(let picture) = outcome, picture.bytes.count > limits.resultBytes {
            outcome = .failure(APIError(.unprocessableContent, "limitExceeded",
                                        "the animation's file is \(picture.bytes.count) bytes, over the \(limits.resultBytes) bytes this server keeps for jobs; ask for fewer frames, a smaller scale or a lossy format"))
        }
        do {
            let rows: [PostgresClient.Row]
            switch outcome {
            case .success(let picture):
                var stored: PostgresClient.Value = .bytes(picture.bytes)
                var file: PostgresClient.Value = .null
                if let folder = settings.resultsDirectory {
                    let path = (folder as NSString).appendingPathComponent(id)
                    try FileIO.writeFileAtomically(picture.bytes, toPath: path)
                    stored = .null
                    file = .text(path)
                }
                rows = try await client.query("""
                    UPDATE lamina_jobs SET state = 'done', result = $3, result_file = $4, result_bytes = $5, backend = $6,
                        rendered_frames = frames, encoded_frames = frames, finished_at = clock_timestamp(),
                        expires_at = clock_timestamp() + $7::interval, lease_owner = NULL, body = ''::bytea
                    WHERE id = $1 AND lease_owner = $2 AND state <> 'cancelled'
                    RETURNING callback
                    """, [.text(id), .text(replica), stored, file, .int(picture.bytes.count), .text(picture.backend.rawValue),
                          interval(limits.retention)])
                if rows.isEmpty, case .text(let path) = file { removeFiles([path]) }
                try await trimResults()
            case .failure(let error):
                rows = try await client.query("""
                    UPDATE lamina_jobs SET state = 'failed', error = $3::jsonb, finished_at = clock_timestamp(),
                        expires_at = clock_timestamp() + $4::interval, lease_owner = NULL, body = ''::bytea
                    WHERE id = $1 AND lease_owner = $2 AND state <> 'cancelled'
                    RETURNING callback
                    """, [.text(id), .text(replica), .text(Self.problemJSON(error)), interval(limits.retention)])
            }
            if let row = rows.first { await callBack(id, callback: row["callback"]?.text) }
        } catch {
            logger.warning("job end not recorded; its lease will run out and it is drawn again", metadata: ["job": "\(id)", "error": "\(error)"])
        }
    }

    /// Drops the oldest results past `--job-result-bytes`, the fleet's together.
    private func trimResults() async throws {
        let gone = try await client.query("""
            DELETE FROM lamina_jobs WHERE id IN (
                SELECT id FROM (SELECT id, sum(result_bytes) OVER (ORDER BY finished_at DESC, id) AS held
                                FROM lamina_jobs WHERE state = 'done') t
                WHERE held > $1)
            RETURNING result_file
            """, [.int(limits.resultBytes)])
        removeFiles(gone.compactMap { $0["result_file"]?.text })
    }

    private func callBack(_ id: String, callback json: String?) async {
        guard let webhooks, let json, let callback = try? JSONDecoder().decode(JobStatus.Callback.self, from: Data(json.utf8)),
              let url = URL(string: callback.url), let status = try? await status(id) else { return }
        await webhooks.deliver(status, to: url) { [client] delivery in
            let text = String(decoding: (try? JSONEncoder().encode(delivery)) ?? Data("{}".utf8), as: UTF8.self)
            _ = try? await client.query("UPDATE lamina_jobs SET callback = $2::jsonb WHERE id = $1", [.text(id), .text(text)])
        }
    }

    private func removeFiles(_ paths: [String]) {
        for path in paths { unlink(path) }
    }

    // MARK: JobStore

    func add(_ job: NewJob) async throws(APIError) -> JobStatus {
        if state.withLock({ $0.draining }) { throw APIError(RenderFailure.draining) }
        guard isReady else { throw Self.unavailable("the job store is not ready yet") }
        let id = JobID.make()
        let callback = job.callback.map { JobStatus.Callback(url: $0.absoluteString) }
        let callbackJSON = callback.map { String(decoding: (try? JSONEncoder().encode($0)) ?? Data(), as: UTF8.self) }
        let rows = try await run("""
            INSERT INTO lamina_jobs (id, state, body, body_format, query, accept, format, frames, callback)
            SELECT $1, 'queued', $2, $3, $4, $5, $6, $7, $8::jsonb
            WHERE (SELECT count(*) FROM lamina_jobs WHERE state <> 'cancelled') < $9
            RETURNING id
            """, [.text(id), .bytes(job.body), .text(job.format.rawValue), .text(job.query), job.accept.map { .text($0) } ?? .null,
                  .text(job.job.frames?.format.rawValue ?? "apng"), .int(job.job.frames?.timeline.count ?? 0),
                  callbackJSON.map { .text($0) } ?? .null, .int(limits.maxJobs)])
        guard !rows.isEmpty else {
            var error = APIError(.tooManyRequests, "tooManyJobs",
                                 "the fleet already holds \(limits.maxJobs) jobs; fetch or delete finished ones, or retry later")
            error.headers[.retryAfter] = "5"
            throw error
        }
        wakeUp()
        guard let status = try await status(id) else { throw Self.unavailable("the job was not found after it was added") }
        return status
    }

    func status(_ id: String) async throws(APIError) -> JobStatus? {
        let rows = try await run("""
            SELECT \(Self.statusColumns)
            FROM lamina_jobs WHERE id = $1 AND state <> 'cancelled' AND (expires_at IS NULL OR expires_at > clock_timestamp())
            """, [.text(id)])
        return rows.first.map(Self.status(of:))
    }

    func result(_ id: String) async throws(APIError) -> JobResult? {
        let rows = try await run("""
            SELECT \(Self.statusColumns), result, result_file
            FROM lamina_jobs WHERE id = $1 AND state <> 'cancelled' AND (expires_at IS NULL OR expires_at > clock_timestamp())
            """, [.text(id)])
        guard let row = rows.first else { return nil }
        let status = Self.status(of: row)
        switch status.stage {
        case .done:
            var bytes = row["result"]?.bytes
            if bytes == nil, let path = row["result_file"]?.text {
                bytes = try? FileIO.readFile(atPath: path, maxBytes: max(limits.resultBytes, 1))
            }
            guard let bytes, let format = AnimationEncoder.Format(rawValue: status.format) else {
                throw Self.unavailable("the job's file is missing from --results-dir")
            }
            let picture = RenderedPicture(bytes: bytes, width: 0, height: 0, frameCount: status.frames,
                                          backend: RenderBackend(rawValue: status.backend ?? "") ?? .cpu,
                                          queue: .zero, plan: .zero, render: .zero, encode: .zero)
            return .ready(picture, format: format)
        case .failed:
            var error = APIError(.unprocessableContent, status.error?.code ?? "failed", status.error?.message ?? "the job failed",
                                 path: status.error?.path)
            error.problem = status.error ?? error.problem
            return .failed(error)
        default:
            return .notReady(status)
        }
    }

    func cancel(_ id: String) async throws(APIError) -> Bool {
        let rows = try await run("""
            UPDATE lamina_jobs SET state = 'cancelled', expires_at = NULL WHERE id = $1 AND state <> 'cancelled'
                AND (expires_at IS NULL OR expires_at > clock_timestamp())
            RETURNING lease_owner, result_file
            """, [.text(id)])
        guard let row = rows.first else { return false }
        if row["lease_owner"]?.text == nil {
            // Nobody draws it: forget it now.
            _ = try? await client.query("DELETE FROM lamina_jobs WHERE id = $1", [.text(id)])
            removeFiles([row["result_file"]?.text].compactMap { $0 })
        } else if let ticket = state.withLock({ $0.running[id] ?? nil }) {
            // Drawn here: stop at once (elsewhere: at that replica's next renewal).
            ticket.finish(.failure(.abandoned))
        }
        return true
    }

    /// Stops taking jobs and hands back the ones drawn here: each goes back
    /// to the queue, where another replica takes it at once (a job whose
    /// handing back is cut short by the exit is taken after its lease).
    func beginDraining() async {
        let tickets = state.withLock { s in
            s.draining = true
            return s.running.values.compactMap { $0 }
        }
        tickets.forEach { $0.finish(.failure(.draining)) }
        wakeUp()
    }

    // MARK: Rows

    private func run(_ sql: String, _ parameters: [PostgresClient.Value]) async throws(APIError) -> [PostgresClient.Row] {
        do {
            return try await client.query(sql, parameters)
        } catch {
            logger.warning("job store: \(error)")
            throw Self.unavailable(error.description)
        }
    }

    /// 503 with `Retry-After`: the jobs routes while PostgreSQL is away.
    static func unavailable(_ why: String) -> APIError {
        var error = APIError(.serviceUnavailable, "jobStoreUnavailable", "jobs are unavailable for now: \(why)")
        error.headers[.retryAfter] = "5"
        return error
    }

    private func interval(_ duration: Duration) -> PostgresClient.Value {
        .text("\(Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18) seconds")
    }

    private static func problemJSON(_ error: APIError) -> String {
        String(decoding: (try? JSONEncoder().encode(error.problem)) ?? Data("{}".utf8), as: UTF8.self)
    }

    /// A status's columns, times written as the memory store writes them.
    private static let statusColumns = """
        id, state, format, frames, rendered_frames, encoded_frames, result_bytes, backend, error, callback,
        to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
        to_char(finished_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS finished_at,
        to_char(expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS expires_at
        """

    private static func status(of row: PostgresClient.Row) -> JobStatus {
        let format = AnimationEncoder.Format(rawValue: row["format"]?.text ?? "") ?? .apng
        let stage = JobStage(rawValue: row["state"]?.text ?? "") ?? .queued
        var status = JobStatus(
            id: row["id"]?.text ?? "", stage: stage, format: format.rawValue, mediaType: format.mediaType,
            frames: row["frames"]?.int ?? 0, renderedFrames: row["rendered_frames"]?.int ?? 0,
            encodedFrames: row["encoded_frames"]?.int ?? 0, createdAt: row["created_at"]?.text ?? "")
        status.finishedAt = row["finished_at"]?.text
        status.expiresAt = row["expires_at"]?.text
        if stage == .done {
            status.result = "/jobs/\(status.id)/result"
            status.bytes = row["result_bytes"]?.int
            status.backend = row["backend"]?.text
        }
        if let error = row["error"]?.text { status.error = try? JSONDecoder().decode(APIError.Problem.self, from: Data(error.utf8)) }
        if let callback = row["callback"]?.text {
            status.callback = try? JSONDecoder().decode(JobStatus.Callback.self, from: Data(callback.utf8))
        }
        return status
    }
}
