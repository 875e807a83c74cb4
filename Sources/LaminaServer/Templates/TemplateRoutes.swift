import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Lamina
import LaminaIO
import NIOCore

/// `GET /t/{template}.{png|webp|gif|mp4}?slot=value...&sig=SIG`: a
/// template's picture with its slots filled from the link, for
/// `<img src>` and `og:image`.
///
/// In order: the signature (403 and nothing drawn when it is missing or
/// wrong: `URLSigner`); the template (404); `If-None-Match` (304 without
/// drawing: a link's picture never changes, so its ETag is known before it
/// is drawn); the cache; the slots (422 naming the slot a value does not
/// fit); the pool, under the same queue and deadline as `/render`. The
/// answer may be cached for ever: `Cache-Control: public,
/// max-age=31536000, immutable`.
///
/// Not behind the bearer token: a signed link is its own permission.
struct TemplateRoutes: Sendable {
    let library: TemplateLibrary
    let signer: URLSigner
    let routes: RenderRoutes
    let images: any ImageSource

    static let methods: [String: [HTTPRequest.Method]] = ["/t/:file": [.get]]

    static let cacheControl = "public, max-age=31536000, immutable"

    func register<Context: RequestContext>(on router: Router<Context>) {
        router.get("t/:file") { request, context in try await picture(request, context: context) }
    }

    private var configuration: ServerConfiguration { routes.configuration }

    func picture(_ request: Request, context: some RequestContext) async throws -> Response {
        let arrived = ContinuousClock.now
        let deadline = arrived + configuration.deadline
        let target = request.head.path ?? "/"
        do {
            try signer.verify(target)
        } catch .missing {
            throw APIError(.forbidden, "signatureRequired", "this link is not signed: template links carry sig, made with `lamina sign`")
        } catch {
            throw APIError(.forbidden, "badSignature", "this link's signature does not match it")
        }
        let file = context.parameters.get("file") ?? ""
        guard let dot = file.lastIndex(of: "."), let template = library[String(file[..<dot])] else {
            throw APIError(.notFound, "templateNotFound", "no template \(Quoted.prefix(String(file.split(separator: ".").first ?? ""), limit: 60)) on this server")
        }
        let suffix = file[file.index(after: dot)...]
        let format: AnimationEncoder.Format?
        switch suffix {
        case "png": format = nil
        case "webp": format = .webp
        case "gif": format = .gif
        case "mp4": format = .mp4
        default:
            throw APIError(.notFound, "templateNotFound", "a template is drawn as .png, .webp, .gif or .mp4, not .\(Quoted.prefix(String(suffix), limit: 20))")
        }
        if let format, !format.isAvailable {
            throw APIError(.notImplemented, "formatUnavailable",
                           "this server cannot write \(format.rawValue): the ffmpeg program is not installed on it; ask for .png, .webp or .gif")
        }
        let values = try Self.parameters(of: target)

        let etag = await etag(template: template, target: URLSigner.removingSignature(target).message)
        var headers: HTTPFields = [.eTag: etag, .cacheControl: Self.cacheControl]
        if let match = request.headers[.ifNoneMatch], RenderRoutes.matches(match, etag) {
            return Response(status: .notModified, headers: headers)
        }
        let mediaType = format?.mediaType ?? "image/png"
        if configuration.cacheBytes > 0, let bytes = routes.cache.picture(for: etag) {
            routes.metrics.recordCacheLookup(hit: true, usage: routes.cache.usage)
            headers[.laminaCache] = "hit"
            headers[.contentType] = mediaType
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        }

        let loaded: LoadedScene
        do {
            loaded = try await template.scene(filling: values, limits: configuration.sceneLimits, deadline: RenderDeadline(deadline),
                                              images: images)
        } catch let misfit as TemplateSlot.Misfit {
            throw APIError(.unprocessableContent, "invalidSlot", misfit.message, path: misfit.slot)
        } catch let error as SceneError {
            throw APIError(error)
        }
        let scene = loaded.scene
        let canvas = scene.canvas(scale: template.scale)
        try configuration.budget.check(canvas)
        var job = RenderJob(scene: scene, scale: template.scale, time: template.time, backend: nil, enqueued: arrived, deadline: deadline)
        if let format {
            do {
                try format.check(width: canvas.pixelWidth, height: canvas.pixelHeight)
            } catch {
                throw APIError(.unprocessableContent, "limitExceeded", error.description)
            }
            let start = template.time ?? scene.time
            job.time = nil
            job.frames = try routes.framesWork(
                of: scene, canvas: canvas, start: start, end: (template.duration ?? loaded.duration).map { start + $0 },
                framesPerSecond: template.framesPerSecond ?? loaded.frameRate ?? 30, format: format,
                options: AnimationEncoder.Options(loopCount: 0, quality: nil))
        }
        let picture = try await routes.pool.render(job)
        routes.metrics.recordPicture(picture)
        if configuration.cacheBytes > 0 {
            routes.cache.insert(picture.bytes, for: etag)
            routes.metrics.recordCacheLookup(hit: false, usage: routes.cache.usage)
        }
        headers[.laminaCache] = "miss"
        headers[.laminaBackend] = picture.backend.rawValue
        headers[.contentType] = mediaType
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: picture.bytes)))
    }

    /// The link's parameters but `sig`, percent-decoded (and `+` as a
    /// space, as forms write it).
    /// - Throws: 400 for an escape that is not one; 422 for a slot given twice.
    static func parameters(of target: String) throws(APIError) -> [String: String] {
        guard let questionMark = target.firstIndex(of: "?") else { return [:] }
        var values: [String: String] = [:]
        for parameter in target[target.index(after: questionMark)...].split(separator: "&") where !parameter.hasPrefix("sig=") {
            let parts = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0]), let value = decode(parts.count > 1 ? parts[1] : "") else {
                throw APIError(.badRequest, "invalidQuery", "\(Quoted.prefix(String(parameter), limit: 60)) is not percent-encoded correctly")
            }
            guard values[name] == nil else {
                throw APIError(.unprocessableContent, "invalidSlot", "\(Quoted.prefix(name, limit: 40)) is given twice", path: name)
            }
            values[name] = value
        }
        return values
    }

    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    /// A link's picture depends on the template's files, the link (its
    /// path and query, signature left out), and what draws it.
    private func etag(template: Template, target: String) async -> String {
        let reports = await routes.pool.waitUntilStarted()
        var hash = SHA256()
        hash.update(field: template.digest)
        hash.update(field: target)
        hash.update(field: reports.first?.identity.backend.rawValue ?? "-")
        hash.update(field: routes.rendererVersion)
        hash.update(field: "\(configuration.pngOptions)")
        return "\"" + String(hash.finalize().hex.prefix(32)) + "\""
    }
}

/// Template images fetched over HTTP by `OutboundHTTP`, within a few seconds
/// and the scene format's image bytes.
struct FetchedImages: ImageSource {
    var timeout: Duration = .seconds(5)

    func fetch(_ url: URL, slot: String, maxBytes: Int) async throws(TemplateSlot.Misfit) -> [UInt8] {
        let answer: OutboundHTTP.Response
        do {
            answer = try await OutboundHTTP.send(.init(url: url, timeout: timeout, maxBytes: maxBytes))
        } catch {
            throw TemplateSlot.Misfit(slot: slot, message: "\(slot): \(Quoted.prefix(url.absoluteString, limit: 80)) could not be fetched: \(error.description)")
        }
        guard answer.status == 200 else {
            throw TemplateSlot.Misfit(slot: slot, message: "\(slot): \(Quoted.prefix(url.absoluteString, limit: 80)) answered \(answer.status)")
        }
        return answer.body
    }
}
