import Foundation
import LaminaCore
import LaminaScene
import LaminaJSON

/// One CAML document as read: its root layer element, the file it came
/// from, and where its images are.
struct CAMLDocumentSource {
    /// The `<CALayer>` (or other layer class) inside `<caml>`.
    var root: XMLElement
    /// The document's name in messages (`Background.ca/main.caml`).
    var file: String
    /// The bundle's files, or nil for a bare document (images only as data URIs).
    var files: CAMLFileSource?
    /// The folder of the document inside `files`, which `src` paths start from.
    var folder: String
}

/// Turns one CAML document into a layer object of the scene format, in its
/// base state, in a named state, or in the state a transition ends in with
/// the transition's animations attached.
///
/// The scene decoder checks everything the builder writes (ranges, limits,
/// conflicts), and the values it builds carry their places in the XML, so
/// its errors point into the CAML file.
final class DocumentBuilder {
    let document: CAMLDocumentSource
    let diagnostics: Diagnostics
    let limits: SceneLimits
    /// When to stop (a request's deadline): checked before each layer.
    let deadline: RenderDeadline?
    /// Layer elements by their `id`, with their format type.
    private var layersByID: [String: (element: XMLElement, type: String)] = [:]
    /// `LKState` elements by name.
    private(set) var states: [String: XMLElement] = [:]
    /// Every `LKStateTransition` element, in document order.
    private var transitions: [XMLElement] = []
    /// How the device is tilted, x and y in -1...1, for the parallax groups; nil: level.
    var tilt: CGPoint?
    /// The root's `wallpaperParallaxGroups`: layers that move with the tilt.
    private(set) var parallaxGroups: [ParallaxGroup] = []

    /// One of a wallpaper's parallax groups: the layer called `layerName`
    /// moves its `keyPath` by `mapMinTo` at full tilt one way on `axis` and
    /// `mapMaxTo` the other (offsets from its value, as a motion effect's
    /// relative values are).
    struct ParallaxGroup {
        var axis: String
        var keyPath: String
        var layerName: String
        var mapMinTo: Double
        var mapMaxTo: Double
        var position: SourcePosition
    }

    /// `LKStateTransitionElement`s by their `id`, which other transitions name by `object`.
    private var transitionElementsByID: [String: XMLElement] = [:]
    private var imageCache: [String: BuiltValue?] = [:]
    /// `values(ofState:)` by state name, as worked out.
    private var stateValues: [String: [String: [StateValue]]] = [:]

    /// A layer's properties in a state (nil: the base state), as `value(of:layerID:state:)` worked them out.
    private var statePropertiesCache: [StatePropertiesKey: Properties] = [:]
    private struct StatePropertiesKey: Hashable {
        var layerID: String
        var state: String?
    }

    /// The state set values apply by layer id; the transition's animations too.
    private var overrides: [String: [StateValue]] = [:]
    private var transitionAnimations: [String: [JSONValue]] = [:]
    /// `target|keyPath` of every key the transition animates.
    private var animatedKeys: Set<String> = []

    init(_ document: CAMLDocumentSource, diagnostics: Diagnostics, limits: SceneLimits,
         deadline: RenderDeadline? = nil) throws(SceneError) {
        self.document = document
        self.diagnostics = diagnostics
        self.limits = limits
        self.deadline = deadline
        try index(document.root, path: "/caml/\(document.root.name)")
    }

    /// The names of the document's states, in document order.
    var stateNames: [String] { states.keys.sorted() }

    // MARK: Errors

    func error(_ kind: SceneError.Kind, _ message: String, at position: SourcePosition, path: String) -> SceneError {
        SceneError(kind, at: "\(document.file):\(path)", position: position, message)
    }

    func error(_ message: String, at position: SourcePosition, path: String) -> SceneError {
        error(.invalidValue, message, at: position, path: path)
    }

    func skip(_ subject: String, _ reason: String, at position: SourcePosition) throws(SceneError) {
        try diagnostics.skipped(subject, reason, file: document.file, at: position)
    }

    func tolerate(_ subject: String, _ reason: String, at position: SourcePosition) {
        diagnostics.tolerated(subject, reason, file: document.file, at: position)
    }

    // MARK: Index

    /// Records ids, states and transitions of the tree under `element`.
    private func index(_ element: XMLElement, path: String) throws(SceneError) {
        if let id = element.attribute("id"), let type = SceneVocabulary.layerType(forClassName: element.name) {
            if layersByID[id.value] == nil {
                layersByID[id.value] = (element, type)
            } else {
                // Editors copy layers with their ids, and Core Animation
                // reads such files. States and transitions name layers by
                // id: each layer with it takes them (which of the copies
                // the phone moves is not known; the copies are alike).
                tolerate("the id '\(id.value)' on a second layer", "states and transitions that name it apply to every layer with it",
                         at: id.position)
            }
        }
        for (k, child) in element.children.enumerated() {
            let childPath = path + "/\(child.name)[\(k + 1)]"
            switch child.name {
            case "states":
                for state in child.children where state.name == "LKState" {
                    guard let name = state["name"] else {
                        throw error(.missingKey, "an LKState needs a name", at: state.position, path: childPath)
                    }
                    guard states[name] == nil else {
                        throw error("two states are called '\(name)'", at: state.position, path: childPath)
                    }
                    states[name] = state
                }
            case "style" where path == "/caml/\(document.root.name)":
                // PosterBoard's wallpaperParallaxGroups: an array of dictionaries of strings and numbers.
                for dictionary in child.child("wallpaperParallaxGroups")?.children ?? [] {
                    func text(_ key: String) -> String? { dictionary.child(key)?["value"] }
                    guard let layerName = text("layerName"), let keyPath = text("keyPath") else { continue }
                    parallaxGroups.append(ParallaxGroup(
                        axis: text("axis") ?? "x", keyPath: keyPath, layerName: layerName,
                        mapMinTo: text("mapMinTo").flatMap { CAMLText.number($0) } ?? 0,
                        mapMaxTo: text("mapMaxTo").flatMap { CAMLText.number($0) } ?? 0, position: dictionary.position))
                }
            case "stateTransitions":
                let found = child.children.filter { $0.name == "LKStateTransition" }
                transitions += found
                for transition in found {
                    for element in transition.child("elements")?.children ?? transition.children
                    where element.name == "LKStateTransitionElement" {
                        if let id = element["id"], transitionElementsByID[id] == nil { transitionElementsByID[id] = element }
                    }
                }
            case "sublayers", "mask":
                for layer in child.children {
                    try index(layer, path: childPath + "/\(layer.name)")
                }
            default:
                break
            }
        }
    }

    // MARK: The layer tree

    /// The root layer in its base state, or in `state`, or at the start of
    /// the transition `transition` (the model in its end state, with the
    /// transition's animations).
    func build(state: String?, transition: (from: String, to: String, begins: Double)?) throws(SceneError) -> JSONValue? {
        overrides = [:]
        transitionAnimations = [:]
        animatedKeys = []
        if let transition {
            overrides = try values(ofState: transition.to)
            try prepareTransition(from: transition.from, to: transition.to, begins: transition.begins)
        } else if let state {
            overrides = try values(ofState: state)
        }
        return try layer(document.root, path: "/caml/\(document.root.name)")
    }

    /// A layer object, or nil when its class is not drawn (reported).
    func layer(_ element: XMLElement, path: String) throws(SceneError) -> JSONValue? {
        try deadline?.check(at: "\(document.file):\(path)", position: element.position)
        // A CABackdropLayer is a layer whose filters apply to what lies behind it.
        let isBackdrop = element.name == "CABackdropLayer"
        guard let type = isBackdrop ? "layer" : SceneVocabulary.layerType(forClassName: element.name) else {
            try skip("<\(element.name)>", Self.unsupportedClassReason(element.name), at: element.position)
            return nil
        }
        var members: [(String, JSONValue, SourcePosition)] = []
        if type != "layer" { members.append(("type", .string(type), element.position)) }
        let id = element["id"]
        var properties = try self.properties(of: element, type: type, overrides: id.flatMap { overrides[$0] } ?? [], path: path)
        if isBackdrop, let (filters, position) = properties.values["filters"] {
            properties.values["filters"] = nil
            properties.order.removeAll { $0 == "filters" }
            properties.set("backgroundFilters", filters, at: position)
        }
        for key in properties.order {
            let (value, position) = properties.values[key]!
            members.append((key, value.json(at: position), position))
        }
        var animations: [JSONValue] = []
        for (k, child) in element.children.enumerated() {
            let childPath = path + "/\(child.name)[\(k + 1)]"
            switch child.name {
            case "sublayers":
                var sublayers: [JSONValue] = []
                for (n, sublayer) in child.children.enumerated() {
                    if let built = try layer(sublayer, path: childPath + "/\(sublayer.name)[\(n + 1)]") {
                        sublayers.append(built)
                    }
                }
                members.append(("sublayers", JSONValue.array(sublayers, at: child.position), child.position))
            case "mask":
                guard child.children.count == 1, let maskElement = child.children.first else {
                    throw error("<mask> holds exactly one layer", at: child.position, path: childPath)
                }
                if let mask = try layer(maskElement, path: childPath + "/\(maskElement.name)") {
                    members.append(("mask", mask, child.position))
                }
            case "animations":
                let builder = AnimationBuilder(self, layerType: type)
                for (n, listed) in child.children.enumerated() {
                    // `<p key="animation-1" type="CABasicAnimation" .../>` is an
                    // animation under its key; `<p key="..."><animation .../></p>` holds one.
                    let entry = listed.name == "p" && listed["type"] == nil && listed.children.count == 1 ? listed.children[0] : listed
                    if let built = try builder.animation(entry, path: childPath + "/\(entry.name)[\(n + 1)]") {
                        animations.append(built)
                    }
                }
            default:
                continue  // properties (read above), states, transitions, skipped elements
            }
        }
        animations += id.flatMap { transitionAnimations[$0] } ?? []
        if !animations.isEmpty {
            members.append(("animations", JSONValue.array(animations, at: element.position), element.position))
        }
        return .object(members: members, at: element.position)
    }

    static func unsupportedClassReason(_ name: String) -> String {
        switch name {
        default: "Lamina does not draw this layer class (its sublayers are skipped with it)"
        }
    }

    // MARK: Properties

    /// A layer's properties in the order they were given.
    struct Properties {
        var order: [String] = []
        var values: [String: (BuiltValue, SourcePosition)] = [:]

        mutating func set(_ key: String, _ value: BuiltValue, at position: SourcePosition) {
            if values[key] == nil { order.append(key) }
            values[key] = (value, position)
        }
    }

    /// One `LKStateSetValue`: a key path of the layer with `targetId`, and its value.
    struct StateValue {
        var keyPath: String
        var value: XMLElement
        var position: SourcePosition
    }

    /// Attributes that change nothing Lamina draws, or say what it draws by
    /// default; they are read silently. Values other than these defaults are
    /// reported as skipped.
    static let quietAttributes: [String: Set<String>?] = [
        "id": nil, "allowsEdgeAntialiasing": nil, "allowsHitTesting": nil, "contentsFormat": nil,
        "needsDisplayOnBoundsChange": nil, "drawsAsynchronously": nil, "shouldRasterize": nil,
        "rasterizationScale": nil, "edgeAntialiasingMask": nil, "opaque": nil, "contentsOpaque": nil,
        "allowsGroupOpacity": ["1", "true", "YES"], "cornerCurve": ["circular"],
        "speed": ["1"], "beginTime": ["0"], "timeOffset": ["0"], "duration": ["0"],
        "repeatCount": ["0"], "autoreverses": ["0"], "fillMode": ["removed"],
        // macOS's autoresizing, off: what every layer does here.
        "autoresizingMask": ["0"],
    ]

    /// A CABackdropLayer's own attributes, read silently: which backdrops
    /// share one capture, the capture's resolution, how far past the bounds
    /// it samples. The picture is the same without them.
    static let backdropAttributes: Set<String> = ["groupName", "scale", "marginWidth", "windowServerAware", "allowsInPlaceFiltering"]

    /// Elements inside a layer that are read elsewhere.
    static let structuralElements: Set<String> = ["sublayers", "mask", "animations", "states", "stateTransitions", "style"]

    /// The layer's properties: attributes, property elements, then key-path
    /// attributes (`transform.rotation.z="1"`), then the state's values.
    func properties(
        of element: XMLElement, type: String, overrides: [StateValue], path: String
    ) throws(SceneError) -> Properties {
        var properties = Properties()
        var keyPaths: [(String, ValueSource, SourcePosition)] = []
        for attribute in element.attributes {
            let name = attribute.name
            if name == "name" {
                properties.set("name", .json(.string(attribute.value)), at: attribute.position)
                continue
            }
            if let quiet = Self.quietAttributes[name], quiet.map({ $0.contains(attribute.value) }) ?? true { continue }
            if element.name == "CABackdropLayer", Self.backdropAttributes.contains(name) { continue }
            if let group = Self.editorExtras(name) {
                noteEditorExtra(group, at: attribute.position)
                continue
            }
            if name.contains(".") {
                keyPaths.append((name, .text(attribute.value), attribute.position))
                continue
            }
            if name == "compositingFilter" {
                if let mode = try blendMode(named: attribute.value, at: attribute.position) {
                    properties.set(name, .json(.string(mode)), at: attribute.position)
                }
                continue
            }
            guard let (key, kind) = SceneVocabulary.key(forProperty: name, ofType: type) else {
                try skip("@\(name) of <\(element.name)>", "Lamina has no such property", at: attribute.position)
                continue
            }
            let value = try self.value(.text(attribute.value), kind: kind, at: attribute.position, path: path + "/@\(name)")
            if let value { properties.set(key, value, at: attribute.position) }
        }
        for (k, child) in element.children.enumerated() where !Self.structuralElements.contains(child.name) {
            let childPath = path + "/\(child.name)[\(k + 1)]"
            if child.name.contains(".") {
                keyPaths.append((child.name, .element(child), child.position))
                continue
            }
            if child.name == "compositingFilter" {
                // <compositingFilter value="..."/>, or the filter as an
                // object: <compositingFilter type="CAFilter" filter="..."/>.
                let named = ["filter", "value", "name"].lazy.compactMap { child.attribute($0) }.first
                    ?? child.children.first.flatMap { f in ["filter", "type", "name"].lazy.compactMap { f.attribute($0) }.first }
                guard let named else {
                    try skip("<compositingFilter> in <\(element.name)>", "it names no filter (filter=\"...\")", at: child.position)
                    continue
                }
                if let mode = try blendMode(named: named.value, at: named.position) {
                    properties.set(child.name, .json(.string(mode)), at: child.position)
                }
                continue
            }
            guard let (key, kind) = SceneVocabulary.key(forProperty: child.name, ofType: type) else {
                try skip("<\(child.name)> in <\(element.name)>", Self.unsupportedElementReason(child.name), at: child.position)
                continue
            }
            if let value = try self.value(.element(child), kind: kind, at: child.position, path: childPath) {
                properties.set(key, value, at: child.position)
            }
        }
        for (keyPath, source, position) in keyPaths {
            try assign(keyPath, source, at: position, to: &properties, type: type, className: element.name, path: path)
        }
        for value in overrides {
            try assign(value.keyPath, .element(value.value), at: value.position, to: &properties, type: type,
                       className: element.name, path: path)
        }
        if let tilt, let name = element["name"] {
            for group in parallaxGroups where group.layerName == name {
                // The device tilted `t` (-1...1) on the group's axis moves the
                // key by mapMinTo at -1, mapMaxTo at 1, linearly between.
                let t = min(1, max(-1, group.axis == "y" ? tilt.y : tilt.x))
                let offset = group.mapMinTo + (group.mapMaxTo - group.mapMinTo) * (t + 1) / 2
                guard offset != 0, let current = try number(at: group.keyPath, in: properties, type: type) else { continue }
                try assign(group.keyPath, .text(String(current + offset)), at: group.position, to: &properties, type: type,
                           className: element.name, path: path)
            }
        }
        return properties
    }

    /// The number `keyPath` holds among `properties` (its default where
    /// they do not set it), or nil when it is not a number.
    private func number(at keyPath: String, in properties: Properties, type: String) throws(SceneError) -> Double? {
        let base = String(keyPath.prefix { $0 != "." })
        guard let (key, _) = SceneVocabulary.key(forProperty: base, ofType: type),
              let layer = SceneVocabulary.makeLayer(ofType: type) else { return nil }
        if case .native(let current)? = properties.values[key]?.0 { layer.setValue(current, forKey: base) }
        return SceneVocabulary.json(of: layer.value(forKeyPath: keyPath) as Any)?.number
    }

    /// The group of an attribute that an editor writes for itself
    /// (CAPlayground's `caplayKind`, Mica's `mica_autorecalculatesDuration`,
    /// an editor's `locked`), or nil.
    static func editorExtras(_ name: String) -> String? {
        if name.hasPrefix("caplay") { return "caplay*" }
        if name.hasPrefix("mica_") { return "mica_*" }
        if name == "locked" { return "locked" }  // an editor's lock against changes, on layers
        return nil
    }

    /// One warning for each group of editors' attributes, at its first
    /// place: they are the editor's own notes and change nothing Core
    /// Animation draws, so `--strict` does not refuse them.
    func noteEditorExtra(_ group: String, at position: SourcePosition) {
        tolerate("the editor's own attributes \(group)", "they change nothing Core Animation draws; read past", at: position)
    }

    /// The blend mode a `compositingFilter` names, as the scene format
    /// spells it; nil, with a warning at its place, for a filter Lamina does
    /// not blend by (Porter-Duff operators such as `destOut`, and the
    /// non-separable modes, which Core Animation draws source-over).
    func blendMode(named name: String, at position: SourcePosition) throws(SceneError) -> String? {
        let kind = CAFilter.Kind(compositingFilter: name) ?? CAFilter.Kind(name)
        if kind.blendMode != nil { return kind.rawValue }
        if kind.isNonSeparableBlendMode {
            try skip("compositingFilter '\(name)'",
                     "Core Animation applies no non-separable blend mode: the layer is drawn source-over, as on a device",
                     at: position)
            return nil
        }
        try skip("compositingFilter '\(name)'",
                 "Lamina blends by \(CAFilter.Kind.blendModes.map(\.rawValue).joined(separator: ", "))", at: position)
        return nil
    }

    static func unsupportedElementReason(_ name: String) -> String {
        switch name {
        case "scriptComponents", "scriptObject", "modules": "Lamina runs no scripts"
        case "behaviors": "Lamina does not run layer behaviours"
        default: "Lamina has no such property"
        }
    }

    /// Sets `keyPath` (a property, or a part of one such as `position.y`
    /// or `transform.rotation.z`) through Core Animation's key-value coding
    /// on a scratch layer that holds the property's current value.
    func assign(
        _ keyPath: String, _ source: ValueSource, at position: SourcePosition, to properties: inout Properties,
        type: String, className: String, path: String
    ) throws(SceneError) {
        let base = String(keyPath.prefix { $0 != "." })
        guard let (key, baseKind) = SceneVocabulary.key(forProperty: base, ofType: type) else {
            try skip("'\(keyPath)' of <\(className)>", "Lamina has no such property", at: position)
            return
        }
        guard keyPath.contains(".") else {
            if let value = try value(source, kind: baseKind, at: position, path: path + "/\(keyPath)") {
                properties.set(key, value, at: position)
            }
            return
        }
        guard let partKind = SceneVocabulary.animatedKind(of: keyPath, onType: type),
              let layer = SceneVocabulary.makeLayer(ofType: type)
        else {
            try skip("'\(keyPath)' of <\(className)>", "Lamina cannot set this part of '\(base)'", at: position)
            return
        }
        if Self.filterLists.contains(base) {
            // A filter's parameter, set in the filters' own objects; a layer
            // with no filter of that name changes nothing, as on the phone.
            guard let part = try value(source, kind: partKind, at: position, path: path + "/\(keyPath)"),
                  case .json(let list)? = properties.values[key]?.0,
                  let updated = Self.filters(list, setting: keyPath.dropFirst(base.count + 1), to: part.json(at: position))
            else { return }
            properties.set(key, .json(updated), at: position)
            return
        }
        guard let part = try value(source, kind: partKind, at: position, path: path + "/\(keyPath)"),
              case .native(let partValue) = part
        else { return }
        if case .native(let current)? = properties.values[key]?.0 {
            layer.setValue(current, forKey: base)
        }
        layer.setValue(partValue, forKeyPath: keyPath)
        guard let whole = layer.value(forKey: base) else { return }
        properties.set(key, .native(whole), at: position)
    }

    /// The layer properties that hold filters, reached by `NAME.KEY`.
    static let filterLists: Set<String> = ["filters", "backgroundFilters"]

    /// The index in `list` (filter objects) of the filter `NAME.KEY` names
    /// (by its `name`, else its `type`), and the key.
    private static func filterEntry(_ path: Substring, in list: JSONValue) -> (index: Int, key: String)? {
        let parts = path.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let filters = list.array else { return nil }
        for (index, filter) in filters.enumerated() {
            guard let object = filter.object else { continue }
            if (object["name"]?.string ?? object["type"]?.string) == String(parts[0]) { return (index, String(parts[1])) }
        }
        return nil
    }

    /// The filter objects with `NAME.KEY` set to `value`; nil when no filter is `NAME`.
    static func filters(_ list: JSONValue, setting path: Substring, to value: JSONValue) -> JSONValue? {
        guard let (index, key) = filterEntry(path, in: list), let filters = list.array else { return nil }
        var items = Array(filters)
        let object = items[index].object!
        var members = object.members.filter { $0.key != key }.map { ($0.key, $0.value, $0.keyPosition) }
        members.append((key, value, value.position))
        items[index] = .object(members: members, at: items[index].position)
        return .array(items, at: list.position)
    }

    /// The value of `NAME.KEY` among the filter objects, or nil.
    static func filterParameter(_ path: Substring, in list: JSONValue) -> JSONValue? {
        guard let (index, key) = filterEntry(path, in: list), let filters = list.array else { return nil }
        return filters[index].object?[key]
    }

    /// The value of `keyPath` of the layer `id` in `state` (nil: the base
    /// state), as a transition starts or ends with it; nil when the layer
    /// has none (no colour set, say).
    func value(of keyPath: String, layerID id: String, state: String?) throws(SceneError) -> BuiltValue? {
        guard let (element, type) = layersByID[id] else { return nil }
        // A transition asks for each element's two ends: a layer's properties
        // in a state are worked out once, whatever the number of elements.
        let cacheKey = StatePropertiesKey(layerID: id, state: state)
        let properties: Properties
        if let known = statePropertiesCache[cacheKey] {
            properties = known
        } else {
            let stateValues = try state.map { name throws(SceneError) in try values(ofState: name)[id] ?? [] } ?? []
            properties = try self.properties(of: element, type: type, overrides: stateValues, path: "/#\(id)")
            statePropertiesCache[cacheKey] = properties
        }
        let base = String(keyPath.prefix { $0 != "." })
        guard let (key, _) = SceneVocabulary.key(forProperty: base, ofType: type),
              let layer = SceneVocabulary.makeLayer(ofType: type)
        else { return nil }
        if Self.filterLists.contains(base), keyPath != base {
            guard case .json(let list)? = properties.values[key]?.0 else { return nil }
            return Self.filterParameter(keyPath.dropFirst(base.count + 1), in: list).map(BuiltValue.json)
        }
        if let (value, _) = properties.values[key] {
            guard case .native(let current) = value else { return keyPath == base ? value : nil }
            layer.setValue(current, forKey: base)
        }
        return layer.value(forKeyPath: keyPath).map(BuiltValue.native)
    }

    // MARK: Values

    /// Where a value is written: attribute text, or an element.
    enum ValueSource {
        case text(String)
        case element(XMLElement)
    }

    /// A value of `kind` from CAML: attribute text, or an element that
    /// holds it (`<backgroundColor type="CGColor" value="1 0 0"/>`,
    /// `<contents><CGImage src="a.png"/></contents>`, `<colors>` of
    /// `<CGColor>`s). Nil when it was skipped (an image Lamina cannot read).
    func value(_ source: ValueSource, kind: LayerValueKind, at position: SourcePosition, path: String) throws(SceneError) -> BuiltValue? {
        switch source {
        case .text(let text):
            return try value(text: text, kind: kind, at: position, path: path)
        case .element(let element):
            return try value(element: element, kind: kind, path: path)
        }
    }

    private func value(element: XMLElement, kind: LayerValueKind, path: String) throws(SceneError) -> BuiltValue? {
        switch kind {
        case .numbers, .colors:
            if let text = element.attribute("value") {
                return try value(text: text.value, kind: kind, at: text.position, path: path)
            }
            let itemKind: LayerValueKind = if case .numbers(let r) = kind { .number(r) } else { .color }
            var items: [JSONValue] = []
            for (k, child) in element.children.enumerated() {
                guard let item = try value(element: child, kind: itemKind, path: path + "/\(child.name)[\(k + 1)]") else { continue }
                items.append(item.json(at: child.position))
            }
            return .json(JSONValue.array(items, at: element.position))
        case .image:
            if let src = element.attribute("src") { return try image(src.value, at: src.position, path: path) }
        case .layer, .layers:
            throw error("a layer is written as an element such as <CALayer>", at: element.position, path: path)
        case .emitterCells:
            return .json(try emitterCells(element, path: path))
        case .emitterBehaviors:
            return .json(try emitterBehaviors(element, path: path))
        case .filters:
            return .json(try filters(element, path: path))
        default:
            break
        }
        if let text = element.attribute("value") {
            var built = try value(text: text.value, kind: kind, at: text.position, path: path)
            // <backgroundColor value="1 0 0" opacity="0.5"/>: the opacity scales alpha.
            if kind == .color, let opacity = element.attribute("opacity") {
                guard let a = CAMLText.number(opacity.value), (0...1).contains(a) else {
                    throw error("expected an opacity from 0 to 1, found '\(opacity.value)'", at: opacity.position, path: path)
                }
                if case .json(let v)? = built, var c = v.array.map(Array.init), c.count == 4, let alpha = c[3].number {
                    c[3] = .number(alpha * a)
                    built = .json(.array(c))
                }
            }
            return built
        }
        let typed = element.children
        if typed.count == 1 { return try value(element: typed[0], kind: kind, path: path + "/\(typed[0].name)") }
        guard typed.isEmpty else {
            throw error("expected one value in <\(element.name)>, found \(typed.count) elements", at: element.position, path: path)
        }
        return try value(text: element.text, kind: kind, at: element.position, path: path)
    }

    private func value(text: String, kind: LayerValueKind, at position: SourcePosition, path: String) throws(SceneError) -> BuiltValue? {
        func wrong(_ expected: String) -> SceneError {
            error(.wrongType, "expected \(expected), found '\(Quoted.prefix(text, limit: 60))'", at: position, path: path)
        }
        func numbers(_ count: Int, _ form: String) throws(SceneError) -> [CGFloat] {
            guard let n = CAMLText.numbers(text), n.count == count else { throw wrong(form) }
            return n.map { CGFloat($0) }
        }
        if kind.isNotText, text.allSatisfy(\.isWhitespace) {
            // `transform=""`, as editors write an unset value: Core Animation reads it as absent.
            tolerate("an empty value", "read as absent, as Core Animation reads it", at: position)
            return nil
        }
        switch kind {
        case .number:
            guard let n = CAMLText.number(text) else { throw wrong("a number") }
            return .native(CGFloat(n))
        case .bool:
            guard let b = CAMLText.bool(text) else { throw wrong("1 or 0") }
            return .native(b)
        case .point:
            let n = try numbers(2, "a point 'x y'")
            return .native(CGPoint(x: n[0], y: n[1]))
        case .size:
            let n = try numbers(2, "a size 'width height'")
            return .native(CGSize(width: n[0], height: n[1]))
        case .rect:
            let n = try numbers(4, "a rectangle 'x y width height'")
            return .native(CGRect(x: n[0], y: n[1], width: n[2], height: n[3]))
        case .transform:
            guard let t = CAMLText.transform(text) else {
                throw wrong("a transform: 16 numbers, 6 affine numbers, or functions such as 'rotate(45deg) scale(2)'")
            }
            return .native(t)
        case .color:
            let t = text.trimmingCharacters(in: .whitespaces)
            if t.hasPrefix("#") { return .json(.string(t)) }
            guard let n = CAMLText.numbers(t), n.count == 3 || n.count == 4 else { throw wrong("a colour 'r g b' or 'r g b a'") }
            // Wide-gamut editors write extended-range components (1.032); a
            // display shows them at the edge of its range, as the clamp does.
            if n.contains(where: { !(0...1).contains($0) }) {
                guard n.allSatisfy(\.isFinite) else { throw wrong("a colour of finite components") }
                tolerate("a colour component outside 0...1", "clamped to 0...1, as an sRGB display shows it", at: position)
            }
            let components = (n + (n.count == 3 ? [1] : [])).map { JSONValue(.number(min(max($0, 0), 1)), at: position) }
            return .json(.array(components, at: position))
        case .numbers:
            // A CAColorMatrix is written `matrix(1 0 0 0 0 ...)`.
            var list = Substring(text.trimmingCharacters(in: .whitespaces))
            if list.hasPrefix("matrix("), list.hasSuffix(")") { list = list.dropFirst(7).dropLast() }
            guard let n = CAMLText.numbers(String(list)) else { throw wrong("numbers") }
            return .json(.array(n.map { .number($0) }))
        case .path, .string, .any:
            return .json(.string(text))
        case .constant:
            return .json(.string(Self.constantNames[text] ?? text))
        case .cornerMask:
            // Core Animation's CACornerMask bits.
            guard let bits = Int(text.trimmingCharacters(in: .whitespaces)), (0...15).contains(bits) else {
                throw wrong("a corner mask from 0 to 15")
            }
            let names = ["minXMinY", "maxXMinY", "minXMaxY", "maxXMaxY"]
            return .json(.array(names.indices.filter { bits & (1 << $0) != 0 }.map { .string(names[$0]) }))
        case .image:
            return try image(text, at: position, path: path)
        case .colors:
            throw wrong("colours as elements, such as <colors><CGColor value=\"1 0 0\"/></colors>")
        case .layer, .layers:
            throw wrong("layers as elements")
        case .emitterCells:
            throw wrong("cells as elements, such as <emitterCells><CAEmitterCell birthRate=\"10\"/></emitterCells>")
        case .emitterBehaviors:
            throw wrong("behaviours as elements, such as <emitterBehaviors><CAEmitterBehavior behavior=\"drag\"/></emitterBehaviors>")
        case .filters:
            throw wrong("filters as elements, such as <filters><CAFilter filter=\"gaussianBlur\" inputRadius=\"8\"/></filters>")
        }
    }

    /// `<emitterCells>`: its `<CAEmitterCell>`s as the scene format's cell
    /// objects. A cell's attributes and property elements are
    /// `CAEmitterCell`'s properties; what a cell does not have is skipped
    /// with a warning at its place, as a layer's is.
    func emitterCells(_ element: XMLElement, path: String) throws(SceneError) -> JSONValue {
        var cells: [JSONValue] = []
        for (k, cell) in element.children.enumerated() {
            let cellPath = path + "/\(cell.name)[\(k + 1)]"
            guard cell.name == "CAEmitterCell" else {
                try skip("<\(cell.name)> in <emitterCells>", "an emitter's cells are <CAEmitterCell> elements", at: cell.position)
                continue
            }
            var members: [(String, JSONValue, SourcePosition)] = []
            func add(_ name: String, _ source: ValueSource, at position: SourcePosition, _ subject: String) throws(SceneError) {
                guard let property = CAEmitterCell.properties[name] else {
                    try skip(subject, "Lamina has no such property of an emitter cell", at: position)
                    return
                }
                if let value = try value(source, kind: property.kind, at: position, path: cellPath + "/\(name)") {
                    members.removeAll { $0.0 == name }
                    members.append((name, value.json(at: position), position))
                }
            }
            for attribute in cell.attributes {
                try add(attribute.name, .text(attribute.value), at: attribute.position, "@\(attribute.name) of <CAEmitterCell>")
            }
            for child in cell.children {
                try add(child.name, .element(child), at: child.position, "<\(child.name)> in <CAEmitterCell>")
            }
            cells.append(.object(members: members, at: cell.position))
        }
        return JSONValue.array(cells, at: element.position)
    }

    /// `<emitterBehaviors>`: its `<CAEmitterBehavior behavior="...">`s as
    /// the scene format's behaviour objects.
    func emitterBehaviors(_ element: XMLElement, path: String) throws(SceneError) -> JSONValue {
        try keyedObjects(element, path: path, className: "CAEmitterBehavior", typeAttributes: ["behavior", "type"],
                         what: "emitter behaviour", types: SceneVocabulary.emitterBehaviorTypes,
                         parameter: SceneVocabulary.emitterBehaviorParameter)
    }

    /// `<filters>`: its `<CAFilter>`s as the scene format's filter objects.
    /// The kind is the `filter` or `type` attribute, else the `name` (a
    /// filter called after its kind, `<CAFilter name="gaussianBlur"/>`).
    func filters(_ element: XMLElement, path: String) throws(SceneError) -> JSONValue {
        try keyedObjects(element, path: path, className: "CAFilter", typeAttributes: ["filter", "type", "name"],
                         what: "filter", types: SceneVocabulary.filterTypes, parameter: SceneVocabulary.filterParameter)
    }

    /// Elements of `className` as objects of a `type` (the first of
    /// `typeAttributes` present) with that type's parameters, as attributes
    /// or elements. A kind Lamina does not have, and parameters a kind does
    /// not have, are skipped with a warning at their place.
    private func keyedObjects(
        _ element: XMLElement, path: String, className: String, typeAttributes: [String], what: String, types: [String],
        parameter: (String, String) -> LayerValueKind?
    ) throws(SceneError) -> JSONValue {
        var objects: [JSONValue] = []
        for (k, entry) in element.children.enumerated() {
            let entryPath = path + "/\(entry.name)[\(k + 1)]"
            guard entry.name == className, let typeAttribute = typeAttributes.first(where: { entry[$0] != nil }),
                  let type = entry[typeAttribute]
            else {
                try skip("<\(entry.name)> in <\(element.name)>", "these are <\(className) \(typeAttributes[0])=\"...\"> elements",
                         at: entry.position)
                continue
            }
            guard types.contains(type) else {
                try skip("\(what) '\(type)'", "Lamina applies \(types.joined(separator: ", "))", at: entry.position)
                continue
            }
            var members: [(String, JSONValue, SourcePosition)] = [("type", .string(type), entry.position)]
            func add(_ key: String, _ source: ValueSource, at position: SourcePosition, _ subject: String) throws(SceneError) {
                guard let kind = parameter(key, type) else {
                    try skip(subject, "a \(type) \(what) has no such parameter in Lamina", at: position)
                    return
                }
                // "inf" (a falloff that never fades) has no JSON number: the format's "infinity".
                if case .text(let text) = source, case .number = kind, let n = CAMLText.number(text, allowsInfinity: true), n.isInfinite {
                    members.append((key, .string(n > 0 ? "infinity" : "-infinity"), position))
                    return
                }
                if let value = try value(source, kind: kind, at: position, path: entryPath + "/\(key)") {
                    members.append((key, value.json(at: position), position))
                }
            }
            for attribute in entry.attributes where attribute.name != typeAttribute && !(attribute.name == "type" && typeAttribute != "type") {
                try add(attribute.name, .text(attribute.value), at: attribute.position, "@\(attribute.name) of <\(className)>")
            }
            for child in entry.children {
                try add(child.name, .element(child), at: child.position, "<\(child.name)> in <\(className)>")
            }
            objects.append(.object(members: members, at: entry.position))
        }
        return JSONValue.array(objects, at: element.position)
    }

    /// Core Animation's constants that the scene format spells otherwise.
    static let constantNames = ["non-zero": "nonZero", "even-odd": "evenOdd"]

    /// `src` of a `CGImage`: a data URI, or an image file of the bundle
    /// (PNG, JPEG, WebP or GIF, as a data URI, so that the scene holds the
    /// picture itself; the scene decoder reads it). A file of another kind
    /// is skipped, with a warning.
    func image(_ src: String, at position: SourcePosition, path: String) throws(SceneError) -> BuiltValue? {
        if src.hasPrefix("data:") { return .json(.string(src)) }
        if let cached = imageCache[src] { return cached }
        guard let files = document.files else {
            throw error(.fileAccess, "'\(src)': a bare CAML document can only hold images as data URIs (send a .ca bundle or a .tendies archive)",
                        at: position, path: path)
        }
        guard let resolved = FilePath.resolve(src, in: document.folder) else {
            throw error(.fileAccess, "'\(src)' leads outside the bundle", at: position, path: path)
        }
        // `src` is a URL relative to the document: `Planet%201.png` names
        // `Planet 1.png` (a name with a literal '%' is tried as written too).
        let decoded = src.removingPercentEncoding.flatMap { FilePath.resolve($0, in: document.folder) }
        let bytes: [UInt8]
        do {
            bytes = try files.read(decoded ?? resolved, limit: limits.imageBytes)
        } catch {
            guard decoded != nil, decoded != resolved, let literal = try? files.read(resolved, limit: limits.imageBytes) else {
                throw self.error(error.kind, error.message, at: position, path: path)
            }
            bytes = literal
        }
        let result: BuiltValue?
        if let format = ImageFormat(of: bytes) {
            result = .json(.string("data:\(format.mediaType);base64," + Data(bytes).base64EncodedString()))
        } else {
            try skip("image '\(src)'", "Lamina reads PNG, JPEG, WebP and GIF images only; convert it to PNG", at: position)
            result = nil
        }
        imageCache[src] = result
        return result
    }

    // MARK: States

    /// The set values of `state` by target layer id: those of the state it
    /// is `basedOn` first (followed to the end, refusing a cycle), then its own.
    func values(ofState name: String) throws(SceneError) -> [String: [StateValue]] {
        // A transition asks for its two states' values once per element.
        if let known = stateValues[name] { return known }
        var chain: [XMLElement] = []
        var seen: Set<String> = []
        var next: String? = name
        while let current = next {
            guard seen.insert(current).inserted else {
                throw error("the states' basedOn links form a cycle through '\(current)'", at: chain.last?.position ?? document.root.position,
                            path: "/states")
            }
            guard let state = states[current] else {
                let known = stateNames.isEmpty ? "the document has no states" : "its states are \(stateNames.joined(separator: ", "))"
                throw SceneError(.unknownName, at: document.file, position: chain.last?.position,
                                 "no state is called '\(current)'; \(known)")
            }
            chain.append(state)
            next = state["basedOn"]
        }
        var out: [String: [StateValue]] = [:]
        for state in chain.reversed() {
            let elements = state.child("elements")?.children ?? state.children
            for element in elements where element.name == "LKStateSetValue" {
                guard let target = element["targetId"], let keyPath = element["keyPath"] else {
                    throw error(.missingKey, "an LKStateSetValue needs targetId and keyPath", at: element.position, path: "/states/\(name)")
                }
                guard layersByID[target] != nil else {
                    throw error(.unknownName, "no layer has the id '\(target)'", at: element.position, path: "/states/\(name)")
                }
                guard let value = element.child("value") ?? element.children.first else {
                    throw error(.missingKey, "an LKStateSetValue needs a <value>", at: element.position, path: "/states/\(name)")
                }
                out[target, default: []].append(StateValue(keyPath: keyPath, value: value, position: element.position))
            }
        }
        stateValues[name] = out
        return out
    }

    /// The animations of the transition from `from` to `to`, by target id:
    /// each `LKStateTransitionElement`'s animation runs the key from its
    /// value in `from` to its value in `to`. The transition chosen is the
    /// one naming both states, else one with `*` for either, else `*` to `*`.
    ///
    /// `begins` seconds later than the scene's start: until then the layers
    /// show the `from` state (the animations fill backwards, and what the
    /// states set that no animation moves is held at its `from` value), as
    /// a phone shows its lock screen before it is unlocked.
    private func prepareTransition(from: String, to: String, begins: Double) throws(SceneError) {
        let fromValues = try values(ofState: from)  // the state must exist
        defer { if begins > 0 { try? holdUntilTransition(from: from, fromValues: fromValues, to: to, begins: begins) } }
        func matches(_ t: XMLElement, _ f: String, _ g: String) -> Bool { t["fromState"] == f && t["toState"] == g }
        let candidates = [(from, to), (from, "*"), ("*", to), ("*", "*")]
        guard let transition = candidates.lazy.compactMap({ c in self.transitions.first { matches($0, c.0, c.1) } }).first else {
            try skip("transition \(from) → \(to)", "the document has no LKStateTransition for it; the state changes at once",
                     at: document.root.position)
            return
        }
        let elements = transition.child("elements")?.children ?? transition.children
        for listed in elements where listed.name == "LKStateTransitionElement" {
            // `<LKStateTransitionElement object="#15"/>` reuses the element whose `id` is #15 (another transition's).
            var element = listed
            if let reference = listed["object"] {
                guard let shared = transitionElementsByID[reference] else {
                    throw error(.unknownName, "no LKStateTransitionElement has the id '\(reference)'", at: listed.position,
                                path: "/stateTransitions")
                }
                element = shared
            }
            guard let target = element["targetId"], let (_, type) = layersByID[target] else {
                throw error(.unknownName, "an LKStateTransitionElement needs the targetId of a layer", at: element.position,
                            path: "/stateTransitions")
            }
            let key = element["key"]
            let builder = AnimationBuilder(self, layerType: type)
            for animation in element.children where animation.name == "animation" || animation.name.hasPrefix("CA") {
                guard let keyPath = animation["keyPath"] ?? key else {
                    throw error(.missingKey, "the transition's animation needs a keyPath", at: animation.position, path: "/stateTransitions")
                }
                let endpoints = (from: try value(of: keyPath, layerID: target, state: from),
                                 to: try value(of: keyPath, layerID: target, state: to))
                if let built = try builder.animation(animation, path: "/stateTransitions/\(target)", keyPath: keyPath,
                                                     endpoints: endpoints) {
                    transitionAnimations[target, default: []].append(begins > 0 ? Self.delayed(built, by: begins) : built)
                    animatedKeys.insert("\(target)|\(keyPath)")
                }
            }
        }
    }

    /// `animation` beginning `seconds` later and showing its first value
    /// until then (`fillMode` backwards, or both where it filled forwards).
    private static func delayed(_ animation: JSONValue, by seconds: Double) -> JSONValue {
        guard let object = animation.object else { return animation }
        var members: [(String, JSONValue, SourcePosition)] = []
        var begin = 0.0, fill = "removed"
        for member in object.members {
            switch member.key {
            case "beginTime": begin = member.value.number ?? 0
            case "fillMode": fill = member.value.string ?? fill
            default: members.append((member.key, member.value, member.keyPosition))
            }
        }
        let filled = fill == "forwards" || fill == "both" ? "both" : "backwards"
        members.append(("beginTime", .number(begin + seconds), animation.position))
        members.append(("fillMode", .string(filled), animation.position))
        return .object(members: members, at: animation.position)
    }

    /// What the `to` state sets that no animation of the transition moves
    /// would show at once: each such key is held at its `from` value until
    /// the transition begins, by a discrete keyframe animation of that long.
    private func holdUntilTransition(from: String, fromValues: [String: [StateValue]], to: String, begins: Double) throws(SceneError) {
        let toValues = try values(ofState: to)
        for target in Set(fromValues.keys).union(toValues.keys).sorted() {
            var keyPaths: [String] = []
            for value in (fromValues[target] ?? []) + (toValues[target] ?? []) where !keyPaths.contains(value.keyPath) {
                keyPaths.append(value.keyPath)
            }
            for keyPath in keyPaths where !animatedKeys.contains("\(target)|\(keyPath)") {
                guard let value = try self.value(of: keyPath, layerID: target, state: from) else { continue }
                let json = value.json(at: .none)
                transitionAnimations[target, default: []].append(.object([
                    ("type", .string("keyframe")), ("keyPath", .string(keyPath)), ("calculationMode", .string("discrete")),
                    ("values", .array([json, json])), ("duration", .number(begins)),
                ]))
            }
        }
    }
}

private extension LayerValueKind {
    /// Whether the value is something other than text, for which an empty
    /// string says nothing (a text layer's `string=""` is a value).
    var isNotText: Bool {
        switch self {
        case .string, .any: false
        default: true
        }
    }
}
