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
/// read, read within the deadline) → decode (which also names the scene; on
/// an idle worker where workers keep to cores, else here, never queued) →
/// `If-None-Match` and the cache (no worker needed)
/// → the pool (plan, draw, encode on a worker) → the cache → the picture.
struct RenderRoutes: Sendable {
    let configuration: ServerConfiguration
    let pool: RenderPool
    let cache: PictureCache
    let metrics: ServerMetrics
    let jobs: any JobStore
    /// Sends the jobs' callbacks; nil where `--callback-hosts` allows none.
    let webhooks: WebhookSender?
    /// The bytes of request bodies held at once, bounded as a whole.
    let bodies: BodyBytesInFlight
    /// Says what the ETag depends on besides the scene and the query.
    let rendererVersion: String
    /// The probes' answers (readiness includes a shared job store's).
    var probes: Probes? = nil

    /// Each route's methods; another method on a known path is a 405 with `Allow`.
    static let methods: [String: [HTTPRequest.Method]] = [
        "/render": [.post], "/frames": [.post], "/validate": [.post], "/healthz": [.get], "/readyz": [.get],
        "/jobs": [.post], "/jobs/:id": [.get, .delete], "/jobs/:id/result": [.get],
    ]

    /// Adds the routes to `router`; with `templates`, the signed template
    /// links too (`TemplateRoutes`).
    func register<Context: RequestContext>(on router: Router<Context>, templates: (library: TemplateLibrary, signer: URLSigner)? = nil) {
        var methods = Self.methods
        if configuration.playground { methods.merge(PlaygroundRoutes.methods) { a, _ in a } }
        if templates != nil { methods.merge(TemplateRoutes.methods) { a, _ in a } }
        router.add(middleware: MethodCheckMiddleware<Context>(methods: methods))
        if configuration.playground {
            PlaygroundRoutes().register(on: router)
        }
        // A signed link is its own permission: outside the bearer token.
        if let templates {
            TemplateRoutes(library: templates.library, signer: templates.signer, routes: self, images: FetchedImages()).register(on: router)
        }
        // Answered on the event loop (ProbeResponder) unless pipelined behind other requests.
        let probes = probes ?? Probes(pool: pool)
        router.get("healthz") { _, _ in Self.response(probes.health) }
        router.get("readyz") { _, _ in Self.response(probes.readiness) }
        let rendering = router.group()
        if let token = configuration.token {
            rendering.add(middleware: BearerTokenMiddleware<Context>(token: token))
        }
        rendering.post("render") { request, context in try await render(request, context: context) }
        rendering.post("validate") { request, context in try await validate(request, context: context) }
        rendering.post("frames") { request, context in try await frames(request, context: context) }
        rendering.post("jobs") { request, context in try await createJob(request, context: context) }
        rendering.get("jobs/:id") { _, context in try await jobStatus(context) }
        rendering.get("jobs/:id/result") { _, context in try await jobResult(context) }
        rendering.delete("jobs/:id") { _, context in try await deleteJob(context) }
    }

    // MARK: Probes

    private static func response(_ answer: Probes.Answer) -> Response {
        Response(status: answer.status, headers: [.contentType: "application/json"],
                 body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
    }

    // MARK: Render

    private func render(_ request: Request, context: some RequestContext) async throws -> Response {
        let arrived = ContinuousClock.now
        let deadline = arrived + configuration.deadline
        let query = try RenderQuery(request.uri)
        let body = try await SceneBody.read(request, maxBytes: configuration.maxBodyBytes, deadline: deadline, inFlight: bodies)
        let decodeStart = ContinuousClock.now
        let (decoded, worker) = try await decodeOnIdleWorker(body, reading: query.reading, deadline: deadline)
        let (scene, fingerprint) = (decoded.scene, decoded.fingerprint)
        try configuration.budget.check(scene.canvas(scale: query.scale))
        let decodeTime = ContinuousClock.now - decodeStart
        metrics.recordStage("decode", decodeTime)

        let etag = await etag(fingerprint, query)
        var headers: HTTPFields = [
            .eTag: etag,
            .cacheControl: "public, max-age=\(configuration.cacheMaxAge)",
        ]
        if let skipped = decoded.skippedHeader { headers[.laminaSkipped] = skipped }
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
        let picture = try await pool.render(job, near: worker)
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

    /// `decode`, on an idle render worker where workers keep to cores of
    /// their own (`RenderPool.runOnIdleWorker` says why), else here; with
    /// the worker that decoded, to hand the request's job to. A body under
    /// `smallestBodyForAWorker` is decoded here.
    func decodeOnIdleWorker(_ body: SceneBody, reading: ReadingQuery,
                            deadline: ContinuousClock.Instant) async throws -> (decoded: DecodedBody, worker: Int?) {
        guard body.bytes.count >= Self.smallestBodyForAWorker else {
            return (try decode(body, reading: reading, deadline: deadline), nil)
        }
        let (decoded, worker) = try await pool.runOnIdleWorker { [self] in try decode(body, reading: reading, deadline: deadline) }
        return (decoded, worker)
    }

    /// Below this many bytes a body is decoded where the request is: going
    /// to a worker and back costs about 50 µs (cache hits of the 5 KB card,
    /// whose decoding takes 20 µs, were 8–10% slower for it), the time it
    /// takes to decode some 7 KB of scene JSON (the 148 KB tiles: 1.1 ms).
    static let smallestBodyForAWorker = 16 << 10

    /// The scene of a body (`SceneLoader`, in the format its media type
    /// names), named for the cache, with what a CAML body had skipped; read
    /// within the request's deadline (past it: 503 `deadlineExceeded`).
    func decode(_ body: SceneBody, reading: ReadingQuery, deadline: ContinuousClock.Instant) throws -> DecodedBody {
        if body.format == .json, !reading.isEmpty {
            throw APIError(.badRequest, "invalidQuery", "state, transition, strict and animation are for CAML, .tendies and Lottie archive bodies")
        }
        // A server reads nothing from its own disk on a client's behalf:
        // images come only as data URIs, or from the archive sent.
        let options = SceneLoader.Options(limits: configuration.sceneLimits, allowsFiles: false,
                                          strict: reading.strict, state: reading.state, transition: reading.transition, animation: reading.animation)
        let loaded = try SceneLoader(options: options, deadline: RenderDeadline(deadline))
            .load(body.bytes, format: body.format, name: body.format == .tendies ? "archive.tendies" : "document")
        return DecodedBody(scene: loaded.scene, fingerprint: loaded.fingerprint, warnings: loaded.warnings, duration: loaded.duration,
                           frameRate: loaded.frameRate)
    }

    /// A strong validator: the scene's meaning, the query, and what draws
    /// it. The same request to any replica with the same version and
    /// backend gets the same ETag.
    private func etag(_ fingerprint: String, _ query: RenderQuery) async -> String {
        let reports = await pool.waitUntilStarted()
        var hash = SHA256()
        hash.update(field: fingerprint)
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
        let body = try await SceneBody.read(request, maxBytes: configuration.maxBodyBytes, deadline: deadline, inFlight: bodies)
        do {
            let reading = try ReadingQuery(request.uri.queryParameters, known: ReadingQuery.names)
            let (decoded, worker) = try await decodeOnIdleWorker(body, reading: reading, deadline: deadline)
            let scene = decoded.scene
            try configuration.budget.check(scene.canvas())
            _ = try await pool.render(RenderJob(scene: scene, scale: nil, time: nil, backend: nil, planOnly: true,
                                                enqueued: arrived, deadline: deadline), near: worker)
            let skipped = decoded.warnings.map { (warning: SceneWarning) in warning.description }
            return JSONBody.response(.ok, ValidScene(skipped: skipped.isEmpty ? nil : skipped))
        } catch let error as SceneError where error.kind != .interrupted {
            return Self.invalid(APIError(error))
        } catch let refusal as RenderRefusal {
            return Self.invalid(APIError(refusal))
        } catch RenderFailure.refused(let refusal) {
            return Self.invalid(APIError(refusal))
        } catch let error as APIError where error.status == .badRequest {
            // A query that does not fit the body: the same shape as a refused scene.
            return Self.invalid(error)
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

/// `POST /render`'s query: `scale`, `time`, `backend`, each optional, and
/// how the body is read (`ReadingQuery`).
struct RenderQuery: Sendable {
    var scale: Double?
    var time: Double?
    var backend: RenderBackend?
    /// How to read a CAML body or a Lottie archive.
    var reading: ReadingQuery

    init(_ uri: URI, also extra: [String] = []) throws(APIError) {
        let parameters = uri.queryParameters
        let known = ["scale", "time", "backend"] + ReadingQuery.names + extra
        reading = try ReadingQuery(parameters, known: known)
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
struct SceneBody: Sendable {
    var bytes: [UInt8]
    /// What the body holds, by its media type (`SceneLoader.Format(mediaType:)`).
    var format: SceneLoader.Format
    /// The body's share of the bytes the server holds: given back when the body goes.
    var reservation: BodyBytesInFlight.Reservation

    static func read(_ request: Request, maxBytes: Int, deadline: ContinuousClock.Instant,
                     inFlight: BodyBytesInFlight) async throws -> SceneBody {
        let header = request.headers[.contentType]
        guard let format = header.flatMap(ContentType.init).flatMap({ SceneLoader.Format(mediaType: $0.essence) }) else {
            let got = header.map { $0.isEmpty ? "an empty Content-Type" : Quoted.prefix($0, limit: 60) } ?? "no Content-Type"
            throw APIError(.unsupportedMediaType, "unsupportedMediaType",
                           "the body must be a scene or a Lottie animation as application/json, a CAML document as application/xml, a .tendies or .lottie archive as application/zip or a .tgs sticker as application/gzip, got \(got)")
        }
        if let declared = request.headers[.contentLength], let length = Int(declared), length > maxBytes {
            throw tooLarge(maxBytes)
        }
        let body = request.body
        let reservation = inFlight.reservation()
        let bytes = try await withThrowingTaskGroup(of: [UInt8]?.self) { group in
            group.addTask {
                var bytes: [UInt8] = []
                do {
                    for try await chunk in body {
                        guard bytes.count + chunk.readableBytes <= maxBytes else { throw tooLarge(maxBytes) }
                        guard reservation.add(chunk.readableBytes) else { throw tooManyBodies(inFlight.limit) }
                        bytes += chunk.readableBytesView
                    }
                } catch let error as APIError {
                    throw error
                } catch is CancellationError {
                    throw CancellationError()
                } catch {
                    // The HTTP parser's complaint about the body's framing (a
                    // chunk size of `zz`, a body that ends early...): the client's fault.
                    throw malformed(error)
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
        return SceneBody(bytes: bytes, format: format, reservation: reservation)
    }

    private static func tooManyBodies(_ limit: Int) -> APIError {
        var error = APIError(.tooManyRequests, "tooManyBodies",
                             "the server holds \(limit) bytes of request bodies already; retry in a moment")
        error.headers[.retryAfter] = "1"
        error.headers[.connection] = "close"
        return error
    }

    private static func malformed(_ error: any Error) -> APIError {
        var error = APIError(.badRequest, "malformedBody", "the request body's HTTP framing is broken: \(Quoted.prefix(String(describing: error), limit: 120))")
        error.headers[.connection] = "close"
        return error
    }

    private static func tooLarge(_ maxBytes: Int) -> APIError {
        var error = APIError(.contentTooLarge, "bodyTooLarge", "the body is over the limit of \(maxBytes) bytes")
        error.headers[.connection] = "close"
        return error
    }
}

/// `/validate`'s answer to a good scene.
struct ValidScene: Encodable {
    var ok = true
    /// What a CAML body had that Lamina does not draw.
    var skipped: [String]?
}

/// A body's scene, its name for the cache, and what a CAML body had skipped.
struct DecodedBody {
    var scene: Scene
    var fingerprint: String
    var warnings: [SceneWarning]
    /// A Lottie animation's own length in seconds and frame rate.
    var duration: Double?
    var frameRate: Double?

    /// `X-Lamina-Skipped`: what was skipped, as printable ASCII of at most
    /// 1,000 characters (a header cannot carry the document's own bytes).
    var skippedHeader: String? {
        guard !warnings.isEmpty else { return nil }
        let text = warnings.map { "\($0.subject) (\($0.count))" }.joined(separator: ", ")
        let ascii = String(String.UnicodeScalarView(text.unicodeScalars.map { (0x20..<0x7F).contains($0.value) ? $0 : "?" }))
        return String(ascii.prefix(1000))
    }
}

/// How a body is read: for a CAML or `.tendies` body, `state` (an
/// `LKState` to render in), `transition` (`FROM:TO`, played from its
/// start), `strict` (refuse what would be skipped, Lottie too); for a
/// dotLottie or Lottie zip, `animation` (which of its animations).
struct ReadingQuery: Sendable {
    static let names = ["state", "transition", "strict", "animation"]

    var state: String?
    var transition: CAMLReader.Transition?
    var strict = false
    var animation: String?

    /// Whether none of the CAML and Lottie options is given (a scene JSON body takes none).
    var isEmpty: Bool { state == nil && transition == nil && !strict && animation == nil }

    init(_ parameters: FlatDictionary<Substring, Substring>, known: [String]) throws(APIError) {
        for (name, _) in parameters where !known.contains(String(name)) {
            throw APIError(.badRequest, "invalidQuery",
                           "unknown query parameter \(Quoted.prefix(String(name), limit: 40)); expected \(known.joined(separator: ", "))")
        }
        state = parameters["state"].map(String.init)
        animation = parameters["animation"].map(String.init)
        if let text = parameters["transition"] {
            guard let transition = CAMLReader.Transition(String(text)) else {
                throw APIError(.badRequest, "invalidQuery", "transition must be FROM:TO, got \(Quoted.prefix(String(text), limit: 40))")
            }
            self.transition = transition
        }
        if let text = parameters["strict"] {
            guard text == "true" || text == "false" else {
                throw APIError(.badRequest, "invalidQuery", "strict must be true or false, got \(Quoted.prefix(String(text), limit: 40))")
            }
            strict = text == "true"
        }
        if state != nil && transition != nil {
            throw APIError(.badRequest, "invalidQuery", "give state or transition, not both")
        }
    }
}
