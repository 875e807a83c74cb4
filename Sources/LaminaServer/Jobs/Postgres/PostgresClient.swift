import CLibPQ
import Dispatch
import Foundation
import Synchronization

/// A small pool of PostgreSQL connections through libpq, for the job store.
///
/// libpq's calls block, so each query runs on a thread of the pool's own
/// queue, never on an event loop or a render worker; at most `size`
/// connections exist, each used by one query at a time. A connection that
/// breaks is dropped and made again on next use, so the pool outlives a
/// restart of the server (its callers see `Failure.unavailable` meanwhile).
///
/// ```swift
/// let client = PostgresClient(connection: "postgres://lamina@db/lamina", password: nil, size: 4)
/// let rows = try await client.query("SELECT id FROM lamina_jobs WHERE state = $1", [.text("queued")])
/// rows.first?["id"]?.text
/// ```
final class PostgresClient: Sendable {
    /// A query parameter.
    enum Value: Sendable {
        case text(String)
        case bytes([UInt8])
        case null

        static func int(_ n: Int) -> Value { .text(String(n)) }
    }

    /// One row of an answer, by column name (text format; bytea decoded).
    struct Row: Sendable {
        var values: [String: Field]
        subscript(column: String) -> Field? { values[column] }
    }

    /// A field: its text, or nil for SQL NULL.
    struct Field: Sendable {
        var text: String?
        var int: Int? { text.flatMap { Int($0) } }
        var bool: Bool? { text.map { $0 == "t" } }
        /// A bytea's bytes (PostgreSQL's hex output, `\x...`).
        var bytes: [UInt8]? {
            guard let text, text.hasPrefix("\\x") else { return nil }
            var out: [UInt8] = []
            out.reserveCapacity((text.utf8.count - 2) / 2)
            var high: UInt8?
            for c in text.utf8.dropFirst(2) {
                let v: UInt8 = c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x61 + 10
                if let h = high { out.append(h << 4 | v); high = nil } else { high = v }
            }
            return out
        }
    }

    /// Why a query failed.
    enum Failure: Error, CustomStringConvertible, Sendable {
        /// No connection could be made, or it broke: PostgreSQL is not
        /// reachable now (try again later).
        case unavailable(String)
        /// PostgreSQL refused the statement.
        case statement(String, sqlState: String)

        var description: String {
            switch self {
            case .unavailable(let why): "the job store is unreachable: \(why)"
            case .statement(let why, let state): "the job store refused a statement (\(state)): \(why)"
            }
        }
    }

    private let connectionString: String
    private let password: String?
    private let queue = DispatchQueue(label: "lamina.postgres", attributes: .concurrent)
    private let idle = Mutex<[Connection]>([])
    private let slots: DispatchSemaphore

    /// Connections to `connection` (a `postgres://` URL or libpq's
    /// `key=value` words), at most `size` at once; `password` is added to
    /// them (else libpq's own: PGPASSWORD, ~/.pgpass).
    init(connection: String, password: String?, size: Int) {
        self.connectionString = connection
        self.password = password
        slots = DispatchSemaphore(value: max(1, size))
    }

    /// Runs `sql` with `parameters` ($1, $2...) and returns its rows.
    func query(_ sql: String, _ parameters: [Value] = []) async throws(Failure) -> [Row] {
        try await query(sql, Optional(parameters))
    }

    /// Runs several statements without parameters as one transaction
    /// (libpq's simple query protocol: the schema's migrations).
    func script(_ sql: String) async throws(Failure) {
        _ = try await query(sql, nil)
    }

    private func query(_ sql: String, _ parameters: [Value]?) async throws(Failure) -> [Row] {
        let result: Result<[Row], Failure> = await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: self.run(sql, parameters)) }
        }
        return try result.get()
    }

    private func run(_ sql: String, _ parameters: [Value]?) -> Result<[Row], Failure> {
        slots.wait()
        defer { slots.signal() }
        let connection: Connection
        if let reused = idle.withLock({ $0.popLast() }) {
            connection = reused
        } else {
            switch Connection.open(connectionString, password: password) {
            case .success(let made): connection = made
            case .failure(let failure): return .failure(failure)
            }
        }
        let result = connection.execute(sql, parameters)
        if case .failure(.unavailable) = result {
            connection.close()  // broken: made again next time
        } else {
            idle.withLock { $0.append(connection) }
        }
        return result
    }

    /// Closes the idle connections.
    func close() {
        for connection in idle.withLock({ list in defer { list = [] }; return list }) { connection.close() }
    }

    /// One libpq connection, used by one thread at a time (the pool's).
    private final class Connection: @unchecked Sendable {
        private var handle: OpaquePointer?

        private init(handle: OpaquePointer) { self.handle = handle }

        static func open(_ connection: String, password: String?) -> Result<Connection, Failure> {
            var keys = ["dbname", "connect_timeout", "application_name"]
            var values = [connection, "5", "lamina"]
            if let password { keys.append("password"); values.append(password) }
            let handle: OpaquePointer? = withCStrings(keys) { keyPointers in
                withCStrings(values) { valuePointers in
                    // expand_dbname 1: the first "dbname" may be a whole URL or key=value string.
                    PQconnectdbParams(keyPointers, valuePointers, 1)
                }
            }
            guard let handle else { return .failure(.unavailable("libpq could not allocate a connection")) }
            guard PQstatus(handle) == CONNECTION_OK else {
                let message = String(cString: PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines)
                PQfinish(handle)
                return .failure(.unavailable(message))
            }
            // NOTICEs ("relation ... already exists, skipping") are not
            // for the server's standard error.
            PQsetNoticeProcessor(handle, { _, _ in }, nil)
            return .success(Connection(handle: handle))
        }

        func execute(_ sql: String, _ parameters: [Value]?) -> Result<[Row], Failure> {
            guard let handle else { return .failure(.unavailable("the connection is closed")) }
            guard let parameters else {
                let result = PQexec(handle, sql)
                defer { PQclear(result) }
                return check(result, handle).map { _ in [] }
            }
            let buffers: [[UInt8]?] = parameters.map {
                switch $0 {
                case .text(let s): Array(s.utf8) + [0]
                case .bytes(let b): b
                case .null: nil
                }
            }
            let lengths = parameters.map { value -> Int32 in if case .bytes(let b) = value { Int32(b.count) } else { 0 } }
            let formats = parameters.map { value -> Int32 in if case .bytes = value { 1 } else { 0 } }
            let result: OpaquePointer? = withBufferPointers(buffers) { pointers in
                PQexecParams(handle, sql, Int32(parameters.count), nil, pointers, lengths, formats, 0)
            }
            defer { PQclear(result) }
            return check(result, handle).map { result in
                guard let result else { return [] }
                let columns = (0..<PQnfields(result)).map { String(cString: PQfname(result, $0)) }
                var rows: [Row] = []
                for r in 0..<PQntuples(result) {
                    var values: [String: Field] = [:]
                    for (c, name) in columns.enumerated() {
                        let isNull = PQgetisnull(result, r, Int32(c)) == 1
                        values[name] = Field(text: isNull ? nil : String(cString: PQgetvalue(result, r, Int32(c))))
                    }
                    rows.append(Row(values: values))
                }
                return rows
            }
        }

        /// The result, or why the statement failed.
        private func check(_ result: OpaquePointer?, _ handle: OpaquePointer) -> Result<OpaquePointer?, Failure> {
            let status = result.map(PQresultStatus) ?? PGRES_FATAL_ERROR
            guard status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK else {
                let message = result.flatMap { PQresultErrorMessage($0) }.map { String(cString: $0) } ?? ""
                let detail = (message.isEmpty ? String(cString: PQerrorMessage(handle)) : message).trimmingCharacters(in: .whitespacesAndNewlines)
                if PQstatus(handle) != CONNECTION_OK {
                    return .failure(.unavailable(detail))
                }
                let state = result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "C"))) }.map { String(cString: $0) } ?? "?????"
                // Connection exceptions (class 08) and an administrator's shutdown (57P01...) mean "try later".
                if state.hasPrefix("08") || state.hasPrefix("57P") { return .failure(.unavailable(detail)) }
                return .failure(.statement(detail, sqlState: state))
            }
            return .success(result)
        }

        func close() {
            if let handle { PQfinish(handle) }
            handle = nil
        }

        deinit { close() }
    }
}

/// `body` with C strings of `strings` (NUL-terminated, alive for the call).
private func withCStrings<R>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    return body(copies.map { UnsafePointer($0) } + [nil])
}

/// `body` with a pointer to each buffer's bytes (nil for nil), alive for the call.
private func withBufferPointers<R>(_ buffers: [[UInt8]?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    var pointers: [UnsafePointer<CChar>?] = []
    var allocations: [UnsafeMutablePointer<UInt8>] = []
    defer { allocations.forEach { $0.deallocate() } }
    for buffer in buffers {
        guard let buffer else { pointers.append(nil); continue }
        let memory = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, buffer.count))
        memory.initialize(from: buffer, count: buffer.count)
        allocations.append(memory)
        pointers.append(UnsafeRawPointer(memory).assumingMemoryBound(to: CChar.self))
    }
    return body(pointers)
}
