import Foundation
import LaminaCore
import LaminaScene
import LaminaJSON

/// Reads CAML's `<animation type="CABasicAnimation" .../>` (and keyframe,
/// spring and group animations) into entries of the scene format's
/// `animations`, with values typed by what the key path animates.
struct AnimationBuilder {
    let document: DocumentBuilder
    let layerType: String

    init(_ document: DocumentBuilder, layerType: String) {
        self.document = document
        self.layerType = layerType
    }

    static let types = [
        "CABasicAnimation": "basic", "CAKeyframeAnimation": "keyframe", "CASpringAnimation": "spring",
        "CAAnimationGroup": "group",
    ]

    /// Timing attributes: numbers, flags and names, as the scene format spells them.
    static let numberKeys = ["beginTime", "duration", "speed", "timeOffset", "mass", "stiffness", "damping"]
    static let flagKeys = ["autoreverses", "removedOnCompletion", "additive", "cumulative"]
    static let nameKeys = ["fillMode", "calculationMode"]
    /// Begin times closer to 0 than this are 0 (see `animation`).
    static let startOfTime = 1e-9

    /// Attributes read elsewhere (`type`, `keyPath`, `key`) or that say
    /// what Lamina does anyway (`enabled`).
    static func isReadElsewhere(_ name: String) -> Bool {
        ["type", "enabled", "keyPath", "key"].contains(name)
    }

    /// One animation, or nil when it was skipped (reported). `keyPath`
    /// overrides the element's; `endpoints` give a transition's from and
    /// to values where the element gives none.
    func animation(
        _ element: XMLElement, path: String, keyPath givenKeyPath: String? = nil,
        endpoints: (from: BuiltValue?, to: BuiltValue?)? = nil
    ) throws(SceneError) -> JSONValue? {
        let className = element["type"] ?? element.name
        guard let type = Self.types[className] else {
            try document.skip("<\(element.name) type=\"\(className)\">", "Lamina plays basic, keyframe, spring and group animations",
                              at: element.position)
            return nil
        }
        var members: [(String, JSONValue, SourcePosition)] = []
        if type != "basic" { members.append(("type", .string(type), element.position)) }
        var kind: LayerValueKind?
        if type != "group" {
            guard let keyPath = givenKeyPath ?? element["keyPath"] else {
                throw document.error(.missingKey, "the animation needs a keyPath", at: element.position, path: path)
            }
            guard let k = SceneVocabulary.animatedKind(of: keyPath, onType: layerType) else {
                try document.skip("animation of '\(keyPath)'", "Lamina cannot animate this key path of this layer class",
                                  at: element.position)
                return nil
            }
            kind = k
            members.append(("keyPath", .string(keyPath), element.attribute("keyPath")?.position ?? element.position))
        }
        for attribute in element.attributes {
            let name = attribute.name, text = attribute.value, at = attribute.position
            let attributePath = path + "/@\(name)"
            func wrong(_ expected: String) -> SceneError {
                document.error(.wrongType, "expected \(expected), found '\(Quoted.prefix(text, limit: 60))'", at: at, path: attributePath)
            }
            if let group = DocumentBuilder.editorExtras(name) {
                document.noteEditorExtra(group, at: at)
                continue
            }
            if Self.isReadElsewhere(name) { continue }
            if Self.numberKeys.contains(name) || name == "velocity" || name == "initialVelocity" {
                guard var n = CAMLText.number(text) else { throw wrong("a number") }
                // Editors write beginTime="1e-100" so that Core Animation keeps it (a
                // zero would become the time the animation is added): it means the
                // start of the layer's time. Sampled at 0, it would be a hair before
                // the start, and a looping wallpaper's first frame would lack it.
                if name == "beginTime" && abs(n) < Self.startOfTime { n = 0 }
                members.append((name == "velocity" ? "initialVelocity" : name, .number(n), at))
            } else if name == "repeatCount" || name == "repeatDuration" {
                guard let n = CAMLText.number(text, allowsInfinity: true) else { throw wrong("a number or 'inf'") }
                members.append((name, n.isInfinite ? .string("infinity") : .number(n), at))
            } else if Self.flagKeys.contains(name) {
                guard let b = CAMLText.bool(text) else { throw wrong("1 or 0") }
                members.append((name, .bool(b), at))
            } else if Self.nameKeys.contains(name) {
                members.append((name, .string(text), at))
            } else if name == "timingFunction" {
                members.append((name, try timingFunction(text: text, at: at, path: attributePath), at))
            } else if ["fromValue", "toValue", "byValue"].contains(name), let kind {
                guard let v = try document.value(.text(text), kind: kind, at: at, path: attributePath) else { continue }
                members.append((name, v.json(at: at), at))
            } else if name == "keyTimes" {
                guard let n = CAMLText.numbers(text) else { throw wrong("numbers") }
                members.append((name, .array(n.map { .number($0) }), at))
            } else {
                try document.skip("@\(name) of <\(className)>", "Lamina has no such animation property", at: at)
            }
        }
        for (k, child) in element.children.enumerated() {
            let childPath = path + "/\(child.name)[\(k + 1)]"
            switch child.name {
            case "fromValue", "toValue", "byValue":
                guard let kind, let v = try document.value(.element(child), kind: kind, at: child.position, path: childPath)
                else { continue }
                members.append((child.name, v.json(at: child.position), child.position))
            case "values":
                guard let kind else { continue }
                var values: [JSONValue] = []
                for (n, item) in child.children.enumerated() {
                    guard let v = try document.value(.element(item), kind: kind, at: item.position,
                                                     path: childPath + "/\(item.name)[\(n + 1)]")
                    else {
                        throw document.error("a keyframe value was skipped, so the animation cannot play", at: item.position, path: childPath)
                    }
                    values.append(v.json(at: item.position))
                }
                members.append(("values", JSONValue.array(values, at: child.position), child.position))
            case "keyTimes":
                guard let v = try document.value(.element(child), kind: .numbers(.unit), at: child.position, path: childPath)
                else { continue }
                members.append(("keyTimes", v.json(at: child.position), child.position))
            case "timingFunction":
                members.append(("timingFunction", try timingFunction(element: child, path: childPath), child.position))
            case "timingFunctions":
                var functions: [JSONValue] = []
                for (n, f) in child.children.enumerated() {
                    functions.append(try timingFunction(element: f, path: childPath + "/\(f.name)[\(n + 1)]"))
                }
                members.append(("timingFunctions", JSONValue.array(functions, at: child.position), child.position))
            case "animations" where type == "group":
                var children: [JSONValue] = []
                for (n, entry) in child.children.enumerated() {
                    if let built = try animation(entry, path: childPath + "/\(entry.name)[\(n + 1)]") {
                        children.append(built)
                    }
                }
                members.append(("animations", JSONValue.array(children, at: child.position), child.position))
            default:
                try document.skip("<\(child.name)> in <\(className)>", "Lamina has no such animation property", at: child.position)
            }
        }
        if let endpoints, type == "basic" || type == "spring" {
            if !members.contains(where: { $0.0 == "fromValue" }), let from = endpoints.from {
                members.append(("fromValue", from.json(at: element.position), element.position))
            }
            if !members.contains(where: { $0.0 == "toValue" }), let to = endpoints.to {
                members.append(("toValue", to.json(at: element.position), element.position))
            }
        }
        return JSONValue.object(members: members, at: element.position).placedThroughout(at: element.position)
    }

    /// `easeIn` and the other names, or control points `c1x c1y c2x c2y`.
    private func timingFunction(text: String, at position: SourcePosition, path: String) throws(SceneError) -> JSONValue {
        if let n = CAMLText.numbers(text), n.count == 4 {
            return JSONValue.array(n.map { .number($0) }, at: position)
        }
        return JSONValue(.string(text.trimmingCharacters(in: .whitespaces)), at: position)
    }

    /// `<CAMediaTimingFunction name="easeIn"/>`, `controlPoints="..."`, or
    /// a property element holding one.
    private func timingFunction(element: XMLElement, path: String) throws(SceneError) -> JSONValue {
        if let points = element.attribute("controlPoints") {
            return try timingFunction(text: points.value, at: points.position, path: path)
        }
        if let name = element.attribute("name") ?? element.attribute("value") {
            return try timingFunction(text: name.value, at: name.position, path: path)
        }
        if element.children.count == 1 { return try timingFunction(element: element.children[0], path: path) }
        throw document.error(.missingKey, "a timing function needs a name or controlPoints", at: element.position, path: path)
    }
}
