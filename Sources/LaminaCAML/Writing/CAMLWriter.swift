import Foundation
import LaminaCore
import LaminaJSON
import LaminaScene

/// Writes a `Scene` as a CAML document, the XML in which Core Animation
/// stores layer trees (`.caml`, the `main.caml` of a `.ca` bundle).
///
/// Each layer is an element named by its class (`<CAShapeLayer>`), its
/// properties attributes in Core Animation's spelling, its sublayers, mask
/// and animations child elements. Arrays (gradient `colors`, `locations`,
/// dash patterns) and images are elements, as Core Animation writes them;
/// images are data URIs. The canvas's y-down space is kept by a root that
/// sets `geometryFlipped` (CAML's own space grows upwards), so `CAMLReader`
/// reads the document back to the same tree and the same picture.
///
/// ```swift
/// let scene = try SceneDecoder().decode(Data(contentsOf: URL(fileURLWithPath: "card.json")))
/// let caml = try CAMLWriter().write(scene)
/// try caml.write(toFile: "card.caml", atomically: true, encoding: .utf8)
/// ```
///
/// What CAML cannot say is refused with a `SceneError` naming the layer and
/// key: the scene's `scale` and `time` belong to the picture, not the
/// document, and are not written.
public struct CAMLWriter: Sendable {
    /// A writer.
    public init() {}

    /// The scene as CAML text.
    public func write(_ scene: Scene) throws(SceneError) -> String {
        try write(document: SceneEncoder().jsonValue(scene))
    }

    /// A scene document, as the scene encoder writes it, as CAML text.
    package func write(document: JSONValue) throws(SceneError) -> String {
        guard let top = document.object,
              let width = top["width"]?.number, let height = top["height"]?.number
        else { throw SceneError(.invalidValue, at: "$", "a scene document needs a width and a height") }
        let canvasKeys: Set<String> = ["format", "width", "height", "scale", "time", "origin"]
        var root = XMLOut(name: "CALayer")
        root.attribute("bounds", "0 0 \(Self.number(width)) \(Self.number(height))")
        root.attribute("position", "\(Self.number(width / 2)) \(Self.number(height / 2))")
        // CAML's space grows upwards: a top-left canvas is the root's
        // sublayers flipped, and the scene root's own flip flips again.
        let flipped = top["geometryFlipped"]?.bool ?? false
        let bottomLeft = top["origin"]?.string == "bottomLeft"
        if flipped == bottomLeft { root.attribute("geometryFlipped", "1") }
        let members = top.members.filter { !canvasKeys.contains($0.key) && $0.key != "geometryFlipped" }
        try layerBody(members.map { ($0.key, $0.value) }, type: "layer", into: &root, at: JSONPath.root)
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<caml xmlns=\"http://www.apple.com/CoreAnimation/1.0\">\n"
        root.write(into: &text, indent: 1)
        text += "</caml>\n"
        return text
    }

    // MARK: Layers

    private func layer(_ value: JSONValue, at path: JSONPath) throws(SceneError) -> XMLOut {
        guard let object = value.object else { throw SceneError(.wrongType, at: path.description, "a layer is an object") }
        let type = object["type"]?.string ?? "layer"
        guard let className = SceneVocabulary.className(ofType: type) else {
            throw SceneError(.unknownName, at: (path / "type").description, "no layer type is called '\(type)'")
        }
        var element = XMLOut(name: className)
        try layerBody(object.members.filter { $0.key != "type" }.map { ($0.key, $0.value) }, type: type, into: &element, at: path)
        return element
    }

    /// A layer's properties as attributes and elements, then its mask,
    /// animations and sublayers.
    private func layerBody(_ members: [(String, JSONValue)], type: String, into element: inout XMLOut,
                           at path: JSONPath) throws(SceneError) {
        var mask: XMLOut?, animations: XMLOut?, sublayers: XMLOut?
        for (key, value) in members {
            let here = path / key
            switch key {
            case "sublayers":
                var holder = XMLOut(name: "sublayers")
                for (k, sublayer) in items(value).enumerated() {
                    holder.children.append(try layer(sublayer, at: here / k))
                }
                sublayers = holder
            case "mask":
                var holder = XMLOut(name: "mask")
                holder.children.append(try layer(value, at: here))
                mask = holder
            case "animations":
                var holder = XMLOut(name: "animations")
                for (k, animation) in items(value).enumerated() {
                    holder.children.append(try self.animation(animation, layerType: type, at: here / k))
                }
                animations = holder
            case "name":
                element.attribute("name", value.string ?? "")
            default:
                let property = key == "gradientType" ? "type" : key
                guard let (_, kind) = SceneVocabulary.key(forProperty: property, ofType: type) else {
                    throw SceneError(.unknownKey, at: here.description, "CAML has no property '\(key)' for this layer class")
                }
                try self.value(value, kind: kind, property: property, into: &element, at: here)
            }
        }
        element.children += [mask, animations, sublayers].compactMap { $0 }
    }

    // MARK: Values

    /// `value` as `property` of `element`: an attribute, or an element for
    /// arrays and images.
    private func value(_ value: JSONValue, kind: LayerValueKind, property: String, into element: inout XMLOut,
                       at path: JSONPath) throws(SceneError) {
        switch kind {
        case .numbers:
            var holder = XMLOut(name: property)
            for n in try numbers(value, at: path) {
                holder.children.append(XMLOut(name: "real", attributes: [("value", Self.number(n))]))
            }
            element.children.append(holder)
        case .colors:
            var holder = XMLOut(name: property)
            for (k, color) in items(value).enumerated() {
                holder.children.append(XMLOut(name: "CGColor", attributes: [("value", try self.color(color, at: path / k))]))
            }
            element.children.append(holder)
        case .image:
            element.children.append(XMLOut(name: property, attributes: [("type", "CGImage"), ("src", try string(value, at: path))]))
        case .emitterBehaviors, .filters:
            let (className, typeAttribute) = kind == .filters ? ("CAFilter", "filter") : ("CAEmitterBehavior", "behavior")
            var holder = XMLOut(name: property)
            for (k, behavior) in items(value).enumerated() {
                guard let object = behavior.object else { throw wrong("an object", at: path / k) }
                var out = XMLOut(name: className)
                for member in object.members {
                    let key = member.key == "type" ? typeAttribute : member.key
                    if let n = member.value.number {
                        out.attribute(key, Self.number(n))
                    } else if let s = member.value.string {
                        out.attribute(key, s == "infinity" ? "inf" : s == "-infinity" ? "-inf" : s)
                    } else if let b = member.value.bool {
                        out.attribute(key, b ? "1" : "0")
                    } else if member.key == "inputColor" {
                        out.attribute(key, try self.color(member.value, at: path / k / key))
                    } else if member.key == "colors" {
                        var colors = XMLOut(name: "colors")
                        for (c, color) in items(member.value).enumerated() {
                            colors.children.append(XMLOut(name: "CGColor", attributes: [("value", try self.color(color, at: path / k / "colors" / c))]))
                        }
                        out.children.append(colors)
                    } else {
                        out.attribute(key, try numbers(member.value, at: path / k / member.key).map(Self.number).joined(separator: " "))
                    }
                }
                holder.children.append(out)
            }
            element.children.append(holder)
        case .emitterCells:
            var holder = XMLOut(name: property)
            for (k, cell) in items(value).enumerated() {
                guard let object = cell.object else { throw wrong("an emitter cell (an object)", at: path / k) }
                var out = XMLOut(name: "CAEmitterCell")
                for member in object.members {
                    guard let property = CAEmitterCell.properties[member.key] else {
                        throw SceneError(.unknownKey, at: (path / k / member.key).description, "an emitter cell has no property '\(member.key)'")
                    }
                    try self.value(member.value, kind: property.kind, property: member.key, into: &out, at: path / k / member.key)
                }
                holder.children.append(out)
            }
            element.children.append(holder)
        default:
            element.attribute(property, try text(value, kind: kind, at: path))
        }
    }

    /// A value that CAML writes as attribute text.
    private func text(_ value: JSONValue, kind: LayerValueKind, at path: JSONPath) throws(SceneError) -> String {
        switch kind {
        case .number:
            guard let n = value.number else { throw wrong("a number", at: path) }
            return Self.number(n)
        case .bool:
            guard let b = value.bool else { throw wrong("true or false", at: path) }
            return b ? "1" : "0"
        case .point, .size, .rect, .transform, .numbers:
            return try numbers(value, at: path).map(Self.number).joined(separator: " ")
        case .color:
            return try color(value, at: path)
        case .constant:
            let name = try string(value, at: path)
            return Self.constantNames[name] ?? name
        case .cornerMask:
            let names = ["minXMinY", "maxXMinY", "minXMaxY", "maxXMaxY"]
            var bits = 0
            for (k, corner) in items(value).enumerated() {
                guard let name = corner.string, let bit = names.firstIndex(of: name) else { throw wrong("a corner name", at: path / k) }
                bits |= 1 << bit
            }
            return String(bits)
        case .path, .string, .any, .image:
            return try string(value, at: path)
        case .colors, .layer, .layers, .emitterCells, .emitterBehaviors, .filters:
            throw wrong("a value that fits in an attribute", at: path)
        }
    }

    /// Core Animation's spelling of the constants the scene format spells otherwise.
    static let constantNames = ["nonZero": "non-zero", "evenOdd": "even-odd"]

    private func numbers(_ value: JSONValue, at path: JSONPath) throws(SceneError) -> [Double] {
        var out: [Double] = []
        for (k, item) in items(value).enumerated() {
            guard let n = item.number else { throw wrong("a number", at: path / k) }
            out.append(n)
        }
        guard value.array != nil else { throw wrong("an array of numbers", at: path) }
        return out
    }

    private func string(_ value: JSONValue, at path: JSONPath) throws(SceneError) -> String {
        guard let s = value.string else {
            throw wrong("a string (CAML cannot write rich text or other values here)", at: path)
        }
        return s
    }

    /// A colour as CAML writes it: `r g b a`, components 0...1.
    private func color(_ value: JSONValue, at path: JSONPath) throws(SceneError) -> String {
        // No colour (a shape without fill) draws as transparent black does;
        // an empty value would read as absent, which is the default colour.
        if value.isNull { return "0 0 0 0" }
        guard let color = ColorValue.decode(value) else { throw wrong("a colour", at: path) }
        return [color.red, color.green, color.blue, color.alpha].map { Self.number(Double($0)) }.joined(separator: " ")
    }

    /// An array's elements (none for another value).
    private func items(_ value: JSONValue) -> [JSONValue] { value.array.map(Array.init) ?? [] }

    private func wrong(_ expected: String, at path: JSONPath) -> SceneError {
        SceneError(.wrongType, at: path.description, "expected \(expected)")
    }

    static func number(_ n: Double) -> String { JSONWriter.number(n) }

    // MARK: Animations

    static let classNames = ["basic": "CABasicAnimation", "keyframe": "CAKeyframeAnimation",
                             "spring": "CASpringAnimation", "group": "CAAnimationGroup"]

    private func animation(_ value: JSONValue, layerType: String, at path: JSONPath) throws(SceneError) -> XMLOut {
        guard let object = value.object else { throw wrong("an animation object", at: path) }
        let type = object["type"]?.string ?? "basic"
        guard let className = Self.classNames[type] else {
            throw SceneError(.unknownName, at: (path / "type").description, "no animation type is called '\(type)'")
        }
        var element = XMLOut(name: "animation", attributes: [("type", className)])
        let kind = object["keyPath"]?.string.flatMap { SceneVocabulary.animatedKind(of: $0, onType: layerType) }
        for member in object.members where member.key != "type" {
            let (key, v, here) = (member.key, member.value, path / member.key)
            switch key {
            case "keyPath", "fillMode", "calculationMode":
                element.attribute(key, try string(v, at: here))
            case "repeatCount", "repeatDuration":
                element.attribute(key, v.string == "infinity" ? "inf" : try text(v, kind: .number(.any), at: here))
            case "autoreverses", "removedOnCompletion", "additive", "cumulative":
                element.attribute(key, try text(v, kind: .bool, at: here))
            case "keyTimes":
                element.attribute(key, try text(v, kind: .numbers(.unit), at: here))
            case "timingFunction":
                element.children.append(try timingFunction(v, named: key, at: here))
            case "timingFunctions":
                var holder = XMLOut(name: key)
                for (k, f) in items(v).enumerated() {
                    holder.children.append(try timingFunction(f, named: "CAMediaTimingFunction", at: here / k))
                }
                element.children.append(holder)
            case "fromValue", "toValue", "byValue":
                guard let kind else { throw wrong("a keyPath this layer class animates", at: path / "keyPath") }
                element.children.append(try animatedValue(v, kind: kind, named: key, at: here))
            case "values":
                guard let kind else { throw wrong("a keyPath this layer class animates", at: path / "keyPath") }
                var holder = XMLOut(name: "values")
                for (k, item) in items(v).enumerated() {
                    holder.children.append(try animatedValue(item, kind: kind, named: Self.elementName(of: kind), at: here / k))
                }
                element.children.append(holder)
            case "animations":
                var holder = XMLOut(name: "animations")
                for (k, child) in items(v).enumerated() {
                    holder.children.append(try animation(child, layerType: layerType, at: here / k))
                }
                element.children.append(holder)
            default:
                element.attribute(key, try text(v, kind: .number(.any), at: here))
            }
        }
        return element
    }

    /// An animation's value as an element: `<toValue type="CGColor" value="1 0 0 1"/>`.
    private func animatedValue(_ value: JSONValue, kind: LayerValueKind, named name: String,
                               at path: JSONPath) throws(SceneError) -> XMLOut {
        if kind == .image { return XMLOut(name: name, attributes: [("type", "CGImage"), ("src", try string(value, at: path))]) }
        return XMLOut(name: name, attributes: [("type", Self.elementName(of: kind)), ("value", try text(value, kind: kind, at: path))])
    }

    /// The type Core Animation names a value of `kind` by.
    static func elementName(of kind: LayerValueKind) -> String {
        switch kind {
        case .point: "CGPoint"
        case .size: "CGSize"
        case .rect: "CGRect"
        case .transform: "CATransform3D"
        case .color: "CGColor"
        case .path: "CGPath"
        case .image: "CGImage"
        case .bool: "bool"
        case .number: "real"
        default: "string"
        }
    }

    private func timingFunction(_ value: JSONValue, named name: String, at path: JSONPath) throws(SceneError) -> XMLOut {
        if let function = value.string { return XMLOut(name: name, attributes: [("name", function)]) }
        return XMLOut(name: name, attributes: [("controlPoints", try text(value, kind: .numbers(.any), at: path))])
    }
}

/// An element being written: attributes in order, then children.
struct XMLOut {
    var name: String
    var attributes: [(String, String)] = []
    var children: [XMLOut] = []

    mutating func attribute(_ name: String, _ value: String) { attributes.append((name, value)) }

    func write(into text: inout String, indent: Int) {
        let pad = String(repeating: "  ", count: indent)
        text += pad + "<" + name
        for (key, value) in attributes { text += " \(key)=\"\(Self.escaped(value))\"" }
        guard !children.isEmpty else {
            text += "/>\n"
            return
        }
        text += ">\n"
        for child in children { child.write(into: &text, indent: indent + 1) }
        text += pad + "</\(name)>\n"
    }

    /// Attribute text: markup characters as entities, and line breaks and
    /// tabs as character references (a reader turns raw ones into spaces).
    static func escaped(_ value: String) -> String {
        var out = ""
        out.reserveCapacity(value.utf8.count)
        for c in value.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case "\t": out += "&#9;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
