import ArgumentParser
import Foundation
import Lamina

/// `--fonts DIR`: folders of fonts that resolve by their family and
/// PostScript names before Lamina's table (also `LAMINA_FONTS`, folders
/// separated by `:`; the option wins).
struct FontOptions: ParsableArguments {
    @Option(name: .customLong("fonts"), help: ArgumentHelp(
        "A folder of fonts (.ttf, .otf, .ttc) that scenes may name by family or PostScript name; repeatable (also LAMINA_FONTS, folders separated by ':').",
        valueName: "folder"))
    var folders: [String] = []

    /// The folders from the options, else from `LAMINA_FONTS`.
    func resolvedFolders(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        Self.folders(given: folders, environment: environment)
    }

    static func folders(given: [String], environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        if !given.isEmpty { return given }
        return (environment["LAMINA_FONTS"] ?? "").split(separator: ":").map(String.init).filter { !$0.isEmpty }
    }

    /// Registers every font of the folders, before any text is drawn.
    func register() throws { try Self.register(resolvedFolders()) }

    static func register(_ folders: [String]) throws {
        for folder in folders {
            do {
                try FontRegistry.register(directory: folder)
            } catch {
                throw CommandFailure("--fonts (or LAMINA_FONTS): \(error.message)")
            }
        }
    }
}
