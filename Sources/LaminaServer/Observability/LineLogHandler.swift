import Foundation
import Logging
import Synchronization
import LaminaJSON

/// swift-log's lines on standard error, as text for a person or JSON for a
/// log collector, each written whole (one `write`, so lines from several
/// threads never interleave).
///
/// ```text
/// 2026-11-23T23:05:01.123Z info request_id=4f3a... route=/render status=200 ms=12.4 request
/// {"time":"2026-11-23T23:05:01.123Z","level":"info","message":"request","request_id":"4f3a...","status":"200"}
/// ```
struct LineLogHandler: LogHandler {
    var format: ServerConfiguration.LogFormat
    var label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var all = metadata
        if let extra = event.metadata { all.merge(extra) { $1 } }
        // Hummingbird's own request id is ours too (`request_id`).
        all.removeValue(forKey: "hb.request.id")
        let time = Self.timestamp()
        var line: String
        switch format {
        case .text:
            line = "\(time) \(event.level)"
            for (key, value) in all.sorted(by: { $0.key < $1.key }) { line += " \(key)=\(value)" }
            line += " \(event.message)"
        case .json:
            var object: [String: String] = ["time": time, "level": "\(event.level)", "message": "\(event.message)"]
            for (key, value) in all { object[key] = "\(value)" }
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
            line = String(decoding: data, as: UTF8.self)
        }
        line += "\n"
        Self.write(line)
    }

    private static let output = Mutex(())

    private static func write(_ line: String) {
        var bytes = Array(line.utf8)
        output.withLock { _ in
            bytes.withUnsafeMutableBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let n = Foundation.write(STDERR_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                    if n <= 0 { break }
                    offset += n
                }
            }
        }
    }

    private static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var tm = tm()
        var seconds = now.tv_sec
        gmtime_r(&seconds, &tm)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                      tm.tm_hour, tm.tm_min, tm.tm_sec, now.tv_nsec / 1_000_000)
    }
}
