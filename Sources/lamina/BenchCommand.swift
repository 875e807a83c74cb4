import ArgumentParser
import Foundation
import Lamina

/// `lamina bench`: time per frame of scenes and of generated shape layers, on
/// one or both backends. A benchmark, not a test: it prints figures and
/// asserts nothing.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Time scenes, or generated shape layers, on the GL and CPU backends.",
        discussion: """
            Each case is drawn --warmup times untimed, then --frames times; the median and \
            the fastest frame are printed, split into the stages of the pipeline: snapshot \
            and plan, render (backend, readback included) and PNG encoding. Run a release \
            build (swift build -c release) for figures worth keeping.
            """)

    @Argument(help: "Scene JSON files. With none, --shapes cases are run.")
    var scenes: [String] = []

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

    @Flag(help: "Also decode the scene's JSON each frame, as a render server does for each request (its time counts in plan ms).")
    var decode = false

    func validate() throws {
        guard ["gl", "cpu", "both"].contains(backend) else { throw ValidationError("--backend must be gl, cpu or both") }
        guard frames > 0, warmup >= 0 else { throw ValidationError("--frames must be > 0 and --warmup >= 0") }
        for s in shapes where ShapeBenchCase(parsing: s) == nil {
            throw ValidationError("--shapes: '\(s)' is not LAYERSxSEGMENTS@WIDTHxHEIGHT")
        }
    }

    func run() throws {
        let backends: [RenderBackend] = backend == "both" ? [.gl, .cpu] : [RenderBackend(rawValue: backend)!]
        var cases: [(name: String, scene: Scene)] = []
        if scenes.isEmpty {
            for s in shapes {
                let c = ShapeBenchCase(parsing: s)!
                cases.append((s, c.scene()))
            }
        } else {
            for path in scenes { cases.append((URL(fileURLWithPath: path).lastPathComponent, try SceneInput.decode(path))) }
        }
        // With --decode, each frame starts from the scene's JSON bytes.
        let documents = try cases.map { try SceneEncoder().encode($0.scene) }
        let encoder = PNGEncoder(options: try pngOptions)
        print("case".padding(toLength: 22, withPad: " ", startingAt: 0), "backend  frame ms (median / best)   plan ms   render ms" + (png ? "   png ms   png KB" : ""))
        for b in backends {
            let renderer = try LayerRenderer(backend: b, fallBack: false)
            for ((name, scene), document) in zip(cases, documents) {
                var plan: [Double] = [], render: [Double] = [], encode: [Double] = [], total: [Double] = []
                var pngBytes = 0
                var lastPlan: RenderPlan?
                for i in 0..<(warmup + frames) {
                    let t0 = DispatchTime.now().uptimeNanoseconds
                    let frame = try renderer.prepare(decode ? try SceneDecoder().decode(document) : scene)
                    lastPlan = frame
                    let t1 = DispatchTime.now().uptimeNanoseconds
                    let image = try renderer.renderer.render(frame)
                    let t2 = DispatchTime.now().uptimeNanoseconds
                    if png { pngBytes = try encoder.encode(image).count }
                    let t3 = DispatchTime.now().uptimeNanoseconds
                    guard i >= warmup else { continue }
                    plan.append(Double(t1 - t0) / 1e6); render.append(Double(t2 - t1) / 1e6)
                    encode.append(Double(t3 - t2) / 1e6); total.append(Double(t3 - t0) / 1e6)
                }
                var line = name.padding(toLength: 22, withPad: " ", startingAt: 0) + " " + renderer.backend.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
                line += String(format: " %8.2f / %8.2f     %7.2f   %9.2f", median(total), total.min()!, median(plan), median(render))
                if png { line += String(format: "   %6.2f   %6.1f", median(encode), Double(pngBytes) / 1000) }
                print(line)
                if let lastPlan { print("  " + Self.summary(of: lastPlan)) }
            }
        }
    }

    /// What the plan asks of the backend: draws, and each offscreen surface
    /// by why it exists (`SurfacePurpose`), as cc's render surface reasons.
    static func summary(of plan: RenderPlan) -> String {
        var counts: [SurfacePurpose: Int] = [:]
        for surface in plan.surfaces { counts[surface.purpose, default: 0] += 1 }
        let reasons = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key.rawValue < $1.key.rawValue }
            .map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        return "\(plan.commandCount) draw commands, \(plan.surfaces.count) offscreen surfaces"
            + (reasons.isEmpty ? "" : " (\(reasons))")
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
