import Foundation
import Lamina
import LaminaIO
import LaminaJSON
import LaminaScene

/// A scene a link fills in: `NAME.json`, `NAME.caml`, `NAME.tendies`,
/// `NAME.lottie` or `NAME.tgs` in the templates folder, with its blanks
/// declared beside it in `NAME.slots.json`:
///
/// ```json
/// {
///   "slots": {
///     "title": {"type": "text", "layer": "title", "key": "string", "default": "Hello"}
///   },
///   "scale": 2,
///   "time": 0,
///   "fps": 30,
///   "duration": 2
/// }
/// ```
///
/// `scale` and `time` are a still picture's (`.png`); `fps` and `duration`
/// an animation's (`.webp`, `.gif`, `.mp4`; default: the scene's own rate
/// and length). A slot sets properties of the layers with a given `name`
/// (a CAML layer's `name`, a Lottie layer's `nm`). Both files are read
/// once, when the server starts, and every slot is checked then: its
/// layers exist, have its keys, and take its default.
struct Template: Sendable {
    var name: String
    var slots: [String: TemplateSlot]
    /// A still picture's scale and time; nil: the scene's own.
    var scale: Double?
    var time: Double?
    /// An animation's frame rate and length; nil: the scene's own.
    var framesPerSecond: Double?
    var duration: Double?
    /// The scene file's bytes and format, and its folder (for the images a
    /// scene file names beside it).
    var sceneBytes: [UInt8]
    var format: SceneLoader.Format
    var folder: URL
    /// Names the two files' contents: with the link, what a picture's ETag
    /// depends on. A template changed on disk (and the server restarted)
    /// makes new ETags.
    var digest: String

    /// The file suffixes of scene files, in the order they are looked for.
    static let sceneSuffixes: [(String, SceneLoader.Format)] = [
        ("json", .json), ("caml", .caml), ("tendies", .tendies), ("lottie", .dotLottie), ("tgs", .tgs),
    ]

    /// A template's name: letters, digits, `-` and `_`, as it appears in a link.
    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 100
            && name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x2D || $0 == 0x5F }
    }

    /// The scene with `values` in its slots, defaults for the rest.
    /// - Throws: `TemplateSlot.Misfit` for a value that does not fit its
    ///   slot, a parameter no slot has, or a slot left empty with no
    ///   default; `SceneError` when the scene file cannot be read (checked
    ///   at start, so only under other limits).
    func scene(filling values: [String: String], limits: SceneLimits, deadline: RenderDeadline?,
               images: ImageSource) async throws -> LoadedScene {
        for name in values.keys where slots[name] == nil {
            let known = slots.keys.sorted()
            throw TemplateSlot.Misfit(slot: name, message: "\(Quoted.prefix(name, limit: 40)) is not a slot of \(self.name); "
                                      + (known.isEmpty ? "it has none" : "its slots: \(known.joined(separator: ", "))"))
        }
        var checked: [(TemplateSlot, TemplateSlot.Checked)] = []
        for slot in slots.values.sorted(by: { $0.name < $1.name }) {
            guard let text = values[slot.name] ?? slot.defaultValue else {
                throw TemplateSlot.Misfit(slot: slot.name, message: "\(slot.name) must be given: it has no default")
            }
            checked.append((slot, try slot.check(text)))
        }
        // Images from links are fetched before the scene is made, all within the deadline.
        var filled: [(TemplateSlot, JSONValue)] = []
        for (slot, value) in checked {
            switch value {
            case .value(let json): filled.append((slot, json))
            case .fetch(let url):
                let bytes = try await images.fetch(url, slot: slot.name, maxBytes: limits.imageBytes)
                filled.append((slot, .string("data:image/png;base64," + Data(bytes).base64EncodedString())))
            }
        }
        let loaded = try load(limits: limits, deadline: deadline)
        let writer = LayerPropertyWriter(limits: limits, allowsFiles: false)
        for (slot, value) in filled {
            try Self.apply(slot, value, to: loaded.scene.rootLayer, writer: writer)
        }
        return loaded
    }

    /// The scene as the file has it, slots unfilled.
    func load(limits: SceneLimits, deadline: RenderDeadline?) throws(SceneError) -> LoadedScene {
        let options = SceneLoader.Options(limits: limits, allowsFiles: true, baseDirectory: folder)
        return try SceneLoader(options: options, deadline: deadline).load(sceneBytes, format: format, name: name)
    }

    /// Sets each of `slot`'s targets to `value`.
    static func apply(_ slot: TemplateSlot, _ value: JSONValue, to root: CALayer, writer: LayerPropertyWriter) throws(TemplateSlot.Misfit) {
        for target in slot.targets {
            for layer in layers(named: target.layer, in: root) {
                do {
                    try writer.set(target.key, of: layer, to: value)
                } catch {
                    let why = error.issues.first?.message ?? error.description
                    throw TemplateSlot.Misfit(slot: slot.name, message: "\(slot.name) does not fit \(target.layer).\(target.key): \(why)")
                }
            }
        }
    }

    /// Every layer named `name` under `root` (itself, sublayers and masks,
    /// in drawing order).
    static func layers(named name: String, in root: CALayer) -> [CALayer] {
        var found: [CALayer] = []
        var stack = [root]
        while let layer = stack.popLast() {
            if layer.name == name { found.append(layer) }
            if let mask = layer.mask { stack.append(mask) }
            stack.append(contentsOf: (layer.sublayers ?? []).reversed())
        }
        return found
    }
}

/// Where a template's image slots get the pictures their links name.
protocol ImageSource: Sendable {
    /// The bytes at `url`, at most `maxBytes`.
    /// - Throws: `TemplateSlot.Misfit` naming `slot` when there is no picture there.
    func fetch(_ url: URL, slot: String, maxBytes: Int) async throws(TemplateSlot.Misfit) -> [UInt8]
}
