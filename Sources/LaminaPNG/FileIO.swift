#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file reads and atomic whole-file writes with errors that name the path.
enum FileIO {
    /// The bytes of the file at `path`.
    /// - Throws: `PNGError.io`, or `.dataTooLarge` when the file is over `maxBytes`.
    static func readFile(atPath path: String, maxBytes: Int) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw PNGError.io(path: path, operation: "open for reading", code: errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw PNGError.io(path: path, operation: "stat", code: errno) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw PNGError.io(path: path, operation: "read (not a regular file)", code: EINVAL)
        }
        let size = Int(info.st_size)
        guard size <= maxBytes else { throw PNGError.dataTooLarge(byteCount: size, maxBytes: maxBytes) }

        // Read to end of file rather than trusting st_size: the file may change.
        var bytes = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: max(min(size + 1, 1 << 20), 4096))
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw PNGError.io(path: path, operation: "read", code: errno)
            }
            if n == 0 { return bytes }
            guard bytes.count + n <= maxBytes else {
                throw PNGError.dataTooLarge(byteCount: bytes.count + n, maxBytes: maxBytes)
            }
            bytes.append(contentsOf: chunk[0..<n])
        }
    }

    /// Writes `bytes` to `path` so that `path` either keeps its old content or
    /// has all of the new: the bytes go to a new temporary file in the same
    /// directory, which is flushed to disk and then renamed over `path` (rename
    /// is atomic within a file system). On failure the temporary file is
    /// removed. A new file gets mode 0666 less the umask.
    /// - Throws: `PNGError.io`.
    static func writeFileAtomically(_ bytes: [UInt8], toPath path: String) throws {
        let (fd, temporary) = try createTemporaryFile(beside: path)
        var renamed = false
        defer { if !renamed { unlink(temporary) } }
        do {
            defer { close(fd) }
            try bytes.withUnsafeBytes { raw in
                guard let base = raw.baseAddress else { return }  // nothing to write
                var offset = 0
                while offset < raw.count {
                    let n = write(fd, base + offset, raw.count - offset)
                    if n < 0 {
                        if errno == EINTR { continue }
                        throw PNGError.io(path: path, operation: "write temporary file for", code: errno)
                    }
                    offset += n
                }
            }
            guard fsync(fd) == 0 else {
                throw PNGError.io(path: path, operation: "flush temporary file for", code: errno)
            }
        }
        guard rename(temporary, path) == 0 else {
            throw PNGError.io(path: path, operation: "rename temporary file onto", code: errno)
        }
        renamed = true
    }

    /// Creates `.<name>.<random>.tmp` next to `path`, exclusively.
    private static func createTemporaryFile(beside path: String) throws -> (Int32, String) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var attempts = 0
        while true {
            let temporary = "\(directory).\(name).\(String(UInt64.random(in: 0...UInt64.max), radix: 36)).tmp"
            let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if fd >= 0 { return (fd, temporary) }
            attempts += 1
            if errno != EEXIST || attempts >= 16 {
                throw PNGError.io(path: path, operation: "create a temporary file to write", code: errno)
            }
        }
    }
}
