#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file or stream that could not be read or written, in words a user of
/// the command line understands: the path, what was being done, and why.
public struct IOError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The path, or a name such as `<stdin>` or `<stdout>`.
    public var path: String
    /// What failed and why, without the path.
    public var reason: String
    /// The `errno` behind it, or 0.
    public var code: Int32

    /// An error about `path`: `reason`, and the C library's `errno` when one was set.
    public init(path: String, _ reason: String, code: Int32 = 0) {
        self.path = path; self.reason = reason; self.code = code
    }

    /// `reason` from an `errno` value: "cannot open it: no such file or directory".
    init(path: String, doing operation: String, code: Int32) {
        self.init(path: path, "cannot \(operation): \(String(cString: strerror(code)).lowercased())", code: code)
    }

    /// The path, then why.
    public var description: String { "\(path): \(reason)" }
}

/// Reading whole inputs with a bound, and writing whole outputs safely.
///
/// Every input is read with a byte limit checked as the bytes arrive (an
/// endless stream is refused at the limit, not read to the end), and only
/// regular files are opened as files: a FIFO, a device or a directory named
/// as an input is refused without blocking. Outputs to a path are written
/// atomically (a temporary file in the same folder, renamed over the path),
/// through symbolic links (the link's target is replaced, the link stays),
/// and never over a device, FIFO or directory. Writes to a stream go out in
/// large writes, and a closed or full stream is an error, never a trap.
package enum FileIO {
    /// The bytes of the regular file at `path`, at most `maxBytes` of them.
    /// - Throws: `IOError` when it cannot be opened or read, is not a regular
    ///   file, or has more than `maxBytes` bytes.
    public static func readFile(atPath path: String, maxBytes: Int) throws(IOError) -> [UInt8] {
        // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a
        // writer forever. It is refused below; regular files ignore the flag.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw IOError(path: path, doing: "open it", code: errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw IOError(path: path, doing: "read it", code: errno) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw IOError(path: path, "is \(kind(of: info.st_mode)), not a regular file", code: EINVAL)
        }
        let size = Int(clamping: info.st_size)
        guard size <= maxBytes else {
            throw IOError(path: path, "has \(size) bytes, over the limit of \(maxBytes)", code: EFBIG)
        }
        return try readAll(fd, name: path, maxBytes: maxBytes, sizeHint: size)
    }

    /// Everything left on a stream (standard input), at most `maxBytes`.
    /// - Throws: `IOError` at the first byte past the limit, without reading
    ///   further, or when the stream cannot be read.
    public static func readStream(_ fd: Int32, name: String, maxBytes: Int) throws(IOError) -> [UInt8] {
        try readAll(fd, name: name, maxBytes: maxBytes, sizeHint: 1 << 16)
    }

    private static func readAll(_ fd: Int32, name: String, maxBytes: Int, sizeHint: Int) throws(IOError) -> [UInt8] {
        var bytes = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: max(min(sizeHint + 1, 1 << 20), 4096))
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN { waitReadable(fd); continue }
                throw IOError(path: name, doing: "read it", code: errno)
            }
            if n == 0 { return bytes }
            guard bytes.count + n <= maxBytes else {
                throw IOError(path: name, "has more than \(maxBytes) bytes (the limit)", code: EFBIG)
            }
            bytes.append(contentsOf: chunk[0..<n])
        }
    }

    private static func waitReadable(_ fd: Int32) {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        _ = poll(&p, 1, -1)
    }

    /// Writes `bytes` to `path` so that `path` either keeps its old content
    /// or has all of the new one.
    ///
    /// The bytes go to `.lamina-<random>.tmp` in the destination's folder (a
    /// short, recognisable name: a killed process leaves nothing that could
    /// be mistaken for output, and a long destination name still fits), are
    /// flushed, and the file is renamed over the destination. A symbolic
    /// link is followed: its target gets the new content and the link stays.
    /// A new file gets mode 0666 less the umask; an existing one keeps its
    /// mode.
    /// - Throws: `IOError` when the destination is a directory, device or
    ///   FIFO, or the file cannot be written (the temporary file is removed).
    public static func writeFileAtomically(_ bytes: [UInt8], toPath path: String) throws(IOError) {
        let destination = try resolvedDestination(path)
        var info = stat()
        var mode: mode_t?
        if stat(destination, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFREG else {
                throw IOError(path: path, "is \(kind(of: info.st_mode)); give the path of a file to write", code: EINVAL)
            }
            mode = info.st_mode & 0o7777
        }
        let (fd, temporary) = try createTemporaryFile(beside: destination, reportingAs: path)
        var renamed = false
        defer { if !renamed { unlink(temporary) } }
        do {
            defer { close(fd) }
            if let mode { fchmod(fd, mode) }
            try writeAll(bytes, to: fd, name: path)
            guard fsync(fd) == 0 else { throw IOError(path: path, doing: "flush it to disk", code: errno) }
        }
        guard rename(temporary, destination) == 0 else {
            throw IOError(path: path, doing: "move the new file into place", code: errno)
        }
        renamed = true
    }

    /// A path for a new file beside `path` (through links), with a short,
    /// recognisable name ending in `suffix`, for a program that writes the
    /// file itself before `moveIntoPlace` renames it over `path`.
    public static func temporaryPath(beside path: String, suffix: String) throws(IOError) -> String {
        let destination = try resolvedDestination(path)
        try refuseSpecialFile(destination, reportingAs: path)
        return folder(of: destination) + ".lamina-\(String(UInt64.random(in: 0...UInt64.max), radix: 36))\(suffix)"
    }

    /// Renames `temporary` (from `temporaryPath(beside:suffix:)`) over `path`.
    public static func moveIntoPlace(_ temporary: String, toPath path: String) throws(IOError) {
        let destination = try resolvedDestination(path)
        try refuseSpecialFile(destination, reportingAs: path)
        guard rename(temporary, destination) == 0 else {
            let code = errno
            unlink(temporary)
            throw IOError(path: path, doing: "move the new file into place", code: code)
        }
    }

    private static func refuseSpecialFile(_ destination: String, reportingAs path: String) throws(IOError) {
        var info = stat()
        if stat(destination, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
            throw IOError(path: path, "is \(kind(of: info.st_mode)); give the path of a file to write", code: EINVAL)
        }
    }

    /// Writes all of `bytes` to a stream (standard output) in large writes.
    /// - Throws: `IOError` when the stream is closed, full or broken.
    public static func writeStream(_ bytes: [UInt8], to fd: Int32, name: String) throws(IOError) {
        try writeAll(bytes, to: fd, name: name)
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32, name: String) throws(IOError) {
        var failure: Int32 = 0
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                let n = write(fd, base + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += n
            }
        }
        if failure != 0 { throw IOError(path: name, doing: "write it", code: failure) }
    }

    /// `path`, or the file a symbolic link there points to (through any
    /// number of links, relative ones from the link's own folder).
    private static func resolvedDestination(_ path: String) throws(IOError) -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink(current, &buffer, buffer.count - 1)
            guard n >= 0 else { throw IOError(path: path, doing: "follow the symbolic link", code: errno) }
            let target = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = target.hasPrefix("/") ? target : folder(of: current) + target
        }
        throw IOError(path: path, "has too many levels of symbolic links", code: ELOOP)
    }

    private static func folder(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
    }

    /// Creates `.lamina-<random>.tmp` next to `path`, exclusively.
    private static func createTemporaryFile(beside path: String, reportingAs name: String) throws(IOError) -> (Int32, String) {
        let directory = folder(of: path)
        var attempts = 0
        while true {
            let temporary = "\(directory).lamina-\(String(UInt64.random(in: 0...UInt64.max), radix: 36)).tmp"
            let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if fd >= 0 { return (fd, temporary) }
            attempts += 1
            if errno != EEXIST || attempts >= 16 {
                throw IOError(path: name, doing: "create a file in \(directory.isEmpty ? "the current folder" : directory)", code: errno)
            }
        }
    }

    private static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        default: return "not a regular file"
        }
    }
}
