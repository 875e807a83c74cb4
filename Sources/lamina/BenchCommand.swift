import ArgumentParser
import Foundation
import Synchronization
import Lamina
import LaminaRaster

/// `lamina bench`: time per frame of scenes and of generated shape layers, on
/// one or both backends. A benchmark, not a test: it prints figures and
/// asserts nothing.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Time scenes, or generated shape layers, on the GL and CPU backends.",
        discussion: """
            Each case is drawn --warmup times untimed, then --frames times; the median and \
            the fastest frame are printed (and, under the case, the 10th and 90th percentiles), with the median of each stage of the pipeline: \
            decode (with --decode), snapshot, plan, render (backend, readback included) and \
            PNG encoding (with --png). With --stage, each frame runs that stage alone (the \
            others run once, before the frames), so that an instruction count under callgrind \
            is that stage's (scripts/bench/stage-instructions.sh). Run a release build \
            (swift build -c release) for figures worth keeping.
            """)

    @Argument(help: "Scene JSON files (with --animation, any file lamina reads: Lottie too). With none, --shapes cases are run.")
    var scenes: [String] = []

    @Flag(help: """
        Time every frame of each file's animation instead of one moment: a Lottie file's own range at its \
        frame rate, else --frames frames at 30 per second from the scene's time; each frame snapshot to \
        pixels, as lamina frames draws them before encoding. Prints the median and mean per frame.
        """)
    var animation = false

    @Flag(help: """
        With --animation: also print what a frame asks of the backend on average (draw commands, offscreen \
        surfaces by purpose), each frame planned again after the timing.
        """)
    var plans = false

    @Option(help: """
        With --animation: draw the whole animation this many times in the process, each pass with a \
        renderer of its own (nothing kept from the pass before), and print the fastest pass: a \
        process's first pass also pays for what it does once (the runtime's type metadata, the \
        pools' first buffers).
        """)
    var passes: Int = 1

    @Option(help: "With --animation: pixels per point of the pictures (the file's own scale when absent).")
    var scale: Double?

    @Option(help: "gl, cpu or both.")
    var backend: String = "both"

    @Option(help: "Timed frames per case.")
    var frames: Int = 20

    @Option(help: "Untimed frames per case first.")
    var warmup: Int = 3

    @Option(parsing: .upToNextOption,
            help: "Generated shape cases as LAYERSxSEGMENTS@WIDTHxHEIGHT, e.g. 100x32@800x600.")
    var shapes: [String] = ["50x16@400x300", "200x64@800x600", "200x64@1600x1200", "1000x8@800x600"]

    @Flag(help: "Also encode each frame to PNG (the fast preset, unless --png-level or --png-filter say otherwise).")
    var png = false

    @Option(help: "With --png: the compression level, 0...9.")
    var pngLevel: Int?

    @Option(help: "With --png: the row filter, none, sub, up, average, paeth or adaptive.")
    var pngFilter: String?

    /// The PNG options --png measures.
    private var pngOptions: PNGEncoder.Options {
        get throws {
            var options = PNGEncoder.Options.fast
            if let pngLevel { options.compressionLevel = pngLevel }
            if let pngFilter {
                let filters: [String: PNGEncoder.Filter] = [
                    "none": .none, "sub": .sub, "up": .up, "average": .average, "paeth": .paeth, "adaptive": .adaptive,
                ]
                guard let filter = filters[pngFilter] else {
                    throw ValidationError("--png-filter must be none, sub, up, average, paeth or adaptive")
                }
                options.filter = filter
            }
            return options
        }
    }

    @Option(help: "Run only this stage in each frame: decode, snapshot, plan, render or png.")
    var stage: String?

    @Flag(help: "Also decode the scene's JSON each frame, as a render server does for each request.")
    var decode = false

    @Flag(help: """
        With --animation: draw every frame whole, instead of over the frame before where only some rows         changed (as `lamina frames` draws them).
        """)
    var wholeFrames = false

    @Option(help: "Most threads one frame uses (default: every idle core); 1 measures a frame on one core.")
    var frameThreads: Int?

    @Option(help: """
        Throughput of this many streams of whole frames (JSON bytes to PNG bytes, each stream its own \
        renderer) drawn at once on the CPU backend, against one stream on one core in the same run.
        """)
    var streams: Int?

    func validate() throws {
        guard ["gl", "cpu", "both"].contains(backend) else { throw ValidationError("--backend must be gl, cpu or both") }
        if let stage, !Stage.allCases.map(\.rawValue).contains(stage) {
            throw ValidationError("--stage must be one of \(Stage.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard frames > 0, warmup >= 0 else { throw ValidationError("--frames must be > 0 and --warmup >= 0") }
        if animation {
            guard !scenes.isEmpty, streams == nil, stage == nil else {
                throw ValidationError("--animation times files' animations (give files; not with --streams or --stage)")
            }
        }
        guard passes >= 1, passes <= 100 else { throw ValidationError("--passes must be from 1 to 100") }
        if let scale { guard scale > 0, scale.isFinite else { throw ValidationError("--scale must be a positive number") } }
        if let frameThreads, frameThreads < 1 { throw ValidationError("--frame-threads must be at least 1") }
        if let streams {
            guard streams >= 1, streams <= 64 else { throw ValidationError("--streams must be from 1 to 64") }
            guard !scenes.isEmpty, backend != "gl" else {
                throw ValidationError("--streams measures scene files on the CPU backend (give scenes, --backend cpu)")
            }
        }
        for s in shapes where ShapeBenchCase(parsing: s) == nil {
            throw ValidationError("--shapes: '\(s)' is not LAYERSxSEGMENTS@WIDTHxHEIGHT")
        }
    }

    func run() throws {
        if let streams { return try runStreams(streams) }
        LayerRenderer.threadsPerFrame = frameThreads
        let backends: [RenderBackend] = backend == "both" ? [.gl, .cpu] : [RenderBackend(rawValue: backend)!]
        if animation { return try runAnimations(backends) }
        // With --decode, each frame starts from the scene's JSON bytes: a
        // file's own (what a user sends), or what the encoder writes for a
        // generated case.
        var cases: [(name: String, scene: Scene)] = []
        var documents: [(bytes: [UInt8], decoder: SceneDecoder)] = []
        if scenes.isEmpty {
            for s in shapes {
                let c = ShapeBenchCase(parsing: s)!
                cases.append((s, c.scene()))
                documents.append(([UInt8](try SceneEncoder().encode(c.scene())), SceneDecoder()))
            }
        } else {
            for path in scenes {
                let document = try SceneInput.read(path)
                cases.append((URL(fileURLWithPath: path).lastPathComponent, try SceneInput.decode(path)))
                documents.append((document.bytes, SceneDecoder(options: SceneDecoder.Options(baseDirectory: document.base))))
            }
        }
        let encoder = PNGEncoder(options: try pngOptions)
        print("case".padding(toLength: 22, withPad: " ", startingAt: 0),
              "backend  frame ms (median / best)  decode  snapshot    plan   render     png   png KB")
        let only = stage.flatMap(Stage.init(rawValue:))
        for b in backends {
            let renderer = try LayerRenderer(backend: b, fallBack: false)
            for ((name, scene), document) in zip(cases, documents) {
                var times: [Stage: [Double]] = [:], total: [Double] = []
                var pngBytes = 0
                // Every stage's input, made once: what --stage repeats alone.
                let canvas = scene.canvas()
                var snapshot = try renderer.snapshot(scene.rootLayer, canvas: canvas, time: scene.time)
                var plan = try renderer.plan(snapshot, canvas: canvas)
                var image = try renderer.renderer.render(plan)
                // What the measured frames ask of the GPU and of memory.
                var glBefore: GLActivity?
                var buffersBefore = BufferPool.pixels.statistics
                for i in 0..<(warmup + frames) {
                    if i == warmup {
                        glBefore = (renderer.renderer as? GLRenderer)?.activity
                        buffersBefore = BufferPool.pixels.statistics
                    }
                    var frame: [Stage: Double] = [:]
                    func timed<T>(_ stage: Stage, _ work: () throws -> T) rethrows -> T? {
                        guard only == nil || only == stage else { return nil }
                        let start = DispatchTime.now().uptimeNanoseconds
                        let result = try work()
                        frame[stage] = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
                        return result
                    }
                    var tree = scene
                    if decode || only == .decode, let decoded = try timed(.decode, { try document.decoder.decode(document.bytes) }) { tree = decoded }
                    if let s = try timed(.snapshot, { try renderer.snapshot(tree.rootLayer, canvas: canvas, time: tree.time) }) { snapshot = s }
                    if let p = try timed(.plan, { try renderer.plan(snapshot, canvas: canvas) }) { plan = p }
                    if let picture = try timed(.render, { try renderer.renderer.render(plan) }) { image = picture }
                    if png || only == .png, let bytes = try timed(.png, { try encoder.encode(image).count }) { pngBytes = bytes }
                    guard i >= warmup else { continue }
                    for (stage, ms) in frame { times[stage, default: []].append(ms) }
                    total.append(frame.values.reduce(0, +))
                }
                var line = name.padding(toLength: 22, withPad: " ", startingAt: 0) + " " + renderer.backend.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
                line += String(format: " %8.2f / %8.2f  ", median(total), total.min() ?? 0)
                for stage in Stage.allCases {
                    line += times[stage].map { String(format: " %7.2f ", median($0)) } ?? "       - "
                }
                line += pngBytes > 0 ? String(format: " %7.1f", Double(pngBytes) / 1000) : "       -"
                print(line)
                print("  " + Self.summary(of: plan) + "; " + Self.spread(of: total))
                let buffersMade = BufferPool.pixels.statistics.made - buffersBefore.made
                var steady = "  measured frames: \(buffersMade) pixel buffers allocated (the rest reused)"
                if let glBefore, let gl = (renderer.renderer as? GLRenderer)?.activity {
                    let a = gl.since(glBefore)
                    steady += "; GL over \(frames) frames: \(a); waits: \(a.waits)"
                }
                print(steady)
            }
        }
    }

    /// `--animation`: every frame of each file's animation, drawn in order
    /// (after `--warmup` untimed draws of its first frame), as
    /// `lamina frames` draws them: presentation tree, snapshot, plan, pixels.
    private func runAnimations(_ backends: [RenderBackend]) throws {
        print("case                   backend   frames     size   ms per frame (median / mean)   whole animation ms")
        for b in backends {
            func makeRenderer() throws -> LayerRenderer {
                let renderer = try LayerRenderer(backend: b, fallBack: false)
                renderer.drawsOnlyChanges = !wholeFrames
                return renderer
            }
            var renderer = try makeRenderer()
            for path in scenes {
                let loaded = try SceneLoader().load(contentsOf: URL(fileURLWithPath: path))
                let scene = loaded.scene
                let canvas = scene.canvas(scale: scale)
                let rate = loaded.frameRate ?? 30
                let count = loaded.duration.map { max(1, Int(($0 * rate).rounded())) } ?? frames
                var times: [Double] = []
                for p in 0..<passes {
                    // A pass after the first in a renderer of its own: nothing
                    // kept from the pass before (outlines, the last frame).
                    if p > 0 { renderer = try makeRenderer() }
                    for _ in 0..<warmup { _ = try renderer.render(scene.rootLayer, canvas: canvas, time: scene.time) }
                    var pass: [Double] = []
                    pass.reserveCapacity(count)
                    for k in 0..<count {
                        let start = DispatchTime.now().uptimeNanoseconds
                        _ = try renderer.render(scene.rootLayer, canvas: canvas, time: scene.time + Double(k) / rate)
                        pass.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                    }
                    if times.isEmpty || pass.reduce(0, +) < times.reduce(0, +) { times = pass }
                }
                let total = times.reduce(0, +)
                let size = "\(canvas.pixelWidth)x\(canvas.pixelHeight)"
                print(URL(fileURLWithPath: path).lastPathComponent.padding(toLength: 22, withPad: " ", startingAt: 0),
                      renderer.backend.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0),
                      String(format: "%7d", count), String(repeating: " ", count: max(0, 9 - size.count)) + size,
                      String(format: "  %12.3f / %8.3f   %18.1f", median(times), total / Double(count), total))
                if plans {
                    // What the frames asked of the backend, planned again untimed.
                    var summary = PlanSummary()
                    for k in 0..<count {
                        summary.add(try renderer.prepare(scene.rootLayer, canvas: canvas, time: scene.time + Double(k) / rate))
                    }
                    print("  per frame: " + summary.description)
                }
            }
        }
    }

    /// `--streams`: frames per second of one stream on one core, then of
    /// `count` streams at once (each frame on the cores its stream has, as
    /// `RowBands` shares them out), every frame the whole of a server's
    /// work on a request: decode, snapshot, plan, render, PNG. The ratio is
    /// what a render server's throughput gains from the other cores; under
    /// `count` it would be contention (locks, memory, the allocator).
    private func runStreams(_ count: Int) throws {
        let encoder = PNGEncoder(options: try pngOptions)
        print("case                   streams  frames/s   per stream  ratio to one stream on one core")
        for path in scenes {
            let document = try SceneInput.read(path)
            let bytes = document.bytes
            let decoder = SceneDecoder(options: SceneDecoder.Options(baseDirectory: document.base))
            // Each renderer is used by its own stream only (a renderer is one
            // thread's at a time).
            nonisolated(unsafe) let renderers = try (0..<count).map { _ in try LayerRenderer(backend: .cpu, fallBack: false) }
            let frame: @Sendable (Int) throws -> Void = { stream in
                let scene = try decoder.decode(bytes)
                _ = try encoder.encode(try renderers[stream].render(scene))
            }
            /// Frames per second of `streams` streams of `frames` frames each, after `warmup` each.
            func throughput(_ streams: Int) throws -> Double {
                let failure = Mutex<Error?>(nil)
                func run(_ n: Int) {
                    DispatchQueue.concurrentPerform(iterations: streams) { s in
                        do { for _ in 0..<n { try frame(s) } } catch { failure.withLock { $0 = error } }
                    }
                }
                run(warmup)
                let start = DispatchTime.now().uptimeNanoseconds
                run(frames)
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                if let error = failure.withLock({ $0 }) { throw error }
                return Double(streams * frames) / seconds
            }
            LayerRenderer.threadsPerFrame = 1
            let one = try throughput(1)
            LayerRenderer.threadsPerFrame = frameThreads
            let many = try throughput(count)
            let name = URL(fileURLWithPath: path).lastPathComponent.padding(toLength: 22, withPad: " ", startingAt: 0)
            print(name + " " + String(format: "%7d  %8.1f  %11.1f", 1, one, one))
            print(name + " " + String(format: "%7d  %8.1f  %11.1f  %.2fx", count, many, many / Double(count), many / one))
        }
    }

    /// The stages of the pipeline, in order.
    enum Stage: String, CaseIterable {
        case decode, snapshot, plan, render, png
    }

    /// What the plan asks of the backend: draws, and each offscreen surface
    /// by why it exists (`SurfacePurpose`), as cc's render surface reasons.
    static func summary(of plan: RenderPlan) -> String {
        var summary = PlanSummary()
        summary.add(plan)
        return summary.description
    }

    /// What plans ask of the backend (an animation's frames, or one):
    /// draws, and offscreen surfaces by purpose, a plan's on average.
    struct PlanSummary: CustomStringConvertible {
        private var plans = 0, commands = 0
        private var surfaces: [SurfacePurpose: Int] = [:]
        /// The drawn surfaces' pixels, and the outputs'.
        private var surfacePixels = 0, outputPixels = 0

        mutating func add(_ plan: RenderPlan) {
            plans += 1
            commands += plan.commandCount
            // The surfaces a pass draws: occlusion may leave others undrawn.
            var drawn = Set<Int>()
            for pass in plan.passes { if case .offscreen(let i) = pass.target { drawn.insert(i) } }
            for i in drawn {
                surfaces[plan.surfaces[i].purpose, default: 0] += 1
                surfacePixels += plan.surfaces[i].pixelCount
            }
            outputPixels += plan.width * plan.height
        }

        var description: String {
            func count(_ c: Int) -> String { plans == 1 ? "\(c)" : String(format: "%.1f", Double(c) / Double(max(plans, 1))) }
            let reasons = surfaces.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key.rawValue < $1.key.rawValue }
                .map { "\($0.key) \(count($0.value))" }.joined(separator: ", ")
            // How large the surfaces are: against the picture, a frame's.
            let pixels = outputPixels > 0 && surfacePixels > 0
                ? String(format: ", %.2f pictures' pixels", Double(surfacePixels) / Double(outputPixels)) : ""
            return "\(count(commands)) draw commands, \(count(surfaces.values.reduce(0, +))) offscreen surfaces"
                + (reasons.isEmpty ? "" : " (\(reasons)\(pixels))")
        }
    }

    /// How far the frames' times spread: the 10th and 90th percentiles
    /// (nearest rank), so a reader sees whether the median is stable.
    static func spread(of totals: [Double]) -> String {
        let s = totals.sorted()
        guard !s.isEmpty else { return "no frames" }
        func rank(_ p: Double) -> Double { s[min(s.count - 1, max(0, Int((p * Double(s.count)).rounded(.up)) - 1))] }
        return String(format: "frames %d, p10 %.2f ms, p90 %.2f ms", s.count, rank(0.1), rank(0.9))
    }

    private func median(_ v: [Double]) -> Double {
        let s = v.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
}

/// N shape layers, each an M-segment closed curve (a wavy star) filled and
/// stroked, scattered and rotated over a canvas.
struct ShapeBenchCase {
    var layers: Int, segments: Int, width: Int, height: Int

    init?(parsing text: String) {
        let parts = text.split(separator: "@")
        guard parts.count == 2 else { return nil }
        let a = parts[0].split(separator: "x").compactMap { Int($0) }
        let b = parts[1].split(separator: "x").compactMap { Int($0) }
        guard a.count == 2, b.count == 2, a.allSatisfy({ $0 > 0 }), b.allSatisfy({ $0 > 0 }), a[1] >= 3 else { return nil }
        (layers, segments, width, height) = (a[0], a[1], b[0], b[1])
    }

    func scene() -> Scene {
        let scene = Scene(width: CGFloat(width), height: CGFloat(height))
        scene.rootLayer.backgroundColor = CGColor.white
        var generator = SeededRandom(seed: 0x9E37_79B9_7F4A_7C15)
        func random() -> CGFloat { CGFloat(generator.uniform(0, 1)) }
        let size = CGFloat(min(width, height)) / 6
        for _ in 0..<layers {
            let shape = CAShapeLayer()
            shape.bounds = CGRect(x: 0, y: 0, width: size, height: size)
            shape.position = CGPoint(x: random() * CGFloat(width), y: random() * CGFloat(height))
            shape.transform = CATransform3DMakeRotation(random() * 2 * .pi, 0, 0, 1)
            let path = CGMutablePath()
            let c = size / 2
            for k in 0..<segments {
                let angle = CGFloat(k) / CGFloat(segments) * 2 * .pi
                let r = c * (k % 2 == 0 ? 1 : 0.45)
                let p = CGPoint(x: c + r * cos(angle), y: c + r * sin(angle))
                if k == 0 { path.move(to: p) } else {
                    let mid = angle - .pi / CGFloat(segments)
                    path.addQuadCurve(to: p, control: CGPoint(x: c + c * 0.8 * cos(mid), y: c + c * 0.8 * sin(mid)))
                }
            }
            path.closeSubpath()
            shape.path = path
            shape.fillColor = CGColor(red: random(), green: random(), blue: random(), alpha: 0.8)
            shape.strokeColor = CGColor.black
            shape.lineWidth = 2
            scene.rootLayer.addSublayer(shape)
        }
        return scene
    }
}
