import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Lamina
import NIOCore

/// The API (docs/openapi.yaml): `POST /render`, `POST /validate`,
/// `GET /healthz`, `GET /readyz` here; `POST /frames` and the jobs
/// (`POST /jobs`, `GET` and `DELETE /jobs/{id}`, `GET /jobs/{id}/result`)
/// in AnimationRoutes.swift.
///
/// A render request goes: body (media type and size checked before it is
/// read, read within the deadline) → decode (here, off the workers, which
/// also names the scene) → `If-None-Match` and the cache (no worker needed)
/// → the pool (plan, draw, encode on a worker) → the cache → the picture.
struct RenderRoutes: Sendable {
    let configuration: ServerConfiguration
    let pool: RenderPool
    let cache: PictureCache
    let metrics: ServerMetrics
    let jobs: JobStore
    /// Says what the ETag depends on besides the scene and the query.
    let rendererVersion: String

    /// Each route's methods; another method on a known path is a 405 with `Allow`.
    static let methods: [String: [HTTPRequest.Method]] = [
        "/render": [.post], "/frames": [.post], "/validate": [.post], "/healthz": [.get], "/readyz": [.get],
        "/jobs": [.post], "/jobs/:id": [.get, .delete], "/jobs/:id/result": [.get],
    ]

    func register<Context: RequestContext>(on router: Router<Context>) {
        let methods = configuration.playground ? Self.methods.merging(PlaygroundRoutes.methods) { a, _ in a } : Self.methods
        router.add(middleware: MethodCheckMiddleware<Context>(methods: methods))
        if configuration.playground {
            PlaygroundRoutes().register(on: router)
        }
        router.get("healthz") { _, _ in
            JSONBody.response(.ok, ["status": "alive"])
        }
        router.get("readyz") { _, _ in readiness() }
        let rendering = router.group()
        if let token = configuration.token {
            rendering.add(middleware: BearerTokenMiddleware<Context>(token: token))
        }
        rendering.post("render") { request, context in try await render(request, context: context) }
        rendering.post("validate") { request, context in try await validate(request, context: context) }
        rendering.post("frames") { request, context in try await frames(request, context: context) }
        rendering.post("jobs") { request, context in try await createJob(request, context: context) }
        rendering.get("jobs/:id") { _, context in try jobStatus(context) }
        rendering.get("jobs/:id/result") { _, context in try jobResult(context) }
        rendering.delete("jobs/:id") { _, context in try deleteJob(context) }
    }

    // MARK: Readiness

    private func readiness() -> Response {
        struct Body: Encodable {
            var ready: Bool
            /// `starting`, `saturated` or `draining` when not ready.
            var reason: String?
            var load: RenderPool.Load
        }
        let load = pool.load
        let reason: String? = load.draining ? "draining" : load.isStarting ? "starting" : load.isSaturated ? "saturated" : nil
        let body = Body(ready: reason == nil, reason: reason, load: load)
        return JSONBody.response(reason == nil ? .ok : .serviceUnavailable, body)
    }

    // MARK: Render

    private func render(_ request: Request, context: some RequestContext) async throws -> Response {
        let arrived = ContinuousClock.now
        let deadline = arrived + configuration.deadline
        let query = try RenderQuery(request.uri)
        let body = try await SceneBody.read(request, maxBytes: configuration.maxBodyBytes, deadline: deadline)
        let decodeStart = ContinuousClock.now
        let (scene, fingerprint) = try decode(body)
        try configuration.budget.check(scene.canvas(scale: query.scale))
        let decodeTime = ContinuousClock.now - decodeStart
        metrics.recordStage("decode", decodeTime)

        let etag = await etag(fingerprint, query)
        var headers: HTTPFields = [
            .eTag: etag,
            .cacheControl: "public, max-age=\(configuration.cacheMaxAge)",
        ]
        if let match = request.headers[.ifNoneMatch], Self.matches(match, etag) {
            return Response(status: .notModified, headers: headers)
        }
        if configuration.cacheBytes > 0, let png = cache.picture(for: etag) {
            metrics.recordCacheLookup(hit: true, usage: cache.usage)
            headers[.serverTiming] = "decode;dur=\(Self.ms(decodeTime)), cache;desc=hit"
            headers[.laminaCache] = "hit"
            return Self.picture(png, headers: headers)
        }
        let job = RenderJob(scene: scene, scale: query.scale, time: query.time, backend: query.backend,
                            enqueued: arrived, deadline: deadline)
        let picture = try await pool.render(job)
        metrics.recordPicture(picture)
        if configuration.cacheBytes > 0 {
            cache.insert(picture.bytes, for: etag)
            metrics.recordCacheLookup(hit: false, usage: cache.usage)
        }
        headers[.serverTiming] = Self.serverTiming(picture, decode: decodeTime)
        headers[.laminaBackend] = picture.backend.rawValue
        headers[.laminaCache] = "miss"
        return Self.picture(picture.bytes, headers: headers)
    }

    func decode(_ body: [UInt8]) throws -> (Scene, SHA256.Digest) {
        // A server reads nothing from its own disk on a client's behalf:
        // images come only as data URIs.
        let decoder = SceneDecoder(limits: configuration.sceneLimits, options: .init(allowsFiles: false))
        return try decoder.decodeWithFingerprint(body)
    }

    /// A strong validator: the scene's meaning, the query, and what draws
    /// it. The same request to any replica with the same version and
    /// backend gets the same ETag.
    private func etag(_ fingerprint: SHA256.Digest, _ query: RenderQuery) async -> String {
        let reports = await pool.waitUntilStarted()
        var hash = SHA256()
        hash.update(fingerprint.bytes)
        hash.update(field: query.scale.map { "\($0)" } ?? "-")
        hash.update(field: query.time.map { "\($0)" } ?? "-")
        hash.update(field: (query.backend ?? reports.first?.identity.backend)?.rawValue ?? "-")
        hash.update(field: rendererVersion)
        hash.update(field: "\(configuration.pngOptions)")
        return "\"" + String(hash.finalize().hex.prefix(32)) + "\""
    }

    /// `If-None-Match`: `*`, or a list of (possibly weak) tags.
    static func matches(_ header: String, _ etag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            return tag == "*" || tag == etag || tag == "W/" + etag
        }
    }

    private static func picture(_ png: [UInt8], headers: HTTPFields) -> Response {
        var headers = headers
        headers[.contentType] = "image/png"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: png)))
    }

    private static func ms(_ duration: Duration) -> String { String(format: "%.2f", duration.milliseconds) }

    /// `Server-Timing`: milliseconds per stage of a drawn picture (summed
    /// over the frames of an animation).
    static func serverTiming(_ picture: RenderedPicture, decode: Duration) -> String {
        [("queue", picture.queue), ("decode", decode), ("plan", picture.plan), ("render", picture.render), ("encode", picture.encode)]
            .map { "\($0.0);dur=\(ms($0.1))" }.joined(separator: ", ")
    }

    // MARK: Validate

    /// 200 `{"ok": true}`, or 422 with every problem; a scene over the render
    /// budget is planned on a worker (as `render` would) and refused there.
    private func validate(_ request: Request, context: some RequestContext) async throws -> Response {
        let arrived = ContinuousClock.now
        let deadline = arrived + configuration.deadline
        let body = try await SceneBody.read(request, maxBytes: configuration.maxBodyBytes, deadline: deadline)
        do {
            let (scene, _) = try decode(body)
            try configuration.budget.check(scene.canvas())
            _ = try await pool.render(RenderJob(scene: scene, scale: nil, time: nil, backend: nil, planOnly: true,
                                                enqueued: arrived, deadline: deadline))
            return JSONBody.response(.ok, ["ok": true])
        } catch let error as SceneError {
            return Self.invalid(APIError(error))
        } catch let refusal as RenderRefusal {
            return Self.invalid(APIError(refusal))
        } catch RenderFailure.refused(let refusal) {
            return Self.invalid(APIError(refusal))
        }
    }

    /// A 422 (or 400) of `validate`: `ok: false` beside the usual error body.
    private static func invalid(_ error: APIError) -> Response {
        struct Body: Encodable {
            var ok = false
            var error: APIError.Problem
            var errors: [APIError.Problem]
        }
        return JSONBody.response(error.status, Body(error: error.problem, errors: error.problems ?? [error.problem]))
    }
}

/// `POST /render`'s query: `scale`, `time`, `backend`, each optional.
struct RenderQuery: Sendable {
    var scale: Double?
    var time: Double?
    var backend: RenderBackend?

    init(_ uri: URI, also extra: [String] = []) throws(APIError) {
        let parameters = uri.queryParameters
        let known = ["scale", "time", "backend"] + extra
        for (name, _) in parameters where !known.contains(String(name)) {
            throw APIError(.badRequest, "invalidQuery",
                           "unknown query parameter \(Quoted.prefix(String(name), limit: 40)); expected \(known.joined(separator: ", "))")
        }
        if let text = parameters["scale"] {
            guard let value = Double(String(text)), value.isFinite, value > 0, value <= 16 else {
                throw APIError(.badRequest, "invalidQuery", "scale must be a number in (0, 16], got \(Quoted.prefix(String(text), limit: 40))")
            }
            scale = value
        }
        if let text = parameters["time"] {
            guard let value = Double(String(text)), value.isFinite else {
                throw APIError(.badRequest, "invalidQuery", "time must be a finite number of seconds, got \(Quoted.prefix(String(text), limit: 40))")
            }
            time = value
        }
        if let text = parameters["backend"] {
            guard let value = RenderBackend(rawValue: String(text)) else {
                throw APIError(.badRequest, "invalidQuery", "backend must be gl or cpu, got \(Quoted.prefix(String(text), limit: 40))")
            }
            backend = value
        }
    }
}

/// A request body that should be a scene: its media type and size are
/// checked before it is read, and it is read within the deadline.
enum SceneBody {
    static func read(_ request: Request, maxBytes: Int, deadline: ContinuousClock.Instant) async throws -> [UInt8] {
        let mediaType = request.headers[.contentType].map { $0.split(separator: ";")[0].trimmingCharacters(in: .whitespaces).lowercased() }
        guard mediaType == "application/json" else {
            throw APIError(.unsupportedMediaType, "unsupportedMediaType",
                           "the body must be a scene as application/json, got \(mediaType.map { Quoted.prefix($0, limit: 60) } ?? "no Content-Type")")
        }
        if let declared = request.headers[.contentLength], let length = Int(declared), length > maxBytes {
            throw tooLarge(maxBytes)
        }
        let body = request.body
        return try await withThrowingTaskGroup(of: [UInt8]?.self) { group in
            group.addTask {
                var bytes: [UInt8] = []
                for try await chunk in body {
                    guard bytes.count + chunk.readableBytes <= maxBytes else { throw tooLarge(maxBytes) }
                    bytes += chunk.readableBytesView
                }
                return bytes
            }
            group.addTask {
                try await Task.sleep(until: deadline, clock: .continuous)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let bytes = first else {
                throw APIError(RenderFailure.deadlinePassed)
            }
            return bytes
        }
    }

    private static func tooLarge(_ maxBytes: Int) -> APIError {
        var error = APIError(.contentTooLarge, "bodyTooLarge", "the body is over the limit of \(maxBytes) bytes")
        error.headers[.connection] = "close"
        return error
    }
}
