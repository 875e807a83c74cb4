import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTPTypes

/// Answers `GET /healthz` and `GET /readyz` on the connection's event loop,
/// before a request reaches the router.
///
/// Why: the router's handlers run as Swift tasks, on the threads that also
/// read strangers' bodies and decode their scenes. A probe must never wait
/// behind that work: an orchestrator that cannot hear `/healthz` in time
/// restarts a server that was only busy. The event loops do nothing but
/// move bytes, so a probe answered here is answered at once however loaded
/// the server is.
///
/// Only a probe that is the connection's sole outstanding request is
/// answered here (a kubelet opens a connection per probe); one pipelined
/// behind other requests goes on to the router, which answers it in order
/// with the same `Probes`. Probe answers close their connection; like every
/// answer they carry an `X-Request-Id` (the client's, when sane) and
/// `nosniff`, and are counted in the request metrics.
final class ProbeResponder: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let probes: Probes
    private let metrics: ServerMetrics
    /// Requests passed on to the router whose answers have not ended yet.
    private var outstanding = 0
    /// The probe being answered: its head has come, its end not yet.
    private var answering: (answer: Probes.Answer, path: String, method: String, id: String, start: ContinuousClock.Instant)?

    init(probes: Probes, metrics: ServerMetrics) {
        self.probes = probes
        self.metrics = metrics
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        switch part {
        case .head(let request) where outstanding == 0 && answering == nil:
            if let answer = probes.answer(request) {
                let id = RequestEdgeMiddleware<BasicRequestContext>.clientID(request.headerFields)
                    ?? String((0..<32).map { _ in "0123456789abcdef".randomElement()! })
                let path = String((request.path ?? "").prefix { $0 != "?" })
                answering = (answer, path, request.method.rawValue, id, .now)
                return
            }
            outstanding += 1
            context.fireChannelRead(data)
        case .head:
            outstanding += 1
            context.fireChannelRead(data)
        case .body:
            // A probe's body (there should be none) is read and dropped.
            if answering == nil { context.fireChannelRead(data) }
        case .end:
            guard let probe = answering else { return context.fireChannelRead(data) }
            answering = nil
            respond(probe.answer, id: probe.id, context: context)
            metrics.recordRequest(route: probe.path, method: probe.method, status: probe.answer.status.code,
                                  duration: .now - probe.start)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { outstanding = max(0, outstanding - 1) }
        context.write(data, promise: promise)
    }

    private func respond(_ answer: Probes.Answer, id: String, context: ChannelHandlerContext) {
        var response = HTTPResponse(status: answer.status)
        response.headerFields[.contentType] = "application/json"
        response.headerFields[.requestID] = id
        response.headerFields[.xContentTypeOptions] = "nosniff"
        response.headerFields[.contentLength] = "\(answer.body.count)"
        response.headerFields[.connection] = "close"
        response.headerFields[.server] = "lamina"
        context.write(wrapOutboundOut(.head(response)), promise: nil)
        if !answer.headOnly {
            context.write(wrapOutboundOut(.body(context.channel.allocator.buffer(bytes: answer.body))), promise: nil)
        }
        let written = context.eventLoop.makePromise(of: Void.self)
        written.futureResult.whenComplete { [channel = context.channel] _ in channel.close(promise: nil) }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
    }
}
