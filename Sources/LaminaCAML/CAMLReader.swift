import Foundation
import LaminaCore
import LaminaIO
import LaminaScene
import LaminaJSON

/// Reads Core Animation's own scene files into a `Scene`: CAML documents
/// (`.caml`), Core Animation archives (`.ca` bundles: `index.xml`, the root
/// document, `assets/`), PosterBoard wallpapers (`.wallpaper` folders of
/// background, floating and foreground `.ca` bundles) and `.tendies`
/// archives (a zipped wallpaper).
///
/// The CAML is turned into the scene format (`sceneJSON`), which the scene
/// decoder then reads with its usual checks and limits; errors name the
/// file, the element and the line and column in the XML. What Lamina does
/// not draw (emitters, filters, scripts, private layer classes) is skipped
/// and reported in `warnings`, or refused with `strict`.
///
/// ```swift
/// let reader = CAMLReader()
/// let result = try reader.read(contentsOf: URL(fileURLWithPath: "Clock.ca"), state: "Unlock")
/// for warning in result.warnings { print(warning) }
/// let picture = try LayerRenderer(backend: .cpu).render(result.scene)
/// ```
public struct CAMLReader: Sendable {
    /// What to read the documents as.
    public struct Options: Sendable, Hashable {
        /// Refuse the document where something would be skipped.
        public var strict: Bool
        /// Whether images may be read from a bundle's files (a server reads
        /// archives from requests, whose files live in memory, and never the disk).
        public var allowsFiles: Bool
        /// The device's screen, in the document's units: the picture is the
        /// centred part of the root this size, as a phone shows a wallpaper
        /// whose root is larger than its screen. Nil: the whole root.
        public var screen: CGSize?
        /// The device's pixels per point. A plane whose root is the screen's
        /// size in points (an editor that works in points) is scaled by it,
        /// so that it covers the screen as the phone draws it.
        public var screenScale: Double
        /// How the device is tilted, x and y from -1 to 1: each of a
        /// wallpaper's parallax groups (`wallpaperParallaxGroups`) moves its
        /// layer as its `mapMinTo` and `mapMaxTo` say. Nil: held level.
        public var tilt: CGPoint?

        /// Lenient, with files, the whole root, level.
        public init(strict: Bool = false, allowsFiles: Bool = true, screen: CGSize? = nil, screenScale: Double = 1,
                    tilt: CGPoint? = nil) {
            self.strict = strict
            self.allowsFiles = allowsFiles
            self.screen = screen
            self.screenScale = screenScale
            self.tilt = tilt
        }
    }

    /// A state transition to play: `from` and `to` name `LKState`s.
    public struct Transition: Sendable, Hashable {
        public var from: String
        public var to: String
        /// When the transition starts, in seconds of the scene: until then
        /// the scene shows `from` (its own animations and emitters running).
        /// Default 0.
        public var begins: Double

        /// For `lockScreenPreview`: the appearance and orientation whose
        /// lock and home states the reader picks from the document's.
        public private(set) var preview: (appearance: String, orientation: String)?

        /// The transition from `from` to `to`, starting `begins` seconds in.
        public init(from: String, to: String, begins: Double = 0) {
            self.from = from
            self.to = to
            self.begins = begins
        }

        /// The document's own lock screen then unlock (`preview(among:)`),
        /// picked when it is read: the sequence a gallery's recording shows.
        public static func lockScreenPreview(appearance: String = "Light", orientation: String = "PortraitUp",
                                             begins: Double = 2) -> Transition {
            var t = Transition(from: "", to: "", begins: begins)
            t.preview = (appearance, orientation)
            return t
        }

        public static func == (a: Transition, b: Transition) -> Bool {
            a.from == b.from && a.to == b.to && a.begins == b.begins
                && a.preview?.appearance == b.preview?.appearance && a.preview?.orientation == b.preview?.orientation
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(from); hasher.combine(to); hasher.combine(begins)
            hasher.combine(preview?.appearance); hasher.combine(preview?.orientation)
        }

        /// The lock screen, then the unlock, as a phone shows a wallpaper and
        /// its gallery's recordings do: `Locked` to `Unlock`, or PosterBoard's
        /// `Lock <orientation> <appearance>` to `Home <orientation>
        /// <appearance>` (portrait, light by default), starting `begins`
        /// seconds in; nil when `states` has no such pair.
        public static func preview(among states: [String], appearance: String = "Light",
                                   orientation: String = "PortraitUp", begins: Double = 2) -> Transition? {
            let suffixes = [" \(orientation) \(appearance)", " \(orientation)", ""]
            let pairs = [("Locked", "Unlock")] + suffixes.map { ("Lock" + $0, "Home" + $0) }
            guard let pair = pairs.first(where: { states.contains($0.0) && states.contains($0.1) }) else { return nil }
            return Transition(from: pair.0, to: pair.1, begins: begins)
        }

        /// `FROM:TO`, as the command line writes it.
        public init?(_ text: String) {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
            self.init(from: String(parts[0]), to: String(parts[1]))
        }
    }

    /// The kinds of input, by how their names end.
    public enum InputKind: String, Sendable, CaseIterable {
        case caml, bundle = "ca", wallpaper, tendies

        /// The kind of `url` by its extension, or nil for other files.
        public init?(url: URL) {
            self.init(rawValue: url.standardizedFileURL.pathExtension.lowercased())
        }
    }

    /// What was read.
    public struct Result {
        /// The scene: a canvas the size of the (background) root layer, and
        /// the document's layers on it.
        public var scene: Scene
        /// What was skipped, each kind once.
        public var warnings: [SceneWarning]
        /// The states the documents define, sorted.
        public var states: [String]
        /// The scene as the scene format's JSON value, as built from the XML.
        package var document: JSONValue

        /// The same scene in the scene format (images as data URIs), written
        /// when asked for.
        public var sceneJSON: String { JSONWriter().write(document) }

        /// The scene's name for a cache: the fingerprint its scene JSON
        /// would have (`SceneDecoder.decodeWithFingerprint`).
        package var fingerprint: SHA256.Digest { JSONFingerprint.digest(of: document) }
    }

    public var limits: SceneLimits
    public var options: Options
    /// When reading must stop (a render server's request deadline): checked
    /// between archive entries, every 256 XML elements and before each
    /// layer; past it the read throws a `SceneError` of kind `interrupted`.
    public var deadline: RenderDeadline?

    /// A reader with the scene format's limits.
    public init(limits: SceneLimits = .default, options: Options = Options(), deadline: RenderDeadline? = nil) {
        self.limits = limits
        self.options = options
        self.deadline = deadline
    }

    // MARK: Reading

    /// Reads a `.caml` file, a `.ca` bundle, a `.wallpaper` folder or a
    /// `.tendies` archive, in its base state, in `state`, or at the start of
    /// `transition`.
    public func read(contentsOf url: URL, state: String? = nil, transition: Transition? = nil) throws(SceneError) -> Result {
        guard let kind = InputKind(url: url) else {
            throw SceneError(.unsupportedFormat, at: url.lastPathComponent,
                             "expected a .caml file, a .ca bundle, a .wallpaper folder or a .tendies archive")
        }
        let name = url.lastPathComponent
        switch kind {
        case .caml:
            let folder = DirectoryFiles(root: url.deletingLastPathComponent())
            return try read(bundles: [document(at: name, in: folder, named: name)], state: state, transition: transition)
        case .bundle:
            let files = DirectoryFiles(root: url)
            return try read(bundles: [try rootDocument(ofBundleAt: "", in: files, named: name)], state: state, transition: transition)
        case .wallpaper:
            return try read(bundles: try wallpaper(at: "", in: DirectoryFiles(root: url), named: name), isWallpaper: true,
                            state: state, transition: transition)
        case .tendies:
            let bytes = try FilePath.readFile(url.path, named: name, limit: limits.documentBytes)
            return try read(tendies: bytes, name: name, state: state, transition: transition)
        }
    }

    /// Reads one CAML document given as bytes (a request body): its images
    /// must be data URIs.
    public func read(caml bytes: [UInt8], name: String = "document.caml", state: String? = nil,
                     transition: Transition? = nil) throws(SceneError) -> Result {
        let root = try rootLayer(bytes, file: name)
        let source = CAMLDocumentSource(root: root, file: name, files: nil, folder: "")
        return try read(bundles: [source], state: state, transition: transition)
    }

    /// Reads a `.tendies` archive given as bytes: the wallpaper (or `.ca`
    /// bundle) it holds.
    public func read(tendies bytes: [UInt8], name: String = "archive.tendies", state: String? = nil,
                     transition: Transition? = nil) throws(SceneError) -> Result {
        let files = try TendiesArchive.unpack(bytes, name: name, limits: limits, deadline: deadline)
        let bundles = try contents(of: files, name: name)
        return try read(bundles: bundles, isWallpaper: bundles.count > 1 || bundles[0].file.contains(".wallpaper/"),
                        state: state, transition: transition)
    }

    // MARK: Bundles

    /// The XML of a document, its size checked first; the root layer element.
    private func rootLayer(_ bytes: [UInt8], file: String) throws(SceneError) -> XMLElement {
        guard bytes.count <= limits.documentBytes else {
            throw SceneError(.limitExceeded, at: file, "the document has \(bytes.count) bytes, over the limit of \(limits.documentBytes)")
        }
        let xml: XMLElement
        do {
            xml = try XMLReader(limits: .init(depth: min(256, max(8, limits.jsonNesting))), deadline: deadline).read(bytes)
        } catch {
            throw SceneError(issues: error.issues.map {
                SceneError.Issue(kind: $0.kind, location: file, position: $0.position, message: $0.message)
            })
        }
        guard xml.name == "caml" else {
            throw SceneError(.unsupportedFormat, at: file, position: xml.position,
                             "expected a CAML document (<caml xmlns=\"http://www.apple.com/CoreAnimation/1.0\">), found <\(xml.name)>")
        }
        guard xml.children.count == 1, let root = xml.children.first else {
            throw SceneError(.invalidValue, at: file, position: xml.position,
                             "<caml> holds exactly one root layer, found \(xml.children.count) elements")
        }
        return root
    }

    /// The document `document` (a path in `files`, whose root `rootName` names).
    private func document(at path: String, in files: CAMLFileSource, named rootName: String) throws(SceneError) -> CAMLDocumentSource {
        let bytes = try files.read(path, limit: limits.documentBytes)
        let file = rootName == path ? rootName : rootName + "/" + path
        let root = try rootLayer(bytes, file: file)
        return CAMLDocumentSource(root: root, file: file, files: options.allowsFiles ? files : nil,
                                  folder: FilePath.folder(of: path))
    }

    /// The `.ca` bundle at folder `path`: the document its `index.xml`
    /// names as `rootDocument`, else `main.caml`, else its only `.caml` file.
    /// `rootName` names the root of `files` in messages.
    private func rootDocument(ofBundleAt path: String, in files: CAMLFileSource, named rootName: String) throws(SceneError) -> CAMLDocumentSource {
        let name = path.isEmpty ? rootName : rootName + "/" + path
        var named: String?
        let index = FilePath.join(path, "index.xml")
        if files.list(path).contains("index.xml") {
            let xml = try XMLReader(limits: .init()).read(try files.read(index, limit: 1 << 20))
            // A property list: <key>rootDocument</key><string>main.caml</string>.
            let entries = xml.child("dict")?.children ?? []
            if let k = entries.firstIndex(where: { $0.name == "key" && $0.text == "rootDocument" }), k + 1 < entries.count {
                named = entries[k + 1].text.trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }
        let camls = files.list(path).filter { $0.hasSuffix(".caml") }
        guard let chosen = named ?? (camls.contains("main.caml") ? "main.caml" : camls.count == 1 ? camls[0] : nil),
              let resolved = FilePath.resolve(chosen, in: path)
        else {
            throw SceneError(.fileAccess, at: name, "the bundle has no root document (index.xml's rootDocument, or main.caml)")
        }
        return try document(at: resolved, in: files, named: rootName)
    }

    /// The roles of a wallpaper's layers, back to front as the phone draws them.
    static let wallpaperRoles = ["background", "floating", "foreground"]

    /// The `.ca` bundles of the wallpaper at folder `path`, back to front.
    private func wallpaper(at path: String, in files: CAMLFileSource, named name: String) throws(SceneError) -> [CAMLDocumentSource] {
        let bundles = files.list(path).filter { $0.lowercased().hasSuffix(".ca") && files.isFolder(FilePath.join(path, $0)) }
        var ordered: [String] = []
        var placed: Set<String> = []
        for role in Self.wallpaperRoles {
            for bundle in bundles where bundle.lowercased().contains(role) && placed.insert(bundle).inserted { ordered.append(bundle) }
        }
        // Bundles that name no role go last, in name order.
        for bundle in bundles where placed.insert(bundle).inserted { ordered.append(bundle) }
        guard !ordered.isEmpty else {
            throw SceneError(.fileAccess, at: name, "the wallpaper holds no .ca bundle")
        }
        var out: [CAMLDocumentSource] = []
        for b in ordered {
            out.append(try rootDocument(ofBundleAt: FilePath.join(path, b), in: files, named: name))
        }
        return out
    }

    /// What an archive holds: its first `.wallpaper` folder, else its first
    /// `.ca` bundle (the shallowest, then in name order).
    private func contents(of files: ArchiveFiles, name: String) throws(SceneError) -> [CAMLDocumentSource] {
        let folders = files.folders.sorted { ($0.split(separator: "/").count, $0) < ($1.split(separator: "/").count, $1) }
        if let wallpaper = folders.first(where: { $0.lowercased().hasSuffix(".wallpaper") }) {
            return try self.wallpaper(at: wallpaper, in: files, named: name)
        }
        if let bundle = folders.first(where: { $0.lowercased().hasSuffix(".ca") }) {
            return [try self.rootDocument(ofBundleAt: bundle, in: files, named: name)]
        }
        throw SceneError(.fileAccess, at: name, "the archive holds no .wallpaper folder and no .ca bundle")
    }

    // MARK: The scene

    /// The scene of `bundles`: a wallpaper's planes (`isWallpaper`: then,
    /// without a screen in the options, the device its names state), or one document.
    private func read(bundles: [CAMLDocumentSource], isWallpaper: Bool = false, state: String?,
                      transition: Transition?) throws(SceneError) -> Result {
        let diagnostics = Diagnostics(strict: options.strict)
        var builders: [DocumentBuilder] = []
        for bundle in bundles {
            let builder = try DocumentBuilder(bundle, diagnostics: diagnostics, limits: limits, deadline: deadline)
            builder.tilt = options.tilt
            builders.append(builder)
        }
        let allStates = Set(builders.flatMap(\.stateNames)).sorted()
        // A preview picks each plane's own lock and home states (a wallpaper's
        // planes may name them differently: Locked in one, Lock PortraitUp Dark in another).
        let previews = transition?.preview.map { wanted in
            builders.map { Transition.preview(among: $0.stateNames, appearance: wanted.appearance, orientation: wanted.orientation,
                                              begins: transition?.begins ?? 0) }
        }
        if let previews, let wanted = transition?.preview, previews.allSatisfy({ $0 == nil }) {
            let known = allStates.isEmpty ? "the documents have no states" : "the states are \(allStates.joined(separator: ", "))"
            throw SceneError(.unknownName, at: bundles[0].file,
                             "no lock screen to preview: no Locked and Unlock states, nor Lock and Home ones for \(wanted.orientation) \(wanted.appearance); \(known)")
        }
        let asked = previews == nil ? [state, transition?.from, transition?.to] : [state]
        for name in asked.compactMap({ $0 }) where !allStates.contains(name) {
            let known = allStates.isEmpty ? "the documents have no states" : "the states are \(allStates.joined(separator: ", "))"
            throw SceneError(.unknownName, at: bundles[0].file, "no state is called '\(name)'; \(known)")
        }
        var layers: [JSONValue] = []
        for (k, builder) in builders.enumerated() {
            // A wallpaper's layers that do not have the state keep their base state.
            let has = { (s: String?) in s.map { builder.states[$0] != nil } ?? false }
            let planeTransition = previews.map { $0[k] } ?? transition
            let ownTransition = planeTransition.flatMap { has($0.from) && has($0.to) ? ($0.from, $0.to, $0.begins) : nil }
            let ownState = planeTransition == nil ? (transition == nil && has(state) ? state : nil)
                : (has(planeTransition?.to) ? planeTransition?.to : nil)
            if let layer = try builder.build(state: ownState, transition: ownTransition) { layers.append(layer) }
        }
        guard let canvas = Self.canvasSize(of: layers.first) else {
            throw SceneError(.invalidValue, at: bundles[0].file, position: bundles[0].root.position,
                             "the root layer needs bounds with a width and height > 0: they size the canvas")
        }
        let origin = bundles[0].root.position
        // Without a device, the one a wallpaper's folder names (as the phone it was made for shows it).
        let named = options.screen == nil && isWallpaper ? Self.namedDevice(in: bundles[0].file) : nil
        let window = options.screen ?? named?.screen ?? canvas
        let pointScale = options.screen != nil ? options.screenScale : named?.scale ?? 1
        guard window.width > 0, window.height > 0, window.width.isFinite, window.height.isFinite else {
            throw SceneError(.invalidValue, at: bundles[0].file, "a screen of \(window.width) x \(window.height) is no picture")
        }
        let screens = zip(layers, bundles).map { layer, bundle in
            Self.screen(holding: layer, size: Self.canvasSize(of: layer) ?? canvas, window: window,
                        pointScale: pointScale, at: bundle.root.position)
        }
        let top = JSONValue.object(members: [
            ("width", .number(window.width), origin), ("height", .number(window.height), origin),
            ("sublayers", JSONValue.array(screens, at: origin), origin),
        ], at: origin)
        let decoder = SceneDecoder(limits: limits, options: .init(allowsFiles: false), deadline: deadline)
        let scene: Scene
        do {
            scene = try decoder.decode(value: top)
        } catch {
            // The decoder names places in the scene format; say which file they are in.
            throw SceneError(issues: error.issues.map { issue in
                var issue = issue
                let file = Self.file(of: issue.location, bundles: bundles)
                issue.location = "\(file): scene \(issue.location)"
                return issue
            })
        }
        return Result(scene: scene, warnings: diagnostics.warnings, states: allStates, document: top)
    }

    /// The device a wallpaper's folder or bundle name states, as PosterBoard
    /// names them (`9999.Custom-810w-1080h@2x~ipad.wallpaper`: 810 x 1080
    /// points at 2 pixels a point): its screen in pixels, the document's
    /// units, and its scale. The innermost name that states one counts; nil
    /// when none does, or for a size no screen has (over 8192 a side).
    static func namedDevice(in path: String) -> (screen: CGSize, scale: Double)? {
        for component in path.split(separator: "/").reversed() {
            guard let at = component.range(of: "h@") else { continue }
            // Back from "h@" over the height, "w-", and the width.
            let before = component[..<at.lowerBound]
            let height = before.reversed().prefix { $0.isNumber }
            let rest = before.dropLast(height.count)
            guard rest.hasSuffix("w-") else { continue }
            let width = rest.dropLast(2).reversed().prefix { $0.isNumber }
            let scale = component[at.upperBound...].prefix { $0.isNumber }
            guard component[at.upperBound...].dropFirst(scale.count).hasPrefix("x"),
                  let w = Int(String(width.reversed())), let h = Int(String(height.reversed())), let k = Int(scale),
                  (1...8192).contains(w), (1...8192).contains(h), (1...4).contains(k)
            else { continue }
            return (CGSize(width: w * k, height: h * k), Double(k))
        }
        return nil
    }

    /// The file a scene location (`$.sublayers[1]...`) came from.
    private static func file(of location: String, bundles: [CAMLDocumentSource]) -> String {
        guard location.hasPrefix("$.sublayers["),
              let close = location.firstIndex(of: "]"),
              let k = Int(location[location.index(location.startIndex, offsetBy: 12)..<close]),
              k < bundles.count
        else { return bundles[0].file }
        return bundles[k].file
    }

    /// A CAML document lives in Core Animation's own coordinate space, where
    /// y grows upwards (a root layer whose `geometryFlipped` is 0 has its
    /// sublayers' origin at the bottom left, as the phone and the editors
    /// show it). The scene format's canvas is y-down, as iOS's views are, so
    /// each document's root sits in a canvas-sized layer that flips its
    /// sublayers' geometry: the screen as Core Animation sees it. Layers
    /// that set `geometryFlipped` flip again below it, as they compose in
    /// Core Animation; images and text keep their orientation.
    /// The root on a flipped layer that shows the centred `window` of its
    /// `size` (the whole when they are equal): a flip about the window's
    /// centre keeps the root's centre in the middle of the picture.
    private static func screen(holding root: JSONValue, size: CGSize, window: CGSize, pointScale: Double,
                               at position: SourcePosition) -> JSONValue {
        // A root the screen's size in points: scaled to the screen's pixels, centred.
        let inPoints = pointScale != 1 && abs(size.width * pointScale - window.width) <= 0.02 * window.width
            && abs(size.height * pointScale - window.height) <= 0.02 * window.height
        guard !inPoints else {
            let scaled = JSONValue.object(members: [
                ("bounds", .array([.number(0), .number(0), .number(size.width), .number(size.height)], at: position), position),
                ("position", .array([.number(window.width / 2), .number(window.height / 2)], at: position), position),
                ("transform", .array([.object(members: [("scale", .array([.number(pointScale), .number(pointScale), .number(1)], at: position), position)], at: position)], at: position), position),
                ("sublayers", .array([root], at: position), position),
            ], at: position)
            return screen(holding: scaled, size: window, window: window, pointScale: 1, at: position)
        }
        let x = (size.width - window.width) / 2, y = (size.height - window.height) / 2
        return .object(members: [
            ("bounds", .array([.number(x), .number(y), .number(window.width), .number(window.height)], at: position), position),
            ("position", .array([.number(window.width / 2), .number(window.height / 2)], at: position), position),
            ("geometryFlipped", .bool(true), position),
            ("sublayers", .array([root], at: position), position),
        ], at: position)
    }

    /// The size of the first root layer's bounds, as built.
    private static func canvasSize(of layer: JSONValue?) -> CGSize? {
        guard let bounds = layer?.object?["bounds"]?.array, bounds.count == 4,
              let width = bounds[2].number, let height = bounds[3].number, width > 0, height > 0
        else { return nil }
        return CGSize(width: width, height: height)
    }
}
