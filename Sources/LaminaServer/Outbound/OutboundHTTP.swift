import CCurl
import Dispatch
import Foundation
import Lamina

/// The render server's own HTTP requests to other hosts: webhook deliveries
/// and the pictures of template links. Through libcurl (TLS as the system
/// has it), one request at a time per call, on threads of their own so that
/// a slow host never holds an event loop or a render worker.
///
/// Every request is bounded: `http` and `https` only, no redirects (a
/// redirect could lead off the host that was allowed), a time limit, and a
/// most bytes of answer, past which it stops reading.
///
/// ```swift
/// let answer = try await OutboundHTTP.send(.init(method: "POST", url: url, headers: ["Content-Type": "application/json"],
///                                                body: Array(json.utf8), timeout: .seconds(10), maxBytes: 64 << 10))
/// answer.status  // 200
/// ```
enum OutboundHTTP {
    struct Request: Sendable {
        var method = "GET"
        var url: URL
        var headers: [(String, String)] = []
        var body: [UInt8]? = nil
        var timeout: Duration
        /// The most bytes of answer body read; past it the request fails.
        var maxBytes: Int
    }

    struct Response: Sendable {
        var status: Int
        var body: [UInt8]
    }

    /// Why no answer came.
    struct Failure: Error, CustomStringConvertible, Sendable {
        var description: String
    }

    /// Sends `request` and waits for its answer, off the caller's thread.
    static func send(_ request: Request) async throws(Failure) -> Response {
        let result: Result<Response, Failure> = await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: perform(request)) }
        }
        return try result.get()
    }

    private static let queue = DispatchQueue(label: "lamina.outbound-http", attributes: .concurrent)

    private static let globalInit: Void = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    /// What the write callback fills, reached through its context pointer.
    private final class Sink {
        var bytes: [UInt8] = []
        let maxBytes: Int
        var overflowed = false
        init(maxBytes: Int) { self.maxBytes = maxBytes }
    }

    private static func perform(_ request: Request) -> Result<Response, Failure> {
        _ = globalInit
        guard let curl = curl_easy_init() else { return .failure(Failure(description: "libcurl could not start a request")) }
        defer { curl_easy_cleanup(curl) }
        var headers: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headers) }
        for (name, value) in request.headers {
            headers = curl_slist_append(headers, "\(name): \(value)")
        }
        // curl adds "Expect: 100-continue" to large POSTs; receivers of
        // webhooks rarely want the extra round trip.
        headers = curl_slist_append(headers, "Expect:")
        let sink = Sink(maxBytes: request.maxBytes)
        let context = Unmanaged.passUnretained(sink).toOpaque()
        let milliseconds = max(1, Int(request.timeout.components.seconds * 1000 + request.timeout.components.attoseconds / 1_000_000_000_000_000))
        let body = request.body ?? []
        let outcome: CURLcode = body.withUnsafeBytes { bodyBytes in
            withExtendedLifetime(sink) {
                lamina_curl_set_string(curl, CURLOPT_URL, request.url.absoluteString)
                lamina_curl_set_string(curl, CURLOPT_PROTOCOLS_STR, "http,https")
                lamina_curl_set_long(curl, CURLOPT_FOLLOWLOCATION, 0)
                lamina_curl_set_long(curl, CURLOPT_NOSIGNAL, 1)
                lamina_curl_set_long(curl, CURLOPT_TIMEOUT_MS, milliseconds)
                lamina_curl_set_long(curl, CURLOPT_CONNECTTIMEOUT_MS, min(milliseconds, 5000))
                lamina_curl_set_size(curl, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(request.maxBytes))
                lamina_curl_set_string(curl, CURLOPT_USERAGENT, "lamina/\(laminaVersion)")
                lamina_curl_set_pointer(curl, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(headers))
                if request.method == "GET" {
                    lamina_curl_set_long(curl, CURLOPT_HTTPGET, 1)
                } else {
                    lamina_curl_set_string(curl, CURLOPT_CUSTOMREQUEST, request.method)
                    lamina_curl_set_long(curl, CURLOPT_POST, 1)
                    lamina_curl_set_pointer(curl, CURLOPT_POSTFIELDS, UnsafeMutableRawPointer(mutating: bodyBytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!))
                    lamina_curl_set_size(curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
                }
                lamina_curl_set_write(curl, { data, size, count, context in
                    let sink = Unmanaged<Sink>.fromOpaque(context!).takeUnretainedValue()
                    let n = size * count
                    guard sink.bytes.count + n <= sink.maxBytes else {
                        sink.overflowed = true
                        return 0  // curl stops with CURLE_WRITE_ERROR
                    }
                    data.map { sink.bytes.append(contentsOf: UnsafeRawBufferPointer(start: $0, count: n)) }
                    return n
                }, context)
                return curl_easy_perform(curl)
            }
        }
        if sink.overflowed || outcome == CURLE_FILESIZE_EXCEEDED {
            return .failure(Failure(description: "the answer is over \(request.maxBytes) bytes"))
        }
        guard outcome == CURLE_OK else {
            return .failure(Failure(description: String(cString: curl_easy_strerror(outcome))))
        }
        return .success(Response(status: lamina_curl_response_code(curl), body: sink.bytes))
    }
}
