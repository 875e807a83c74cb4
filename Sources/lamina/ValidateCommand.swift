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

    @Argument(help: "Scene JSON files.")
    var files: [String]

    @Flag(name: .customLong("no-files"),
          help: "Refuse image files in contents, accepting only data URIs, as the render server does.")
    var noFiles = false

    func run() throws {
        let decoder = SceneDecoder(options: SceneDecoder.Options(allowsFiles: !noFiles))
        var anyFailed = false
        for file in files {
            do {
                _ = try decoder.decode(contentsOf: URL(fileURLWithPath: file))
                print("\(file): OK")
            } catch {
                anyFailed = true
                for issue in error.issues {
                    print("\(file): \(issue)")
                }
            }
        }
        if anyFailed { throw ExitCode(1) }
    }
}
