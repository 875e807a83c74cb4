import CEGL
import Synchronization

/// Process-wide bookkeeping of initialized EGL displays.
///
/// EGL hands out one EGLDisplay per native display, and `eglTerminate` ends it
/// for every user at once. Contexts therefore share displays through this
/// registry: the first lease initializes a display, the last one terminates it
/// and releases its native resources (a GBM device and its file).
final class EGLDisplayRegistry: Sendable {
    static let shared = EGLDisplayRegistry()

    private struct Entry {
        var address: UInt
        var leases: Int
        var version: (major: Int32, minor: Int32)
        var releaseNative: @Sendable () -> Void
    }

    private let entries = Mutex<[String: Entry]>([:])

    /// Opens and initializes `candidate`'s display, or shares it if another
    /// context already holds it.
    func lease(_ candidate: EGLDisplayCandidate) throws -> EGLDisplayLease {
        try entries.withLock { entries in
            if var entry = entries[candidate.key] {
                entry.leases += 1
                entries[candidate.key] = entry
                return EGLDisplayLease(candidate: candidate, address: entry.address, version: entry.version)
            }
            let opened = try candidate.open()
            var major: EGLint = 0
            var minor: EGLint = 0
            guard eglInitialize(EGLDisplay(bitPattern: opened.address), &major, &minor) == EGL_TRUE else {
                let code = eglGetError()
                opened.releaseNative()
                throw GLError.egl(step: "eglInitialize on \(candidate.label)", code: code)
            }
            entries[candidate.key] = Entry(
                address: opened.address, leases: 1, version: (major, minor),
                releaseNative: opened.releaseNative)
            return EGLDisplayLease(candidate: candidate, address: opened.address, version: (major, minor))
        }
    }

    /// Gives a lease back; the last one terminates the display.
    fileprivate func release(key: String) {
        entries.withLock { entries in
            guard var entry = entries[key] else { return }
            entry.leases -= 1
            if entry.leases > 0 {
                entries[key] = entry
                return
            }
            entries[key] = nil
            eglTerminate(EGLDisplay(bitPattern: entry.address))
            entry.releaseNative()
        }
    }
}

/// One context's share of an initialized EGL display. Giving it up (deinit)
/// terminates the display when no other context uses it.
final class EGLDisplayLease {
    let candidate: EGLDisplayCandidate
    let display: EGLDisplay?
    let version: (major: Int32, minor: Int32)

    fileprivate init(candidate: EGLDisplayCandidate, address: UInt, version: (major: Int32, minor: Int32)) {
        self.candidate = candidate
        self.display = EGLDisplay(bitPattern: address)
        self.version = version
    }

    /// `eglQueryString` on this display (EGL_VENDOR, EGL_VERSION, EGL_EXTENSIONS).
    func string(_ name: Int32) -> String {
        eglQueryString(display, name).map { String(cString: $0) } ?? ""
    }

    deinit {
        EGLDisplayRegistry.shared.release(key: candidate.key)
    }
}
