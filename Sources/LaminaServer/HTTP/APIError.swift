import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Lamina

/// Every answer that is not a picture: a status and a JSON body a client can
/// act on, the same shape on every route.
///
/// ```json
/// {"error": {"code": "unknownKey", "message": "unknown key \"colour\"; did you mean \"color\"?",
///            "path": "$.sublayers[0].colour", "line": 3, "column": 17},
///  "errors": [ ... every problem, when the scene had several ... ]}
/// ```
///
/// Input never makes a 500: a 500 (`internal`) means a fault of ours.
struct APIError: Error, HTTPResponseError, Sendable {
    /// One problem: the top-level `error`, or an entry of `errors`.
    struct Problem: Codable, Sendable {
        var code: String
        var message: String
        var path: String?
        var line: Int?
        var column: Int?
    }

    var status: HTTPResponse.Status
    var problem: Problem
    /// Every problem, for a scene refused for several reasons.
    var problems: [Problem]?
    var headers = HTTPFields()

    init(_ status: HTTPResponse.Status, _ code: String, _ message: String, path: String? = nil) {
        self.status = status
        problem = Problem(code: code, message: message, path: path)
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        response()
    }

    func response() -> Response {
        struct Body: Encodable {
            var error: Problem
            var errors: [Problem]?
        }
        var headers = headers
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers,
                        body: .init(byteBuffer: JSONBody.encode(Body(error: problem, errors: problems))))
    }
}

extension APIError {
    /// A scene the format refuses: 400 when it is not JSON at all, 422
    /// otherwise, with every problem located.
    init(_ error: SceneError) {
        if error.kind == .interrupted {
            // Reading stopped at the request's deadline: not the scene's fault.
            self.init(.serviceUnavailable, "deadlineExceeded", "the request's deadline passed while its scene was read",
                      path: error.location)
            problem.line = error.line
            problem.column = error.column
            return
        }
        let problems = error.issues.map { issue in
            Problem(code: issue.kind.rawValue, message: issue.message, path: issue.location,
                    line: issue.position?.line, column: issue.position?.column)
        }
        let first = error.issues[0]
        self.init(first.kind == .syntax ? .badRequest : .unprocessableContent, problems[0].code, problems[0].message)
        problem = problems[0]
        self.problems = problems
    }

    /// A frame over the render budget: 422 naming the layer.
    init(_ refusal: RenderRefusal) {
        self.init(.unprocessableContent, "limitExceeded", refusal.message, path: refusal.layer.description)
    }

    /// Why the pool gave no picture.
    init(_ failure: RenderFailure) {
        switch failure {
        case .queueFull:
            self.init(.tooManyRequests, "queueFull", "every worker is busy and the queue is full; retry later")
            headers[.retryAfter] = "1"
        case .deadlinePassed:
            self.init(.serviceUnavailable, "deadlineExceeded", "the request's deadline passed before its picture was ready")
        case .draining:
            self.init(.serviceUnavailable, "draining", "the server is shutting down")
            headers[.connection] = "close"
        case .abandoned:
            self.init(.serviceUnavailable, "abandoned", "the request was abandoned")
        case .refused(let refusal):
            self.init(refusal)
        case .backendUnavailable(let message):
            self.init(.unprocessableContent, "backendUnavailable", message)
        case .failed(let message):
            self.init(.internalServerError, "renderFailed", message)
        }
    }

    /// Any other error, as the edge of the server answers it: Hummingbird's
    /// own (no such route: 404) keep their status; the rest are our faults.
    static func from(_ error: any Error) -> APIError {
        switch error {
        case let error as APIError: return error
        case is CancellationError:
            // The client closed the connection first; nobody reads this answer,
            // but the logs and metrics count it as nginx does.
            return APIError(.init(code: 499, reasonPhrase: "Client Closed Request"), "clientClosed",
                            "the client closed the connection before the answer was ready")
        case let error as SceneError: return APIError(error)
        case let error as RenderRefusal: return APIError(error)
        case let error as RenderFailure: return APIError(error)
        case let error as HTTPError:
            let code: String
            switch error.status {
            case .notFound: code = "notFound"
            case .methodNotAllowed: code = "methodNotAllowed"
            case .contentTooLarge: code = "bodyTooLarge"
            case .badRequest: code = "badRequest"
            default: code = "http\(error.status.code)"
            }
            var apiError = APIError(error.status, code, error.body ?? error.status.reasonPhrase)
            apiError.headers.append(contentsOf: error.headers)
            return apiError
        default:
            return APIError(.internalServerError, "internal", String(describing: error))
        }
    }
}

/// JSON bodies, encoded one way everywhere (sorted keys: stable for tests and diffs).
enum JSONBody {
    static func encode(_ value: some Encodable) -> ByteBuffer {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data(#"{"error":{"code":"internal","message":"unencodable body"}}"#.utf8)
        return ByteBuffer(bytes: data)
    }

    static func response(_ status: HTTPResponse.Status, _ value: some Encodable, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: encode(value)))
    }
}
