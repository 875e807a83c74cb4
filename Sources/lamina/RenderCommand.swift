import ArgumentParser
import Foundation
import Synchronization
import Lamina

/// `lamina render scene.json --output out.png`: one scene, one PNG.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a scene (see scene-format.md) to a PNG.")

    @Argument(help: "The scene JSON file (or a .caml, .ca, .wallpaper or .tendies), or - for standard input.")
    var scene: String

    @Option(name: .shortAndLong, help: "Where the PNG goes, or - for standard output.")
    var output: String

    @Option(help: "auto, gl or cpu. auto draws with GL on a GPU that hands pictures back quickly, else on the CPU. gl falls back to cpu, with a warning, when no EGL context can be made (unless LAMINA_REQUIRE_GL=1).")
    var backend: BackendChoice = .auto

    // `.unconditional`: "--scale -2" is a (refused) value, not a missing one.
    @Option(parsing: .unconditional, help: "Pixels per point, instead of the scene's own scale.")
    var scale: Double?

    @Option(parsing: .unconditional, help: "The media time at which animations are sampled, instead of the scene's own time.")
    var time: Double?

    @Option(parsing: .unconditional, help: "Lottie only: the frame to draw, on the animation's own frame numbers.")
    var frame: Double?

    @Option(parsing: .unconditional, help: "Lottie only: the moment to draw, 0 (its in point) to 1 (its out point), as lottie-ios's progress.")
    var progress: Double?

    @Option(name: .customLong("egl-platform"), help: "auto, device, gbm or surfaceless (also LAMINA_EGL_PLATFORM).")
    var eglPlatform: String?

    @OptionGroup var caml: CAMLOptions
    @OptionGroup var lottie: LottieOptions
    @OptionGroup var limits: LimitOptions
    @OptionGroup var fonts: FontOptions

    func validate() throws {
        if let scale, !(scale.isFinite && scale > 0) { throw ValidationError("--scale must be a number > 0, got \(scale)") }
        if let time, !time.isFinite { throw ValidationError("--time must be a finite number") }
        if [time, frame, progress].compactMap({ $0 }).count > 1 { throw ValidationError("give one of --time, --frame and --progress") }
        if let frame, !frame.isFinite { throw ValidationError("--frame must be a finite number") }
        if let progress, !(progress >= 0 && progress <= 1) { throw ValidationError("--progress must be 0 to 1, got \(progress)") }
    }

    func run() throws {
        try fonts.register()
        let platform = try eglPlatform.map { try EGLPlatformChoice(parsing: $0, origin: "--egl-platform") }
        let loaded = try SceneInput.load(scene, limits: limits.sceneLimits, caml: caml, animation: lottie.animation)
        let decoded = loaded.scene
        let name = SceneInput.displayName(scene)
        var time = self.time
        if frame != nil || progress != nil {
            guard loaded.isLottie else {
                throw CommandFailure("\(name): --frame and --progress are for Lottie animations; give --time")
            }
            time = frame.map(loaded.time(ofFrame:)) ?? progress.map(loaded.time(atProgress:))
        }
        let budget = limits.renderBudget
        // The canvas with --scale is checked before anything is set up.
        do {
            try budget.check(decoded.canvas(scale: scale))
        } catch {
            throw CommandFailure("\(name): \(error)")
        }
        // LAMINA_REQUIRE_GL=1 (the test suite sets it) turns the fallback to
        // the CPU into an error, so a broken GL backend cannot pass unseen.
        let requireGL = ProcessInfo.processInfo.environment["LAMINA_REQUIRE_GL"] == "1"
        let renderer = try LayerRenderer.choosing(backend, eglPlatform: platform, fallBack: !requireGL, budget: budget,
                                                  explain: { reason in if backend == .gl { warn(reason) } })
        let image: CGImage
        do {
            image = try renderer.render(decoded, scale: scale, time: time)
        } catch let refusal as RenderRefusal {
            throw CommandFailure("\(name): \(refusal)")
        }
        let bytes = try PNGEncoder().encode(image)
        if output == "-" {
            try FileIO.writeStream(bytes, to: STDOUT_FILENO, name: "<stdout>")
        } else {
            try FileIO.writeFileAtomically(bytes, toPath: output)
        }
    }
}

/// The limits of the scene format and of the render budget, as options
/// shared by the commands that read scenes.
struct LimitOptions: ParsableArguments {
    @Option(help: "The most bytes a scene document may have (default 32 MiB).")
    var maxSceneBytes: Int?

    @Option(help: "The most pixels of offscreen surfaces alive at once in a frame (default 64 million).")
    var maxSurfacePixels: Int?

    @Option(help: "The most layers after replicators are expanded (default 100,000).")
    var maxLayers: Int?

    var sceneLimits: SceneLimits {
        var limits = SceneLimits.default
        if let maxSceneBytes { limits.documentBytes = maxSceneBytes }
        return limits
    }

    var renderBudget: RenderBudget {
        var budget = RenderBudget.default
        if let maxSurfacePixels { budget.surfacePixels = maxSurfacePixels }
        if let maxLayers { budget.layers = maxLayers }
        return budget
    }
}

extension BackendChoice: ExpressibleByArgument {}

/// A warning on standard error, as the commands print them.
func warn(_ message: String) {
    FileHandle.standardError.write(Data(("lamina: " + message + "\n").utf8))
}

/// Reading a scene named on the command line, with errors that say where.
enum SceneInput {
    /// The scene in the file at `path`, or on standard input for `-`, read
    /// with the document's byte limit checked as the bytes arrive.
    /// A scene document's bytes and the folder its image paths start from.
    struct Document: Sendable {
        var bytes: [UInt8]
        var base: URL
    }

    /// The document at `path`, or on standard input for `-` (read once:
    /// callers that decode it again keep the bytes). Apple's formats
    /// (`.caml`, `.ca`, `.wallpaper`, `.tendies`, or XML on standard input)
    /// are read as CAML and handed on as the scene JSON they make.
    static func read(_ path: String, limits: SceneLimits = .default, caml: CAMLOptions? = nil) throws -> Document {
        if isCAML(path) {
            return try readCAML(path, bytes: nil, limits: limits, options: caml)
        }
        let document: Document
        do {
            if path == "-" {
                if let cached = standardInput.withLock({ $0 }) { return cached }
                let bytes = try FileIO.readStream(STDIN_FILENO, name: "<stdin>", maxBytes: limits.documentBytes)
                document = looksLikeXML(bytes)
                    ? try readCAML(path, bytes: bytes, limits: limits, options: caml)
                    : Document(bytes: bytes, base: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
                standardInput.withLock { $0 = document }
                return document
            }
            document = Document(bytes: try FileIO.readFile(atPath: path, maxBytes: limits.documentBytes),
                                base: URL(fileURLWithPath: path).deletingLastPathComponent())
        } catch let error as CommandFailure {
            throw error
        } catch {
            throw CommandFailure("\(error)")
        }
        guard caml?.isEmpty ?? true else {
            throw CommandFailure("\(displayName(path)): --state, --transition and --strict are for CAML inputs")
        }
        return document
    }

    private static let standardInput = Mutex<Document?>(nil)

    /// The scene at `path` (or on standard input for `-`), in any format
    /// `SceneLoader` reads.
    static func decode(
        _ path: String, limits: SceneLimits = .default, allowsFiles: Bool = true, caml: CAMLOptions? = nil
    ) throws -> Scene {
        try load(path, limits: limits, allowsFiles: allowsFiles, caml: caml).scene
    }

    /// The scene at `path` with what reading it found; the warnings of CAML
    /// and Lottie inputs go to standard error (once: a command that reads
    /// its input again is not warned again).
    static func load(
        _ path: String, limits: SceneLimits = .default, allowsFiles: Bool = true, caml: CAMLOptions? = nil, animation: String? = nil,
        quiet: Bool = false
    ) throws -> LoadedScene {
        if isCAML(path) {
            if animation != nil { throw CommandFailure("\(displayName(path)): --animation is for .lottie archives and Lottie zips") }
            let loaded = try loadCAML(path, bytes: nil, limits: limits, options: caml, allowsFiles: allowsFiles)
            remember(loaded, for: path)
            return loaded
        }
        if let caml, caml.state != nil || caml.transition != nil || caml.preview || caml.device != nil || caml.tilt != nil {
            throw CommandFailure("\(displayName(path)): --state, --transition, --preview, --device and --tilt are for CAML inputs")
        }
        let document = try read(path, limits: limits, caml: nil)
        let loader = SceneLoader(options: .init(limits: limits, allowsFiles: allowsFiles, baseDirectory: document.base,
                                                strict: caml?.strict ?? false, animation: animation))
        let loaded: LoadedScene
        do {
            loaded = try loader.load(document.bytes, format: SceneLoader.Format(sniffing: document.bytes) ?? .json, name: displayName(path))
        } catch {
            // Named once: a Lottie reader's locations start with the input's name already.
            let name = displayName(path)
            throw CommandFailure(error.issues.map { $0.location == name || $0.location.hasPrefix(name + ": ") ? "\($0)" : "\(name): \($0)" }
                .joined(separator: "\n"))
        }
        if !quiet, !loaded.warnings.isEmpty {
            let text = SceneWarning.lines(for: loaded.warnings).map { "lamina: warning: \($0)\n" }.joined()
            try? FileIO.writeStream(Array(text.utf8), to: STDERR_FILENO, name: "<stderr>")
        }
        return loaded
    }

    static func displayName(_ path: String) -> String { path == "-" ? "<stdin>" : path }
}

/// A failure to report as it is: one message, exit status 1, no usage text
/// (which is for mistakes on the command line, not in a scene).
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
}
