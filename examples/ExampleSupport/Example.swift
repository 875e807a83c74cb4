import Foundation
import Lamina

/// What every example program does once its views are set up: draw the root
/// view as the screen would show it, and write the picture and the layer tree.
///
/// A program's `main.swift` builds its view controller and hands the root
/// view to `Example.run(_:_:)`, which writes, under the output folder
/// (default `examples/out`, relative to the working directory):
///
/// - `<name>.png`, the picture drawn by `LayerRenderer`;
/// - `<name>.json`, the same layer tree as scene JSON (`SceneEncoder`), which
///   `lamina render` draws to the same picture.
///
/// The picture is drawn at `scale` pixels per point (default 1, the scale of
/// the conformance references). It is the screen's scale: `run` sets
/// `UIScreen.main.scale` to it before the views are made, so a listing that
/// reads `UIScreen.main.scale` (chapter 6's text layers) gets the scale its
/// picture has.
///
/// Command line: `[--backend auto|gl|cpu] [--out DIR]`. As for `lamina
/// render`, `auto` (the default) draws with GL on a GPU and on the CPU
/// elsewhere, and `gl` falls back to the CPU with a warning when no EGL
/// context can be made, unless `LAMINA_REQUIRE_GL=1`.
public enum Example {
    /// Runs the example called `name` (its target's name), drawn at `scale`,
    /// and exits: status 0 when both files were written, 1 when something
    /// failed, 2 for a bad command line. Errors go to standard error,
    /// prefixed with `name`.
    public static func run(_ name: String, scale: CGFloat = 1, animated: Animated? = nil, _ makeRootView: () throws -> UIView) -> Never {
        let options: ExampleOptions
        do {
            options = try ExampleOptions(parsing: Array(CommandLine.arguments.dropFirst()))
        } catch {
            report(name, "\(error)\nusage: \(name) \(ExampleOptions.usage)")
            exit(2)
        }
        UIScreen.main.scale = scale
        do {
            let rootView = try makeRootView()
            for path in try write(name, rootView: rootView, scale: scale, animated: animated, options: options) { print(path) }
            exit(0)
        } catch {
            report(name, "\(error)")
            exit(1)
        }
    }

    /// Draws `rootView` (the window's whole content, its size the canvas') at
    /// `scale` pixels per point and writes `<name>.png` and `<name>.json`
    /// under `options.outputDirectory`. Returns the two paths.
    ///
    /// As UIKit does when views move into a window, every view's layer gets
    /// the window's scale as its `contentsScale`; layers that are not a
    /// view's keep theirs (a text layer made in code stays at 1, pixelated,
    /// until the listing sets it).
    /// How an animated listing is written: `duration` seconds from time 0 at
    /// `framesPerSecond`, as an animated PNG whose first frame is the still
    /// picture at time 0.
    public struct Animated: Sendable {
        public var duration: Double
        public var framesPerSecond: Double
        public init(duration: Double, framesPerSecond: Double) {
            self.duration = duration; self.framesPerSecond = framesPerSecond
        }
    }

    public static func write(
        _ name: String, rootView: UIView, scale: CGFloat = 1, animated: Animated? = nil, options: ExampleOptions
    ) throws -> [String] {
        // A scale that is not positive and finite is left to the encoder,
        // which refuses it with an error naming `$.scale`.
        if scale > 0, scale.isFinite { setContentsScale(scale, ofLayersOf: rootView) }
        // The window puts the root view at its origin and fills itself with it.
        let size = rootView.bounds.size
        let scene = Scene(width: size.width, height: size.height, scale: scale, rootLayer: rootView.layer)
        // Encoding first also checks the tree: an empty root view, say, is
        // refused with an error that names it before anything is drawn.
        let json = try SceneEncoder().encode(scene)

        let requireGL = ProcessInfo.processInfo.environment["LAMINA_REQUIRE_GL"] == "1"
        // Why `gl` draws on the CPU is worth a warning; `auto` chose it.
        let explain = { (reason: String) in
            if options.backend == .gl { report(name, reason) }
        }
        try FileManager.default.createDirectory(
            atPath: options.outputDirectory, withIntermediateDirectories: true)
        let base = options.outputDirectory.hasSuffix("/") ? options.outputDirectory : options.outputDirectory + "/"
        let png = base + name + ".png", scenePath = base + name + ".json"
        if let animated {
            // Every frame from the scene's JSON, one copy per worker.
            let timeline = try AnimationTimeline(start: 0, end: animated.duration, framesPerSecond: animated.framesPerSecond)
            let canvas = RenderCanvas(width: Double(size.width), height: Double(size.height), scale: Double(scale))
            var apng = try APNGEncoder(width: canvas.pixelWidth, height: canvas.pixelHeight, frameCount: timeline.count,
                                       options: .smallest)
            let probe = try LayerRenderer.choosing(options.backend, fallBack: !requireGL, explain: explain)
            try FrameRenderer(timeline: timeline, backend: probe.backend, fallBack: !requireGL) {
                try SceneDecoder().decode(json)
            }.render { index, image in try apng.add(image, delay: timeline.delayFraction(ofFrame: index)) }
            try FileIO.writeFileAtomically(try apng.finish(), toPath: png)
        } else {
            let renderer = try LayerRenderer.choosing(options.backend, fallBack: !requireGL, explain: explain)
            // The gallery commits these pictures: spend the time to make them small.
            try renderer.render(scene).writePNG(toFile: png, options: .smallest)
        }
        try json.write(to: URL(fileURLWithPath: scenePath), options: .atomic)
        return [png, scenePath]
    }

    private static func setContentsScale(_ scale: CGFloat, ofLayersOf view: UIView) {
        view.layer.contentsScale = scale
        for subview in view.subviews { setContentsScale(scale, ofLayersOf: subview) }
    }

    private static func report(_ name: String, _ message: String) {
        FileHandle.standardError.write(Data("\(name): \(message)\n".utf8))
    }
}
