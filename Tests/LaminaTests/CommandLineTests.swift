import Foundation
import Testing

/// The `lamina` tool, run as a user runs it. It is built with the tests
/// (`swift build --build-tests` builds every product) next to the test bundle.
private let laminaURL: URL? = {
    var dir = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = dir.appendingPathComponent("lamina")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        dir = dir.deletingLastPathComponent()
    }
    return nil
}()

private struct Run {
    var status: Int32
    var stdout: Data
    var stderr: String
}

private func lamina(_ arguments: [String], stdin: Data? = nil) throws -> Run {
    let process = Process()
    process.executableURL = try #require(laminaURL, "the lamina executable is not built next to the tests")
    process.arguments = arguments
    let out = Pipe(), err = Pipe(), input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(stdin) }
    try input.fileHandleForWriting.close()
    let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
    let stderrData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(status: process.terminationStatus, stdout: stdoutData, stderr: String(decoding: stderrData, as: UTF8.self))
}

private func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-cli-\(UUID())")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

private let goodScene = ##"{"width": 40, "height": 30, "backgroundColor": "#ff0000"}"##
private let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

@Suite("lamina command line")
struct CommandLineTests {
    @Test(arguments: ["gl", "cpu"])
    func renderWritesAPNG(backend: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = dir.appendingPathComponent("scene.json"), png = dir.appendingPathComponent("out.png")
        try Data(goodScene.utf8).write(to: scene)
        let run = try lamina(["render", scene.path, "--output", png.path, "--backend", backend, "--scale", "2"])
        #expect(run.status == 0, "\(run.stderr)")
        let bytes = [UInt8](try Data(contentsOf: png))
        #expect(Array(bytes.prefix(8)) == pngSignature)
        // IHDR: width and height big-endian at bytes 16 and 20: 80 x 60 at scale 2.
        #expect(bytes[16..<24].elementsEqual([0, 0, 0, 80, 0, 0, 0, 60]))
    }

    @Test func renderToStandardOutputFromStandardInput() throws {
        let run = try lamina(["render", "-", "--output", "-", "--backend", "cpu"], stdin: Data(goodScene.utf8))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Array(run.stdout.prefix(8)) == pngSignature)
    }

    @Test func aBadSceneIsRefusedWithItsLocationAndNoFile() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = dir.appendingPathComponent("bad.json"), png = dir.appendingPathComponent("out.png")
        try Data(#"{"width": 40, "height": 30, "sublayers": [{"opacity": 2}]}"#.utf8).write(to: scene)
        let run = try lamina(["render", scene.path, "--output", png.path])
        #expect(run.status == 1)
        #expect(run.stderr.contains("$.sublayers[0].opacity"))
        #expect(!run.stderr.contains("Usage"))
        #expect(!FileManager.default.fileExists(atPath: png.path))
    }

    @Test func validateSaysOKOrEveryError() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = dir.appendingPathComponent("good.json"), bad = dir.appendingPathComponent("bad.json")
        try Data(goodScene.utf8).write(to: good)
        try Data(#"{"width": 40, "height": 30, "sublayers": [{"bounds": [0, 0, -1, 2], "lineCap": "round"}]}"#.utf8).write(to: bad)
        let ok = try lamina(["validate", good.path])
        #expect(ok.status == 0 && String(decoding: ok.stdout, as: UTF8.self).contains("OK"))
        let refused = try lamina(["validate", good.path, bad.path])
        let text = String(decoding: refused.stdout, as: UTF8.self)
        #expect(refused.status == 1)
        #expect(text.contains("$.sublayers[0].bounds[2]") && text.contains("$.sublayers[0].lineCap"))
    }

    @Test func infoNamesTheContext() throws {
        let run = try lamina(["info"])
        guard run.status == 0 else { return } // no EGL here: covered by the GL tests' skip
        let text = String(decoding: run.stdout, as: UTF8.self)
        #expect(text.contains("GL renderer") && text.contains("EGL platform") && text.contains("max samples"))
    }
}
