import Foundation
import Testing
import Lamina

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

private func lamina(_ arguments: [String], stdin: Data? = nil, stdinFile: String? = nil, stdoutFile: String? = nil,
                    environment: [String: String]? = nil) throws -> Run {
    let process = Process()
    if let environment { process.environment = environment }
    process.executableURL = try #require(laminaURL, "the lamina executable is not built next to the tests")
    process.arguments = arguments
    let out = Pipe(), err = Pipe(), input = Pipe()
    process.standardOutput = try stdoutFile.map { try #require(FileHandle(forWritingAtPath: $0)) } ?? out
    process.standardError = err
    process.standardInput = try stdinFile.map { try #require(FileHandle(forReadingAtPath: $0)) } ?? input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(stdin) }
    try input.fileHandleForWriting.close()
    try out.fileHandleForWriting.close()
    let stdoutData = stdoutFile == nil ? out.fileHandleForReading.readDataToEndOfFile() : Data()
    let stderrData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(status: process.terminationStatus, stdout: stdoutData, stderr: String(decoding: stderrData, as: UTF8.self))
}

private func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-cli-\(UUID())")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A dotLottie of three animations (lottie-ios's sample), in `../shared/lottie` beside the repository.
private let multipleAnimations = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../shared/lottie/samples/DotLottie/multiple_animations.lottie").standardizedFileURL

private let goodScene = ##"{"width": 40, "height": 30, "backgroundColor": "#ff0000"}"##
private let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

@Suite("lamina command line")
struct CommandLineTests {
    @Test(arguments: ["auto", "gl", "cpu"])
    func renderWritesAPNG(backend: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = dir.appendingPathComponent("scene.json"), png = dir.appendingPathComponent("out.png")
        try Data(goodScene.utf8).write(to: scene)
        let run = try lamina(["render", scene.path, "--output", png.path, "--backend", backend, "--scale", "2"])
        #expect(run.status == 0, "\(run.stderr)")
        // auto chooses: nothing to warn about, whichever it takes.
        if backend == "auto" { #expect(run.stderr.isEmpty, "\(run.stderr)") }
        let bytes = [UInt8](try Data(contentsOf: png))
        #expect(Array(bytes.prefix(8)) == pngSignature)
        // IHDR: width and height big-endian at bytes 16 and 20: 80 x 60 at scale 2.
        #expect(bytes[16..<24].elementsEqual([0, 0, 0, 80, 0, 0, 0, 60]))
    }

    /// `--animation` picks a dotLottie's animation by its manifest id; an
    /// id it lacks is refused naming those it has, and the option is
    /// refused for an input that is no archive.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: multipleAnimations.path), "no ../shared/lottie beside the repository"))
    func renderDrawsTheDotLottieAnimationNamed() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var pictures: [Data] = []
        for id in ["0", "2"] {
            let png = dir.appendingPathComponent("\(id).png")
            let run = try lamina(["render", multipleAnimations.path, "--animation", id, "--progress", "0.5", "--backend", "cpu", "-o", png.path])
            #expect(run.status == 0, "\(run.stderr)")
            pictures.append(try Data(contentsOf: png))
        }
        #expect(pictures[0] != pictures[1], "two animations, two pictures")
        let missing = try lamina(["render", multipleAnimations.path, "--animation", "9", "-o", dir.appendingPathComponent("x.png").path])
        #expect(missing.status == 1 && missing.stderr.contains("0, 1, 2"), "\(missing.stderr)")
        let scene = dir.appendingPathComponent("scene.json")
        try Data(goodScene.utf8).write(to: scene)
        let notArchive = try lamina(["render", scene.path, "--animation", "0", "-o", dir.appendingPathComponent("y.png").path])
        #expect(notArchive.status == 1 && notArchive.stderr.contains("Lottie zips"), "\(notArchive.stderr)")
    }

    /// `bench` times every stage, JSON in to PNG out, and says how the
    /// frames spread; it reads scenes as the other commands do (CAML too).
    @Test func benchReportsStagesAndSpread() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = dir.appendingPathComponent("scene.json")
        try Data(goodScene.utf8).write(to: scene)
        let run = try lamina(["bench", scene.path, "--backend", "cpu", "--frames", "5", "--warmup", "1", "--decode", "--png"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = String(decoding: run.stdout, as: UTF8.self).split(separator: "\n")
        #expect(lines.first?.contains("decode  snapshot    plan   render     png") == true)
        let row = try #require(lines.first { $0.hasPrefix("scene.json") }).split(separator: " ")
        #expect(row.count == 11 && row[1] == "cpu" && row[3] == "/", "\(row)")
        #expect(row[5...9].allSatisfy { Double($0) != nil }, "every stage timed: \(row)")
        #expect(lines.contains { $0.contains("frames 5, p10 ") && $0.contains(" ms, p90 ") }, "\(lines)")
    }

    /// `bench --animation` times every frame of a scene's animation, and
    /// with `--passes` draws it that many times and reports one pass.
    @Test func benchTimesAnAnimationInPasses() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = dir.appendingPathComponent("moving.json")
        try Data(moving.utf8).write(to: scene)
        let run = try lamina(["bench", scene.path, "--animation", "--backend", "cpu", "--frames", "6", "--warmup", "0", "--passes", "3"])
        #expect(run.status == 0, "\(run.stderr)")
        let row = try #require(String(decoding: run.stdout, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("moving.json") })
        let fields = row.split(separator: " ")
        #expect(fields.count == 8 && fields[1] == "cpu" && fields[2] == "6" && fields[3] == "20x10", "one pass of six frames: \(fields)")
        #expect(fields[4...].allSatisfy { $0 == "/" || Double($0) != nil }, "\(fields)")
        let none = try lamina(["bench", scene.path, "--animation", "--passes", "0"])
        #expect(none.status != 0 && none.stderr.contains("--passes must be from 1 to 100"), "\(none.stderr)")
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

    @Test(.enabled(if: availableBackends.contains(.gl), "no EGL context on this machine"))
    func infoNamesTheContext() throws {
        let run = try lamina(["info"])
        #expect(run.status == 0, "\(run.stderr)")
        let text = String(decoding: run.stdout, as: UTF8.self)
        #expect(text.contains("GL renderer") && text.contains("EGL platform") && text.contains("max samples"))
        // The choice `auto` makes here, and on the CPU why.
        let auto = try #require(text.split(separator: "\n").first { $0.hasPrefix("--backend auto") })
        #expect(auto.contains(" gl (") || auto.contains(" cpu: "), "\(auto)")
    }
}

/// Hostile input through the tool (issue 12): inputs and outputs that are
/// not regular files, endless or closed streams, numbers out of range.
@Suite("lamina command line, hostile input")
struct HostileCommandLineTests {
    @Test func endlessStandardInputIsCutOffAtTheLimit() throws {
        let run = try lamina(["render", "-", "--output", "/dev/null", "--max-scene-bytes", "100000"], stdinFile: "/dev/zero")
        #expect(run.status == 1)
        #expect(run.stderr == "lamina: <stdin>: has more than 100000 bytes (the limit)\n")
    }

    @Test func aClosedOrFullStandardOutputIsAnError() throws {
        // A pipe whose reader is gone: the write fails, the process says so.
        let process = Process()
        process.executableURL = try #require(laminaURL)
        process.arguments = ["render", "-", "--output", "-", "--backend", "cpu"]
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try out.fileHandleForReading.close()
        try process.run()
        input.fileHandleForWriting.write(Data(goodScene.utf8))
        try input.fileHandleForWriting.close()
        try out.fileHandleForWriting.close()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 1)
        #expect(message == "lamina: <stdout>: cannot write it: broken pipe\n")
        let full = try lamina(["render", "-", "--output", "-", "--backend", "cpu"], stdin: Data(goodScene.utf8), stdoutFile: "/dev/full")
        #expect(full.status == 1 && full.stderr == "lamina: <stdout>: cannot write it: no space left on device\n")
    }

    @Test func specialFilesAsTheSceneAreRefusedWithoutBlocking() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("scene.json").path
        #expect(mkfifo(fifo, 0o600) == 0)
        for (path, what) in [(fifo, "a FIFO (named pipe)"), ("/dev/zero", "a character device"), (dir.path, "a directory")] {
            for command in ["render", "validate"] {
                let run = try lamina(command == "render" ? [command, path, "--output", "/dev/null"] : [command, path])
                #expect(run.status == 1)
                let text = command == "render" ? run.stderr : String(decoding: run.stdout, as: UTF8.self)
                #expect(text.contains("\(path): is \(what), not a regular file"), "\(text)")
            }
        }
    }

    @Test func runningOutOfAddressSpaceIsARefusalNotACrash() throws {
        // Under an address-space limit (ulimit -v, as some hosts set) a
        // frame that cannot get its memory is refused before drawing.
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = dir.appendingPathComponent("big.json")
        try Data(##"{"width": 8000, "height": 8000, "backgroundColor": "#ff0000"}"##.utf8).write(to: scene)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        let tool = try #require(laminaURL).path
        process.arguments = ["-c", "ulimit -v 400000 && exec \"$0\" render \"$1\" --output - --backend cpu > /dev/null", tool, scene.path]
        let err = Pipe()
        process.standardError = err
        try process.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 1, "\(message)")
        #expect(message.contains("memory, which this process cannot get now"), "\(message)")
    }

    @Test func aSceneFileOverTheLimitIsRefusedBeforeItIsRead() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = dir.appendingPathComponent("big.json")
        // A sparse file of 200 MB: refused from its size, never read.
        #expect(FileManager.default.createFile(atPath: scene.path, contents: nil))
        let handle = try FileHandle(forWritingTo: scene)
        try handle.truncate(atOffset: 200 << 20)
        try handle.close()
        for command in [["render", scene.path, "--output", "-"], ["validate", scene.path]] {
            let run = try lamina(command)
            #expect(run.status == 1)
            let text = command[0] == "render" ? run.stderr : String(decoding: run.stdout, as: UTF8.self)
            #expect(text.contains("has 209715200 bytes, over the limit of 33554432"), "\(text)")
        }
    }

    @Test func validateRefusesWhatRenderWouldRefuse() throws {
        // Within the scene format's limits, over the render budget: both
        // commands refuse it, naming the same layer.
        let scene = ##"{"width": 100, "height": 100, "sublayers": [{"frame": [0, 0, 100, 100], "shadowOpacity": 1, "backgroundColor": "#ff0000"}]}"##
        let validate = try lamina(["validate", "-", "--max-surface-pixels", "1000"], stdin: Data(scene.utf8))
        let render = try lamina(["render", "-", "--output", "-", "--backend", "cpu", "--max-surface-pixels", "1000"], stdin: Data(scene.utf8))
        #expect(validate.status == 1 && render.status == 1)
        let said = String(decoding: validate.stdout, as: UTF8.self)
        #expect(said.hasPrefix("<stdin>: $.sublayers[0]: its shadow needs a"), "\(said)")
        #expect(render.stderr.hasPrefix("lamina: <stdin>: $.sublayers[0]: its shadow needs a"), "\(render.stderr)")
    }

    @Test func validateReadsStandardInput() throws {
        let run = try lamina(["validate", "-"], stdin: Data(goodScene.utf8))
        #expect(run.status == 0 && String(decoding: run.stdout, as: UTF8.self) == "<stdin>: OK\n")
    }

    @Test func negativeNumbersAreValuesThatAreRefused() throws {
        let scale = try lamina(["render", "-", "--output", "-", "--scale", "-2"], stdin: Data(goodScene.utf8))
        #expect(scale.status != 0 && scale.stderr.contains("--scale must be a number > 0, got -2.0"), "\(scale.stderr)")
        let time = try lamina(["render", "-", "--output", "-", "--backend", "cpu", "--time", "-0.5"], stdin: Data(goodScene.utf8))
        #expect(time.status == 0, "\(time.stderr)")
    }

    @Test func aScaleThatMakesAHugeCanvasIsRefusedBeforeWork() throws {
        let run = try lamina(["render", "-", "--output", "-", "--scale", "163"],
                             stdin: Data(##"{"width": 200, "height": 150}"##.utf8))
        #expect(run.status == 1)
        #expect(run.stderr == "lamina: <stdin>: $: the canvas would be 32600 x 24450 pixels; its longest side may be at most 16384 pixels\n")
    }

    @Test func outputGoesThroughLinksAndNeverReplacesADevice() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = dir.appendingPathComponent("scene.json")
        try Data(goodScene.utf8).write(to: scene)
        let real = dir.appendingPathComponent("real.png"), link = dir.appendingPathComponent("link.png")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "real.png")
        #expect(try lamina(["render", scene.path, "--output", link.path, "--backend", "cpu"]).status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "real.png")
        #expect(FileManager.default.fileExists(atPath: real.path))
        let null = dir.appendingPathComponent("null.png")
        try FileManager.default.createSymbolicLink(atPath: null.path, withDestinationPath: "/dev/null")
        let refused = try lamina(["render", scene.path, "--output", null.path, "--backend", "cpu"])
        #expect(refused.status == 1 && refused.stderr.contains("is a character device"))
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
        // A name as long as the file system takes still works: the
        // temporary file's name is short.
        let long = dir.appendingPathComponent(String(repeating: "x", count: 250) + ".png")
        #expect(try lamina(["render", scene.path, "--output", long.path, "--backend", "cpu"]).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).allSatisfy { !$0.hasSuffix(".tmp") })
    }
}

/// A square that moves for half a second: a scene with an animation.
private let moving = ##"{"width": 20, "height": 10, "sublayers": [{"bounds": [0, 0, 4, 4], "position": [2, 5], "backgroundColor": "#ff0000", "animations": [{"keyPath": "position.x", "fromValue": 2, "toValue": 18, "duration": 0.5}]}]}"##

@Suite("lamina frames")
struct FramesCommandTests {
    @Test func aFolderGetsOneNumberedPNGPerFrame() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("frames").path
        let run = try lamina(["frames", "-", "--output", out, "--fps", "10", "--backend", "cpu"], stdin: Data(moving.utf8))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == (0..<5).map { "frame-0000\($0).png" })
        // Not a terminal: a plain line per tenth.
        #expect(run.stderr.contains("lamina: 100% (5/5 frames"))
    }

    @Test func anAnimatedPNGHasEveryFrame() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("move.apng").path
        let run = try lamina(["frames", "-", "--output", out, "--fps", "20", "--from", "0.1", "--duration", "0.25", "--quiet", "--backend", "cpu"],
                             stdin: Data(moving.utf8))
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
        // acTL: the frame count (5: 0.1, 0.15, ... 0.3) and 0 plays (forever).
        let actl = try #require(bytes.indices.first { Array(bytes[$0..<min($0 + 4, bytes.count)]) == Array("acTL".utf8) })
        #expect(Array(bytes[actl + 4..<actl + 12]) == [0, 0, 0, 5, 0, 0, 0, 0])
    }

    @Test func anAnimatedWebPHasEveryFrame() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("move.webp").path
        let run = try lamina(["frames", "-", "--output", out, "--fps", "8", "--quiet", "--backend", "cpu"], stdin: Data(moving.utf8))
        #expect(run.status == 0, "\(run.stderr)")
        let decoded = try WebPAnimation(decoding: [UInt8](try Data(contentsOf: URL(fileURLWithPath: out))))
        #expect(decoded.images.count == 4 && decoded.timestamps == [125, 250, 375, 500])
    }

    @Test func workersInParallelWriteTheSameBytes() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var outputs: [Data] = []
        for workers in ["1", "3"] {
            let out = dir.appendingPathComponent("w\(workers).png").path
            let run = try lamina(["frames", "-", "--output", out, "--fps", "24", "--quiet", "--backend", "cpu", "--workers", workers],
                                 stdin: Data(moving.utf8))
            #expect(run.status == 0, "\(run.stderr)")
            outputs.append(try Data(contentsOf: URL(fileURLWithPath: out)))
        }
        #expect(outputs[0] == outputs[1])
    }

    @Test(.enabled(if: VideoEncoder.ffmpeg != nil, "ffmpeg is not installed"))
    func anMP4IsTheSameBytesWhateverTheWorkers() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var outputs: [Data] = []
        for workers in ["1", "2"] {
            let out = dir.appendingPathComponent("w\(workers).mp4").path
            let run = try lamina(["frames", "-", "--output", out, "--fps", "12", "--quiet", "--backend", "cpu", "--workers", workers],
                                 stdin: Data(moving.utf8))
            #expect(run.status == 0, "\(run.stderr)")
            outputs.append(try Data(contentsOf: URL(fileURLWithPath: out)))
        }
        #expect(outputs[0] == outputs[1] && outputs[0].count > 100)
    }

    @Test func withoutFFmpegAnMP4IsRefusedNamingThePackage() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = "/nonexistent"
        let run = try lamina(["frames", "-", "--output", "/tmp/lamina-no-video.mp4", "--backend", "cpu", "--quiet"],
                             stdin: Data(moving.utf8), environment: environment)
        #expect(run.status == 1)
        #expect(run.stderr.contains("needs the ffmpeg program") && run.stderr.contains("apt-get install ffmpeg"), "\(run.stderr)")
    }

    @Test func badRequestsAreRefusedBeforeAnyWork() throws {
        let still = ##"{"width": 20, "height": 10}"##
        let cases: [([String], String, String)] = [
            (["--to", "1", "--duration", "1"], moving, "give --to or --duration, not both"),
            (["--output", "x.webm"], moving, ".webm is not written yet"),
            (["--output", "x.gif", "--quality", "50"], moving, "--quality is for .webp"),
            (["--output", "x.mp4", "--quality", "50"], moving, "--quality is for .webp"),
            (["--output", "x.webp", "--quality", "101"], moving, "--quality must be 0 to 100"),
            (["--fps", "0"], moving, "the frame rate must be a number from 0.001 to 1000"),
            (["--to", "-1"], moving, "must come after the start"),
            ([], still, "the scene has no animations; give --duration or --to"),
        ]
        for (options, scene, message) in cases {
            var arguments = ["frames", "-", "--backend", "cpu"] + options
            if !options.contains("--output") { arguments += ["--output", "/tmp/lamina-never-\(UUID())"] }
            let run = try lamina(arguments, stdin: Data(scene.utf8))
            #expect(run.status != 0 && run.stderr.contains(message), "\(options): \(run.stderr)")
        }
    }
}
