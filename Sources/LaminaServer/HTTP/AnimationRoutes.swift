import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Lamina
import NIOCore

/// The animation routes of the API: `POST /frames` (the file, on the
/// request) and its job form for long animations (`POST /jobs`, then
/// `GET /jobs/{id}`, `GET /jobs/{id}/result`, `DELETE /jobs/{id}`). Both read
/// and check the request the same way (`readAnimation`) and draw on the
/// same pool and queue as `/render`.
extension RenderRoutes {
    // MARK: Frames

    /// An animated PNG, WebP or MP4 of the scene's animations: the frames of
    /// `from + i / fps` before the end (the query's `to` or `duration`, else
    /// the end of the scene's last animation), drawn by one worker under the
    /// same queue and deadline as `/render`.
    ///
    /// A client that goes away before its file is ready stops the work: its
    /// worker stops at its next draw command (the request's task is
    /// cancelled when the connection's input closes). Watching for that
    /// takes the connection over, so the answer closes it.
    func frames(_ request: Request, context: some RequestContext) async throws -> Response {
        var response = try await request.body.consumeWithCancellationOnInboundClose { body in
            var request = request
            request.body = body
            return try await framesResponse(request)
        }
        response.headers[.connection] = "close"
        return response
    }

    private func framesResponse(_ request: Request) async throws -> Response {
        let arrived = ContinuousClock.now
        let animation = try await readAnimation(request, deadline: arrived + configuration.deadline)
        let picture = try await pool.render(RenderJob(
            scene: animation.scene, scale: animation.scale, time: nil, backend: animation.backend, frames: animation.work,
            enqueued: arrived, deadline: arrived + configuration.deadline), near: animation.worker)
        metrics.recordPicture(picture)
        var headers: HTTPFields = [.serverTiming: Self.serverTiming(picture, decode: animation.decodeTime)]
        if let skipped = animation.skipped { headers[.laminaSkipped] = skipped }
        return Self.animation(picture, format: animation.work.format, headers: headers)
    }

    /// A `/frames` or `/jobs` request, read and checked: every limit before
    /// any work (the canvas, the frames and their pixels, what the format can
    /// hold, whether this server can write it).
    private struct Animation {
        var scene: Scene
        var scale: Double?
        var backend: RenderBackend?
        var work: FramesWork
        var decodeTime: Duration
        /// `X-Lamina-Skipped` of a CAML body.
        var skipped: String? = nil
        /// The worker that decoded the scene, to hand the job to.
        var worker: Int? = nil
        /// The body as sent, for a job another replica may draw.
        var body: SceneBody? = nil
    }

    private func readAnimation(_ request: Request, deadline: ContinuousClock.Instant, also: [String] = []) async throws -> Animation {
        let query = try FramesQuery(request.uri, accept: request.headers[.accept], also: also)
        guard query.format.isAvailable else {
            throw APIError(.notImplemented, "formatUnavailable",
                           "this server cannot write \(query.format.rawValue): the ffmpeg program is not installed on it; ask for apng or webp")
        }
        let body = try await SceneBody.read(request, maxBytes: configuration.maxBodyBytes, deadline: deadline, inFlight: bodies)
        return try await animation(of: body, query: query, deadline: deadline)
    }

    /// A job of the shared store, taken by this replica: its request's body
    /// and query read again as `POST /jobs` read them, under the job's deadline.
    func storedJob(body bytes: [UInt8], format: SceneLoader.Format, query: String, accept: String?,
                   arrived: ContinuousClock.Instant) async throws -> (job: RenderJob, worker: Int?) {
        let deadline = arrived + configuration.jobDeadline
        let framesQuery = try FramesQuery(URI("/jobs" + (query.isEmpty ? "" : "?" + query)), accept: accept, also: ["callback"])
        let body = SceneBody(bytes: bytes, format: format, reservation: bodies.reservation())
        let animation = try await animation(of: body, query: framesQuery, deadline: deadline)
        return (RenderJob(scene: animation.scene, scale: animation.scale, time: nil, backend: animation.backend, frames: animation.work,
                          enqueued: arrived, deadline: deadline), animation.worker)
    }

    private func animation(of body: SceneBody, query: FramesQuery, deadline: ContinuousClock.Instant) async throws -> Animation {
        let decodeStart = ContinuousClock.now
        let (decoded, worker) = try await decodeOnIdleWorker(body, reading: query.render.reading, deadline: deadline)
        let scene = decoded.scene
        let canvas = scene.canvas(scale: query.render.scale)
        try configuration.budget.check(canvas)
        do {
            try query.format.check(width: canvas.pixelWidth, height: canvas.pixelHeight)
        } catch {
            throw APIError(.unprocessableContent, "limitExceeded", error.description)
        }
        let decodeTime = ContinuousClock.now - decodeStart
        metrics.recordStage("decode", decodeTime)
        let start = query.from ?? scene.time
        // A Lottie animation has a length of its own, its in to its out point.
        let work = try framesWork(
            of: scene, canvas: canvas, start: start, end: query.to ?? (query.duration ?? decoded.duration).map { start + $0 },
            framesPerSecond: query.fps ?? decoded.frameRate ?? 30, format: query.format,
            options: AnimationEncoder.Options(loopCount: query.loop, quality: query.quality))
        return Animation(scene: scene, scale: query.render.scale, backend: query.render.backend, work: work, decodeTime: decodeTime,
                         skipped: decoded.skippedHeader, worker: worker, body: body)
    }

    /// The frames of an animation of `scene` from `start` to `end` (nil:
    /// the end of its last animation) at `framesPerSecond`, within this
    /// server's limits on frames and on their pixels: `/frames`, `/jobs`
    /// and the animated template links.
    func framesWork(of scene: Scene, canvas: RenderCanvas, start: Double, end given: Double?, framesPerSecond: Double,
                    format: AnimationEncoder.Format, options: AnimationEncoder.Options) throws(APIError) -> FramesWork {
        let animationsEnd: Double?
        do {
            animationsEnd = given == nil ? try scene.rootLayer.animationsEnd() : nil
        } catch {
            // An animation that repeats forever: the sequence needs a length.
            throw APIError(.unprocessableContent, "lengthNeeded", "\(error.description); give the length with duration or to",
                           path: error.path)
        }
        guard let end = given ?? animationsEnd else {
            throw APIError(.unprocessableContent, "lengthNeeded",
                           "the scene has no animation, so no length of its own; give it with duration or to")
        }
        let timeline: AnimationTimeline
        do {
            timeline = try AnimationTimeline(start: start, end: end, framesPerSecond: framesPerSecond)
        } catch {
            throw APIError(.unprocessableContent, "invalidTimeline", error.description)
        }
        guard timeline.count <= configuration.maxFrames else {
            throw APIError(.unprocessableContent, "limitExceeded",
                           "\(timeline.count) frames asked for, over the limit of \(configuration.maxFrames)")
        }
        let (pixels, overflow) = (canvas.pixelWidth * canvas.pixelHeight).multipliedReportingOverflow(by: timeline.count)
        guard !overflow, pixels <= configuration.maxFramePixels else {
            throw APIError(.unprocessableContent, "limitExceeded",
                           "\(timeline.count) frames of \(canvas.pixelWidth)x\(canvas.pixelHeight) pixels are over the limit of \(configuration.maxFramePixels) pixels in all")
        }
        return FramesWork(timeline: timeline, format: format, options: options)
    }

    static func animation(_ picture: RenderedPicture, format: AnimationEncoder.Format, headers: HTTPFields) -> Response {
        var headers = headers
        headers[.contentType] = format.mediaType
        headers[.laminaBackend] = picture.backend.rawValue
        headers[.laminaFrames] = "\(picture.frameCount)"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: picture.bytes)))
    }

    // MARK: Jobs

    /// `POST /jobs`: `/frames`' request, answered at once with 202, the
    /// job's status and `Location`; the job then waits in the same queue,
    /// with the job deadline.
    func createJob(_ request: Request, context: some RequestContext) async throws -> Response {
        let arrived = ContinuousClock.now
        // The callback first: a job that could never be reported is not drawn.
        let callbackText = request.uri.queryParameters["callback"].map(String.init) ?? request.headers[.laminaCallback]
        let callback: URL?
        if let callbackText {
            guard let webhooks else {
                throw APIError(.unprocessableContent, "invalidCallback", "this server sends no callbacks (its --callback-hosts allows none)")
            }
            callback = try webhooks.check(callbackText)
        } else {
            callback = nil
        }
        let animation = try await readAnimation(request, deadline: arrived + configuration.deadline, also: ["callback"])
        let job = RenderJob(scene: animation.scene, scale: animation.scale, time: nil, backend: animation.backend, frames: animation.work,
                            enqueued: arrived, deadline: arrived + configuration.jobDeadline)
        let query = (request.uri.query ?? "").split(separator: "&").filter { !$0.hasPrefix("callback=") }.joined(separator: "&")
        let status = try await jobs.add(NewJob(job: job, worker: animation.worker, body: animation.body?.bytes ?? [],
                                               format: animation.body?.format ?? .json, query: query,
                                               accept: request.headers[.accept], callback: callback))
        return JSONBody.response(.accepted, status, headers: [.location: "/jobs/\(status.id)"])
    }

    private func jobID(_ context: some RequestContext) throws(APIError) -> String {
        guard let id = context.parameters.get("id"), JobID.isValid(id) else {
            throw Self.noSuchJob
        }
        return id
    }

    private static let noSuchJob = APIError(.notFound, "jobNotFound",
                                            "no such job on this server (a finished job is kept for a while, then forgotten)")

    /// `GET /jobs/{id}`: the job's stage and frames so far.
    func jobStatus(_ context: some RequestContext) async throws -> Response {
        guard let status = try await jobs.status(try jobID(context)) else { throw Self.noSuchJob }
        return JSONBody.response(.ok, status, headers: [.cacheControl: "no-store"])
    }

    /// `GET /jobs/{id}/result`: the file once the job is done; 409 before,
    /// or with the job's error when it failed.
    func jobResult(_ context: some RequestContext) async throws -> Response {
        switch try await jobs.result(try jobID(context)) {
        case nil:
            throw Self.noSuchJob
        case .ready(let picture, let format)?:
            return Self.animation(picture, format: format, headers: [.cacheControl: "private, no-cache"])
        case .notReady(let status)?:
            var error = APIError(.conflict, "jobNotDone",
                                 "the job is \(status.stage.rawValue): \(status.renderedFrames) of \(status.frames) frames drawn; poll /jobs/\(status.id)")
            error.headers[.retryAfter] = "1"
            throw error
        case .failed(let failure)?:
            throw APIError(.conflict, "jobFailed", "the job failed: \(failure.problem.message)", path: failure.problem.path)
        }
    }

    /// `DELETE /jobs/{id}`: cancels the job if it is not done, and forgets it.
    func deleteJob(_ context: some RequestContext) async throws -> Response {
        guard try await jobs.cancel(try jobID(context)) else { throw Self.noSuchJob }
        return Response(status: .noContent)
    }
}

/// `POST /frames`'s query: `/render`'s `scale` and `backend`, and `fps`
/// (default a Lottie animation's own, else 30), `from` (default the scene's time), `to` or `duration`,
/// `format` (`apng`, `webp` or `mp4`; else from `Accept`, else `apng`),
/// `loop` (0: forever; an MP4 has none) and `quality` (lossy WebP, 0...100).
struct FramesQuery: Sendable {
    var render: RenderQuery
    /// Frames a second; nil: a Lottie animation's own, else 30.
    var fps: Double?
    var from: Double?
    var to: Double?
    var duration: Double?
    var format = AnimationEncoder.Format.apng
    var loop = 0
    var quality: Double?

    init(_ uri: URI, accept: String?, also: [String] = []) throws(APIError) {
        render = try RenderQuery(uri, also: ["fps", "from", "to", "duration", "format", "loop", "quality"] + also)
        guard render.time == nil else {
            throw APIError(.badRequest, "invalidQuery", "time is a query of /render; /frames takes from, to or duration")
        }
        let parameters = uri.queryParameters
        func number(_ name: String, _ valid: (Double) -> Bool, _ expected: String) throws(APIError) -> Double? {
            guard let text = parameters[Substring(name)] else { return nil }
            guard let value = Double(String(text)), value.isFinite, valid(value) else {
                throw APIError(.badRequest, "invalidQuery", "\(name) must be \(expected), got \(Quoted.prefix(String(text), limit: 40))")
            }
            return value
        }
        fps = try number("fps", { $0 > 0 && $0 <= 120 }, "a number in (0, 120]")
        from = try number("from", { _ in true }, "a finite number of seconds")
        to = try number("to", { _ in true }, "a finite number of seconds")
        duration = try number("duration", { $0 > 0 }, "a number of seconds > 0")
        if to != nil, duration != nil {
            throw APIError(.badRequest, "invalidQuery", "give to or duration, not both")
        }
        // An MP4 has no loop count (its player decides); `loop` is then unused.
        loop = try number("loop", { $0 >= 0 && $0 <= 65535 && $0.rounded() == $0 }, "a whole number in 0...65535").map { Int($0) } ?? 0
        quality = try number("quality", { $0 >= 0 && $0 <= 100 }, "a number in 0...100")
        if let text = parameters["format"] {
            guard let value = AnimationEncoder.Format(rawValue: String(text)) else {
                throw APIError(.badRequest, "invalidQuery", "format must be apng, webp, gif or mp4, got \(Quoted.prefix(String(text), limit: 40))")
            }
            format = value
        } else if let accept {
            format = Self.format(accepting: accept)
        }
        if quality != nil, format != .webp {
            throw APIError(.badRequest, "invalidQuery", "quality is for format=webp (animated PNG is lossless, GIF has a palette a frame, MP4 is visually lossless)")
        }
    }

    /// The format an `Accept` header asks for: the first of the formats it
    /// names (`image/apng`, `image/webp`, `video/mp4`) with a non-zero
    /// quality, by quality and then order; `apng` when it names none.
    static func format(accepting accept: String) -> AnimationEncoder.Format {
        var best: (format: AnimationEncoder.Format, q: Double)?
        for item in accept.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let type = parts.first, let format = AnimationEncoder.Format.allCases.first(where: { $0.mediaType == type }) else { continue }
            let q = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            if q > 0, q > (best?.q ?? 0) { best = (format, q) }
        }
        return best?.format ?? .apng
    }
}
