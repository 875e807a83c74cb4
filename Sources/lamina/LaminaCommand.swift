import ArgumentParser
import Foundation
import Lamina

/// The `lamina` command line tool.
@main
struct LaminaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lamina",
        abstract: "Render Core Animation layer trees headless, on the GPU or the CPU.",
        version: laminaVersion,
        subcommands: [RenderCommand.self, FramesCommand.self, ConvertCommand.self, ValidateCommand.self, InfoCommand.self, BenchCommand.self, ServeCommand.self, SignCommand.self])

    /// Runs the command. A failure of the input (a scene, a file, a budget)
    /// is one message on standard error, written in one go, and exit status
    /// 1; mistakes on the command line get ArgumentParser's usage text.
    static func main() {
        // A closed standard output is an error to report, not a signal that
        // ends the process without a word.
        signal(SIGPIPE, SIG_IGN)
        // Frames reuse their large buffers instead of faulting in fresh pages.
        AllocatorTuning.reuseLargeBuffers()
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let error as any InputFailure {
            fail(error.description)
        } catch {
            exit(withError: error)
        }
    }

    private static func fail(_ message: String) -> Never {
        let text = "lamina: " + message + "\n"
        try? FileIO.writeStream(Array(text.utf8), to: STDERR_FILENO, name: "<stderr>")
        Foundation.exit(1)
    }
}

/// A failure of the input or the output (a scene, a file, a budget, an
/// encoder), reported as its one-line description, with exit status 1.
/// Everything else (a mistake on the command line) gets ArgumentParser's
/// usage text.
protocol InputFailure: Error, CustomStringConvertible {}

extension CommandFailure: InputFailure {}
extension IOError: InputFailure {}
extension PNGError: InputFailure {}
extension WebPError: InputFailure {}
extension VideoError: InputFailure {}
extension RenderRefusal: InputFailure {}
