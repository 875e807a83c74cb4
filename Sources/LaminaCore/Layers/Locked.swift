import Foundation

/// A value behind a lock, for the few process-wide tables of the model (the
/// per-class default overrides).
///
/// `Synchronization.Mutex` would do the same, but it needs macOS 15 and the
/// package still builds for macOS 14.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
