import Lamina

/// The command line of an example program: `[--backend auto|gl|cpu] [--out DIR]`.
public struct ExampleOptions: Equatable, Sendable {
    /// Which backend draws. Default `.auto`, as for `lamina render`.
    public var backend: BackendChoice = .auto
    /// Where the picture and the scene go. Default `examples/out`.
    public var outputDirectory = "examples/out"

    /// One line describing the arguments.
    public static let usage = "[--backend auto|gl|cpu] [--out DIR]"

    /// The defaults.
    public init() {}

    /// Reads `arguments` (without the program name).
    /// - Throws: `ExampleOptionsError` naming the argument that is wrong.
    public init(parsing arguments: [String]) throws(ExampleOptionsError) {
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard flag == "--backend" || flag == "--out" else { throw .unknownArgument(flag) }
            guard let value = rest.popFirst() else { throw .missingValue(flag) }
            if flag == "--out" {
                guard !value.isEmpty else { throw .invalidValue(flag, value) }
                outputDirectory = value
            } else {
                guard let backend = BackendChoice(rawValue: value) else { throw .invalidValue(flag, value) }
                self.backend = backend
            }
        }
    }
}

/// A command line that `ExampleOptions` cannot read.
public enum ExampleOptionsError: Error, Equatable, CustomStringConvertible {
    /// An argument that is not an option.
    case unknownArgument(String)
    /// An option given last, without its value.
    case missingValue(String)
    /// An option whose value is not one it takes.
    case invalidValue(String, String)

    public var description: String {
        switch self {
        case .unknownArgument(let a): "unknown argument '\(a)'"
        case .missingValue(let flag): "\(flag) needs a value"
        case .invalidValue("--backend", let v): "--backend takes auto, gl or cpu, not '\(v)'"
        case .invalidValue(let flag, let v): "'\(v)' is not a valid value for \(flag)"
        }
    }
}
