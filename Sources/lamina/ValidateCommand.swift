import ArgumentParser
import Foundation
import Lamina

/// `lamina validate scene.json [more.json...]`: checks scene files against
/// the scene format and its limits without rendering them.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check scene files against the scene format and its limits.",
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

    func run() throws {
        var anyFailed = false
        var report = ""
        for file in files {
            do {
                _ = try SceneInput.decode(file, allowsFiles: !noFiles)
                report += "\(SceneInput.displayName(file)): OK\n"
            } catch {
                anyFailed = true
                report += "\(error)\n"
            }
        }
        try FileIO.writeStream(Array(report.utf8), to: STDOUT_FILENO, name: "<stdout>")
        if anyFailed { throw ExitCode(1) }
    }
}
