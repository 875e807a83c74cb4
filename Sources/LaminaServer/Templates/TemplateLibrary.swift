import Foundation
import Lamina
import LaminaIO
import LaminaJSON
import LaminaScene

/// The templates of `--templates DIR`: every `NAME.slots.json` there and
/// the scene file beside it (`Template` describes both), read and checked
/// once when the server starts. A folder with a mistake in any template
/// stops the start, with the file, the place and what is wrong.
struct TemplateLibrary: Sendable {
    private(set) var templates: [String: Template] = [:]

    /// A template file could not be used.
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    /// The most bytes of a slots file or a template's scene file read.
    static let maxSlotsFileBytes = 1 << 20

    init() {}

    /// Reads every template of `folder`, with the limits requests will be drawn under.
    init(folder: String, limits: SceneLimits) throws(Problem) {
        let url = URL(fileURLWithPath: folder, isDirectory: true)
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        } catch {
            throw Problem(description: "\(folder): cannot list the folder: \(error.localizedDescription)")
        }
        let slotFiles = names.filter { $0.hasSuffix(".slots.json") }
        if slotFiles.isEmpty {
            throw Problem(description: "\(folder): no templates (a template is NAME.slots.json beside its scene file, NAME.json, .caml, .tendies, .lottie or .tgs)")
        }
        for file in slotFiles {
            let name = String(file.dropLast(".slots.json".count))
            let template = try Self.read(name: name, in: url, names: Set(names), limits: limits)
            templates[name] = template
        }
    }

    subscript(name: String) -> Template? { templates[name] }

    private static func read(name: String, in folder: URL, names: Set<String>, limits: SceneLimits) throws(Problem) -> Template {
        let slotsFile = folder.appendingPathComponent(name + ".slots.json").path
        guard Template.isValidName(name) else {
            throw Problem(description: "\(slotsFile): a template's name is letters, digits, - and _ (it is part of its links)")
        }
        let candidates = Template.sceneSuffixes.filter { names.contains(name + "." + $0.0) }
        guard let (suffix, declared) = candidates.first else {
            throw Problem(description: "\(slotsFile): no scene file beside it (\(Template.sceneSuffixes.map { name + "." + $0.0 }.joined(separator: ", ")))")
        }
        guard candidates.count == 1 else {
            throw Problem(description: "\(slotsFile): more than one scene file beside it (\(candidates.map { name + "." + $0.0 }.joined(separator: ", "))); keep one")
        }
        let scenePath = folder.appendingPathComponent(name + "." + suffix).path
        let slotsBytes: [UInt8], sceneBytes: [UInt8]
        do {
            slotsBytes = try FileIO.readFile(atPath: slotsFile, maxBytes: maxSlotsFileBytes)
            sceneBytes = try FileIO.readFile(atPath: scenePath, maxBytes: limits.documentBytes)
        } catch {
            throw Problem(description: "\(name): \(error)")
        }
        // A .json file is scene JSON or a Lottie animation: the loader tells them apart by content.
        var template = Template(name: name, slots: [:], sceneBytes: sceneBytes, format: declared, folder: folder, digest: "")
        try readSlotsFile(slotsBytes, path: slotsFile, into: &template)
        var hash = SHA256()
        hash.update(field: "\(slotsBytes.count)")
        hash.update(slotsBytes)
        hash.update(sceneBytes)
        template.digest = hash.finalize().hex

        // Every slot's layers and keys exist, and its default fits.
        let loaded: LoadedScene
        do {
            loaded = try template.load(limits: limits, deadline: nil)
        } catch {
            throw Problem(description: "\(scenePath): \(error.description)")
        }
        let writer = LayerPropertyWriter(limits: limits, allowsFiles: false)
        for slot in template.slots.values.sorted(by: { $0.name < $1.name }) {
            for target in slot.targets {
                let layers = Template.layers(named: target.layer, in: loaded.scene.rootLayer)
                guard !layers.isEmpty else {
                    throw Problem(description: "\(slotsFile): slot \(slot.name): no layer named \(Quoted.prefix(target.layer, limit: 60)) in \(name).\(suffix)")
                }
                for layer in layers where !LayerPropertyWriter.accepts(target.key, for: layer) {
                    throw Problem(description: "\(slotsFile): slot \(slot.name): layer \(Quoted.prefix(target.layer, limit: 60)) has no property \(Quoted.prefix(target.key, limit: 40)); it has "
                                  + LayerPropertyWriter.keys(for: layer).joined(separator: ", "))
                }
            }
            if let text = slot.defaultValue {
                do {
                    if case .value(let value) = try slot.check(text) {
                        try Template.apply(slot, value, to: loaded.scene.rootLayer, writer: writer)
                    }
                } catch {
                    throw Problem(description: "\(slotsFile): slot \(slot.name): its default does not fit: \(error.message)")
                }
            }
        }
        return template
    }

    /// The slots file's keys into `template`.
    private static func readSlotsFile(_ bytes: [UInt8], path: String, into template: inout Template) throws(Problem) {
        func problem(_ value: JSONValue?, _ message: String) -> Problem {
            let place = value.map { $0.position.line > 0 ? ":\($0.position.line):\($0.position.column)" : "" } ?? ""
            return Problem(description: "\(path)\(place): \(message)")
        }
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes, maxNesting: 32)
        } catch {
            throw Problem(description: "\(path): \(error)")
        }
        guard let object = root.object else { throw problem(root, "expected an object with \"slots\"") }
        for member in object.members {
            switch member.key {
            case "slots": break
            case "scale", "time", "fps", "duration":
                guard let number = member.value.number, number.isFinite else {
                    throw problem(member.value, "\(member.key) must be a number")
                }
                switch member.key {
                case "scale":
                    guard number > 0, number <= 8 else { throw problem(member.value, "scale must be in (0, 8]") }
                    template.scale = number
                case "time": template.time = number
                case "fps":
                    guard number > 0, number <= 120 else { throw problem(member.value, "fps must be in (0, 120]") }
                    template.framesPerSecond = number
                default:
                    guard number > 0 else { throw problem(member.value, "duration must be > 0 seconds") }
                    template.duration = number
                }
            default:
                throw problem(member.value, "unknown key \(Quoted.prefix(member.key, limit: 40)); a slots file has slots, scale, time, fps and duration")
            }
        }
        guard let slotsValue = object["slots"], let slots = slotsValue.object else {
            throw problem(root, "expected \"slots\": an object of slot names")
        }
        for member in slots.members {
            let name = member.key
            guard Template.isValidName(name), name != "sig" else {
                throw problem(member.value, "a slot's name is letters, digits, - and _, and not sig (the link's signature): \(Quoted.prefix(name, limit: 40))")
            }
            guard let spec = member.value.object else { throw problem(member.value, "slot \(name): expected an object") }
            guard let kindName = spec["type"]?.string, let kind = TemplateSlot.Kind(rawValue: kindName) else {
                throw problem(spec["type"] ?? member.value,
                              "slot \(name): \"type\" must be one of \(TemplateSlot.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            var slot = TemplateSlot(name: name, kind: kind, targets: [])
            var minimum = slot.range.lowerBound, maximum = slot.range.upperBound
            for field in spec.members {
                let value = field.value
                switch field.key {
                case "type": break
                case "layer", "key":
                    guard value.string != nil else { throw problem(value, "slot \(name): \(field.key) must be a string") }
                case "targets":
                    guard let list = value.array, !list.isEmpty else { throw problem(value, "slot \(name): targets must be a list of {layer, key}") }
                    for item in list {
                        guard let layer = item.object?["layer"]?.string, let key = item.object?["key"]?.string else {
                            throw problem(item, "slot \(name): a target is {\"layer\": NAME, \"key\": PROPERTY}")
                        }
                        slot.targets.append(.init(layer: layer, key: key))
                    }
                case "default":
                    switch value.kind {
                    case .string(let s): slot.defaultValue = s
                    case .number(let n): slot.defaultValue = n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
                    default: throw problem(value, "slot \(name): default must be a string or a number")
                    }
                case "maxLength":
                    guard kind == .text, let n = value.number, n >= 1, n <= 10_000, n == n.rounded() else {
                        throw problem(value, "slot \(name): maxLength is a text slot's, a whole number in 1...10000")
                    }
                    slot.maxLength = Int(n)
                case "min", "max":
                    guard kind == .number, let n = value.number, n.isFinite else {
                        throw problem(value, "slot \(name): \(field.key) is a number slot's, a finite number")
                    }
                    if field.key == "min" { minimum = n } else { maximum = n }
                case "allow":
                    guard kind == .image, let list = value.array, !list.isEmpty,
                          let prefixes = Optional(list.compactMap(\.string)), prefixes.count == list.count else {
                        throw problem(value, "slot \(name): allow is an image slot's list of URL prefixes (and \"data:\" for data URIs)")
                    }
                    for prefix in prefixes where prefix != "data:" {
                        guard prefix.hasPrefix("https://") || prefix.hasPrefix("http://"),
                              prefix.dropFirst(prefix.hasPrefix("https://") ? 8 : 7).first.map({ $0 != "/" }) == true else {
                            throw problem(value, "slot \(name): \(Quoted.prefix(prefix, limit: 60)) is not an http or https URL prefix with a host, nor \"data:\"")
                        }
                    }
                    slot.allow = prefixes
                default:
                    throw problem(value, "slot \(name): unknown key \(Quoted.prefix(field.key, limit: 40))")
                }
            }
            guard minimum <= maximum else { throw problem(member.value, "slot \(name): min is over max") }
            slot.range = minimum...maximum
            if let layer = spec["layer"]?.string {
                slot.targets.insert(.init(layer: layer, key: spec["key"]?.string ?? Self.defaultKey(kind)), at: 0)
            }
            guard !slot.targets.isEmpty else {
                throw problem(member.value, "slot \(name): name the layer it sets (\"layer\", and \"key\") or its \"targets\"")
            }
            if kind == .image, slot.allow.isEmpty {
                throw problem(member.value, "slot \(name): an image slot needs \"allow\": the URL prefixes it takes (and \"data:\" for data URIs)")
            }
            template.slots[name] = slot
        }
    }

    /// The property a slot of `kind` sets when it names a layer and no key.
    private static func defaultKey(_ kind: TemplateSlot.Kind) -> String {
        switch kind {
        case .text: "string"
        case .color: "backgroundColor"
        case .number: "opacity"
        case .image: "contents"
        }
    }
}
