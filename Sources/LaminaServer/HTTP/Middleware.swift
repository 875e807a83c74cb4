import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Lamina
import Logging

extension HTTPField.Name {
    static let requestID = HTTPField.Name("X-Request-Id")!
    static let serverTiming = HTTPField.Name("Server-Timing")!
    static let laminaBackend = HTTPField.Name("X-Lamina-Backend")!
    static let laminaCache = HTTPField.Name("X-Lamina-Cache")!
    static let laminaFrames = HTTPField.Name("X-Lamina-Frames")!
    static let laminaSkipped = HTTPField.Name("X-Lamina-Skipped")!
    static let laminaCallback = HTTPField.Name("Lamina-Callback")!
}

/// The edge of every request: gives it an id (the client's `X-Request-Id`
/// when it sends a sane one, else a new one) in every log line and in the
/// response, turns any error into the JSON error body, and logs and counts
/// the answer. Health checks are counted but not logged.
struct RequestEdgeMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let id = Self.clientID(request.headers) ?? context.id
        var context = context
        context.logger[metadataKey: "request_id"] = "\(id)"
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            let apiError = APIError.from(error)
            if apiError.status.code >= 500 {
                context.logger.error("failed", metadata: ["error": "\(error)"])
            }
            response = apiError.response()
        }
        response.headers[.requestID] = id
        // Answers are JSON, pictures and video of the types they say; a
        // browser must not guess otherwise (a stranger's bytes echoed in an error).
        if response.headers[.xContentTypeOptions] == nil { response.headers[.xContentTypeOptions] = "nosniff" }
        let duration = ContinuousClock.now - start
        let route = context.endpointPath ?? "unmatched"
        metrics.recordRequest(route: route, method: request.method.rawValue, status: response.status.code, duration: duration)
        if request.uri.path != "/healthz" {
            context.logger.info("request", metadata: [
                "method": "\(request.method)", "path": "\(request.uri.path)", "status": "\(response.status.code)",
                "ms": "\(String(format: "%.1f", duration.milliseconds))",
            ])
        }
        return response
    }

    /// An id a client sent: up to 128 visible ASCII characters, so it cannot
    /// forge log lines or fill them.
    static func clientID(_ headers: HTTPFields) -> String? {
        guard let value = headers[.requestID], !value.isEmpty, value.utf8.count <= 128,
              value.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
        else { return nil }
        return value
    }
}

/// `Authorization: Bearer <token>` on the routes that render. Compared in
/// constant time, so the answer's timing does not reveal the token.
struct BearerTokenMiddleware<Context: RequestContext>: RouterMiddleware {
    let token: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let given = request.headers[.authorization].flatMap { header -> Substring? in
            let parts = header.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
            return parts[1]
        }
        guard let given, Self.constantTimeEqual(Array(given.utf8), Array(token.utf8)) else {
            var error = APIError(.unauthorized, "unauthorized", "this route needs Authorization: Bearer <token>")
            error.headers[.wwwAuthenticate] = "Bearer"
            throw error
        }
        return try await next(request, context)
    }

    private static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for i in 0..<max(a.count, b.count) {
            difference |= (i < a.count ? a[i] : 0) ^ (i < b.count ? b[i] : 0)
        }
        return difference == 0
    }
}

/// A known path asked with a method it does not take: 405 with `Allow`
/// (the router alone would answer 404, as for a path it does not know).
/// Paths are the router's patterns: a `:name` segment matches any one segment.
struct MethodCheckMiddleware<Context: RequestContext>: RouterMiddleware {
    let methods: [String: [HTTPRequest.Method]]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let allowed = allowedMethods(request.uri.path), !allowed.contains(request.method) {
            var error = APIError(.methodNotAllowed, "methodNotAllowed",
                                 "\(Quoted.prefix(request.uri.path, limit: 60)) takes \(allowed.map(\.rawValue).joined(separator: ", ")), not \(request.method.rawValue)")
            error.headers[.allow] = allowed.map(\.rawValue).joined(separator: ", ")
            throw error
        }
        return try await next(request, context)
    }

    private func allowedMethods(_ path: String) -> [HTTPRequest.Method]? {
        if let exact = methods[path] { return exact }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        return methods.first { pattern, _ in
            let parts = pattern.split(separator: "/", omittingEmptySubsequences: false)
            return parts.count == segments.count
                && zip(parts, segments).allSatisfy { part, segment in part.hasPrefix(":") ? !segment.isEmpty : part == segment }
        }?.value
    }
}
