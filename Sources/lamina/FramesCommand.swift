import ArgumentParser
import Foundation
import Lamina

/// `lamina frames scene.json --output OUT`: an animated scene as a sequence
/// of frames, written as numbered PNGs in a folder or as one animated PNG.
struct FramesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "frames",
        abstract: "Render an animated scene to numbered PNGs (a folder), an animated PNG (.png, .apng), an animated WebP (.webp), an animated GIF (.gif) or an H.264 video (.mp4, through ffmpeg).",
        discussion: """
            Frame i is the scene at --from + i / --fps seconds, for every frame before the end: \
            --to, or --from + --duration, or by default the end of the scene's last animation \
            (repeat counts, autoreverses, speeds and begin times included; a scene whose \
            animations never end needs a length).
            """)

    @Argument(help: "The scene JSON file (or a .caml, .ca, .wallpaper or .tendies), or - for standard input.")
    var scene: String

    @Option(name: .shortAndLong, help: "A folder (created if missing; frame-00000.png, ...), a .png/.apng, .webp, .gif or .mp4 file.")
    var output: String

    @Option(parsing: .unconditional, help: "Frames per second (default: a Lottie animation's own, else 30).")
    var fps: Double?

    @Option(parsing: .unconditional, help: "The media time of the first frame, in seconds.")
    var from: Double = 0

    @Option(parsing: .unconditional, help: "The end of the sequence, in seconds (not itself a frame).")
    var to: Double?

    @Option(parsing: .unconditional, help: "The length of the sequence, in seconds.")
    var duration: Double?

    @Option(parsing: .unconditional, help: "Pixels per point, instead of the scene's own scale.")
    var scale: Double?

    @Option(help: "auto, gl or cpu (see lamina render --help).")
    var backend: BackendChoice = .auto

    @Option(help: "How many times an animated PNG or WebP plays; 0 is forever.")
    var loop: Int = 0

    @Option(help: "WebP only: lossy at this quality, 0 to 100 (default: lossless).")
    var quality: Double?

    @Flag(help: "No progress on standard error.")
    var quiet = false

    @Option(help: "Frames rendered at once (default: one per core).")
    var workers: Int?

    @OptionGroup var caml: CAMLOptions
    @OptionGroup var lottie: LottieOptions
    @OptionGroup var limits: LimitOptions
    @OptionGroup var fonts: FontOptions

    /// A folder of numbered PNGs, or one animated file.
    enum Destination { case folder(String), animation(AnimationEncoder.Format, String) }

    func validate() throws {
        if let scale, !(scale.isFinite && scale > 0) { throw ValidationError("--scale must be a number > 0, got \(scale)") }
        if to != nil && duration != nil { throw ValidationError("give --to or --duration, not both") }
        if let duration, !(duration.isFinite && duration > 0) { throw ValidationError("--duration must be a number > 0, got \(duration)") }
        if loop < 0 || loop > 65535 { throw ValidationError("--loop must be 0 (forever) or a count of plays up to 65535") }
        if let quality, !(quality >= 0 && quality <= 100) { throw ValidationError("--quality must be 0 to 100, got \(quality)") }
        _ = try destination()
    }

    /// Where the frames go, by the output's extension.
    func destination() throws -> Destination {
        // A folder: named with a trailing slash, already one, or no extension.
        var isFolder: ObjCBool = false
        if output.hasSuffix("/") || (FileManager.default.fileExists(atPath: output, isDirectory: &isFolder) && isFolder.boolValue) {
            return .folder(output)
        }
        let ext = URL(fileURLWithPath: output).pathExtension.lowercased()
        switch ext {
        case "png", "apng": return .animation(.apng, output)
        case "webp": return .animation(.webp, output)
        case "gif":
            if quality != nil { throw ValidationError("--quality is for .webp; a .gif has a palette of up to 256 colours a frame, chosen by libimagequant") }
            return .animation(.gif, output)
        case "mp4":
            if quality != nil { throw ValidationError("--quality is for .webp; an .mp4 is H.264 at x264's visually lossless rate (CRF 18)") }
            return .animation(.mp4, output)
        case "": return .folder(output)
        case "webm", "mov":
            throw ValidationError("--output: .\(ext) is not written yet; give a folder, a .png/.apng, .webp, .gif or .mp4 file")
        default:
            throw ValidationError("--output: '\(output)' names no format by its extension; give a folder, a .png/.apng, .webp, .gif or .mp4 file")
        }
    }

    func run() throws {
        try fonts.register()
        let loaded = try SceneInput.load(scene, limits: limits.sceneLimits, caml: caml, animation: lottie.animation)
        let decoded = loaded.scene
        let name = SceneInput.displayName(scene)
        let fps = self.fps ?? loaded.frameRate ?? 30
        let end: Double
        do {
            if let to {
                end = to
            } else if let duration {
                end = from + duration
            } else if let own = loaded.duration {
                // A Lottie animation: its own range, in to out point.
                end = from + own
            } else if let last = try decoded.rootLayer.animationsEnd() {
                end = last
            } else {
                throw CommandFailure("\(name): the scene has no animations; give --duration or --to")
            }
        } catch let error as AnimationTimelineError {
            throw CommandFailure("\(name): \(error)")
        }
        let timeline: AnimationTimeline
        do {
            timeline = try AnimationTimeline(start: from, end: end, framesPerSecond: fps)
        } catch {
            throw CommandFailure("\(name): \(error)")
        }
        let destination = try destination()
        // Every limit before any work: the canvas, then the first frame's plan.
        let budget = limits.renderBudget
        do { try budget.check(decoded.canvas(scale: scale)) } catch { throw CommandFailure("\(name): \(error)") }
        let requireGL = ProcessInfo.processInfo.environment["LAMINA_REQUIRE_GL"] == "1"
        // Said once here, rather than once per worker.
        let probe = try LayerRenderer.choosing(backend, fallBack: !requireGL, budget: budget,
                                               explain: { reason in if backend == .gl { warn(reason) } })
        // Each worker decodes its own copy of the scene: a layer tree
        // belongs to one thread.
        let document = try SceneInput.read(scene, limits: limits.sceneLimits, caml: caml)
        let loader = SceneLoader(options: .init(limits: limits.sceneLimits, baseDirectory: document.base,
                                                strict: loaded.isLottie && caml.strict, animation: lottie.animation))
        var frames = FrameRenderer(timeline: timeline, backend: probe.backend, scale: scale, budget: budget,
                                   fallBack: !requireGL) {
            try loader.load(document.bytes, format: SceneLoader.Format(sniffing: document.bytes) ?? .json).scene
        }
        if let workers { frames.workers = max(1, workers) }
        var progress = Progress(total: timeline.count, quiet: quiet)

        let sink = try makeSink(destination, size: decoded.canvas(scale: scale), timeline: timeline)
        try render(frames, name) { i, image in
            try sink.add(image, index: i)
            progress.advance()
        }
        try sink.finish()
        progress.finish()
    }

    /// Where each frame goes, by the output's kind.
    private func makeSink(_ destination: Destination, size canvas: RenderCanvas, timeline: AnimationTimeline) throws -> any FrameSink {
        let (width, height) = (canvas.pixelWidth, canvas.pixelHeight)
        switch destination {
        case .folder(let folder):
            return try PNGFolderSink(folder: folder, frameCount: timeline.count)
        case .animation(let format, let file):
            let options = AnimationEncoder.Options(loopCount: loop, quality: quality)
            return AnimationSink(file: file, encoder: try AnimationEncoder(format, width: width, height: height, timeline: timeline, options: options))
        }
    }

    /// The frames in order; a refusal names the frame and its time.
    private func render(_ frames: FrameRenderer, _ name: String, _ body: (Int, CGImage) throws -> Void) throws {
        var current = 0
        do {
            try frames.render { i, image in current = i + 1; try body(i, image) }
        } catch let refusal as RenderRefusal {
            let t = frames.timeline.time(ofFrame: current)
            throw CommandFailure("\(name): a frame near \(Quoted.number(t)) s: \(refusal)")
        }
    }
}

/// Where the frames of `lamina frames` go, in order; `finish` writes what
/// is still to be written (a file appears only then).
protocol FrameSink: AnyObject {
    func add(_ image: CGImage, index: Int) throws
    func finish() throws
}

/// frame-00000.png, frame-00001.png, ... in a folder made if missing.
final class PNGFolderSink: FrameSink {
    let folder: String
    let digits: Int

    init(folder: String, frameCount: Int) throws {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure("\(folder): cannot make the folder: \((error as NSError).localizedDescription)")
        }
        self.folder = folder
        digits = max(5, String(frameCount - 1).count)
    }

    func add(_ image: CGImage, index: Int) throws {
        let number = String(index)
        let file = folder + "/frame-" + String(repeating: "0", count: max(0, digits - number.count)) + number + ".png"
        try FileIO.writeFileAtomically(try PNGEncoder().encode(image), toPath: file)
    }

    func finish() throws {}
}

/// One animated file (APNG, WebP or MP4), written when the last frame is in.
final class AnimationSink: FrameSink {
    let file: String
    let encoder: AnimationEncoder

    init(file: String, encoder: AnimationEncoder) { self.file = file; self.encoder = encoder }

    func add(_ image: CGImage, index: Int) throws { try encoder.add(image) }
    func finish() throws { try encoder.finish(writingTo: file) }
}

/// Frames done, on standard error: a bar redrawn in place on a terminal, a
/// line per tenth otherwise, nothing when quiet.
struct Progress {
    let total: Int
    let quiet: Bool
    let isTerminal = isatty(STDERR_FILENO) == 1
    let started = Date()
    private(set) var done = 0
    private var lastTenth = 0

    init(total: Int, quiet: Bool) { self.total = total; self.quiet = quiet }

    mutating func advance() {
        done += 1
        guard !quiet else { return }
        let elapsed = Date().timeIntervalSince(started)
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let left = rate > 0 ? Double(total - done) / rate : 0
        if isTerminal {
            let width = 30, filled = width * done / max(1, total)
            let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
            write(String(format: "\r[%@] %d/%d frames, %.1f fps, %.0f s left", bar, done, total, rate, left))
        } else {
            let tenth = 10 * done / max(1, total)
            if tenth > lastTenth {
                lastTenth = tenth
                write(String(format: "lamina: %d%% (%d/%d frames, %.1f fps, %.0f s left)\n", tenth * 10, done, total, rate, left))
            }
        }
    }

    func finish() {
        if !quiet && isTerminal { write("\n") }
    }

    private func write(_ text: String) {
        try? FileIO.writeStream(Array(text.utf8), to: STDERR_FILENO, name: "<stderr>")
    }
}
