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
/// Command line: `[--backend gl|cpu] [--out DIR]`. As for `lamina render`,
/// `gl` falls back to the CPU with a warning when no EGL context can be made,
/// unless `LAMINA_REQUIRE_GL=1`.
public enum Example {
    /// Runs the example called `name` (its target's name) and exits: status 0
    /// when both files were written, 1 when something failed, 2 for a bad
    /// command line. Errors go to standard error, prefixed with `name`.
    public static func run(_ name: String, _ makeRootView: () throws -> UIView) -> Never {
        let options: ExampleOptions
        do {
            options = try ExampleOptions(parsing: Array(CommandLine.arguments.dropFirst()))
        } catch {
            report(name, "\(error)\nusage: \(name) \(ExampleOptions.usage)")
            exit(2)
        }
        do {
            for path in try write(name, rootView: try makeRootView(), options: options) { print(path) }
            exit(0)
        } catch {
            report(name, "\(error)")
            exit(1)
        }
    }

    /// Draws `rootView` (the window's whole content, its size the canvas') and
    /// writes `<name>.png` and `<name>.json` under `options.outputDirectory`.
    /// Returns the two paths.
    public static func write(_ name: String, rootView: UIView, options: ExampleOptions) throws -> [String] {
        // The window puts the root view at its origin and fills itself with it.
        let size = rootView.bounds.size
        let scene = Scene(width: size.width, height: size.height, rootLayer: rootView.layer)
        // Encoding first also checks the tree: an empty root view, say, is
        // refused with an error that names it before anything is drawn.
        let json = try SceneEncoder().encode(scene)

        let requireGL = ProcessInfo.processInfo.environment["LAMINA_REQUIRE_GL"] == "1"
        let renderer = try LayerRenderer(backend: options.backend, fallBack: !requireGL)
        let image = try renderer.render(scene)

        try FileManager.default.createDirectory(
            atPath: options.outputDirectory, withIntermediateDirectories: true)
        let base = options.outputDirectory.hasSuffix("/") ? options.outputDirectory : options.outputDirectory + "/"
        let png = base + name + ".png", scenePath = base + name + ".json"
        // The gallery commits these pictures: spend the time to make them small.
        try image.writePNG(toFile: png, options: .smallest)
        try json.write(to: URL(fileURLWithPath: scenePath), options: .atomic)
        return [png, scenePath]
    }

    private static func report(_ name: String, _ message: String) {
        FileHandle.standardError.write(Data("\(name): \(message)\n".utf8))
    }
}
