import Foundation
import Testing
@testable import LaminaPNG

/// Reading PNG files and writing them atomically.
@Suite struct FileTests {
    /// A fresh empty directory, removed after `body`.
    private func withTemporaryDirectory(_ body: (String) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("lamina-png-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try body(directory)
    }

    private let red = try! CGImage(width: 4, height: 3, filledWith: .init(red: 200, green: 0, blue: 0, alpha: 255))
    private let blue = try! CGImage(width: 2, height: 5, filledWith: .init(red: 0, green: 0, blue: 100, alpha: 128))

    @Test func writesAndReadsBack() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/picture.png"
            try red.writePNG(toFile: path)
            #expect(try PNGDecoder().decode(contentsOfFile: path) == red)
            #expect(try Array(Data(contentsOf: URL(fileURLWithPath: path))) == PNGEncoder().encode(red))
            // Nothing else left behind: no temporary file.
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["picture.png"])
        }
    }

    @Test func replacesAnExistingFileWhole() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/picture.png"
            try PNGEncoder(options: .smallest).write(red, toFile: path)
            try PNGEncoder(options: .fast).write(blue, toFile: path)
            #expect(try PNGDecoder().decode(contentsOfFile: path) == blue)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["picture.png"])
        }
    }

    @Test func failedEncodingLeavesTheOldFileAlone() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/picture.png"
            try red.writePNG(toFile: path)
            #expect(throws: PNGError.invalidCompressionLevel(12)) {
                try PNGEncoder(options: .init(compressionLevel: 12, filter: .none)).write(blue, toFile: path)
            }
            #expect(try PNGDecoder().decode(contentsOfFile: path) == red)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["picture.png"])
        }
    }

    @Test func writingIntoAMissingDirectoryNamesThePath() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/missing/picture.png"
            #expect(throws: PNGError.io(IOError(path: path, "cannot create a file in \(directory)/missing/: no such file or directory", code: ENOENT))) {
                try red.writePNG(toFile: path)
            }
        }
    }

    @Test func writingOverADirectoryFailsAndCleansUp() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/folder"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            #expect(throws: PNGError.io(IOError(path: path, "is a directory; give the path of a file to write", code: EINVAL))) {
                try red.writePNG(toFile: path)
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["folder"])
        }
    }

    @Test func readingAMissingFileNamesThePath() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/nothing.png"
            #expect(throws: PNGError.io(IOError(path: path, "cannot open it: no such file or directory", code: ENOENT))) {
                try PNGDecoder().decode(contentsOfFile: path)
            }
        }
    }

    @Test func readingADirectoryIsAnError() throws {
        try withTemporaryDirectory { directory in
            #expect(throws: PNGError.io(IOError(path: directory, "is a directory, not a regular file", code: EINVAL))) {
                try PNGDecoder().decode(contentsOfFile: directory)
            }
        }
    }

    @Test func filesOverTheByteLimitAreNotRead() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/picture.png"
            try red.writePNG(toFile: path)
            let size = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
            #expect(throws: PNGError.io(IOError(path: path, "has \(size) bytes, over the limit of \(size - 1)", code: EFBIG))) {
                try PNGDecoder(limits: .init(maxBytes: size - 1)).decode(contentsOfFile: path)
            }
            #expect(try PNGDecoder(limits: .init(maxBytes: size)).decode(contentsOfFile: path) == red)
        }
    }

    @Test func readsFilesLargerThanOneReadBuffer() throws {
        try withTemporaryDirectory { directory in
            // Level 0 stores the pixels: a file of about 4 MiB, several 1 MiB reads.
            var bytes: [UInt8] = []
            for i in 0..<(1024 * 1024) { bytes += [UInt8(truncatingIfNeeded: i), UInt8(truncatingIfNeeded: i >> 8), 7, 255] }
            let image = try CGImage(width: 1024, height: 1024, premultipliedRGBA: bytes)
            let path = directory + "/big.png"
            try PNGEncoder(options: .init(compressionLevel: 0, filter: .none)).write(image, toFile: path)
            #expect(try PNGDecoder().decode(contentsOfFile: path) == image)
        }
    }
}
