import Foundation
import Lamina
import LaminaIO

/// Tells a job's client that the job ended: `POST` of the job's status JSON
/// to the URL the job was created with (`POST /jobs?callback=URL` or the
/// `Lamina-Callback` header), signed so the receiver knows it is ours:
///
/// ```
/// POST /hooks/lamina HTTP/1.1
/// Content-Type: application/json
/// Lamina-Signature: sha256=<hex HMAC-SHA256 of the body under LAMINA_WEBHOOK_KEY>
/// Lamina-Delivery: <an id, the same on every attempt>
///
/// {"id": "...", "stage": "done", "result": "/jobs/.../result", ...}
/// ```
///
/// A failure or an answer other than 2xx is tried again after 1, 2, 4...
/// seconds (`retryDelay` doubling, at most 60 s), `attempts` times in all;
/// each attempt is recorded in the job's status (`callback`). Only `http`
/// and `https` URLs to the hosts of `--callback-hosts` are taken, checked
/// when the job is created: a stranger's job cannot make the server call
/// into the private network.
struct WebhookSender: Sendable {
    var key: [UInt8]
    /// Host names (`hooks.example.com`), or `*.example.com` for its subdomains.
    var allowedHosts: [String]
    var attempts = 5
    var retryDelay: Duration = .seconds(1)
    var timeout: Duration = .seconds(10)
    var metrics: ServerMetrics?

    /// The callback of a `POST /jobs`, checked.
    /// - Throws: 422 `invalidCallback` for a URL that is not http(s) to an allowed host.
    func check(_ text: String) throws(APIError) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = url.host?.lowercased(), !host.isEmpty else {
            throw APIError(.unprocessableContent, "invalidCallback", "the callback must be an http or https URL, got \(Quoted.prefix(text, limit: 80))")
        }
        guard url.user == nil, url.password == nil else {
            throw APIError(.unprocessableContent, "invalidCallback", "the callback URL must not carry a user or password")
        }
        guard allows(host) else {
            throw APIError(.unprocessableContent, "invalidCallback",
                           allowedHosts.isEmpty
                           ? "this server sends no callbacks (its --callback-hosts allows none)"
                           : "the callback's host \(Quoted.prefix(host, limit: 60)) is not one this server calls (--callback-hosts)")
        }
        return url
    }

    func allows(_ host: String) -> Bool {
        allowedHosts.contains { pattern in
            let pattern = pattern.lowercased()
            if pattern.hasPrefix("*.") { return host.hasSuffix(pattern.dropFirst(1)) && host.count > pattern.count - 1 }
            return host == pattern
        }
    }

    /// `sha256=` and the hex HMAC-SHA256 of `body` under the key.
    func signature(of body: [UInt8]) -> String {
        "sha256=" + HMACSHA256.code(for: body, key: key).lowercaseHex
    }

    /// Delivers `status` to `url`, retrying; `record` hears the delivery's
    /// state after each attempt (to keep in the job's status).
    func deliver(_ status: JobStatus, to url: URL, record: @Sendable (JobStatus.Callback) async -> Void) async {
        var callback = status.callback ?? JobStatus.Callback(url: url.absoluteString)
        callback.delivery = callback.delivery ?? JobID.make()
        callback.state = "delivering"
        var sent = status
        sent.callback = nil
        let body = Array(JSONBody.encode(sent).readableBytesView)
        var delay = retryDelay
        for attempt in 1...max(1, attempts) {
            callback.attempts = attempt
            do {
                let answer = try await OutboundHTTP.send(.init(
                    method: "POST", url: url,
                    headers: [("Content-Type", "application/json"), ("Lamina-Signature", signature(of: body)),
                              ("Lamina-Delivery", callback.delivery!)],
                    body: body, timeout: timeout, maxBytes: 64 << 10))
                callback.lastStatus = answer.status
                callback.lastError = (200..<300).contains(answer.status) ? nil : "the receiver answered \(answer.status)"
            } catch {
                callback.lastStatus = nil
                callback.lastError = error.description
            }
            if callback.lastError == nil {
                callback.state = "delivered"
                metrics?.recordWebhook("delivered")
                await record(callback)
                return
            }
            if attempt == max(1, attempts) { break }
            metrics?.recordWebhook("retried")
            await record(callback)
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, .seconds(60))
        }
        callback.state = "failed"
        metrics?.recordWebhook("failed")
        await record(callback)
    }
}
