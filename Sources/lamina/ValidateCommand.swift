import ArgumentParser
import Foundation
import Lamina

/// `lamina validate scene.json [more.json...]`: checks scene files against
/// the scene format and its limits without rendering them.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check scene files against the scene format, its limits and the render budget.",
        discussion: """
            Prints "FILE: OK" for a good scene, and for a refused one every problem found, \
            one per line: "FILE: $.json.path: message (line L, column C)". \
            Exits with status 1 if any file was refused.
            """)

    @Argument(help: "Scene JSON files; - reads one from standard input.")
    var files: [String]

    @Flag(name: .customLong("no-files"),
          help: "Refuse image files in contents, accepting only data URIs, as the render server does.")
    var noFiles = false

    @OptionGroup var caml: CAMLOptions
    @OptionGroup var limits: LimitOptions

    func run() throws {
        var anyFailed = false
        var report = ""
        // The frame is planned as render plans it (snapshot and plan, on the
        // CPU backend's planner, nothing drawn), so that what validate
        // accepts is what render renders: a scene over the render budget is
        // refused here too, at the layer that asked.
        let planner = try LayerRenderer(backend: .cpu, budget: limits.renderBudget, warn: { _ in })
        for file in files {
            let name = SceneInput.displayName(file)
            do {
                let scene = try SceneInput.decode(file, limits: limits.sceneLimits, allowsFiles: !noFiles, caml: caml)
                _ = try planner.prepare(scene)
                report += "\(name): OK\n"
            } catch let refusal as RenderRefusal {
                anyFailed = true
                report += "\(name): \(refusal)\n"
            } catch {
                anyFailed = true
                report += "\(error)\n"
            }
        }
        try FileIO.writeStream(Array(report.utf8), to: STDOUT_FILENO, name: "<stdout>")
        if anyFailed { throw ExitCode(1) }
    }
}
