import Foundation
import LaminaIO
import LaminaJSON

/// Reads a scene in any format Lamina takes, from bytes or from a file: the
/// one way the command line, the render server and the playground turn input
/// into a `Scene`. Each format is read once, under one set of limits and one
/// deadline.
///
/// | format | bytes | files |
/// |---|---|---|
/// | `json`: the scene format (`scene-format.md`) | a document starting `{` | `.json`, or any other name |
/// | `caml`: one CAML document | a document starting `<` | `.caml` |
/// | `tendies`: a zipped wallpaper or `.ca` bundle | a zip archive (`PK`) | `.tendies` |
/// | `lottie`: a Lottie animation (bodymovin JSON) | JSON with `layers` and `fr`, told from scene JSON by its content | `.json`, or any other name |
/// | `dotLottie`: a `.lottie` archive, or a Lottie zip (an animation's JSON and its images, as lottie-android reads them) | a zip archive with a dotLottie manifest, or with a JSON file and no wallpaper or `.ca` bundle | `.lottie` |
/// | `tgs`: a Telegram sticker, gzipped Lottie | gzip data (`1F 8B`) | `.tgs` |
/// | a `.ca` bundle or `.wallpaper` folder | — | the folder |
///
/// ```swift
/// let loader = SceneLoader()
/// let loaded = try loader.load(contentsOf: URL(fileURLWithPath: "Clock.wallpaper"))
/// for warning in loaded.warnings { print(warning) }
/// let picture = try LayerRenderer(backend: .cpu).render(loaded.scene)
/// ```
public struct SceneLoader: Sendable {
    /// A format of scene bytes.
    public enum Format: String, Sendable, CaseIterable {
        /// The scene format's JSON.
        case json
        /// One CAML document (XML); its images are data URIs.
        case caml
        /// A `.tendies` zip archive: a wallpaper or a `.ca` bundle, with its images.
        case tendies
        /// A Lottie animation (bodymovin JSON). Bytes declared `json` are
        /// read as Lottie when their content is (`layers` and a frame rate `fr`).
        case lottie
        /// A dotLottie archive (`.lottie`): a zip of Lottie animations and
        /// their images; or a Lottie zip, an animation's JSON and its images
        /// without a manifest (as lottie-android reads one). Bytes declared
        /// `tendies` (a zip) are read as one when they hold a dotLottie
        /// manifest, or a JSON file and no wallpaper or `.ca` bundle.
        case dotLottie
        /// A Telegram sticker (`.tgs`): a Lottie animation, gzipped.
        case tgs

        /// The format `bytes` are in, by their first bytes: a zip archive's
        /// signature, else the first character that is not white space
        /// (`<` for XML, `{` for JSON); nil when it is neither.
        public init?(sniffing bytes: [UInt8]) {
            if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) || bytes.starts(with: [0x50, 0x4B, 0x05, 0x06]) {
                self = .tendies
                return
            }
            if bytes.starts(with: [0x1F, 0x8B]) {
                self = .tgs
                return
            }
            let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
            let text = bytes.starts(with: byteOrderMark) ? bytes.dropFirst(3) : bytes[...]
            switch text.first(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }) {
            case UInt8(ascii: "<"): self = .caml
            case UInt8(ascii: "{"): self = .json
            default: return nil
            }
        }

        /// The format an HTTP media type names (its essence: lowercase, no
        /// parameters): `application/json`, `application/xml` or `text/xml`,
        /// `application/zip` or `application/x-tendies`.
        public init?(mediaType: String) {
            switch mediaType {
            case "application/json": self = .json
            case "application/xml", "text/xml": self = .caml
            case "application/zip", "application/x-tendies": self = .tendies
            case "application/gzip", "application/x-tgsticker": self = .tgs
            default: return nil
            }
        }
    }

    /// How to read what Lamina reads: the limits, where files may come from,
    /// and, for Apple's formats, which state to show.
    public struct Options: Sendable {
        /// What a document may hold.
        public var limits: SceneLimits
        /// Whether images may be read from files (the command line) or only
        /// from the input itself (a server: data URIs and archive entries).
        public var allowsFiles: Bool
        /// Where a JSON scene's relative image paths start; nil: the file's
        /// folder, or the current directory for bytes.
        public var baseDirectory: URL?
        /// CAML: refuse what would be skipped, rather than warn.
        public var strict: Bool
        /// CAML: the `LKState` to show; nil: the base state.
        public var state: String?
        /// CAML: the state transition to play from its start.
        public var transition: CAMLReader.Transition?
        /// CAML: the device's screen in the document's units (the centred
        /// part of the root it shows); nil: the whole root.
        public var screen: CGSize?
        /// CAML: the device's pixels per point, with `screen`.
        public var screenScale: Double
        /// CAML: how the device is tilted (x, y in -1...1), for parallax groups.
        public var tilt: CGPoint?
        /// dotLottie archives and Lottie zips: the animation to draw, by its
        /// id in the manifest (a Lottie zip's: its JSON file's name without
        /// `.json`); nil: the first.
        public var animation: String?

        /// The defaults: the scene format's limits, files allowed, lenient,
        /// the base state.
        public init(limits: SceneLimits = .default, allowsFiles: Bool = true, baseDirectory: URL? = nil,
                    strict: Bool = false, state: String? = nil, transition: CAMLReader.Transition? = nil,
                    screen: CGSize? = nil, screenScale: Double = 1, tilt: CGPoint? = nil, animation: String? = nil) {
            self.limits = limits
            self.allowsFiles = allowsFiles
            self.baseDirectory = baseDirectory
            self.strict = strict
            self.state = state
            self.transition = transition
            self.screen = screen
            self.screenScale = screenScale
            self.tilt = tilt
            self.animation = animation
        }

        /// Whether any of the options for Apple's formats is set.
        public var hasCAMLOptions: Bool { strict || state != nil || transition != nil || screen != nil || tilt != nil }
    }

    public var options: Options
    /// When reading must stop (a render server's request deadline): past
    /// it the load throws a `SceneError` of kind `interrupted`.
    public var deadline: RenderDeadline?

    /// A loader with `options`, and `deadline` if reading has one.
    public init(options: Options = Options(), deadline: RenderDeadline? = nil) {
        self.options = options
        self.deadline = deadline
    }

    /// Reads scene bytes in `format`, or in the format their first bytes
    /// show (`Format(sniffing:)`). `name` names the input in errors and
    /// warnings.
    /// - Throws: `SceneError`, located in the input.
    public func load(_ bytes: [UInt8], format: Format? = nil, name: String = "scene") throws(SceneError) -> LoadedScene {
        guard let format = format ?? Format(sniffing: bytes) else {
            throw SceneError(.unsupportedFormat, at: name,
                             "expected scene JSON (starting '{'), a CAML document (starting '<') or a .tendies zip archive")
        }
        let isLottieArchive = format == .dotLottie || (format == .tendies && LottieReader.isLottieArchive(bytes))
        if let animation = options.animation, !isLottieArchive {
            throw SceneError(.conflict, at: name, "an animation ('\(Quoted.prefix(animation))') is chosen in .lottie archives and Lottie zips, and \(name) is not one")
        }
        switch format {
        case .json, .lottie:
            guard bytes.count <= options.limits.documentBytes else {
                throw SceneError(.limitExceeded, at: "$", "the document has \(bytes.count) bytes, over the limit of \(options.limits.documentBytes)")
            }
            let root = try JSONParser.parse(bytes, maxNesting: options.limits.jsonNesting, deadline: deadline)
            let fingerprint = JSONFingerprint.digest(of: root).hex
            if format == .lottie || LottieReader.isLottie(root) {
                guard options.state == nil, options.transition == nil else {
                    throw SceneError(.conflict, at: name, "state and transition are for CAML inputs, and \(name) is a Lottie animation")
                }
                let result = try LottieReader(limits: options.limits, strict: options.strict, deadline: deadline)
                    .read(value: root, name: name)
                var loaded = LoadedScene(scene: result.scene, format: .lottie, fingerprint: fingerprint, camlResult: nil)
                loaded.lottie = result
                return loaded
            }
            guard !options.hasCAMLOptions else {
                throw SceneError(.conflict, at: name, "state, transition and strict are for CAML and Lottie inputs, and \(name) is scene JSON")
            }
            let decoder = SceneDecoder(limits: options.limits,
                                       options: .init(baseDirectory: options.baseDirectory, allowsFiles: options.allowsFiles),
                                       deadline: deadline)
            return LoadedScene(scene: try decoder.decode(value: root), format: .json, fingerprint: fingerprint, camlResult: nil)
        case .tendies where isLottieArchive, .dotLottie:
            guard options.state == nil, options.transition == nil else {
                throw SceneError(.conflict, at: name, "state and transition are for CAML inputs, and \(name) is a dotLottie archive")
            }
            let result = try LottieReader(limits: options.limits, strict: options.strict, deadline: deadline)
                .read(dotLottie: bytes, animation: options.animation, name: name)
            // The archive's bytes, and which of its animations is drawn.
            var hash = SHA256()
            hash.update(bytes)
            if let animation = options.animation { hash.update(field: animation) }
            var loaded = LoadedScene(scene: result.scene, format: .dotLottie, fingerprint: hash.finalize().hex, camlResult: nil)
            loaded.lottie = result
            return loaded
        case .tgs:
            let json: [UInt8]
            do {
                json = try Gzip.inflate(bytes, maxBytes: options.limits.documentBytes)
            } catch {
                throw SceneError(error.isOverLimit ? .limitExceeded : .invalidValue, at: name, error.message)
            }
            var loaded = try load(json, format: .lottie, name: name)
            loaded.format = .tgs
            return loaded
        case .caml:
            let result = try camlReader.read(caml: bytes, name: name, state: options.state, transition: options.transition)
            return LoadedScene(caml: result, format: .caml)
        case .tendies:
            let result = try camlReader.read(tendies: bytes, name: name, state: options.state, transition: options.transition)
            return LoadedScene(caml: result, format: .tendies)
        }
    }

    /// Reads the scene in a file or folder: a `.caml` document, a `.ca`
    /// bundle, a `.wallpaper` folder or a `.tendies` archive by its name;
    /// any other file by its first bytes. A JSON scene's image paths start
    /// from its folder unless `options.baseDirectory` says otherwise.
    /// - Throws: `SceneError`, located in the input.
    public func load(contentsOf url: URL) throws(SceneError) -> LoadedScene {
        if ["lottie", "tgs"].contains(url.pathExtension.lowercased()) {
            return try load(try readFile(url), format: url.pathExtension.lowercased() == "tgs" ? .tgs : .dotLottie, name: url.lastPathComponent)
        }
        if CAMLReader.InputKind(url: url) != nil {
            let result = try camlReader.read(contentsOf: url, state: options.state, transition: options.transition)
            return LoadedScene(caml: result, format: url.pathExtension.lowercased() == "tendies" ? .tendies : .caml)
        }
        let bytes = try readFile(url)
        var loader = self
        if loader.options.baseDirectory == nil {
            loader.options.baseDirectory = url.deletingLastPathComponent()
        }
        // A file of another name is JSON unless its bytes say otherwise.
        return try loader.load(bytes, format: Format(sniffing: bytes) ?? .json, name: url.path)
    }

    /// The bytes of the file at `url`, within the document limit.
    private func readFile(_ url: URL) throws(SceneError) -> [UInt8] {
        do {
            return try FileIO.readFile(atPath: url.path, maxBytes: options.limits.documentBytes)
        } catch {
            throw SceneError(error.code == EFBIG ? .limitExceeded : .fileAccess, at: url.path, error.reason)
        }
    }

    private var camlReader: CAMLReader {
        CAMLReader(limits: options.limits, options: .init(strict: options.strict, allowsFiles: options.allowsFiles, screen: options.screen,
                                                                  screenScale: options.screenScale, tilt: options.tilt),
                   deadline: deadline)
    }
}

/// A scene read by `SceneLoader`, with what the reading found.
public struct LoadedScene {
    /// The scene: its canvas and layer tree.
    public var scene: Scene
    /// The format it was read from.
    public var format: SceneLoader.Format
    /// The scene's name for a cache of pictures: 64 hexadecimal digits, the
    /// same for every spelling of the same scene (whitespace, key order,
    /// number formats), whatever format it came in.
    public var fingerprint: String
    /// What was skipped or tolerated in CAML and Lottie inputs, each kind once.
    public var warnings: [SceneWarning] { camlResult?.warnings ?? lottie?.warnings ?? [] }
    /// A Lottie animation's own length in seconds (its in to its out point).
    public var duration: Double? { lottie.map { ($0.outPoint - $0.inPoint) / $0.frameRate } }
    /// A Lottie animation's own frame rate.
    public var frameRate: Double? { lottie?.frameRate }
    /// Whether it was a Lottie animation (JSON, `.lottie` or `.tgs`).
    public var isLottie: Bool { lottie != nil }

    /// The scene time of a Lottie animation's frame `frame` (its own frame
    /// numbers: `ip` is time 0); for other scenes, `frame` seconds.
    public func time(ofFrame frame: Double) -> Double { lottie?.time(ofFrame: frame) ?? frame }

    /// The scene time at `progress` (0...1) of a Lottie animation's range,
    /// as lottie-ios's `currentProgress`; 0 for other scenes.
    public func time(atProgress progress: Double) -> Double { (duration ?? 0) * progress }
    /// The `LKState`s an Apple document defines, sorted (empty for JSON).
    public var states: [String] { camlResult?.states ?? [] }

    private let camlResult: CAMLReader.Result?
    fileprivate var lottie: LottieReader.Result?

    fileprivate init(scene: Scene, format: SceneLoader.Format, fingerprint: String, camlResult: CAMLReader.Result?) {
        self.scene = scene
        self.format = format
        self.fingerprint = fingerprint
        self.camlResult = camlResult
    }

    fileprivate init(caml result: CAMLReader.Result, format: SceneLoader.Format) {
        self.init(scene: result.scene, format: format, fingerprint: result.fingerprint.hex, camlResult: result)
    }

    /// The scene in the scene format: an Apple document's as it was read
    /// (images as data URIs); nil for a scene read from JSON, which is its
    /// own text.
    public var sceneJSON: String? { camlResult?.sceneJSON }
}
