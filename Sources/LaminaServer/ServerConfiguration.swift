import Foundation
import Lamina
import Logging

/// Everything `lamina serve` can be told, with the defaults a container
/// gets when it is told nothing.
///
/// Each setting is a command-line option and an environment variable
/// (`--queue` and `LAMINA_QUEUE`); the option wins. `ServeCommand` reads
/// them; `RenderServer` runs with them.
public struct ServerConfiguration: Sendable {
    /// Whether each render worker keeps to a core of its own
    /// (`CPUAffinity` says why).
    public enum PinChoice: String, Sendable, CaseIterable {
        /// Pin when each request keeps to one core (`frameThreads` 1) and
        /// the process may use exactly as many cores as it has workers (a
        /// whole machine, or a container given whole cores).
        case auto
        /// Pin, spreading the workers over the cores the process may use.
        case on
        /// Leave the workers to the scheduler.
        case off
    }

    /// How log lines are written to standard error.
    public enum LogFormat: String, Sendable, CaseIterable {
        /// `2026-11-23T22:52:48Z info [request_id=...] message key=value`
        case text
        /// One JSON object per line, for a log collector.
        case json
    }

    /// Where requests are served (`0.0.0.0` in a container).
    public var host = "127.0.0.1"
    /// The HTTP port; 0 binds a free one and prints it.
    public var port = 8080
    /// The Prometheus port (`GET /metrics`); 0 binds a free one; nil: no metrics listener.
    public var metricsPort: Int? = 9464
    /// Render workers, each owning one renderer (one GL context, or CPU scratch).
    public var workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// The most threads one picture is drawn and encoded on; nil: every
    /// core no other request is using. 1 keeps each request on one core.
    public var frameThreads: Int?
    /// Whether each worker keeps to a core of its own (`--pin-workers`).
    public var pinWorkers = PinChoice.auto
    /// Requests that may wait for a worker; one more is answered 429.
    public var queue = 2 * max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// Which backend the workers draw with (`--backend`).
    public var backend = BackendChoice.auto
    /// `LAMINA_EGL_PLATFORM`'s choices; nil lets EGL's automatic order decide.
    public var eglPlatform: EGLPlatformChoice?
    /// How long a request may take from its arrival, reading its body and
    /// waiting in the queue included; past it the answer is 503.
    public var deadline: Duration = .seconds(10)
    /// How long a connection may go without a whole request head arriving:
    /// from its opening, and from the end of each answer (the keep-alive
    /// idle time). A client that dribbles a head (slowloris) or holds an
    /// idle connection is closed then. A request being drawn is not idle.
    public var idleTimeout: Duration = .seconds(30)
    /// The most connections held at once; one more is closed as it opens
    /// (counted in `lamina_connections_refused_total`). Lowered at start to
    /// what the process's file-descriptor limit leaves room for.
    public var maxConnections = 1000
    /// The most connections held at once from one client address; nil: no cap of its own.
    public var maxConnectionsPerClient: Int?
    /// The most bytes a request body may have (413 past it, checked against
    /// `Content-Length` before anything is read).
    public var maxBodyBytes = 8 * 1024 * 1024
    /// The most bytes of request bodies held at once, all requests together
    /// (429 `tooManyBodies` past it): 8 bodies of the largest size.
    public var maxBodyBytesInFlight = 64 * 1024 * 1024
    /// The most bytes of encoded pictures the in-memory cache keeps; 0 turns it off.
    public var cacheBytes = 64 * 1024 * 1024
    /// `Cache-Control: public, max-age=` of rendered pictures, in seconds.
    public var cacheMaxAge = 86_400
    /// When set, `/render` and `/validate` need `Authorization: Bearer <token>`.
    public var token: String?
    /// Logs as text lines or JSON (`--log-format`).
    public var logFormat = LogFormat.text
    /// The least severe message logged (`--log-level`).
    public var logLevel = Logger.Level.info
    /// How long SIGTERM waits for requests in flight before exiting anyway.
    public var drainTime: Duration = .seconds(25)
    /// The scene format's limits; a server refuses file references in any case.
    public var sceneLimits = SceneLimits.default
    /// What one frame may ask for (pixels, layers, surfaces...).
    public var budget = RenderBudget.default
    /// The most frames one `POST /frames` may ask for.
    public var maxFrames = 600
    /// The most pixels all the frames of one `POST /frames` may add up to
    /// (frames x canvas pixels): what an animation costs to draw.
    public var maxFramePixels = 300_000_000
    /// The most jobs (`POST /jobs`) kept at once, waiting, drawing or
    /// finished and not yet fetched or expired; one more is answered 429.
    public var maxJobs = 32
    /// How long a job may take from its arrival, queue included (a job's
    /// `deadline`; requests have `deadline`).
    public var jobDeadline: Duration = .seconds(300)
    /// How long a finished job's result is kept for `GET /jobs/{id}/result`.
    public var jobRetention: Duration = .seconds(600)
    /// The most bytes of finished jobs' files kept at once; the oldest
    /// results are dropped first to make room.
    public var jobResultBytes = 256 * 1024 * 1024
    /// Where jobs live: nil, this process's memory (one replica); else a
    /// PostgreSQL connection (`postgres://user@host/db`, `--jobs-store`)
    /// shared by every replica.
    public var jobsStore: String?
    /// The PostgreSQL password (`LAMINA_JOBS_STORE_PASSWORD_FILE`); nil:
    /// libpq's own (PGPASSWORD, ~/.pgpass) or the URL's, from the environment.
    public var jobsStorePassword: String?
    /// Connections to PostgreSQL held by this replica.
    public var jobsStoreConnections = 4
    /// How long a replica holds a job without renewing its lease; after it,
    /// another replica takes the job over.
    public var jobLease: Duration = .seconds(15)
    /// A folder on a shared volume for finished jobs' files (with a
    /// PostgreSQL store); nil: in PostgreSQL.
    public var resultsDirectory: String?
    /// The hosts `POST /jobs?callback=` may name (`--callback-hosts`):
    /// names, or `*.example.com`; empty: no callbacks.
    public var callbackHosts: [String] = []
    /// The key that signs webhook deliveries (`LAMINA_WEBHOOK_KEY`).
    public var webhookKey: String?
    /// How many times a webhook is tried.
    public var callbackAttempts = 5
    /// The wait before a webhook's second attempt, doubling after.
    public var callbackRetryDelay: Duration = .seconds(1)
    /// Serve the playground at `/` (`--playground`, on with `--dev`).
    public var playground = false
    /// Folders of fonts that scenes may name (`--fonts`), registered when
    /// the server starts.
    public var fontDirectories: [String] = []
    /// A folder of templates (`--templates`): scene files with slots that
    /// signed links fill, at `GET /t/{name}.{png|webp|gif|mp4}`. Needs `urlKeys`.
    public var templatesDirectory: String?
    /// The keys that sign template links (`LAMINA_URL_KEYS`, comma-separated;
    /// the first signs, all are accepted, so keys can rotate).
    public var urlKeys: [String] = []
    /// The PNG preset: `fast` for serving.
    public var pngOptions = PNGEncoder.Options.fast

    /// The defaults of `lamina serve`.
    public init() {}
}
