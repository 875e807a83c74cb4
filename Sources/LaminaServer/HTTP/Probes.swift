import Foundation
import HTTPTypes
import NIOCore

/// The orchestrator's probes: `GET /healthz` (the process is alive: always
/// 200) and `GET /readyz` (200 when it takes requests; 503 while starting,
/// saturated or draining, with the pool's load). Answered on the event
/// loop by `ProbeResponder`, or by the router for a probe pipelined behind
/// other requests; the same answer either way.
struct Probes: Sendable {
    let pool: RenderPool
    /// Whether a shared job store's schema is in place; nil: no shared store.
    var storeReady: (@Sendable () -> Bool)? = nil

    /// A probe's answer: a status and its JSON body.
    struct Answer {
        var status: HTTPResponse.Status
        var body: [UInt8]
        /// A `HEAD` request: the head alone.
        var headOnly = false
    }

    /// The answer to `request` if it is a probe (`GET` or `HEAD` of
    /// `/healthz` or `/readyz`, any query), else nil.
    func answer(_ request: HTTPRequest) -> Answer? {
        guard request.method == .get || request.method == .head, let path = request.path else { return nil }
        let route = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        var answer: Answer
        switch route {
        case "/healthz": answer = health
        case "/readyz": answer = readiness
        default: return nil
        }
        answer.headOnly = request.method == .head
        return answer
    }

    var health: Answer {
        Answer(status: .ok, body: Array(JSONBody.encode(["status": "alive"]).readableBytesView))
    }

    var readiness: Answer {
        struct Body: Encodable {
            var ready: Bool
            /// `starting`, `jobStoreUnreachable` (a shared job store not yet
            /// reached at start), `saturated` or `draining` when not ready.
            var reason: String?
            var load: RenderPool.Load
        }
        let load = pool.load
        let storeMissing = storeReady.map { !$0() } ?? false
        let reason: String? = load.draining ? "draining" : load.isStarting ? "starting"
            : storeMissing ? "jobStoreUnreachable" : load.isSaturated ? "saturated" : nil
        let body = Body(ready: reason == nil, reason: reason, load: load)
        return Answer(status: reason == nil ? .ok : .serviceUnavailable, body: Array(JSONBody.encode(body).readableBytesView))
    }
}
