import ArgumentParser
import Foundation
import Lamina
import Synchronization

/// How to read Apple's scene files (`.caml`, `.ca`, `.wallpaper`,
/// `.tendies`), for the commands that read scenes.
struct CAMLOptions: ParsableArguments {
    @Option(help: "CAML only: render the document in this state (an LKState's name).")
    var state: String?

    @Option(help: "CAML only: play the transition between two states, FROM:TO (frames starts at the transition's start).")
    var transition: String?

    @Flag(help: "CAML only: the lock screen, then the unlock at --unlock-at, as a phone shows a wallpaper (its Locked and Unlock states, or PosterBoard's Lock and Home ones).")
    var preview = false

    @Option(help: "CAML only, with --preview: when the unlock starts, in seconds.")
    var unlockAt: Double = 2

    @Option(help: "CAML only, with --preview: Light or Dark, for wallpapers with a state of each.")
    var appearance = "Light"

    @Option(help: "CAML only: a phone's screen, WIDTHxHEIGHT@SCALE in points (402x874@3): the picture is the centred WIDTH·SCALE x HEIGHT·SCALE of a wallpaper's root, whose units are the device's pixels. Default: the device the wallpaper's folder name states (810w-1080h@2x), else the whole root.")
    var device: String?

    @Option(help: "CAML only: the device tilted X,Y (each -1 to 1): a wallpaper's parallax groups move as their mapMinTo and mapMaxTo say.")
    var tilt: String?

    @Flag(help: "CAML only: refuse the document where something Lamina does not draw would be skipped.")
    var strict = false

    /// `--tilt` as a point, or nil.
    var parsedTilt: CGPoint? {
        guard let tilt else { return nil }
        let parts = tilt.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, parts.allSatisfy({ (-1...1).contains($0) }) else { return nil }
        return CGPoint(x: parts[0], y: parts[1])
    }

    /// `--device` as width, height and scale, or nil.
    private var deviceParts: [Double]? {
        guard let device else { return nil }
        let parts = device.split(whereSeparator: { $0 == "x" || $0 == "@" }).compactMap { Double($0) }
        guard parts.count == 3, parts.allSatisfy({ $0 > 0 && $0.isFinite && $0 < 100_000 }) else { return nil }
        return parts
    }

    /// `--device` in the document's units (the device's pixels).
    var screen: CGSize? { deviceParts.map { CGSize(width: $0[0] * $0[2], height: $0[1] * $0[2]) } }

    /// `--device`'s pixels per point.
    var screenScale: Double { deviceParts?[2] ?? 1 }

    func validate() throws {
        if let transition, CAMLReader.Transition(transition) == nil {
            throw ValidationError("--transition takes two state names as FROM:TO, got '\(transition)'")
        }
        if [state != nil, transition != nil, preview].filter({ $0 }).count > 1 {
            throw ValidationError("give one of --state, --transition and --preview")
        }
        guard unlockAt.isFinite, unlockAt >= 0 else { throw ValidationError("--unlock-at takes seconds ≥ 0, got \(unlockAt)") }
        if let tilt, parsedTilt == nil {
            throw ValidationError("--tilt takes X,Y, each from -1 to 1, got '\(tilt)'")
        }
        if let device, screen == nil {
            throw ValidationError("--device takes WIDTHxHEIGHT@SCALE in points, such as 402x874@3, got '\(device)'")
        }
    }

    var parsedTransition: CAMLReader.Transition? {
        if preview { return .lockScreenPreview(appearance: appearance.prefix(1).uppercased() + appearance.dropFirst().lowercased(), begins: unlockAt) }
        return transition.flatMap(CAMLReader.Transition.init)
    }

    var isEmpty: Bool { state == nil && transition == nil && !preview && device == nil && tilt == nil && !strict }
}

/// Reading CAML inputs into scene JSON.
extension SceneInput {
    private static let camlDocuments = Mutex<[String: Document]>([:])

    /// Whether `path` names one of Apple's formats by its extension.
    static func isCAML(_ path: String) -> Bool {
        path != "-" && CAMLReader.InputKind(url: URL(fileURLWithPath: path)) != nil
    }

    /// The CAML input at `path` (or a CAML document on standard input) as
    /// scene JSON; warnings go to standard error once.
    static func readCAML(_ path: String, bytes: [UInt8]?, limits: SceneLimits, options: CAMLOptions?) throws -> Document {
        // Commands read their input more than once (frames: once to check, once per worker).
        if bytes == nil, let cached = camlDocuments.withLock({ $0[path] }) { return cached }
        let loaded = try loadCAML(path, bytes: bytes, limits: limits, options: options, allowsFiles: true)
        return bytes == nil ? remember(loaded, for: path) : document(of: loaded)
    }

    /// Keeps a CAML input's scene JSON for the command's later reads of
    /// `path` (which then neither read it again nor warn twice).
    @discardableResult
    static func remember(_ loaded: LoadedScene, for path: String) -> Document {
        let document = document(of: loaded)
        camlDocuments.withLock { $0[path] = document }
        return document
    }

    private static func document(of loaded: LoadedScene) -> Document {
        Document(bytes: Array((loaded.sceneJSON ?? "").utf8), base: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
    }

    /// The CAML input at `path` (or a CAML document given as `bytes`),
    /// read by `SceneLoader`; its warnings go to standard error.
    static func loadCAML(_ path: String, bytes: [UInt8]?, limits: SceneLimits, options: CAMLOptions?,
                         allowsFiles: Bool) throws -> LoadedScene {
        let loader = SceneLoader(options: .init(limits: limits, allowsFiles: allowsFiles, strict: options?.strict ?? false,
                                                state: options?.state, transition: options?.parsedTransition,
                                                screen: options?.screen, screenScale: options?.screenScale ?? 1,
                                                tilt: options?.parsedTilt))
        do {
            let loaded = if let bytes {
                try loader.load(bytes, format: .caml, name: displayName(path))
            } else {
                try loader.load(contentsOf: URL(fileURLWithPath: path))
            }
            if !loaded.warnings.isEmpty {
                let text = SceneWarning.lines(for: loaded.warnings).map { "lamina: warning: \($0)\n" }.joined()
                try? FileIO.writeStream(Array(text.utf8), to: STDERR_FILENO, name: "<stderr>")
            }
            return loaded
        } catch {
            throw CommandFailure(error.issues.map { "\($0)" }.joined(separator: "\n"))
        }
    }

    /// Whether a document read from standard input is XML rather than JSON.
    static func looksLikeXML(_ bytes: [UInt8]) -> Bool {
        bytes.drop(while: { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF })
            .first == UInt8(ascii: "<")
    }
}

/// `lamina convert IN --output scene.json`: Apple's scene files as scene JSON.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Write a CAML document, .ca bundle, .wallpaper or .tendies archive as scene JSON.",
        discussion: """
            The scene holds the document's layers in its base state (or --state, or at the start of \
            --transition, with its animations), images as data URIs. What Lamina does not draw is \
            skipped with a warning (see docs/caml.md); --strict refuses it instead.
            """)

    @Argument(help: "A .caml file, a .ca bundle, a .wallpaper folder or a .tendies archive; - reads a CAML document from standard input.")
    var input: String

    @Option(name: .shortAndLong, help: "Where the scene JSON goes, or - for standard output.")
    var output: String

    @OptionGroup var caml: CAMLOptions
    @OptionGroup var limits: LimitOptions

    func run() throws {
        guard input == "-" || SceneInput.isCAML(input) else {
            throw CommandFailure("\(input): expected a .caml file, a .ca bundle, a .wallpaper folder or a .tendies archive")
        }
        let document = try SceneInput.read(input, limits: limits.sceneLimits, caml: caml)
        if output == "-" {
            try FileIO.writeStream(document.bytes, to: STDOUT_FILENO, name: "<stdout>")
        } else {
            try FileIO.writeFileAtomically(document.bytes, toPath: output)
        }
    }
}
