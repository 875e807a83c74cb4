import Foundation
import LaminaCore
import LaminaJPEG
import LaminaPNG
import LaminaScene
import LaminaWebP
import LaminaGIF
import LaminaJSON

/// A composition's layers (the file's `layers`, or a precomposition's) as
/// Core Animation layers, following lottie-ios's Core Animation engine.
///
/// Each Lottie layer becomes its transform's two layers (`LottieTransform`)
/// holding its content, shown between its in and out points. A layer with a
/// `parent` moves with it but keeps its own place in the stacking order and
/// its own opacity, so its node repeats each ancestor's transform above its
/// own rather than sitting inside the parent's node. The first layer of the
/// list is drawn on top.
final class LottieComposition {
    let reader: LottiePropertyReader
    let assets: [String: JSONObject]
    let limits: SceneLimits
    let compositionOut: Double
    /// The bytes of an image stored beside the document, by file name.
    let images: (String) -> [UInt8]?
    /// Layers made so far, against `limits.layerCount`.
    let layers: LottieLayerBudget
    /// The glyph outlines the file carries (`chars`), for its text layers.
    let glyphs: LottieGlyphs
    /// Keyframes sampled by hand in time-remapped precompositions.
    let remapSamples = LottieSampleBudget(limit: LottieSampleBudget.defaultLimit)
    /// Path elements sampled by hand where paths keyframed differently are
    /// drawn as one (`LottieShapes`).
    let pathSamples = LottieSampleBudget(limit: LottieSampleBudget.defaultLimit * 4)
    /// The keyframes that show and hide the copies of repeaters whose count
    /// is keyframed (`RepeaterCount`): a count that grows to 30 and back
    /// takes about 120.
    let copySteps = LottieSampleBudget(limit: 100_000)

    init(reader: LottiePropertyReader, assets: [String: JSONObject], limits: SceneLimits, compositionOut: Double,
         glyphs: LottieGlyphs = .empty, images: @escaping (String) -> [UInt8]?) {
        self.reader = reader
        self.glyphs = glyphs
        self.assets = assets
        self.limits = limits
        self.compositionOut = compositionOut
        self.images = images
        layers = LottieLayerBudget(limit: limits.layerCount)
    }

    /// The layers of a composition, placed in `container`.
    func build(_ layers: [JSONValue], path: String, time: LottieTime, into container: CALayer,
               precomps: [String], depth: Int) throws(SceneError) {
        guard depth <= 32 else { throw reader.error(path, nil, "precompositions nest more than 32 deep") }
        var objects: [(index: Int, object: JSONObject, value: JSONValue)] = []
        var byIndex: [Int: JSONObject] = [:]
        for (k, value) in layers.enumerated() {
            guard let object = value.object else { throw reader.error("\(path)[\(k)]", value, "expected a layer (an object)") }
            objects.append((k, object, value))
            if let ind = object["ind"]?.smallInteger { byIndex[ind] = object }
        }
        // Each layer's node (nil: it draws nothing), top first.
        var nodes: [CALayer?] = []
        for (k, object, value) in objects {
            let here = "\(path)[\(k)]"
            try self.layers.spend(1, at: "\(reader.file): \(here)", position: value.position)
            nodes.append(object["hd"]?.bool == true ? nil : try layerNode(object, path: here, value: value, time: time,
                                                                           byIndex: byIndex, precomps: precomps, depth: depth))
        }
        // As lottie-ios pairs them, from the bottom up: a layer with a
        // track matte (`tt`) is masked by the layer just above it, which is
        // not drawn itself, whether or not that one says it is a matte
        // (`td`, which lottie-ios does not read: a `td` layer that no
        // layer below uses is drawn).
        var k = objects.count - 1
        while k >= 0 {
            let (object, value) = (objects[k].object, objects[k].value)
            if let kind = object["tt"]?.smallInteger, kind != 0, k > 0 {
                if let node = nodes[k] {
                    container.addSublayer(nodes[k - 1].map { matted(node, by: $0, kind: kind, path: "\(path)[\(k)]", position: value.position) } ?? node)
                }
                k -= 2
                continue
            }
            if let node = nodes[k] { container.addSublayer(node) }
            k -= 1
        }
    }

    /// A layer masked by its track matte, as lottie-ios's Core Animation
    /// engine builds it: an alpha matte is Core Animation's `mask`; an
    /// inverted one a mask that hides where the matte is opaque (lottie-ios
    /// composites the matte with `xor` onto an unbounded opaque layer, which
    /// leaves one minus its alpha: `invertsMask`). Luma mattes are not
    /// something Core Animation can draw: that engine draws the layer
    /// unmasked and the matte not at all, and so does this, said once.
    private func matted(_ node: CALayer, by matte: CALayer, kind: Int, path: String, position: SourcePosition) -> CALayer {
        switch kind {
        case 1, 2:
            let holder = CALayer.atOrigin()
            holder.addSublayer(node)
            holder.mask = matte
            holder.invertsMask = kind == 2
            return holder
        default:
            let name = [3: "a luma matte", 4: "an inverted luma matte"][kind] ?? "a matte of this kind"
            reader.diagnostics.tolerated("\(path).tt", "\(name) is not drawn (as lottie-ios's Core Animation engine): the layer is drawn unmasked",
                                         file: reader.file, at: position)
            return node
        }
    }

    /// Lottie's blend modes (`bm`) by number, as compositing filters.
    static let blendModes: [CAFilter.Kind] = [
        .normalBlendMode, .multiplyBlendMode, .screenBlendMode, .overlayBlendMode, .darkenBlendMode, .lightenBlendMode,
        .colorDodgeBlendMode, .colorBurnBlendMode, .hardLightBlendMode, .softLightBlendMode, .differenceBlendMode,
        .exclusionBlendMode, .hueBlendMode, .saturationBlendMode, .colorBlendMode, .luminosityBlendMode,
    ]

    /// One layer's node, or nil for a layer that draws nothing.
    private func layerNode(_ object: JSONObject, path: String, value: JSONValue, time: LottieTime,
                           byIndex: [Int: JSONObject], precomps: [String], depth: Int) throws(SceneError) -> CALayer? {
        let type = object["ty"]?.smallInteger ?? -1

        var blendMode: CAFilter.Kind?
        if let mode = object["bm"]?.number, mode != 0 {
            // As lottie-ios's Core Animation engine: the layer's compositing filter.
            if let m = Int(exactly: mode), Self.blendModes.indices.contains(m) {
                let kind = Self.blendModes[m]
                if kind.isNonSeparableBlendMode {
                    // lottie-ios names it, and Core Animation draws the layer source-over.
                    try reader.diagnostics.skipped(
                        "\(path).bm", "\(kind.rawValue) is a non-separable blend mode, which Core Animation does not apply: "
                            + "the layer is drawn normally, as on a device", file: reader.file, at: object["bm"]!.position)
                } else {
                    blendMode = kind
                }
            } else {
                try reader.diagnostics.skipped("\(path).bm", "this blend mode is not one Core Animation draws: the layer is drawn normally",
                                               file: reader.file, at: object["bm"]!.position)
            }
        }
        let transform = try LottieTransform(object["ks"]?.object ?? JSONParser.emptyObject, path: path + ".ks", reader: reader)
        let (outer, inner) = transform.layers(time: time)
        let content = CALayer.atOrigin()
        inner.addSublayer(content)
        transform.applyOpacity(to: content, time: time)
        if let effects = object["ef"]?.array {
            try LottieEffects(reader: reader, time: time).apply(Array(effects), path: path + ".ef", to: content)
        }
        if let styles = object["sy"]?.array {
            try LottieEffects(reader: reader, time: time).applyStyles(Array(styles), path: path + ".sy", to: content)
        }

        if type != 0, let stretch = object["sr"], stretch.number != 1 {
            // lottie-ios stretches a precomposition's clock only (lottie-web
            // stretches any layer's).
            reader.diagnostics.tolerated("\(path).sr", "a time stretch is applied to precompositions only (as lottie-ios): this layer plays at its own speed",
                                         file: reader.file, at: stretch.position)
        }
        switch type {
        case 0: try precomp(object, path: path, time: time, into: content, precomps: precomps, depth: depth)
        case 1: try solid(object, path: path, into: content)
        case 2: try image(object, path: path, into: content)
        case 3: break  // a null: a transform for its children
        case 4:
            let shapes = object["shapes"]?.array.map(Array.init) ?? []
            try LottieShapes(reader: reader, time: time, layers: layers, pathSamples: pathSamples, copySteps: copySteps).build(shapes, path: path + ".shapes", into: content, depth: 1)
        case 5:
            try LottieText(reader: reader, glyphs: glyphs).build(object, path: path, position: value.position, into: content)
        default:
            try reader.diagnostics.skipped("\(path) (ty \(type))", "this kind of layer is not drawn", file: reader.file, at: value.position)
        }

        // The layer's name (`nm`) on the layer that draws it: a solid's
        // colour or an image's picture, else the content. So a template's
        // slot can name it (the render server's templates).
        if let name = object["nm"]?.string {
            ((type == 1 || type == 2) ? content.sublayers?.last : nil ?? content)?.name = name
        }

        if let masks = object["masksProperties"]?.array, !masks.isEmpty {
            try LottieMasks(reader: reader, time: time).apply(Array(masks), path: path + ".masksProperties", to: content)
        }

        // In and out points, on the composition's clock: shown from ip
        // until op; a layer that lasts to the animation's end (its op, on
        // the top composition's clock, at or past the end) stays after it,
        // in a precomposition too (as lottie-ios maps op out to compare it).
        let inPoint = object["ip"]?.number ?? -.infinity, outPoint = object["op"]?.number ?? .infinity
        let lastsToTheEnd = outPoint * time.scale + time.offset >= compositionOut - 1e-9
        if let samples = time.samples {
            LottieAnimator.show(outer, between: inPoint, and: outPoint.isFinite ? outPoint : nil, samples: samples, time: time)
        } else {
            LottieAnimator.show(outer, from: inPoint, until: lastsToTheEnd || !outPoint.isFinite ? nil : outPoint, time: time)
        }

        outer.compositingFilter = blendMode?.rawValue

        // The ancestors' transforms around it, nearest innermost.
        var node = outer
        var seen: Set<Int> = []
        var parent = object["parent"]?.smallInteger
        while let index = parent {
            guard seen.insert(index).inserted, seen.count <= 64 else {
                throw reader.error(path + ".parent", object["parent"], "the layer's parents make a loop")
            }
            guard let ancestor = byIndex[index] else {
                // As lottie-ios: the chain of parents ends at one that is not there.
                reader.diagnostics.tolerated(path + ".parent", "no layer of this composition has ind \(index): the layer is drawn without that parent's transform",
                                             file: reader.file, at: object["parent"]?.position ?? SourcePosition(line: 1, column: 1))
                break
            }
            let around = try LottieTransform(ancestor["ks"]?.object ?? JSONParser.emptyObject, path: path + ".parent", reader: reader)
                .layers(time: time)
            around.inner.addSublayer(node)
            node = around.outer
            parent = ancestor["parent"]?.smallInteger
        }
        return node
    }

    private func precomp(_ object: JSONObject, path: String, time: LottieTime, into content: CALayer,
                         precomps: [String], depth: Int) throws(SceneError) {
        guard let id = object["refId"]?.string, let asset = assets[id], let layers = asset["layers"]?.array else {
            // As lottie-ios: a precomposition layer whose asset is missing draws nothing.
            reader.diagnostics.tolerated("\(path).refId", "no precomposition asset has this id: the layer draws nothing",
                                         file: reader.file, at: object["refId"]?.position ?? SourcePosition(line: 1, column: 1))
            return
        }
        guard !precomps.contains(id) else {
            throw reader.error(path + ".refId", object["refId"], "the precomposition '\(id)' contains itself")
        }
        let width = object["w"]?.number ?? 0, height = object["h"]?.number ?? 0
        let frame = CALayer()
        frame.anchorPoint = .zero
        frame.bounds = CGRect(x: 0, y: 0, width: max(width, 0), height: max(height, 0))
        frame.masksToBounds = width > 0 && height > 0
        content.addSublayer(frame)
        let stretch = object["sr"]?.number ?? 1, start = object["st"]?.number ?? 0
        guard stretch.isFinite, stretch > 0, start.isFinite else {
            throw reader.error(path + ".sr", object["sr"], "a precomposition's stretch is a number > 0 and its start time finite")
        }
        // Time remapping (`tm`, seconds of the precomposition at each frame
        // of the layer) replaces the start time's and stretch's map.
        let inner: LottieTime
        if let remap = try reader.property(object, "tm", path: path, reader.number) {
            inner = time.remapped(by: remap, budget: remapSamples)
        } else {
            inner = time.inside(start: start, stretch: stretch)
        }
        try build(Array(layers), path: "$.assets[\(id)].layers", time: inner, into: frame, precomps: precomps + [id], depth: depth + 1)
        if remapSamples.isExceeded {
            throw SceneError(.limitExceeded, at: "\(reader.file): \(path).tm", position: object["tm"]?.position,
                             "time remapping would sample more than \(remapSamples.limit) keyframes (the animations of remapped precompositions are drawn a keyframe a frame)")
        }
    }

    private func solid(_ object: JSONObject, path: String, into content: CALayer) throws(SceneError) {
        let width = object["sw"]?.number ?? 0, height = object["sh"]?.number ?? 0
        guard width.isFinite, height.isFinite, width >= 0, height >= 0 else {
            throw reader.error(path + ".sw", object["sw"], "a solid's size is finite and ≥ 0")
        }
        let solid = CALayer()
        solid.anchorPoint = .zero
        solid.bounds = CGRect(x: 0, y: 0, width: width, height: height)
        solid.backgroundColor = Self.hexColor(object["sc"]?.string ?? "#000000")
        content.addSublayer(solid)
    }

    private func image(_ object: JSONObject, path: String, into content: CALayer) throws(SceneError) {
        guard let id = object["refId"]?.string, let asset = assets[id] else {
            // As lottie-ios: an image layer whose asset is missing draws nothing.
            reader.diagnostics.tolerated("\(path).refId", "no image asset has this id: the layer draws nothing",
                                         file: reader.file, at: object["refId"]?.position ?? SourcePosition(line: 1, column: 1))
            return
        }
        let width = asset["w"]?.number ?? 0, height = asset["h"]?.number ?? 0
        let source = asset["p"]?.string ?? ""
        let data: [UInt8]
        if source.hasPrefix("data:") {
            guard let comma = source.firstIndex(of: ","), let bytes = Data(base64Encoded: String(source[source.index(after: comma)...]),
                                                                          options: .ignoreUnknownCharacters) else {
                throw reader.error("$.assets[\(id)].p", asset["p"], "the image is not a base64 data URI")
            }
            data = [UInt8](bytes)
        } else if let stored = images(source) {
            data = stored
        } else if asset["e"]?.number == 1 {
            reader.diagnostics.tolerated("$.assets[\(id)].p", "the image is marked embedded (e: 1) but is no data URI: the layer draws nothing",
                                         file: reader.file, at: asset["p"]?.position ?? object["refId"]!.position)
            return
        } else {
            reader.diagnostics.tolerated("\(path) (image \(id))", "an image stored outside the file is not read (as lottie-ios, without its image provider)",
                                         file: reader.file, at: object["refId"]!.position)
            return
        }
        let image: CGImage
        do {
            switch ImageFormat(of: data) {
            case .webp: image = try WebPDecoder(limits: .init(maxPixels: limits.imagePixels, maxBytes: limits.imageBytes)).decode(data)
            case .gif: image = try GIFDecoder(limits: .init(maxPixels: limits.imagePixels, maxBytes: limits.imageBytes)).decode(data)
            case .jpeg: image = try JPEGDecoder(limits: .init(maxPixels: limits.imagePixels, maxBytes: limits.imageBytes)).decode(data)
            case .png, nil: image = try PNGDecoder(limits: .init(maxPixels: limits.imagePixels, maxBytes: limits.imageBytes)).decode(data)
            }
        } catch {
            throw reader.error("$.assets[\(id)].p", asset["p"], "the image cannot be read: \(error)")
        }
        let layer = CALayer()
        layer.anchorPoint = .zero
        layer.bounds = CGRect(x: 0, y: 0, width: width > 0 ? width : Double(image.width), height: height > 0 ? height : Double(image.height))
        layer.contents = image
        content.addSublayer(layer)
    }

    /// `#rrggbb` (a solid's colour).
    static func hexColor(_ text: String) -> CGColor {
        let hex = text.hasPrefix("#") ? String(text.dropFirst()) : text
        guard hex.count == 6, let value = UInt32(hex, radix: 16) else { return CGColor(red: 0, green: 0, blue: 0, alpha: 1) }
        return CGColor(red: Double((value >> 16) & 0xFF) / 255, green: Double((value >> 8) & 0xFF) / 255,
                       blue: Double(value & 0xFF) / 255, alpha: 1)
    }
}

/// The keyframes an animation's time-remapped precompositions may sample
/// (a property inside one is a keyframe a frame of the whole animation):
/// past the limit, sampling stops and the reading is refused.
final class LottieSampleBudget {
    static let defaultLimit = 2_000_000
    let limit: Int
    private var spent = 0
    private(set) var isExceeded = false

    init(limit: Int) { self.limit = limit }

    /// Whether `count` more keyframes fit.
    func take(_ count: Int) -> Bool {
        guard !isExceeded, spent + count <= limit else {
            isExceeded = true
            return false
        }
        spent += count
        return true
    }
}

/// The layers an animation may make (`SceneLimits.layerCount`), spent as
/// they are made: each use of a precomposition counts its layers again, each
/// fill and stroke each path it draws, and each copy of a repeater its items.
final class LottieLayerBudget {
    let limit: Int
    private(set) var spent = 0

    init(limit: Int) { self.limit = limit }

    /// Counts `count` more layers, refusing the animation past the limit.
    func spend(_ count: Int, at location: String, position: SourcePosition?) throws(SceneError) {
        try reserve(count, at: location, position: position)
        spent += count
    }

    /// Refuses the animation if `count` more layers would pass the limit,
    /// spending nothing: checked before a repeater makes its copies.
    func reserve(_ count: Int, at location: String, position: SourcePosition?) throws(SceneError) {
        guard count <= limit - spent else {
            throw SceneError(.limitExceeded, at: location, position: position,
                             "the animation would have more than \(limit) layers (the limit; each use of a precomposition counts its layers again, each copy of a repeater its items)")
        }
    }
}
