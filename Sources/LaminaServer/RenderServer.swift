import Foundation
import Hummingbird
import Lamina
import Logging
import ServiceLifecycle
import Synchronization

/// `lamina serve`: the render server, assembled.
///
/// ```swift
/// var configuration = ServerConfiguration()
/// configuration.port = 0  // a free port, printed in the banner
/// try await RenderServer(configuration).run()  // until SIGTERM or SIGINT
/// ```
///
/// Services, started in this order and shut down in the reverse:
/// the render pool; the metrics listener; the API listener; the drain
/// notice. So on SIGTERM the pool first refuses requests that arrive from
/// then on (readiness goes 503), the API listener stops accepting and waits
/// for the requests in flight, and the workers end last, after the last
/// picture; all within `drainTime`, after which the process exits anyway.
public struct RenderServer: Sendable {
    /// The settings it was made with.
    public let configuration: ServerConfiguration
    /// Where the banner goes (standard output by default).
    private let announce: @Sendable (String) -> Void

    /// A server with `configuration`; nothing listens until it runs.
    package init(_ configuration: ServerConfiguration,
                announce: @escaping @Sendable (String) -> Void = { line in
                    try? FileIO.writeStream(Array((line + "\n").utf8), to: STDOUT_FILENO, name: "<stdout>")
                }) {
        self.configuration = configuration
        self.announce = announce
    }

    /// Serves until SIGTERM or SIGINT, then drains and returns.
    public func run() async throws {
        let configuration = configuration
        var logger = Logger(label: "lamina") { LineLogHandler(format: configuration.logFormat, label: $0) }
        logger.logLevel = configuration.logLevel

        let metrics = ServerMetrics()
        for folder in configuration.fontDirectories {
            do {
                try FontRegistry.register(directory: folder)
            } catch {
                throw ServerStartFailure("--fonts (or LAMINA_FONTS): \(error.message)")
            }
        }
        // A font a scene names that is not here is told once (and counted);
        // the name is in the log line, never in a metric's labels (scenes
        // are strangers': a label per name would grow without end).
        let fontLogger = logger
        FontWarnings.setHandler { substitution in
            fontLogger.warning("font substituted", metadata: ["font": "\(FontSubstitution.shown(substitution.requested))", "used": "\(substitution.used ?? "-")",
                                                              "detail": "\(substitution.description)"])
            metrics.recordFontSubstitution()
        }
        LayerRenderer.threadsPerFrame = configuration.frameThreads
        let pool = RenderPool(
            RenderPool.Setup(workers: configuration.workers, queueCapacity: configuration.queue,
                             backend: configuration.backend, eglPlatform: configuration.eglPlatform,
                             budget: configuration.budget, pngOptions: configuration.pngOptions,
                             cores: CPUAffinity.plan(workers: configuration.workers, frameThreads: configuration.frameThreads,
                                                    choice: configuration.pinWorkers)),
            onLoadChange: { metrics.recordLoad($0) })
        let cache = PictureCache(capacityBytes: configuration.cacheBytes)
        let jobLimits = JobLimits(maxJobs: configuration.maxJobs, retention: configuration.jobRetention,
                                  resultBytes: configuration.jobResultBytes)
        var webhooks: WebhookSender?
        if !configuration.callbackHosts.isEmpty {
            guard let key = configuration.webhookKey, !key.isEmpty else {
                throw ServerStartFailure("--callback-hosts needs LAMINA_WEBHOOK_KEY: webhook deliveries are signed")
            }
            webhooks = WebhookSender(key: Array(key.utf8), allowedHosts: configuration.callbackHosts,
                                     attempts: configuration.callbackAttempts, retryDelay: configuration.callbackRetryDelay, metrics: metrics)
        }
        let ports = BoundPorts()
        var templates: (library: TemplateLibrary, signer: URLSigner)?
        if let folder = configuration.templatesDirectory {
            guard !configuration.urlKeys.isEmpty else {
                throw ServerStartFailure("--templates needs LAMINA_URL_KEYS (or --url-keys-file): template links are signed, and there is no key to check them with")
            }
            do {
                templates = (try TemplateLibrary(folder: folder, limits: configuration.sceneLimits), URLSigner(keys: configuration.urlKeys))
            } catch {
                throw ServerStartFailure("--templates (or LAMINA_TEMPLATES): \(error.description)")
            }
        }

        // One body of the largest size always fits.
        let bodies = BodyBytesInFlight(limit: max(configuration.maxBodyBytesInFlight, configuration.maxBodyBytes))
        let jobs: any JobStore
        var sharedStore: PostgresJobStore?
        if let connection = configuration.jobsStore {
            let store = PostgresJobStore(
                settings: .init(connection: connection, password: configuration.jobsStorePassword,
                                connections: configuration.jobsStoreConnections, lease: configuration.jobLease,
                                resultsDirectory: configuration.resultsDirectory),
                limits: jobLimits, pool: pool, workers: configuration.workers, webhooks: webhooks, metrics: metrics, logger: logger)
            jobs = store
            sharedStore = store
        } else {
            jobs = MemoryJobStore(limits: jobLimits, pool: pool, webhooks: webhooks, metrics: metrics, onChange: { metrics.recordJobs($0) })
        }
        var readiness = Probes(pool: pool)
        if let sharedStore {
            readiness.storeReady = { @Sendable in sharedStore.isReady }
        }
        let probes = readiness

        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: RequestEdgeMiddleware(metrics: metrics))
        let routes = RenderRoutes(configuration: configuration, pool: pool, cache: cache, metrics: metrics, jobs: jobs, webhooks: webhooks,
                                  bodies: bodies, rendererVersion: laminaVersion, probes: probes)
        routes.register(on: router, templates: templates)
        let gate = ConnectionGate(limits: .init(total: Self.connectionCap(configuration.maxConnections, logger: logger),
                                                perClient: configuration.maxConnectionsPerClient),
                                  onRefusal: { metrics.recordConnectionRefused($0) })
        let api = Application(
            router: router,
            server: .http1(configuration: .init(additionalChannelHandlers: [gate.handler(), ProbeResponder(probes: probes, metrics: metrics)],
                                                idleTimeout: .nanoseconds(Int64(configuration.idleTimeout.nanoseconds)))),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "lamina"),
            onServerRunning: { channel in ports.set(.api, channel.localAddress?.port) },
            logger: logger)

        var services: [any Service] = [PoolService(pool: pool)]
        if let metricsPort = configuration.metricsPort {
            let metricsRouter = Router(context: BasicRequestContext.self)
            metricsRouter.get("metrics") { _, _ in
                Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                         body: .init(byteBuffer: ByteBuffer(bytes: metrics.exposition)))
            }
            services.append(Application(
                router: metricsRouter,
                configuration: .init(address: .hostname(configuration.host, port: metricsPort), serverName: "lamina-metrics"),
                onServerRunning: { channel in ports.set(.metrics, channel.localAddress?.port) },
                logger: logger))
        } else {
            ports.set(.metrics, 0)
        }
        services.append(api)
        if let sharedStore { services.append(SharedJobsService(store: sharedStore, routes: routes)) }
        services.append(DrainNotice(pool: pool, jobs: jobs, logger: logger))

        var groupConfiguration = ServiceGroupConfiguration(
            services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        groupConfiguration.maximumGracefulShutdownDuration = configuration.drainTime
        let group = ServiceGroup(configuration: groupConfiguration)

        let banner = Task {
            let (apiPort, metricsPort) = await ports.both()
            let reports = await pool.waitUntilStarted()
            metrics.recordBackends(reports)
            announceStart(apiPort: apiPort, metricsPort: metricsPort, reports: reports)
        }
        defer { banner.cancel() }
        let outcome: Result<Void, any Error>
        do {
            try await group.run()
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        // The services are done; the workers end once their last picture is
        // drawn. They are joined before the process may exit.
        if await pool.join(until: (pool.drainingSince ?? .now) + configuration.drainTime) {
            logger.info("stopped")
        } else {
            logger.warning("stopped with render workers still drawing past the drain time")
            throw WorkersStillRunning()
        }
        try outcome.get()
    }

    /// `run()` returned while render workers were still drawing (past the
    /// drain time): the process must end without running the libraries'
    /// destructors under them (`_exit`, not `exit`).
    public struct WorkersStillRunning: Error, CustomStringConvertible {
        public var description: String { "render workers were still drawing past the drain time" }
    }

    /// `asked`, or fewer where the process's file-descriptor limit would run
    /// out first: each connection holds one, and the workers, fonts, logs and
    /// the metrics listener need some of their own (a quarter, at least 64).
    /// Run out, and libdispatch traps: the connection cap must bind first.
    static func connectionCap(_ asked: Int, logger: Logger) -> Int {
        var limit = rlimit()
        // RLIM_INFINITY is all ones, which Swift cannot import as a literal.
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return asked }
        let descriptors = Int(clamping: limit.rlim_cur)
        let room = max(1, descriptors - max(64, descriptors / 4))
        if room < asked {
            logger.warning("connection cap lowered to fit the descriptor limit",
                           metadata: ["asked": "\(asked)", "cap": "\(room)", "descriptors": "\(descriptors)"])
        }
        return min(asked, room)
    }

    /// The start-up lines, once: where to connect, and what each worker draws with.
    private func announceStart(apiPort: Int, metricsPort: Int, reports: [RenderPool.WorkerReport]) {
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        var lines = ["lamina serve \(laminaVersion): listening on http://\(host):\(apiPort)"
            + (configuration.metricsPort == nil ? ", no metrics listener" : ", metrics on http://\(host):\(metricsPort)/metrics")]
        for report in reports {
            lines.append("  worker \(report.index): \(report.identity)" + (report.note.map { " (\($0))" } ?? "")
                + (report.core.map { ", on core \($0)" } ?? ""))
        }
        let deadline = String(format: "%g", Double(configuration.deadline.nanoseconds) / 1e9)
        let jobDeadline = String(format: "%g", Double(configuration.jobDeadline.nanoseconds) / 1e9)
        if configuration.playground {
            lines.append("  playground: http://\(host):\(apiPort)/")
        }
        if let folder = configuration.templatesDirectory {
            lines.append("  templates: \(folder), at /t/{name}.{png|webp|gif|mp4}, signed links")
        }
        if !configuration.fontDirectories.isEmpty {
            lines.append("  fonts: " + configuration.fontDirectories.joined(separator: ", "))
        }
        lines.append("  animations: apng, webp, gif, "
            + (AnimationEncoder.Format.mp4.isAvailable ? "mp4 (ffmpeg)" : "no mp4 (no ffmpeg program)")
            + "; jobs \(configuration.maxJobs), job deadline \(jobDeadline) s"
            + (configuration.jobsStore == nil ? ", in memory" : ", shared in PostgreSQL")
            + (configuration.callbackHosts.isEmpty ? "" : ", callbacks to \(configuration.callbackHosts.joined(separator: " "))"))
        // Last: scripts read the banner up to this line.
        lines.append("  queue \(configuration.queue), deadline \(deadline) s, body limit \(configuration.maxBodyBytes) bytes, "
            + "cache \(configuration.cacheBytes) bytes, token \(configuration.token == nil ? "off" : "required")")
        announce(lines.joined(separator: "\n"))
    }
}

/// Runs the pool's life as a service: stops its workers at the end of the
/// shutdown, once the API listener has answered its last request.
private struct PoolService: Service {
    let pool: RenderPool

    func run() async throws {
        try? await gracefulShutdown()
        pool.stop()
    }
}

/// Runs a shared job store's loop (schema, then taking jobs) until the
/// shutdown begins; the jobs it takes are read again by the routes, as
/// `POST /jobs` read them.
private struct SharedJobsService: Service {
    let store: PostgresJobStore
    let routes: RenderRoutes

    func run() async throws {
        await withGracefulShutdownHandler {
            await store.run { [routes] stored in
                try await routes.storedJob(body: stored.body, format: stored.format, query: stored.query, accept: stored.accept,
                                           arrived: .now)
            }
        } onGracefulShutdown: {
            Task { await store.beginDraining() }
        }
    }
}

/// The first service to hear of a shutdown: from then on the pool refuses
/// requests that arrive (503 `draining`) and readiness says `draining`;
/// jobs not finished are cancelled (their files could not be fetched).
private struct DrainNotice: Service {
    let pool: RenderPool
    let jobs: any JobStore
    let logger: Logger

    func run() async throws {
        try? await gracefulShutdown()
        logger.info("draining: finishing the requests in flight, refusing new ones, cancelling jobs")
        await jobs.beginDraining()
        pool.beginDraining()
    }
}

/// The server could not start with its configuration.
public struct ServerStartFailure: Error, CustomStringConvertible {
    /// What went wrong, in words for a message.
    public var description: String
    init(_ description: String) { self.description = description }
}

/// The ports the listeners really bound (`--port 0` binds a free one).
private final class BoundPorts: Sendable {
    enum Listener { case api, metrics }
    private let state = Mutex<(api: Int?, metrics: Int?, waiters: [CheckedContinuation<(Int, Int), Never>])>((nil, nil, []))

    func set(_ listener: Listener, _ port: Int?) {
        let ready: ([CheckedContinuation<(Int, Int), Never>], (Int, Int))? = state.withLock { s in
            switch listener {
            case .api: s.api = port ?? 0
            case .metrics: s.metrics = port ?? 0
            }
            guard let api = s.api, let metrics = s.metrics else { return nil }
            defer { s.waiters = [] }
            return (s.waiters, (api, metrics))
        }
        if let (waiters, ports) = ready { waiters.forEach { $0.resume(returning: ports) } }
    }

    func both() async -> (Int, Int) {
        await withCheckedContinuation { continuation in
            let ports: (Int, Int)? = state.withLock { s in
                if let api = s.api, let metrics = s.metrics { return (api, metrics) }
                s.waiters.append(continuation)
                return nil
            }
            if let ports { continuation.resume(returning: ports) }
        }
    }
}
