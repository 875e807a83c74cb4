import HTTPTypes
import NIOCore
import NIOHTTPTypes
import Synchronization

/// Caps the connections the API listener holds at once, in all and per
/// client address, so that strangers cannot hold every file descriptor
/// (when the process runs out of them, libdispatch traps and the server
/// ends). A connection over a cap is closed as soon as it opens, before
/// anything of it is read, and counted; the connections already held go
/// on. How long a connection may sit idle or dribble its request head is
/// Hummingbird's idle timeout (`ServerConfiguration.idleTimeout`).
///
/// ```swift
/// let gate = ConnectionGate(limits: .init(total: 1000, perClient: 100)) { reason in print("refused: \(reason)") }
/// let server = HTTPServerBuilder.http1(configuration: .init(
///     additionalChannelHandlers: [gate.handler()], idleTimeout: .seconds(30)))
/// ```
final class ConnectionGate: Sendable {
    struct Limits: Sendable, Hashable {
        /// Connections held at once, from every client together.
        var total: Int
        /// Connections held at once from one client address; nil: no cap of its own.
        var perClient: Int?
    }

    /// Why a connection was refused.
    enum Refusal: String, Sendable {
        case total, perClient = "per_client"
    }

    let limits: Limits
    private let onRefusal: @Sendable (Refusal) -> Void
    private let state = Mutex(State())

    private struct State {
        var open = 0
        var byClient: [String: Int] = [:]
    }

    init(limits: Limits, onRefusal: @escaping @Sendable (Refusal) -> Void = { _ in }) {
        self.limits = limits
        self.onRefusal = onRefusal
    }

    /// The connections held now.
    var openConnections: Int { state.withLock { $0.open } }

    /// A handler for one connection's pipeline.
    func handler() -> Handler { Handler(gate: self) }

    /// Admits a connection from `client`, or says which cap it is over.
    fileprivate func admit(_ client: String?) -> Refusal? {
        let refusal: Refusal? = state.withLock { state in
            guard state.open < limits.total else { return .total }
            if let client, let cap = limits.perClient {
                guard state.byClient[client, default: 0] < cap else { return .perClient }
                state.byClient[client, default: 0] += 1
            }
            state.open += 1
            return nil
        }
        if let refusal { onRefusal(refusal) }
        return refusal
    }

    fileprivate func release(_ client: String?) {
        state.withLock { state in
            state.open -= 1
            if let client, limits.perClient != nil, let held = state.byClient[client] {
                state.byClient[client] = held > 1 ? held - 1 : nil
            }
        }
    }

    /// Admits its connection when it becomes active, and releases it when it closes.
    final class Handler: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPRequestPart
        typealias InboundOut = HTTPRequestPart

        private let gate: ConnectionGate
        /// Whether the gate has been asked (once a connection).
        private var asked = false
        private var admitted = false
        private var client: String?

        fileprivate init(gate: ConnectionGate) { self.gate = gate }

        func handlerAdded(context: ChannelHandlerContext) {
            if context.channel.isActive { admit(context) }
        }

        func channelActive(context: ChannelHandlerContext) {
            admit(context)
            context.fireChannelActive()
        }

        func channelInactive(context: ChannelHandlerContext) {
            leave()
            context.fireChannelInactive()
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            leave()
        }

        private func admit(_ context: ChannelHandlerContext) {
            guard !asked else { return }
            asked = true
            client = context.channel.remoteAddress?.ipAddress
            if gate.admit(client) == nil {
                admitted = true
            } else {
                context.close(promise: nil)
            }
        }

        private func leave() {
            guard admitted else { return }
            admitted = false
            gate.release(client)
        }
    }
}
