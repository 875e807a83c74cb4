import ArgumentParser
import Lamina

/// The `lamina` command line tool.
@main
struct LaminaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lamina",
        abstract: "Render Core Animation layer trees headless, on the GPU or the CPU.",
        version: "0.1.0",
        subcommands: [RenderCommand.self, ValidateCommand.self, InfoCommand.self, BenchCommand.self])
}
