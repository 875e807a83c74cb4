import ArgumentParser
import Foundation
import Lamina

/// `lamina render scene.json --output out.png`: one scene, one PNG.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a scene (see scene-format.md) to a PNG.")

    @Argument(help: "The scene JSON file, or - for standard input.")
    var scene: String

    @Option(name: .shortAndLong, help: "Where the PNG goes, or - for standard output.")
    var output: String

    @Option(help: "gl or cpu. gl falls back to cpu, with a warning, when no EGL context can be made (unless LAMINA_REQUIRE_GL=1).")
    var backend: RenderBackend = .gl

    @Option(help: "Pixels per point, instead of the scene's own scale.")
    var scale: Double?

    @Option(help: "The media time at which animations are sampled, instead of the scene's own time.")
    var time: Double?

    @Option(name: .customLong("egl-platform"), help: "auto, device, gbm or surfaceless (also LAMINA_EGL_PLATFORM).")
    var eglPlatform: String?

    func validate() throws {
        if let scale, !(scale.isFinite && scale > 0) { throw ValidationError("--scale must be a number > 0, got \(scale)") }
        if let time, !time.isFinite { throw ValidationError("--time must be a finite number") }
    }

    func run() throws {
        let platform = try eglPlatform.map { try EGLPlatformChoice(parsing: $0, origin: "--egl-platform") }
        let decoded = try SceneInput.decode(scene)
        // LAMINA_REQUIRE_GL=1 (the test suite sets it) turns the fallback to
        // the CPU into an error, so a broken GL backend cannot pass unseen.
        let requireGL = ProcessInfo.processInfo.environment["LAMINA_REQUIRE_GL"] == "1"
        let renderer = try LayerRenderer(backend: backend, eglPlatform: platform, fallBack: !requireGL)
        let image = try renderer.render(decoded, scale: scale, time: time)
        let encoder = PNGEncoder()
        if output == "-" {
            FileHandle.standardOutput.write(Data(try encoder.encode(image)))
        } else {
            try encoder.write(image, toFile: output)
        }
    }
}

extension RenderBackend: ExpressibleByArgument {}

/// Reading a scene named on the command line, with errors that say where.
enum SceneInput {
    static func decode(_ path: String) throws -> Scene {
        let data: Data
        let base: URL?
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
            base = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        } else {
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw CommandFailure("\(path): cannot read the scene: \((error as NSError).localizedDescription)")
            }
            base = URL(fileURLWithPath: path).deletingLastPathComponent()
        }
        do {
            return try SceneDecoder(options: SceneDecoder.Options(baseDirectory: base)).decode(data)
        } catch {
            throw CommandFailure("\(path == "-" ? "<stdin>" : path): \(error)")
        }
    }
}

/// A failure to report as it is: one message, exit status 1, no usage text
/// (which is for mistakes on the command line, not in a scene).
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
}
