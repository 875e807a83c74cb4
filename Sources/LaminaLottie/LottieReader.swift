import Foundation
import LaminaCore
import LaminaIO
import LaminaScene
import LaminaJSON

/// Reads Lottie animations (bodymovin JSON, as After Effects exports them)
/// into a `Scene`: a layer tree animated with Core Animation's own
/// animations, built the way lottie-ios's Core Animation engine builds it,
/// so that `render` at a time, `frames`, the server and snapshots all work
/// on it unchanged.
///
/// The scene's canvas is the animation's `w` x `h`; its time 0 is the
/// animation's in point (`ip`), and frame `f` is at `(f - ip) / fr` seconds.
/// What Core Animation (or Lamina, yet) cannot draw is skipped with a
/// warning that names its JSON path, or refused with `strict`.
///
/// ```swift
/// let result = try LottieReader().read(Array(try Data(contentsOf: url)), name: "loader.json")
/// let frame = try LayerRenderer(backend: .cpu).render(result.scene, time: 0.5)
/// ```
public struct LottieReader: Sendable {
    /// What a file may hold; `layerCount` counts each use of a precomposition's layers.
    public var limits: SceneLimits
    /// Refuse the file where something would be skipped.
    public var strict: Bool
    /// When reading must stop (a render server's request deadline).
    public var deadline: RenderDeadline?

    public init(limits: SceneLimits = .default, strict: Bool = false, deadline: RenderDeadline? = nil) {
        self.limits = limits
        self.strict = strict
        self.deadline = deadline
    }

    /// What was read.
    public struct Result {
        /// The animation as a scene.
        public var scene: Scene
        /// What was skipped or drawn approximately, each kind once.
        public var warnings: [SceneWarning]
        /// The animation's frame rate, in and out points (frames).
        public var frameRate: Double
        public var inPoint: Double
        public var outPoint: Double

        /// The scene time of a frame.
        public func time(ofFrame frame: Double) -> Double { (frame - inPoint) / frameRate }
    }

    /// Whether a parsed JSON document is a Lottie animation: an object with
    /// `layers` and a frame rate `fr` (the scene format has neither).
    package static func isLottie(_ root: JSONValue) -> Bool {
        guard let object = root.object else { return false }
        return object["layers"]?.array != nil && object["fr"]?.number != nil
    }

    /// Reads a Lottie document's bytes.
    public func read(_ bytes: [UInt8], name: String = "animation.json") throws(SceneError) -> Result {
        guard bytes.count <= limits.documentBytes else {
            throw SceneError(.limitExceeded, at: name, "the file has \(bytes.count) bytes, over the limit of \(limits.documentBytes)")
        }
        return try read(value: JSONParser.parse(bytes, maxNesting: limits.jsonNesting, deadline: deadline), name: name)
    }

    /// Whether `bytes` are a Lottie archive: a dotLottie (a zip holding a
    /// `manifest.json` beside `animations/`, or `a/` in dotLottie 2), or a
    /// Lottie zip as lottie-android reads one (an animation's JSON and its
    /// images, no manifest; not a wallpaper's or a `.ca` bundle's zip).
    package static func isLottieArchive(_ bytes: [UInt8]) -> Bool {
        guard bytes.starts(with: [0x50, 0x4B]), let archive = try? ZipArchive(bytes, maximumEntries: 10_000) else { return false }
        let paths = Set(archive.entries.map(\.path))
        if paths.contains("manifest.json") { return paths.contains { $0.hasPrefix("animations/") || $0.hasPrefix("a/") } }
        // Apple's: a wallpaper, a `.ca` bundle, or a CAML document of its own.
        let caml = paths.contains { path in
            let lowered = path.lowercased()
            return lowered.contains(".ca/") || lowered.contains(".wallpaper/") || lowered.hasSuffix(".caml")
        }
        return !caml && !animationFiles(in: archive).isEmpty
    }

    /// The JSON files of a Lottie zip, in the archive's order.
    private static func animationFiles(in archive: ZipArchive) -> [ZipArchive.Entry] {
        archive.entries.filter { $0.kind == .file && $0.path.lowercased().hasSuffix(".json") && !isLitter($0) }
    }

    /// Whether an entry of a Lottie zip is no part of the animation: macOS's
    /// (`__MACOSX/`, `._` files, `.DS_Store`) or another hidden file or folder's.
    private static func isLitter(_ entry: ZipArchive.Entry) -> Bool {
        entry.path.split(separator: "/").contains { $0.hasPrefix(".") || $0 == "__MACOSX" }
    }

    /// Reads a dotLottie archive (`.lottie`): the animation of its manifest
    /// named `animation`, else the manifest's first; images from the
    /// archive. A Lottie zip (no manifest) is read as lottie-android reads
    /// one: its animation is its JSON file (the one named `animation`, by
    /// its file name without `.json`, where it holds several; else the
    /// first, with a warning), its images found by file name anywhere in it.
    public func read(dotLottie bytes: [UInt8], animation: String? = nil, name: String = "animation.lottie") throws(SceneError) -> Result {
        func refuse(_ kind: SceneError.Kind, _ message: String) -> SceneError { SceneError(kind, at: name, message) }
        func refuse(_ message: String) -> SceneError { refuse(.invalidValue, message) }
        guard bytes.count <= limits.documentBytes else {
            throw refuse(.limitExceeded, "the archive has \(bytes.count) bytes, over the limit of \(limits.documentBytes)")
        }
        let archive: ZipArchive
        do {
            archive = try ZipArchive(bytes, maximumEntries: 10_000)
        } catch {
            throw refuse(error.isOverLimit ? .limitExceeded : .invalidValue, "not a readable zip archive: \(error.message)")
        }
        var budget = max(limits.documentBytes, limits.imageBytes) * 4
        func file(_ path: String) throws(SceneError) -> [UInt8]? {
            guard let entry = archive.entries.first(where: { $0.path == path && $0.kind == .file }) else { return nil }
            guard entry.uncompressedSize <= max(limits.documentBytes, limits.imageBytes), entry.uncompressedSize <= budget else {
                throw refuse(.limitExceeded, "'\(path)' inflates to \(entry.uncompressedSize) bytes, over the limits")
            }
            budget -= entry.uncompressedSize
            try deadline?.check(at: "\(name)/\(path)")
            do {
                return try archive.contents(of: entry)
            } catch {
                throw refuse("cannot read '\(path)': \(error.message)")
            }
        }
        guard let manifestBytes = try file("manifest.json") else {
            return try read(lottieZip: archive, animation: animation, name: name, file: file)
        }
        let manifest = try JSONParser.parse(manifestBytes, maxNesting: 32, deadline: nil)
        let ids = (manifest.object?["animations"]?.array.map(Array.init) ?? []).compactMap { $0.object?["id"]?.string }
        guard let id = animation ?? ids.first else { throw refuse("the manifest names no animation") }
        guard ids.contains(id) || animation == nil else {
            throw refuse(.unknownName, "no animation is called '\(Quoted.prefix(id))'; the archive has \(Self.listing(ids))")
        }
        // dotLottie 1 keeps animations in animations/, dotLottie 2 in a/.
        var folder = "animations"
        var found = try file("animations/\(id).json")
        if found == nil {
            folder = "a"
            found = try file("a/\(id).json")
        }
        guard let json = found else { throw refuse("the archive has no animations/\(id).json (nor a/\(id).json)") }
        let document = "\(name)/\(folder)/\(id).json"
        var images: [String: [UInt8]] = [:]
        for entry in archive.entries where entry.kind == .file && (entry.path.hasPrefix("images/") || entry.path.hasPrefix("i/")) {
            images[String(entry.path.split(separator: "/").last ?? "")] = try file(entry.path)
        }
        return try read(value: JSONParser.parse(json, maxNesting: limits.jsonNesting, deadline: deadline), name: document,
                        images: { images[$0] })
    }

    /// An archive's animations named for a message: the first ten, each
    /// cut short if long, and how many more.
    static func listing(_ names: [String]) -> String {
        let shown = names.prefix(10).map { Quoted.prefix($0, limit: 40) }.joined(separator: ", ")
        return names.count > 10 ? "\(shown) and \(names.count - 10) more" : shown
    }

    /// A Lottie zip's animation (`read(dotLottie:animation:name:)`), its
    /// entries read through `file`, which keeps to the limits.
    private func read(lottieZip archive: ZipArchive, animation: String?, name: String,
                      file: (String) throws(SceneError) -> [UInt8]?) throws(SceneError) -> Result {
        let candidates = Self.animationFiles(in: archive)
        func id(_ entry: ZipArchive.Entry) -> String { String((entry.path.split(separator: "/").last ?? "").dropLast(".json".count)) }
        let chosen: ZipArchive.Entry
        if let animation {
            guard let named = candidates.first(where: { id($0) == animation }) else {
                throw SceneError(.unknownName, at: name,
                                 "no animation is called '\(Quoted.prefix(animation))'; the archive has \(Self.listing(candidates.map(id)))")
            }
            chosen = named
        } else {
            guard let first = candidates.first else {
                throw SceneError(.invalidValue, at: name, "the archive holds no dotLottie manifest and no Lottie animation (.json)")
            }
            chosen = first
        }
        guard let json = try file(chosen.path) else { throw SceneError(.invalidValue, at: name, "cannot read '\(chosen.path)'") }
        let imageTypes = ["png", "jpg", "jpeg", "webp", "gif"]
        var images: [String: [UInt8]] = [:]
        for entry in archive.entries where entry.kind == .file && !Self.isLitter(entry) {
            let fileName = String(entry.path.split(separator: "/").last ?? "")
            guard imageTypes.contains(fileName.split(separator: ".").last.map { $0.lowercased() } ?? ""), images[fileName] == nil else { continue }
            images[fileName] = try file(entry.path)
        }
        var result = try read(value: JSONParser.parse(json, maxNesting: limits.jsonNesting, deadline: deadline), name: "\(name)/\(chosen.path)",
                              images: { images[$0] })
        if animation == nil, candidates.count > 1 {
            result.warnings.insert(SceneWarning(action: .tolerated, subject: chosen.path,
                                                reason: "the archive holds \(candidates.count) animations and no manifest: the first is drawn (the others: \(Self.listing(candidates.dropFirst().map(id))))",
                                                file: name, position: SourcePosition(line: 1, column: 1)), at: 0)
        }
        return result
    }

    /// Reads a parsed Lottie document; `images` gives the bytes of an
    /// image asset stored beside it (a dotLottie's `images/`), by file name.
    package func read(value root: JSONValue, name: String,
                      images: @escaping (String) -> [UInt8]? = { _ in nil }) throws(SceneError) -> Result {
        let diagnostics = Diagnostics(strict: strict)
        let reader = LottiePropertyReader(file: name, diagnostics: diagnostics)
        guard let top = root.object else { throw reader.error("$", root, "a Lottie animation is a JSON object") }
        func number(_ key: String, _ valid: (Double) -> Bool, _ expected: String) throws(SceneError) -> Double {
            guard let n = top[key]?.number, n.isFinite, valid(n) else {
                throw reader.error("$.\(key)", top[key] ?? root, "\(key) must be \(expected)")
            }
            return n
        }
        let width = try number("w", { $0 > 0 }, "a width > 0"), height = try number("h", { $0 > 0 }, "a height > 0")
        let frameRate = try number("fr", { $0 > 0 && $0 <= 1000 }, "a frame rate in (0, 1000]")
        let inPoint = try number("ip", { _ in true }, "a frame"), outPoint = try number("op", { $0 >= inPoint }, "a frame ≥ ip")
        guard (outPoint - inPoint) / frameRate <= 24 * 3600 else {
            throw reader.error("$.op", top["op"], "the animation lasts over a day (\(outPoint - inPoint) frames at \(frameRate) a second)")
        }
        if (top["ddd"]?.number ?? 0) == 1 {
            reader.diagnostics.tolerated("$.ddd", "3D layers are drawn flat", file: name, at: top["ddd"]!.position)
        }
        var assets: [String: JSONObject] = [:]
        for asset in top["assets"]?.array.map(Array.init) ?? [] {
            if let object = asset.object, let id = object["id"]?.string { assets[id] = object }
        }
        let glyphs = try LottieGlyphs(fonts: top["fonts"], chars: top["chars"], reader: reader)
        let composition = LottieComposition(reader: reader, assets: assets, limits: limits, compositionOut: outPoint, glyphs: glyphs,
                                            images: images)
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: width, height: height)
        guard let layers = top["layers"]?.array else { throw reader.error("$.layers", top["layers"], "expected an array of layers") }
        try composition.build(Array(layers), path: "$.layers", time: LottieTime(inPoint: inPoint, outPoint: outPoint, frameRate: frameRate),
                              into: root, precomps: [], depth: 0)
        PassThroughLayers.remove(under: root)
        let scene = Scene(width: width, height: height, rootLayer: root)
        return Result(scene: scene, warnings: diagnostics.warnings, frameRate: frameRate, inPoint: inPoint, outPoint: outPoint)
    }
}
