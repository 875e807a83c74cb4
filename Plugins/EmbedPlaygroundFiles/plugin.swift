import Foundation
import PackagePlugin

/// Builds the playground's files (Sources/LaminaServer/Playground/Files) and
/// the example scenes (examples/scenes, examples/scenes/listings, the Lottie
/// animations of examples/lottie) into the
/// render server, so that `lamina serve --playground` needs nothing beside
/// its binary: runs `embed-files` whenever one of them changes.
@main
struct EmbedPlaygroundFiles: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        var files: [(name: String, url: URL)] = []
        for (folder, prefix, extensions) in [
            ("Sources/LaminaServer/Playground/Files", "files/", ["html", "js", "css", "svg"]),
            ("examples/scenes", "scenes/examples/", ["json"]),
            ("examples/scenes/listings", "scenes/listings/", ["json"]),
            ("examples/lottie", "scenes/lottie/", ["json"]),
        ] {
            let url = root.appending(path: folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            for name in names.sorted() where extensions.contains((name as NSString).pathExtension) {
                files.append((prefix + name, url.appending(path: name)))
            }
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(files.count) playground files and example scenes",
                executable: try context.tool(named: "embed-files").url,
                arguments: [output.path] + files.map { "\($0.name)=\($0.url.path)" },
                inputFiles: files.map(\.url),
                outputFiles: [output]),
        ]
    }
}
