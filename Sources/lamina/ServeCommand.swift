import ArgumentParser
import Foundation
import Lamina
import LaminaServer
import Logging
import Synchronization

/// `lamina serve`: the render server (see `RenderServer` and
/// docs/openapi.yaml). Every option is also an environment variable, named
/// in its help (`--queue` and `LAMINA_QUEUE`); the option wins.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve POST /render, /frames, /jobs and /validate over HTTP (and, with --playground or --dev, a page to try scenes at /), with health, readiness and Prometheus metrics.",
        discussion: """
            Stops on SIGTERM or SIGINT: new requests are refused, those in flight finish \
            (within --drain-time), then the process exits 0. The bearer token is read \
            from LAMINA_TOKEN or --token-file only, and the keys of template links from \
            LAMINA_URL_KEYS or --url-keys-file: never from the command line.
            """)

    @Option(help: "Address to listen on (LAMINA_HOST; default 127.0.0.1, 0.0.0.0 in a container).")
    var host: String?
    @Option(help: "HTTP port; 0 binds a free port and prints it (LAMINA_PORT; default 8080).")
    var port: String?
    @Option(help: "Prometheus port for GET /metrics, or off (LAMINA_METRICS_PORT; default 9464).")
    var metricsPort: String?
    @Option(help: "Render workers, each with its own renderer (LAMINA_WORKERS; default: one per core).")
    var workers: String?
    @Option(help: "Most threads one picture uses (LAMINA_FRAME_THREADS; default: every core no other request is using).")
    var frameThreads: String?
    @Option(help: "auto, on or off: each worker keeps to a core of its own (LAMINA_PIN_WORKERS; default auto: with --frame-threads 1 and exactly one core per worker).")
    var pinWorkers: String?
    @Option(help: "Requests that may wait for a worker; more get 429 (LAMINA_QUEUE; default: 2 per core).")
    var queue: String?
    @Option(help: "auto, gl or cpu (LAMINA_BACKEND; default auto: GL on a hardware GPU, else the CPU).")
    var backend: String?
    @Option(name: .customLong("egl-platform"), help: "auto, device, gbm or surfaceless (LAMINA_EGL_PLATFORM).")
    var eglPlatform: String?
    @Option(help: "Seconds a request may take, queue and body included; then 503 (LAMINA_DEADLINE; default 10).")
    var deadline: String?
    @Option(help: "Seconds a connection may wait for a whole request head, from its opening or its last answer; then it is closed (LAMINA_IDLE_TIMEOUT; default 30).")
    var idleTimeout: String?
    @Option(help: "Connections held at once; more are closed as they open (LAMINA_MAX_CONNECTIONS; default 1000, lowered to fit the descriptor limit).")
    var maxConnections: String?
    @Option(help: "Connections held at once from one client address (LAMINA_MAX_CONNECTIONS_PER_CLIENT; default: no cap of its own).")
    var maxConnectionsPerClient: String?
    @Option(help: "Largest request body in bytes; larger gets 413 (LAMINA_MAX_BODY_BYTES; default 8 MiB).")
    var maxBodyBytes: String?
    @Option(help: "Bytes of request bodies held at once, all requests together; more get 429 (LAMINA_MAX_BODY_BYTES_IN_FLIGHT; default 64 MiB).")
    var maxBodyBytesInFlight: String?
    @Option(help: "Bytes of encoded pictures kept in memory; 0 turns the cache off (LAMINA_CACHE_BYTES; default 64 MiB).")
    var cacheBytes: String?
    @Option(help: "Cache-Control max-age of pictures, in seconds (LAMINA_CACHE_MAX_AGE; default 86400).")
    var cacheMaxAge: String?
    @Option(help: "A file holding the bearer token that /render and /validate then need (LAMINA_TOKEN_FILE).")
    var tokenFile: String?
    @Option(help: "text or json log lines on standard error (LAMINA_LOG_FORMAT; default text).")
    var logFormat: String?
    @Option(help: "trace, debug, info, notice, warning, error or critical (LAMINA_LOG_LEVEL; default info).")
    var logLevel: String?
    @Option(help: "Seconds SIGTERM waits for requests in flight (LAMINA_DRAIN_TIME; default 25).")
    var drainTime: String?
    @Option(help: "The most layers after replicators are expanded (LAMINA_MAX_LAYERS; default 100,000).")
    var maxLayers: String?
    @Option(help: "The most pixels of offscreen surfaces alive at once in a frame (LAMINA_MAX_SURFACE_PIXELS; default 64 million).")
    var maxSurfacePixels: String?

    @Option(help: "Jobs (POST /jobs) held at once, waiting, drawing or finished; more get 429 (LAMINA_MAX_JOBS; default 32).")
    var maxJobs: String?
    @Option(help: "Seconds a job may take, queue included (LAMINA_JOB_DEADLINE; default 300).")
    var jobDeadline: String?
    @Option(help: "Seconds a finished job's file is kept (LAMINA_JOB_RETENTION; default 600).")
    var jobRetention: String?
    @Option(help: "Bytes of finished jobs' files kept at once; the oldest go first (LAMINA_JOB_RESULT_BYTES; default 256 MiB).")
    var jobResultBytes: String?

    @Option(help: "Where jobs live: memory (one replica, the default) or a postgres:// URL shared by every replica (LAMINA_JOBS_STORE; the password from LAMINA_JOBS_STORE_PASSWORD_FILE, PGPASSWORD or ~/.pgpass, never this option).")
    var jobsStore: String?
    @Option(help: "Connections to PostgreSQL this replica holds (LAMINA_JOBS_STORE_CONNECTIONS; default 4).")
    var jobsStoreConnections: String?
    @Option(help: "Seconds a replica holds a job without renewing it; then another takes it over (LAMINA_JOB_LEASE; default 15).")
    var jobLease: String?
    @Option(help: "A folder on a shared volume for finished jobs' files, with a PostgreSQL store (LAMINA_RESULTS_DIR; default: in PostgreSQL).")
    var resultsDir: String?
    @Option(help: "Hosts that POST /jobs?callback= may name, comma-separated, *.example.com for subdomains (LAMINA_CALLBACK_HOSTS; default none; needs LAMINA_WEBHOOK_KEY).")
    var callbackHosts: String?
    @Option(help: "Times a webhook is tried before it is given up (LAMINA_CALLBACK_ATTEMPTS; default 5).")
    var callbackAttempts: String?
    @Option(help: "Seconds before a webhook's second attempt, doubling after (LAMINA_CALLBACK_RETRY_DELAY; default 1).")
    var callbackRetryDelay: String?

    @Option(help: "A folder of templates (NAME.slots.json beside NAME.json, .caml, .tendies, .lottie or .tgs) drawn at GET /t/NAME.png|webp|gif|mp4 for signed links (LAMINA_TEMPLATES; needs LAMINA_URL_KEYS).")
    var templates: String?
    @Option(help: "A file holding the comma-separated keys that sign template links, the first signing, all accepted (LAMINA_URL_KEYS_FILE; or LAMINA_URL_KEYS).")
    var urlKeysFile: String?

    @Flag(help: "Serve the playground at / (LAMINA_PLAYGROUND=1): a page to write scenes and watch them render.")
    var playground = false
    @Flag(help: "For a person at a desk: the playground on, text log lines at debug level.")
    var dev = false

    @OptionGroup var fonts: FontOptions

    func run() throws {
        let configuration = try resolve(environment: ProcessInfo.processInfo.environment)
        // The server is async; this command's `run` is not (the tool's
        // other commands are plain functions). Block here until it returns.
        let outcome = Mutex<Result<Void, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            let result: Result<Void, any Error>
            do {
                try await RenderServer(configuration).run()
                result = .success(())
            } catch {
                result = .failure(error)
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        if case .failure(let error)? = outcome.withLock({ $0 }), error is RenderServer.WorkersStillRunning {
            // exit() would run Mesa's and the allocator's destructors under the
            // workers still drawing: end here, the output flushed.
            FileHandle.standardError.write(Data("lamina: \(error); exiting without waiting\n".utf8))
            fflush(nil)
            _exit(0)
        }
        try outcome.withLock { $0 }?.get()
    }

    /// The configuration from the options, then the environment, then the defaults.
    func resolve(environment: [String: String]) throws -> ServerConfiguration {
        let setting = Settings(environment: environment)
        var c = ServerConfiguration()
        if let v = setting.value(host, "host", "LAMINA_HOST") { c.host = v }
        if let v = try setting.integer(port, "port", "LAMINA_PORT", in: 0...65535) { c.port = v }
        if let v = setting.value(metricsPort, "metrics-port", "LAMINA_METRICS_PORT") {
            c.metricsPort = v == "off" ? nil : try setting.integer(v, "metrics-port", "LAMINA_METRICS_PORT", in: 0...65535)
        }
        if let v = try setting.integer(workers, "workers", "LAMINA_WORKERS", in: 1...256) { c.workers = v }
        if let v = try setting.integer(frameThreads, "frame-threads", "LAMINA_FRAME_THREADS", in: 1...256) { c.frameThreads = v }
        if let v = try setting.choice(pinWorkers, "pin-workers", "LAMINA_PIN_WORKERS", ServerConfiguration.PinChoice.self) { c.pinWorkers = v }
        if let v = try setting.integer(queue, "queue", "LAMINA_QUEUE", in: 0...100_000) { c.queue = v }
        if let v = try setting.choice(backend, "backend", "LAMINA_BACKEND", BackendChoice.self) { c.backend = v }
        if let v = setting.value(eglPlatform, "egl-platform", "LAMINA_EGL_PLATFORM") {
            c.eglPlatform = try EGLPlatformChoice(parsing: v, origin: "--egl-platform (or LAMINA_EGL_PLATFORM)")
        }
        if let v = try setting.seconds(deadline, "deadline", "LAMINA_DEADLINE") { c.deadline = v }
        if let v = try setting.seconds(idleTimeout, "idle-timeout", "LAMINA_IDLE_TIMEOUT") { c.idleTimeout = v }
        if let v = try setting.integer(maxConnections, "max-connections", "LAMINA_MAX_CONNECTIONS", in: 1...1_000_000) {
            c.maxConnections = v
        }
        if let v = try setting.integer(maxConnectionsPerClient, "max-connections-per-client", "LAMINA_MAX_CONNECTIONS_PER_CLIENT",
                                       in: 1...1_000_000) {
            c.maxConnectionsPerClient = v
        }
        if let v = try setting.integer(maxBodyBytes, "max-body-bytes", "LAMINA_MAX_BODY_BYTES", in: 1...(1 << 30)) {
            c.maxBodyBytes = v
            c.sceneLimits.documentBytes = v
        }
        if let v = try setting.integer(maxBodyBytesInFlight, "max-body-bytes-in-flight", "LAMINA_MAX_BODY_BYTES_IN_FLIGHT",
                                       in: 1...(1 << 40)) {
            c.maxBodyBytesInFlight = v
        }
        if let v = try setting.integer(cacheBytes, "cache-bytes", "LAMINA_CACHE_BYTES", in: 0...(1 << 40)) { c.cacheBytes = v }
        if let v = try setting.integer(cacheMaxAge, "cache-max-age", "LAMINA_CACHE_MAX_AGE", in: 0...31_536_000) { c.cacheMaxAge = v }
        if let path = setting.value(tokenFile, "token-file", "LAMINA_TOKEN_FILE") {
            do {
                let bytes = try FileIO.readFile(atPath: path, maxBytes: 4096)
                c.token = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            } catch {
                throw ValidationError("--token-file (or LAMINA_TOKEN_FILE): \(error)")
            }
        } else if let token = environment["LAMINA_TOKEN"], !token.isEmpty {
            c.token = token
        }
        if c.token?.isEmpty == true { throw ValidationError("the bearer token is empty") }
        c.templatesDirectory = setting.value(templates, "templates", "LAMINA_TEMPLATES")
        if let store = setting.value(jobsStore, "jobs-store", "LAMINA_JOBS_STORE"), store != "memory" {
            guard store.hasPrefix("postgres://") || store.hasPrefix("postgresql://") || store.contains("=") else {
                throw ValidationError("--jobs-store (or LAMINA_JOBS_STORE): expected memory or a postgres:// URL, got \"\(store.prefix(60))\"")
            }
            if let option = jobsStore, Self.carriesPassword(option) {
                throw ValidationError("--jobs-store: a password on the command line is visible to every user of the machine; give it in LAMINA_JOBS_STORE_PASSWORD_FILE, PGPASSWORD or ~/.pgpass")
            }
            c.jobsStore = store
            // Read only with a PostgreSQL store: a deployment may name the
            // file for a Secret that is not there when jobs stay in memory.
            if let path = environment["LAMINA_JOBS_STORE_PASSWORD_FILE"], !path.isEmpty {
                do {
                    let bytes = try FileIO.readFile(atPath: path, maxBytes: 4096)
                    c.jobsStorePassword = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                } catch {
                    throw ValidationError("LAMINA_JOBS_STORE_PASSWORD_FILE: \(error)")
                }
            }
        }
        if let v = try setting.integer(jobsStoreConnections, "jobs-store-connections", "LAMINA_JOBS_STORE_CONNECTIONS", in: 1...100) {
            c.jobsStoreConnections = v
        }
        if let v = try setting.seconds(jobLease, "job-lease", "LAMINA_JOB_LEASE") { c.jobLease = v }
        c.resultsDirectory = setting.value(resultsDir, "results-dir", "LAMINA_RESULTS_DIR")
        if c.resultsDirectory != nil, c.jobsStore == nil {
            throw ValidationError("--results-dir (or LAMINA_RESULTS_DIR) is for a PostgreSQL job store (--jobs-store); in memory, results stay in memory")
        }
        if let hosts = setting.value(callbackHosts, "callback-hosts", "LAMINA_CALLBACK_HOSTS") {
            c.callbackHosts = hosts.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
        }
        c.webhookKey = environment["LAMINA_WEBHOOK_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        if let v = try setting.integer(callbackAttempts, "callback-attempts", "LAMINA_CALLBACK_ATTEMPTS", in: 1...20) { c.callbackAttempts = v }
        if let v = try setting.seconds(callbackRetryDelay, "callback-retry-delay", "LAMINA_CALLBACK_RETRY_DELAY") { c.callbackRetryDelay = v }
        c.urlKeys = try SignCommand.urlKeys(file: urlKeysFile, environment: environment)
        if let v = try setting.choice(logFormat, "log-format", "LAMINA_LOG_FORMAT", ServerConfiguration.LogFormat.self) { c.logFormat = v }
        if let v = setting.value(logLevel, "log-level", "LAMINA_LOG_LEVEL") {
            guard let level = Logger.Level(rawValue: v) else {
                throw ValidationError("--log-level (or LAMINA_LOG_LEVEL): expected one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")), got \"\(v)\"")
            }
            c.logLevel = level
        }
        if let v = try setting.seconds(drainTime, "drain-time", "LAMINA_DRAIN_TIME") { c.drainTime = v }
        if let v = try setting.integer(maxLayers, "max-layers", "LAMINA_MAX_LAYERS", in: 1...Int.max) { c.budget.layers = v }
        if let v = try setting.integer(maxSurfacePixels, "max-surface-pixels", "LAMINA_MAX_SURFACE_PIXELS", in: 1...Int.max) {
            c.budget.surfacePixels = v
        }
        c.fontDirectories = fonts.resolvedFolders(environment: environment)
        c.playground = playground || dev || ["1", "true", "yes"].contains(environment["LAMINA_PLAYGROUND"]?.lowercased() ?? "")
        if dev {
            c.logFormat = .text
            c.logLevel = .debug
        }
        if let v = try setting.integer(maxJobs, "max-jobs", "LAMINA_MAX_JOBS", in: 0...100_000) { c.maxJobs = v }
        if let v = try setting.seconds(jobDeadline, "job-deadline", "LAMINA_JOB_DEADLINE") { c.jobDeadline = v }
        if let v = try setting.seconds(jobRetention, "job-retention", "LAMINA_JOB_RETENTION") { c.jobRetention = v }
        if let v = try setting.integer(jobResultBytes, "job-result-bytes", "LAMINA_JOB_RESULT_BYTES", in: 0...(1 << 40)) {
            c.jobResultBytes = v
        }
        return c
    }
}

extension ServeCommand {
    /// Whether a connection string names a password (`user:pass@` in a URL,
    /// `password=` in libpq's words).
    static func carriesPassword(_ connection: String) -> Bool {
        if connection.contains("password=") { return true }
        guard let scheme = connection.range(of: "://") else { return false }
        let authority = connection[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" }
        guard let at = authority.lastIndex(of: "@") else { return false }
        return authority[..<at].contains(":")
    }
}

/// One setting from its option or its environment variable, with errors
/// that name both.
private struct Settings {
    let environment: [String: String]

    func value(_ option: String?, _ name: String, _ variable: String) -> String? {
        option ?? environment[variable].flatMap { $0.isEmpty ? nil : $0 }
    }

    func integer(_ option: String?, _ name: String, _ variable: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = value(option, name, variable) else { return nil }
        guard let n = Int(text), range.contains(n) else {
            throw ValidationError("--\(name) (or \(variable)): expected an integer in \(range.lowerBound)...\(range.upperBound), got \"\(text)\"")
        }
        return n
    }

    func seconds(_ option: String?, _ name: String, _ variable: String) throws -> Duration? {
        guard let text = value(option, name, variable) else { return nil }
        guard let s = Double(text), s.isFinite, s > 0, s <= 86_400 else {
            throw ValidationError("--\(name) (or \(variable)): expected seconds in (0, 86400], got \"\(text)\"")
        }
        return .nanoseconds(Int64(s * 1e9))
    }

    func choice<T: RawRepresentable & CaseIterable>(_ option: String?, _ name: String, _ variable: String, _: T.Type) throws -> T?
    where T.RawValue == String {
        guard let text = value(option, name, variable) else { return nil }
        guard let v = T(rawValue: text) else {
            throw ValidationError("--\(name) (or \(variable)): expected one of \(T.allCases.map(\.rawValue).joined(separator: ", ")), got \"\(text)\"")
        }
        return v
    }
}
