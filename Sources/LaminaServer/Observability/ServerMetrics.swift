import Lamina
import Metrics
import Prometheus

/// The server's metrics, through swift-metrics into a Prometheus registry of
/// its own (no process-wide bootstrap: two servers in one test process keep
/// separate counts). `GET /metrics` on the metrics port serves `exposition`.
///
/// Names follow Prometheus's conventions: `_total` counters, `_seconds`
/// histograms, `lamina_` first.
final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory

    private let queueDepth: Metrics.Gauge
    private let busyWorkers: Metrics.Gauge
    private let workers: Metrics.Gauge
    private let cacheBytes: Metrics.Gauge
    private let cacheEntries: Metrics.Gauge
    private let cacheHits: Metrics.Counter
    private let cacheMisses: Metrics.Counter
    private let pixels: Metrics.Counter

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        // Render stages are milliseconds; requests can wait seconds.
        factory.defaultDurationHistogramBuckets = [
            .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
            .milliseconds(20), .milliseconds(50), .milliseconds(100), .milliseconds(200), .milliseconds(500),
            .seconds(1), .seconds(2), .seconds(5), .seconds(10),
        ]
        self.factory = factory
        queueDepth = Metrics.Gauge(label: "lamina_queue_depth", factory: factory)
        busyWorkers = Metrics.Gauge(label: "lamina_workers_busy", factory: factory)
        workers = Metrics.Gauge(label: "lamina_workers", factory: factory)
        cacheBytes = Metrics.Gauge(label: "lamina_cache_bytes", factory: factory)
        cacheEntries = Metrics.Gauge(label: "lamina_cache_entries", factory: factory)
        cacheHits = Metrics.Counter(label: "lamina_cache_hits_total", factory: factory)
        cacheMisses = Metrics.Counter(label: "lamina_cache_misses_total", factory: factory)
        pixels = Metrics.Counter(label: "lamina_pixels_rendered_total", factory: factory)
    }

    /// The text format Prometheus scrapes.
    var exposition: [UInt8] { registry.emitToBuffer() }

    /// One answered request: its route (the pattern, not the URL), method and status.
    func recordRequest(route: String, method: String, status: Int, duration: Duration) {
        Metrics.Counter(label: "lamina_http_requests_total",
                dimensions: [("route", route), ("method", method), ("status", String(status))], factory: factory)
            .increment()
        Metrics.Timer(label: "lamina_http_request_duration_seconds", dimensions: [("route", route)], factory: factory)
            .recordNanoseconds(duration.nanoseconds)
    }

    /// How long one stage of a request took (queue, decode, plan, render, encode).
    func recordStage(_ stage: String, _ duration: Duration) {
        Metrics.Timer(label: "lamina_stage_duration_seconds", dimensions: [("stage", stage)], factory: factory)
            .recordNanoseconds(duration.nanoseconds)
    }

    func recordPicture(_ picture: RenderedPicture) {
        // An animation counts each of its frames.
        Metrics.Counter(label: "lamina_pictures_rendered_total", dimensions: [("backend", picture.backend.rawValue)], factory: factory)
            .increment(by: Int64(picture.frameCount))
        pixels.increment(by: Int64(picture.width * picture.height * picture.frameCount))
        recordStage("queue", picture.queue)
        recordStage("plan", picture.plan)
        recordStage("render", picture.render)
        recordStage("encode", picture.encode)
    }

    func recordCacheLookup(hit: Bool, usage: (bytes: Int, count: Int)) {
        (hit ? cacheHits : cacheMisses).increment()
        cacheBytes.record(usage.bytes)
        cacheEntries.record(usage.count)
    }

    func recordLoad(_ load: RenderPool.Load) {
        queueDepth.record(load.queued)
        busyWorkers.record(load.busy)
        workers.record(load.startedWorkers)
    }

    /// `lamina_font_substitutions_total`: font names drawn with another
    /// family than the table prefers (each name once per process).
    /// A connection closed as it opened, over the `total` or `per_client` cap.
    func recordConnectionRefused(_ reason: ConnectionGate.Refusal) {
        Metrics.Counter(label: "lamina_connections_refused_total", dimensions: [("reason", reason.rawValue)], factory: factory).increment()
    }

    func recordFontSubstitution() {
        Metrics.Counter(label: "lamina_font_substitutions_total", factory: factory).increment()
    }

    /// `lamina_webhook_deliveries_total{outcome}`: webhook attempts,
    /// `delivered` (a 2xx), `retried` (an attempt that failed, with another
    /// to come) or `failed` (the last attempt failed).
    func recordWebhook(_ outcome: String) {
        Metrics.Counter(label: "lamina_webhook_deliveries_total", dimensions: [("outcome", outcome)], factory: factory).increment()
    }

    /// `lamina_job_lease_takeovers_total`: jobs this replica took over from
    /// a replica whose lease ran out (it died, or lost the store).
    func recordLeaseTakeover() {
        Metrics.Counter(label: "lamina_job_lease_takeovers_total", factory: factory).increment()
    }

    /// `lamina_jobs{stage}`: the jobs the store holds, by stage (with a
    /// shared store, the whole fleet's: every replica reports the same).
    func recordJobs(_ counts: [JobStage: Int]) {
        for (stage, count) in counts {
            Metrics.Gauge(label: "lamina_jobs", dimensions: [("stage", stage.rawValue)], factory: factory).record(count)
        }
    }

    /// `lamina_backend_info{backend, platform, renderer}`: how many workers
    /// draw with each backend (1 or more), as Prometheus's info metrics do.
    func recordBackends(_ reports: [RenderPool.WorkerReport]) {
        var counts: [BackendIdentity: Int] = [:]
        for report in reports { counts[report.identity, default: 0] += 1 }
        for (identity, count) in counts {
            Metrics.Gauge(label: "lamina_backend_info",
                  dimensions: [("backend", identity.backend.rawValue), ("platform", identity.platform),
                               ("renderer", identity.renderer)],
                  factory: factory)
                .record(count)
        }
    }
}

extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// Milliseconds with a fraction, as `Server-Timing` and logs write them.
    var milliseconds: Double { Double(nanoseconds) / 1e6 }
}
