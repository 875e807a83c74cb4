import Foundation
import Testing
@testable import LaminaIO

/// Inputs are bounded and only regular files are read as files; outputs are
/// atomic, go through links, and never replace a device, FIFO or folder.
@Suite struct FileIOTests {
    private func withTemporaryDirectory(_ body: (String) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-io-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try body(directory)
    }

    @Test func aFIFOIsRefusedWithoutBlocking() throws {
        try withTemporaryDirectory { directory in
            let fifo = directory + "/pipe"
            #expect(mkfifo(fifo, 0o600) == 0)
            // Nobody writes to it: opening it for reading without O_NONBLOCK
            // would wait forever.
            #expect(throws: IOError(path: fifo, "is a FIFO (named pipe), not a regular file", code: EINVAL)) {
                try FileIO.readFile(atPath: fifo, maxBytes: 100)
            }
        }
    }

    @Test func aDirectoryIsNotAFileToRead() throws {
        try withTemporaryDirectory { directory in
            #expect(throws: IOError(path: directory, "is a directory, not a regular file", code: EINVAL)) {
                try FileIO.readFile(atPath: directory, maxBytes: 100)
            }
        }
    }

    @Test func anEndlessStreamStopsAtTheLimit() throws {
        // /dev/zero never ends: read as a stream, it is cut off at the limit.
        let fd = open("/dev/zero", O_RDONLY)
        defer { close(fd) }
        #expect(throws: IOError(path: "<stdin>", "has more than 100000 bytes (the limit)", code: EFBIG)) {
            try FileIO.readStream(fd, name: "<stdin>", maxBytes: 100_000)
        }
        #expect(throws: IOError(path: "/dev/zero", "is a character device, not a regular file", code: EINVAL)) {
            try FileIO.readFile(atPath: "/dev/zero", maxBytes: 100)
        }
    }

    @Test func writesGoThroughSymbolicLinks() throws {
        try withTemporaryDirectory { directory in
            let target = directory + "/real.png", link = directory + "/link.png"
            try FileIO.writeFileAtomically([1, 2, 3], toPath: target)
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.png")
            try FileIO.writeFileAtomically([4, 5], toPath: link)
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "real.png")
            #expect(FileManager.default.contents(atPath: target) == Data([4, 5]))
            // A dangling link gets its target made.
            let dangling = directory + "/dangling.png"
            try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: directory + "/new.png")
            try FileIO.writeFileAtomically([6], toPath: dangling)
            #expect(FileManager.default.contents(atPath: directory + "/new.png") == Data([6]))
        }
    }

    @Test func devicesAndFIFOsAreNeverReplaced() throws {
        try withTemporaryDirectory { directory in
            let fifo = directory + "/pipe"
            #expect(mkfifo(fifo, 0o600) == 0)
            #expect(throws: IOError(path: fifo, "is a FIFO (named pipe); give the path of a file to write", code: EINVAL)) {
                try FileIO.writeFileAtomically([1], toPath: fifo)
            }
            let link = directory + "/null"
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/null")
            #expect(throws: IOError(path: link, "is a character device; give the path of a file to write", code: EINVAL)) {
                try FileIO.writeFileAtomically([1], toPath: link)
            }
            #expect(throws: IOError(path: "/dev/full", "is a character device; give the path of a file to write", code: EINVAL)) {
                try FileIO.writeFileAtomically([1], toPath: "/dev/full")
            }
            var info = stat()
            #expect(lstat("/dev/null", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["null", "pipe"])
        }
    }

    @Test func aLongNameStillFits() throws {
        try withTemporaryDirectory { directory in
            // 255 bytes is the longest name most file systems take; the
            // temporary file's name must not be longer than the output's.
            let path = directory + "/" + String(repeating: "n", count: 251) + ".png"
            try FileIO.writeFileAtomically([1, 2], toPath: path)
            #expect(FileManager.default.contents(atPath: path) == Data([1, 2]))
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory).count == 1)
        }
    }

    @Test func anExistingFileKeepsItsMode() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/picture.png"
            try FileIO.writeFileAtomically([1], toPath: path)
            #expect(chmod(path, 0o640) == 0)
            try FileIO.writeFileAtomically([2], toPath: path)
            var info = stat()
            #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o640)
        }
    }

    @Test func aFullOrClosedStreamIsAnError() throws {
        let full = open("/dev/full", O_WRONLY)
        defer { close(full) }
        #expect(throws: IOError(path: "<stdout>", "cannot write it: no space left on device", code: ENOSPC)) {
            try FileIO.writeStream([UInt8](repeating: 0, count: 1000), to: full, name: "<stdout>")
        }
        var pipeEnds: [Int32] = [0, 0]
        #expect(pipe(&pipeEnds) == 0)
        close(pipeEnds[0])
        defer { close(pipeEnds[1]) }
        signal(SIGPIPE, SIG_IGN)
        #expect(throws: IOError(path: "<stdout>", "cannot write it: broken pipe", code: EPIPE)) {
            try FileIO.writeStream([1, 2, 3], to: pipeEnds[1], name: "<stdout>")
        }
        #expect(throws: IOError(path: "<stdout>", "cannot write it: bad file descriptor", code: EBADF)) {
            try FileIO.writeStream([1], to: 987, name: "<stdout>")
        }
    }
}
