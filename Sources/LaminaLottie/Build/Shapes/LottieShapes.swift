import Foundation
import LaminaCore
import LaminaScene
import LaminaJSON

/// A shape layer's items (`shapes`) as Core Animation layers, built as
/// lottie-ios's Core Animation engine builds them, since Apple's pictures of
/// Lottie files are drawn that way:
/// - each group (`gr`) is a layer with its transform (`tr`); a level that
///   lists paths of its own at the top is one group;
/// - inside a group, its child groups are drawn first, then the group's own
///   paths in render groups (`LottieRenderGroup`: which fill, stroke and
///   trim draw which paths), the first listed on top;
/// - what a level lists but does not use (a fill or stroke or trim beside
///   groups, without paths) is handed down into each child group, after the
///   child's own items, a stroke's width kept as the parent would draw it;
/// - a repeater (`rp`) repeats the items listed since the previous one, in
///   copies, each a layer moved by one more step of its transform.
struct LottieShapes {
    let reader: LottiePropertyReader
    let time: LottieTime
    /// Layers the animation may still make (repeaters multiply them).
    let layers: LottieLayerBudget
    /// Path elements the animation may still sample by hand (`union`).
    let pathSamples: LottieSampleBudget
    /// Keyframes that may still show and hide repeaters' copies (`RepeaterCount`).
    let copySteps: LottieSampleBudget

    /// Builds the shape layer's `items` into `parent`.
    func build(_ items: [JSONValue], path: String, into parent: CALayer, depth: Int) throws(SceneError) {
        let read = try LottieShapeItem.read(items, path: path, reader: reader, depth: depth)
        try addGroups(read, topLevel: true, path: path, into: parent)
    }

    // MARK: Groups

    /// The groups of one level into `parent` (lottie-ios's `setupGroups`):
    /// the items split at each repeater, each part before a repeater drawn
    /// once a copy; earlier parts on top.
    private func addGroups(_ items: [LottieShapeItem], topLevel: Bool, path: String, into parent: CALayer) throws(SceneError) {
        guard items.contains(where: \.isRepeater) else {
            for layer in try groupLayers(items, topLevel: topLevel, path: path) { parent.addSublayer(layer) }
            return
        }
        var parts: [(items: [LottieShapeItem], repeater: LottieRepeater?)] = [([], nil)]
        for item in items {
            if case .repeater(let repeater) = item {
                parts[parts.count - 1].repeater = repeater
                parts.append(([], nil))
            } else {
                parts[parts.count - 1].items.append(item)
            }
        }
        for part in parts.reversed() {
            if let repeater = part.repeater {
                try addCopies(of: part.items, by: repeater, into: parent)
            } else if !part.items.isEmpty {
                try addGroups(part.items, topLevel: topLevel, path: path, into: parent)
            }
        }
    }

    /// A layer for each group of `items`, bottom first (lottie-ios's
    /// `makeGroupLayers`). At the top of a shape layer (or of a repeater's
    /// copy), items with paths of their own are one group.
    private func groupLayers(_ items: [LottieShapeItem], topLevel: Bool, path: String) throws(SceneError) -> [CALayer] {
        var groups: [LottieShapeGroup] = items.compactMap { if case .group(let group) = $0 { group } else { nil } }
        var others = items.filter { !$0.isGroup }
        if topLevel, others.contains(where: \.drawsPath) {
            groups = [LottieShapeGroup(items: items, transform: nil, path: path)]
            others = []
        }
        let handedDown = LottieRenderGroup.split(others, childGroupsInherit: !groups.isEmpty).unused.map { others[$0] }
        var made: [CALayer] = []
        for group in groups.reversed() {
            made.append(try groupLayer(group, inherited: handedDown.map { $0.handedDown(into: group) }))
        }
        return made
    }

    /// A group: its transform's layers, its child groups, then its own
    /// render groups over them.
    private func groupLayer(_ group: LottieShapeGroup, inherited: [LottieShapeItem]) throws(SceneError) -> CALayer {
        let layer: CALayer, content: CALayer
        if let transform = group.transform {
            (layer, content) = transform.layers(time: time)
            transform.applyOpacity(to: layer, time: time)
        } else {
            layer = CALayer.atOrigin()
            content = layer
        }
        let items = group.items + inherited
        try addGroups(items, topLevel: false, path: group.path + ".it", into: content)
        // The items a repeater repeats are drawn by its copies only.
        let own = Array(items[(items.lastIndex(where: \.isRepeater).map { $0 + 1 } ?? 0)...])
        let split = LottieRenderGroup.split(own, childGroupsInherit: own.contains(where: \.isGroup))
        for renderGroup in split.groups.reversed() {
            for shape in try shapeLayers(renderGroup, of: own) { content.addSublayer(shape) }
        }
        return layer
    }

    // MARK: Repeaters

    /// A repeater's copies of `items`, as lottie-ios's Core Animation engine
    /// draws them: copy k is the items in a layer of their own, moved by k
    /// times the repeater's position and turned by k times its rotation
    /// about its anchor, at its scale; later copies on top. The number of
    /// copies is the whole part of `c`; when `c` is keyframed, as many
    /// copies as it ever counts are made, and each is shown only while the
    /// count reaches it (Core Animation cannot add layers as time goes, but
    /// it can hide them: `RepeaterCount`).
    private func addCopies(of items: [LottieShapeItem], by repeater: LottieRepeater, into parent: CALayer) throws(SceneError) {
        let (object, path) = (repeater.object, repeater.path)
        guard let copiesProperty = try reader.property(object, "c", path: path, reader.number) else { return }
        let copies = RepeaterCount(copiesProperty)
        let count = copies.most
        guard count > 0 else { return }
        try layers.reserve(count * max(1, items.count), at: "\(reader.file): \(path).c", position: object["c"]?.position)
        guard copySteps.take(copies.keyframeCount) else {
            throw SceneError(.limitExceeded, at: "\(reader.file): \(path).c", position: object["c"]?.position,
                             "the number of copies changes too often to show and hide each copy as it does (over \(copySteps.limit) keyframes)")
        }
        try layers.spend(count, at: "\(reader.file): \(path).c", position: object["c"]?.position)
        for key in ["so", "eo"] {
            guard let opacity = object["tr"]?.object?[key], opacity.object?["k"]?.number.map({ $0 != 100 }) ?? true else { continue }
            reader.diagnostics.tolerated("\(path).tr.\(key)", "a repeater's start and end opacity are not drawn (as lottie-ios)",
                                         file: reader.file, at: opacity.position)
        }
        if let order = object["m"]?.number, order == 2 {
            reader.diagnostics.tolerated("\(path).m", "copies are stacked later above earlier (as lottie-ios), whatever the composite order",
                                         file: reader.file, at: repeater.value.position)
        }
        // The repeater's transform, read once: each copy's is made from it.
        let template = try LottieTransform(object["tr"]?.object ?? JSONParser.emptyObject, path: path + ".tr", reader: reader)
        if copies.keyframeCount == 0, let step = Self.replicatorStep(of: template) {
            // Every copy is the first one moved by the same step once more:
            // one `CAReplicatorLayer`, whose instances are the same pictures
            // as lottie-ios's copies, their animations played once rather
            // than once a copy.
            // The first copy: not moved nor turned (`replicatorStep` saw no
            // split position), at the repeater's anchor and scale.
            var transform = template
            (transform.position, transform.rotation, transform.opacity) = (nil, nil, nil)
            let (outer, inner) = transform.layers(time: time)
            for layer in try groupLayers(items, topLevel: true, path: "\(path) (copy 0)") { inner.addSublayer(layer) }
            let replicator = CAReplicatorLayer.atOrigin()
            replicator.instanceCount = count
            replicator.instanceTransform = step
            replicator.addSublayer(outer)
            parent.addSublayer(replicator)
            return
        }
        for k in 0..<count {
            var transform = template
            let times = Double(k)
            transform.position = transform.position?.map { $0.map { $0 * times } }
            transform.positionX = transform.positionX?.map { $0 * times }
            transform.positionY = transform.positionY?.map { $0 * times }
            transform.rotation = transform.rotation?.map { $0 * times }
            transform.opacity = nil
            let (outer, inner) = transform.layers(time: time)
            for layer in try groupLayers(items, topLevel: true, path: "\(path) (copy \(k))") { inner.addSublayer(layer) }
            if let shown = copies.shown(copy: k) {
                LottieAnimator.apply(shown, to: outer, keyPath: "hidden", time: time) { !$0 }
            }
            parent.addSublayer(outer)
        }
    }

    /// The one step that takes each of a repeater's copies to the next,
    /// where there is one: copy k is the items at the repeater's anchor and
    /// scale, turned by k times its rotation and moved by k times its
    /// position, which is the first copy stepped k times when it only turns
    /// (about the shape layer's origin) or only moves, by a fixed amount.
    /// Nil when it does both, or either changes over time.
    private static func replicatorStep(of transform: LottieTransform) -> CATransform3D? {
        guard transform.positionX == nil, transform.positionY == nil, transform.rotationX == nil, transform.rotationY == nil else { return nil }
        let position = transform.position ?? .fixed([0, 0]), rotation = transform.rotation ?? .fixed(0)
        guard case .fixed(let move) = position, case .fixed(let turn) = rotation, move.count >= 2 else { return nil }
        if turn == 0 { return CATransform3DMakeTranslation(move[0], move[1], 0) }
        guard move[0] == 0, move[1] == 0 else { return nil }
        return CATransform3DMakeRotation(turn * .pi / 180, 0, 0, 1)
    }

    // MARK: Render groups

    /// The layers of one render group, bottom first: one per path, or one
    /// for all when they are all Bézier paths and no trim cuts them
    /// separately (so an even-odd fill sees them together).
    private func shapeLayers(_ group: LottieRenderGroup, of items: [LottieShapeItem]) throws(SceneError) -> [CALayer] {
        let others = group.others.map { items[$0] }
        let paints = others.compactMap(\.paint)
        let fill = paints.first(where: \.isFill), stroke = paints.first(where: \.isStroke)
        let trims = others.compactMap(\.trim)
        let trim = trims.first { !$0.keepsEverything }
        // The first rounded corners round every path of the group (lottie-ios).
        var rounding: (radius: LottieProperty<Double>, path: String, position: SourcePosition)?
        for item in others { if case .roundedCorners(let radius, let path, let position) = item { rounding = (radius, path, position); break } }
        var paths: [(shape: LottieProperty<PathData>, isBezier: Bool)] = []
        for index in group.paths {
            guard case .path(let path, let source, let position) = items[index] else { continue }
            let (shape, rounded) = path.pathData(roundedBy: rounding?.radius)
            reader.warnWhereShapesCannotMorph(shape, at: source, position: position)
            if !rounded, let rounding {
                reader.diagnostics.tolerated("\(rounding.path) (rd)", "rounded corners do not round ellipses and stars (as lottie-ios)",
                                             file: reader.file, at: rounding.position)
            }
            paths.append((shape, path.isBezier))
        }
        let shapes = paths.count > 1 && trims.isEmpty && paths.allSatisfy(\.isBezier) ? [union(paths.map(\.shape))] : paths.map(\.shape)
        if let trim {
            if fill != nil {
                reader.diagnostics.tolerated("\(trim.path) (tm)", "a trim cuts strokes; the fills it would cut are drawn whole",
                                             file: reader.file, at: trim.position)
            }
            if trim.individually, shapes.count > 1 {
                reader.diagnostics.tolerated("\(trim.path).m", "paths trimmed one after another are trimmed each on its own (as lottie-ios)",
                                             file: reader.file, at: trim.position)
            }
        }
        let window = trim.map(LottieTrimWindow.init)
        var made: [CALayer] = []
        for shape in shapes {
            try layers.spend(1, at: "\(reader.file): \((fill ?? stroke)?.path ?? "")", position: (fill ?? stroke)?.position)
            made.append(try shapeLayer(shape, fill: fill, stroke: stroke, trim: window))
        }
        return made
    }

    /// One path drawn by a fill and a stroke (either may be absent): a
    /// `CAShapeLayer` for solid ones, a gradient's layers for gradients, the
    /// stroke on top.
    private func shapeLayer(_ shape: LottieProperty<PathData>, fill: LottiePaint?, stroke: LottiePaint?,
                            trim: LottieTrimWindow?) throws(SceneError) -> CALayer {
        var parts: [CALayer] = []
        let solidStroke = stroke?.kind == .stroke ? stroke : nil
        if let fill, fill.kind == .gradientFill {
            parts.append(try gradient(fill, shape: shape, trim: nil))
            // As lottie-ios's overlay over a gradient: the stroke untrimmed.
            if let solidStroke { parts.append(try solid(shape, fill: nil, stroke: solidStroke, trim: nil)) }
        } else if fill != nil || solidStroke != nil {
            parts.append(try solid(shape, fill: fill, stroke: solidStroke, trim: trim))
        }
        if let stroke, stroke.kind == .gradientStroke { parts.append(try gradient(stroke, shape: shape, trim: trim)) }
        if parts.count == 1 { return parts[0] }
        let container = CALayer.atOrigin()
        for part in parts { container.addSublayer(part) }
        return container
    }

    /// A `CAShapeLayer` of a solid fill and stroke, at the fill's opacity (or
    /// the stroke's: the two are drawn together only when they are the same).
    private func solid(_ shape: LottieProperty<PathData>, fill: LottiePaint?, stroke: LottiePaint?,
                       trim: LottieTrimWindow?) throws(SceneError) -> CAShapeLayer {
        let layer = CAShapeLayer.atOrigin()
        LottieAnimator.apply(shape, to: layer, keyPath: "path", time: time) { CGPath(trim?.repeated($0) ?? $0) }
        let toColor = { (c: [Double]) -> CGColor in CGColor(red: c[0], green: c[1], blue: c[2], alpha: c[3]) }
        if let paint = fill ?? stroke {
            LottieAnimator.apply(try reader.property(paint.object, "o", path: paint.path, reader.number), to: layer,
                                 keyPath: "opacity", time: time, LottieAnimator.opacity)
        }
        if let fill {
            let color = try reader.property(fill.object, "c", path: fill.path, reader.color)
            LottieAnimator.apply(color ?? .fixed([0, 0, 0, 1]), to: layer, keyPath: "fillColor", time: time, toColor)
            layer.fillRule = fill.object["r"]?.number == 2 ? .evenOdd : .nonZero
        } else {
            layer.fillColor = nil
        }
        if let stroke {
            let color = try reader.property(stroke.object, "c", path: stroke.path, reader.color)
            LottieAnimator.apply(color ?? .fixed([0, 0, 0, 1]), to: layer, keyPath: "strokeColor", time: time, toColor)
            try strokeGeometry(stroke, on: layer)
            if let miter = stroke.object["ml"]?.number, miter.isFinite, miter > 0 { layer.miterLimit = miter }
            try dashes(stroke.object["d"], path: stroke.path + ".d", on: layer)
            trim?.apply(to: layer, time: time)
        }
        return layer
    }

    // MARK: Gradients

    /// A gradient fill or stroke, as lottie-ios draws one: a
    /// `CAGradientLayer` of the opaque colours over the paths' bounds,
    /// masked by the filled (or stroked) paths. Alpha stops have locations
    /// of their own (a glow's ring fades in and out between two colour
    /// stops), so a gradient with any alpha below 1 is masked by a second
    /// gradient of the same geometry, black at its alpha stops.
    private func gradient(_ paint: LottiePaint, shape: LottieProperty<PathData>, trim: LottieTrimWindow?) throws(SceneError) -> CALayer {
        let (object, path, stroke) = (paint.object, paint.path, paint.isStroke)
        var box = CGRect.null
        for data in shape.keyframeValues { box = box.union(data.boundingBox) }
        if stroke, let width = try reader.property(object, "w", path: path, reader.number) {
            box = box.insetBy(dx: -width.initial, dy: -width.initial)
        }
        guard !box.isNull, box.width > 0 || box.height > 0 else { return CALayer() }
        // The gradient is an image of its layer's bounds; a smooth ramp loses
        // nothing drawn small and scaled up, and a file whose shapes are
        // thousands of points wide, shrunk by its transforms, keeps its
        // images small. The mask stays at full size, so edges stay sharp.
        let shrink = max(1, max(box.width, box.height) / 192)
        let holder = CAGradientLayer()
        holder.anchorPoint = .zero
        holder.bounds = CGRect(x: 0, y: 0, width: box.width / shrink, height: box.height / shrink)
        holder.position = .zero
        holder.transform = CATransform3DMakeScale(shrink, shrink, 1)
        // The stops: p colours [offset, r, g, b] then alpha stops [offset, a].
        guard let stops = object["g"]?.object, let count = stops["p"]?.number, count >= 1, count <= 1000,
              let values = try reader.property(stops, "k", path: path + ".g", reader.vector) else {
            throw reader.error(path + ".g", object["g"], "a gradient needs its stops {\"p\": count, \"k\": values}")
        }
        // Stops, start and end animate as lottie-ios animates them: the
        // gradient layer's colors, locations, startPoint and endPoint.
        let stopCount = Int(count)
        var ramps = [(holder, { (v: [Double]) in Self.colorStops(v, count: stopCount) })]
        if values.keyframeValues.contains(where: { Self.alphaStops($0, count: stopCount).contains { $0.color.alpha < 0.999 } }) {
            let alpha = CAGradientLayer()
            alpha.frame = holder.bounds
            holder.mask = alpha
            ramps.append((alpha, { Self.alphaStops($0, count: stopCount) }))
        }
        for (ramp, stops) in ramps {
            LottieAnimator.apply(values, to: ramp, keyPath: "colors", time: time) { stops($0).map(\.color) }
            LottieAnimator.apply(values, to: ramp, keyPath: "locations", time: time) { stops($0).map { NSNumber(value: $0.location) } }
        }
        let start = try reader.property(object, "s", path: path, reader.vector) ?? .fixed([0, 0])
        let end = try reader.property(object, "e", path: path, reader.vector) ?? .fixed([0, 0])
        func unit(_ p: [Double]) -> CGPoint {
            CGPoint(x: box.width > 0 ? (p[0] - box.minX) / box.width : 0, y: box.height > 0 ? (p[1] - box.minY) / box.height : 0)
        }
        var reach = end
        if object["t"]?.number == 2 {
            // Core Animation's radial gradient reaches endPoint along each
            // axis of the bounds: the radius over each side keeps it round
            // whatever the shape's box. Its end depends on both points.
            reach = LottieProperty<[Double]>.sampled(at: [start.frames, end.frames]) { frame in
                let (s, e) = (start.sampledValue(at: frame), end.sampledValue(at: frame))
                let radius = max(hypot(e[0] - s[0], e[1] - s[1]), 1e-6)
                return [s[0] + radius, s[1] + radius]
            }
        }
        for (ramp, _) in ramps {
            if object["t"]?.number == 2 { ramp.type = .radial }
            LottieAnimator.apply(start, to: ramp, keyPath: "startPoint", time: time, unit)
            LottieAnimator.apply(reach, to: ramp, keyPath: "endPoint", time: time, unit)
        }
        let mask = CAShapeLayer.atOrigin()
        let offset = CGAffineTransform(translationX: -box.minX, y: -box.minY)
        LottieAnimator.apply(shape, to: mask, keyPath: "path", time: time) { data in
            let placed = data.applying(offset)
            return CGPath(trim?.repeated(placed) ?? placed)
        }
        if stroke {
            mask.fillColor = nil
            mask.strokeColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
            try strokeGeometry(paint, on: mask)
            trim?.apply(to: mask, time: time)
        } else {
            mask.fillRule = object["r"]?.number == 2 ? .evenOdd : .nonZero
        }
        let masked = CALayer()
        masked.anchorPoint = .zero
        masked.frame = box
        masked.addSublayer(holder)
        masked.mask = mask
        let layer = CALayer.atOrigin()
        layer.addSublayer(masked)
        LottieAnimator.apply(try reader.property(object, "o", path: path, reader.number), to: layer, keyPath: "opacity",
                             time: time, LottieAnimator.opacity)
        return layer
    }

    /// A Lottie gradient's colour stops, opaque: `count` runs of
    /// [location, r, g, b].
    static func colorStops(_ values: [Double], count: Int) -> [(color: CGColor, location: Double)] {
        stride(from: 0, to: min(count, values.count / 4) * 4, by: 4).map { k in
            let channel = { (i: Int) in min(max(values[k + i], 0), 1) }
            return (CGColor(red: channel(1), green: channel(2), blue: channel(3), alpha: 1), min(max(values[k], 0), 1))
        }
    }

    /// A Lottie gradient's alpha stops, black at each alpha: the
    /// [location, alpha] pairs after its colour stops (none: an empty list).
    static func alphaStops(_ values: [Double], count: Int) -> [(color: CGColor, location: Double)] {
        guard values.count > count * 4 + 1 else { return [] }
        return stride(from: count * 4, to: values.count - 1, by: 2).map { k in
            (CGColor(red: 0, green: 0, blue: 0, alpha: min(max(values[k + 1], 0), 1)), min(max(values[k], 0), 1))
        }
    }

    // MARK: Strokes

    /// A stroke's width (`w`, keyframed too; divided by the scales of the
    /// groups it was handed down into), caps (`lc`: 1 butt, 2 round,
    /// 3 square) and joins (`lj`: 1 miter, 2 round, 3 bevel).
    private func strokeGeometry(_ stroke: LottiePaint, on layer: CAShapeLayer) throws(SceneError) {
        var width = try reader.property(stroke.object, "w", path: stroke.path, reader.number) ?? .fixed(1)
        if !stroke.inheritedScales.isEmpty {
            let (written, scales) = (width, stroke.inheritedScales)
            width = .sampled(at: [written.frames] + scales.map(\.frames)) { frame in
                scales.reduce(written.value(at: frame)) { w, scale in
                    let x = scale.value(at: frame)[0]
                    return x == 0 ? w : w * 100 / abs(x)
                }
            }
        }
        LottieAnimator.apply(width, to: layer, keyPath: "lineWidth", time: time) { CGFloat(max($0, 0)) }
        layer.lineCap = [2: .round, 3: .square][stroke.object["lc"]?.smallInteger ?? 1] ?? .butt
        layer.lineJoin = [2: .round, 3: .bevel][stroke.object["lj"]?.smallInteger ?? 1] ?? .miter
    }

    /// Several paths as one path, as lottie-ios combines them into one
    /// `CAShapeLayer`'s path (`LottieProperty.combined`: sampled every
    /// tenth of a frame where they are keyframed differently, within the
    /// file's budget of sampled path elements).
    private func union(_ paths: [LottieProperty<PathData>]) -> LottieProperty<PathData> {
        let elements = paths.reduce(0) { $0 + $1.initial.elements.count }
        return .combined(paths, value: { $0.value(at: $1) }, mayTake: { pathSamples.take($0 * elements) }) { parts in
            var out = PathData()
            for part in parts { out.append(part) }
            return out
        }
    }

    private func dashes(_ value: JSONValue?, path: String, on layer: CAShapeLayer) throws(SceneError) {
        guard let items = value?.array, !items.isEmpty else { return }
        var pattern: [NSNumber] = []
        for (k, item) in items.enumerated() {
            guard let object = item.object, let kind = object["n"]?.string,
                  let length = try reader.property(object, "v", path: "\(path)[\(k)]", reader.number) else { continue }
            switch kind {
            case "o":
                // The dash offset animates (lottie-ios's lineDashPhase); the lengths do not.
                LottieAnimator.apply(length, to: layer, keyPath: "lineDashPhase", time: time) { CGFloat($0) }
            default:
                if length.isAnimated {
                    reader.diagnostics.tolerated("\(path)[\(k)].v", "animated dashes are drawn at their first length (as lottie-ios)",
                                                 file: reader.file, at: item.position)
                }
                pattern.append(NSNumber(value: max(length.initial, 0)))
            }
        }
        if !pattern.isEmpty, pattern.contains(where: { $0.doubleValue > 0 }) { layer.lineDashPattern = pattern }
    }
}

extension LottieShapeItem {
    /// This item as handed down into `group` from the level above it: a
    /// stroke remembers the group's scale, to keep its width.
    func handedDown(into group: LottieShapeGroup) -> LottieShapeItem {
        guard case .paint(var paint) = self, paint.isStroke, let scale = group.transform?.scale else { return self }
        paint.inheritedScales.append(scale)
        return .paint(paint)
    }
}
