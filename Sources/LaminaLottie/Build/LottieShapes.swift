import Foundation
import LaminaCore
import LaminaScene
import LaminaJSON

/// A shape layer's items (`shapes`, and a group's `it`) as Core Animation
/// layers, the way After Effects stacks them: the paths of a group (`sh`,
/// `rc`, `el`, `sr`, and those of the groups inside it) are drawn by each
/// fill (`fl`) and stroke (`st`) below them in the list, a trim (`tm`) cuts
/// the paths above it for the strokes below it, and an item higher in the
/// list is drawn above one lower down. Each fill and each stroke is one
/// `CAShapeLayer`; each group a layer with its transform (`tr`).
struct LottieShapes {
    let reader: LottiePropertyReader
    let time: LottieTime
    /// Layers the animation may still make (repeaters multiply them).
    let layers: LottieLayerBudget

    /// A path the fills and strokes below it draw, with the transforms of
    /// the groups it came through, and the trim cutting it.
    private struct PathSource {
        var path: LottieProperty<PathData>
        var trim: Trim?
    }

    /// A trim's start, end and offset: percent, percent, degrees.
    private struct Trim {
        var start: LottieProperty<Double>?
        var end: LottieProperty<Double>?
        var offset: LottieProperty<Double>?
        var path: String
        var position: SourcePosition
    }

    /// Builds the items into `parent`; returns the paths they leave for the
    /// group above (transformed by this group's fixed transform).
    @discardableResult
    func build(_ items: [JSONValue], path: String, into parent: CALayer, depth: Int) throws(SceneError) -> [LottieProperty<PathData>] {
        guard depth <= 64 else {
            throw reader.error(path, nil, "shape groups nest more than 64 deep")
        }
        var sources: [PathSource] = []
        var drawn: [CALayer] = []  // top first
        // Where the items a repeater repeats begin: after the last repeater.
        var repeated = (item: 0, drawn: 0)
        for (index, item) in items.enumerated() {
            let here = "\(path)[\(index)]"
            guard let object = item.object else { throw reader.error(here, item, "expected a shape item (an object)") }
            if object["hd"]?.bool == true { continue }
            let type = object["ty"]?.string ?? ""
            switch type {
            case "gr":
                let group = CALayer()
                group.anchorPoint = .zero
                group.bounds = .zero
                var content = group
                var matrix: CGAffineTransform? = .identity
                let children = object["it"]?.array.map(Array.init) ?? []
                if let transformItem = children.last(where: { $0.object?["ty"]?.string == "tr" })?.object {
                    let transform = try LottieTransform(transformItem, path: here + ".it[tr]", reader: reader)
                    let (outer, inner) = transform.layers(time: time)
                    transform.applyOpacity(to: outer, time: time)
                    group.addSublayer(outer)
                    content = inner
                    matrix = transform.staticMatrix
                }
                let inner = try build(children, path: here + ".it", into: content, depth: depth + 1)
                drawn.append(group)
                if let matrix {
                    sources += inner.map { PathSource(path: $0.map { $0.applying(matrix) }, trim: nil) }
                } else if !inner.isEmpty {
                    reader.diagnostics.tolerated("\(here).it[tr]", "an animated group's paths are drawn by its own fills and strokes only, not by those of the groups above it",
                                                 file: reader.file, at: item.position)
                }
            case "sh":
                guard let shape = try reader.property(object, "ks", path: here, reader.shape) else {
                    throw reader.error(here, item, "a path (sh) needs its shape \"ks\"")
                }
                sources.append(PathSource(path: shape.map(\.pathData), trim: nil))
            case "rc", "el", "sr":
                sources.append(PathSource(path: try generatedPath(object, type: type, path: here), trim: nil))
            case "fl", "st":
                guard !sources.isEmpty else { continue }
                drawn.append(try paint(object, stroke: type == "st", sources: sources, path: here))
            case "gf", "gs":
                guard !sources.isEmpty else { continue }
                drawn.append(try gradient(object, stroke: type == "gs", sources: sources, path: here))
            case "tm":
                let trim = Trim(start: try reader.property(object, "s", path: here, reader.number),
                                end: try reader.property(object, "e", path: here, reader.number),
                                offset: try reader.property(object, "o", path: here, reader.number),
                                path: here, position: item.position)
                for k in sources.indices { sources[k].trim = trim }
            case "tr":
                break  // the group's transform, read with the group
            case "rp":
                // The items since the last repeater, drawn once a copy.
                drawn.removeLast(drawn.count - repeated.drawn)
                drawn += try copies(of: Array(items[repeated.item..<index]), by: object, item: item, path: here, depth: depth)
                repeated = (index + 1, drawn.count)
            default:
                let names = ["rd": "rounded corners",
                             "mm": "merged paths", "tw": "twisted paths", "op": "offset paths", "pb": "pucker and bloat",
                             "zz": "zig-zags"]
                try reader.diagnostics.skipped("\(here) (\(type))", "\(names[type] ?? "this kind of shape item") are not drawn yet",
                                               file: reader.file, at: item.position)
            }
        }
        for layer in drawn.reversed() { parent.addSublayer(layer) }
        return sources.map(\.path)
    }

    // MARK: Repeaters

    /// A repeater (`rp`) of `items`, as lottie-ios's Core Animation engine
    /// draws one: copy k is the items in a layer of their own, moved by k
    /// times the repeater's position and turned by k times its rotation
    /// about its anchor, scaled by its scale; later copies on top. Top first.
    private func copies(of items: [JSONValue], by object: JSONObject, item: JSONValue, path: String,
                        depth: Int) throws(SceneError) -> [CALayer] {
        guard let copiesProperty = try reader.property(object, "c", path: path, reader.number) else { return [] }
        if copiesProperty.isAnimated {
            reader.diagnostics.tolerated("\(path).c", "animated copies are drawn at their first count", file: reader.file, at: item.position)
        }
        let count = copiesProperty.initial.isFinite ? Int(max(0, min(copiesProperty.initial.rounded(.down), 1e6))) : 0
        guard count > 0 else { return [] }
        try layers.spend(count * max(1, items.count), at: "\(reader.file): \(path).c", position: object["c"]?.position)
        for key in ["so", "eo"] {
            guard let opacity = object["tr"]?.object?[key], opacity.object?["k"]?.number.map({ $0 != 100 }) ?? true else { continue }
            reader.diagnostics.tolerated("\(path).tr.\(key)", "a repeater's start and end opacity are not drawn (as lottie-ios)",
                                         file: reader.file, at: opacity.position)
        }
        if let order = object["m"]?.number, order == 2 {
            reader.diagnostics.tolerated("\(path).m", "copies are stacked later above earlier (as lottie-ios), whatever the composite order",
                                         file: reader.file, at: item.position)
        }
        var made: [CALayer] = []
        for k in (0..<count).reversed() {
            var transform = try LottieTransform(object["tr"]?.object ?? JSONParser.emptyObject, path: path + ".tr", reader: reader)
            let times = Double(k)
            transform.position = transform.position?.map { $0.map { $0 * times } }
            transform.positionX = transform.positionX?.map { $0 * times }
            transform.positionY = transform.positionY?.map { $0 * times }
            transform.rotation = transform.rotation?.map { $0 * times }
            transform.opacity = nil
            let (outer, inner) = transform.layers(time: time)
            try build(items, path: path + " (copy \(k))", into: inner, depth: depth + 1)
            made.append(outer)
        }
        return made
    }

    // MARK: Paths

    /// The control-point distance of a quarter circle as a cubic, as a
    /// fraction of its radius: 4/3·(√2 − 1), the value lottie-ios and
    /// lottie-web draw ellipses and rounded corners with.
    static let kappa = 0.5522847498

    /// A rectangle, an ellipse or a star, made at each keyframe of the
    /// numbers that shape it.
    private func generatedPath(_ object: JSONObject, type: String, path: String) throws(SceneError) -> LottieProperty<PathData> {
        let position = try reader.property(object, "p", path: path, reader.vector) ?? .fixed([0, 0])
        let reversed = object["d"]?.number == 3
        switch type {
        case "rc":
            let size = try reader.property(object, "s", path: path, reader.vector) ?? .fixed([0, 0])
            let roundness = try reader.property(object, "r", path: path, reader.number) ?? .fixed(0)
            return .sampled(at: [position.frames, size.frames, roundness.frames]) { frame in
                Self.rectangle(center: position.value(at: frame), size: size.value(at: frame),
                               radius: roundness.value(at: frame), reversed: reversed)
            }
        case "el":
            let size = try reader.property(object, "s", path: path, reader.vector) ?? .fixed([0, 0])
            return .sampled(at: [position.frames, size.frames]) { frame in
                Self.ellipse(center: position.value(at: frame), size: size.value(at: frame), reversed: reversed)
            }
        default:
            let points = try reader.property(object, "pt", path: path, reader.number) ?? .fixed(5)
            let outer = try reader.property(object, "or", path: path, reader.number) ?? .fixed(0)
            let inner = try reader.property(object, "ir", path: path, reader.number)
            let rotation = try reader.property(object, "r", path: path, reader.number) ?? .fixed(0)
            let isStar = object["sy"]?.number != 2
            guard points.frames.isEmpty, case .fixed(let count) = points, count.isFinite, count >= 2, count <= 1000 else {
                throw reader.error(path + ".pt", object["pt"], "a star or polygon has 2 to 1,000 points, fixed")
            }
            if ["os", "is"].contains(where: { (object[$0]?.object?["k"]?.number ?? 0) != 0 }) {
                reader.diagnostics.tolerated("\(path) (os, is)", "a star's rounded points are drawn sharp", file: reader.file,
                                             at: object["os"]?.position ?? object["is"]?.position ?? SourcePosition(line: 1, column: 1))
            }
            return .sampled(at: [position.frames, outer.frames, inner?.frames ?? [], rotation.frames]) { frame in
                Self.star(center: position.value(at: frame), points: Int(count), outer: outer.value(at: frame),
                          inner: isStar ? inner?.value(at: frame) : nil, rotation: rotation.value(at: frame))
            }
        }
    }

    /// lottie-web's rectangle: from the top right, clockwise, corners
    /// rounded by `radius` (clamped to half the shorter side).
    static func rectangle(center c: [Double], size s: [Double], radius: Double, reversed: Bool) -> PathData {
        let (w, h) = (abs(s[0]) / 2, abs(s[1]) / 2)
        let r = min(max(radius, 0), w, h)
        let k = r * (1 - Self.kappa)
        let (l, t, rt, b) = (c[0] - w, c[1] - h, c[0] + w, c[1] + h)
        var bez = LottieBezier(vertices: [], inTangents: [], outTangents: [], closed: true)
        func add(_ x: Double, _ y: Double, _ ix: Double = 0, _ iy: Double = 0, _ ox: Double = 0, _ oy: Double = 0) {
            bez.vertices.append(CGPoint(x: x, y: y))
            bez.inTangents.append(CGPoint(x: ix, y: iy))
            bez.outTangents.append(CGPoint(x: ox, y: oy))
        }
        add(rt, t + r, 0, -r + k, 0, 0)
        add(rt, b - r, 0, 0, 0, r - k)
        add(rt - r, b, r - k, 0, 0, 0)
        add(l + r, b, 0, 0, -r + k, 0)
        add(l, b - r, 0, r - k, 0, 0)
        add(l, t + r, 0, 0, 0, -r + k)
        add(l + r, t, -r + k, 0, 0, 0)
        add(rt - r, t, 0, 0, r - k, 0)
        return (reversed ? bez.reversed : bez).pathData
    }

    /// lottie-web's ellipse: from the top, clockwise, four cubic quarters.
    static func ellipse(center c: [Double], size s: [Double], reversed: Bool) -> PathData {
        let (rx, ry) = (s[0] / 2, s[1] / 2)
        let (kx, ky) = (rx * Self.kappa, ry * Self.kappa)
        let bez = LottieBezier(
            vertices: [CGPoint(x: c[0], y: c[1] - ry), CGPoint(x: c[0] + rx, y: c[1]), CGPoint(x: c[0], y: c[1] + ry), CGPoint(x: c[0] - rx, y: c[1])],
            inTangents: [CGPoint(x: -kx, y: 0), CGPoint(x: 0, y: -ky), CGPoint(x: kx, y: 0), CGPoint(x: 0, y: ky)],
            outTangents: [CGPoint(x: kx, y: 0), CGPoint(x: 0, y: ky), CGPoint(x: -kx, y: 0), CGPoint(x: 0, y: -ky)],
            closed: true)
        return (reversed ? bez.reversed : bez).pathData
    }

    /// A star (`inner` radius given) or a polygon, its first point straight up, turned by `rotation` degrees.
    static func star(center c: [Double], points: Int, outer: Double, inner: Double?, rotation: Double) -> PathData {
        let corners = inner == nil ? points : points * 2
        var data = PathData()
        for k in 0..<corners {
            let radius = inner != nil && k % 2 == 1 ? inner! : outer
            let angle = (rotation - 90) * .pi / 180 + 2 * .pi * Double(k) / Double(corners)
            let point = CGPoint(x: c[0] + radius * cos(angle), y: c[1] + radius * sin(angle))
            if k == 0 { data.move(to: point) } else { data.addLine(to: point) }
        }
        data.closeSubpath()
        return data
    }

    // MARK: Fills and strokes

    /// One fill or stroke of `sources` as a shape layer.
    private func paint(_ object: JSONObject, stroke: Bool, sources: [PathSource], path: String) throws(SceneError) -> CALayer {
        let layer = CAShapeLayer()
        layer.anchorPoint = .zero
        layer.bounds = .zero
        let trim = stroke ? sources.compactMap(\.trim).first.map(Self.trimWindow) : nil
        let copies = trim?.copies ?? 1
        LottieAnimator.apply(Self.union(sources.map(\.path)), to: layer, keyPath: "path", time: time) { CGPath(Self.repeated($0, copies)) }
        let color = try reader.property(object, "c", path: path, reader.color)
        let opacity = try reader.property(object, "o", path: path, reader.number)
        LottieAnimator.apply(opacity, to: layer, keyPath: "opacity", time: time, LottieAnimator.opacity)
        let toColor = { (c: [Double]) -> CGColor in CGColor(red: c[0], green: c[1], blue: c[2], alpha: c[3]) }
        if stroke {
            layer.fillColor = nil
            LottieAnimator.apply(color ?? .fixed([0, 0, 0, 1]), to: layer, keyPath: "strokeColor", time: time, toColor)
            try strokeGeometry(object, path: path, on: layer)
            if let miter = object["ml"]?.number, miter.isFinite, miter > 0 { layer.miterLimit = miter }
            try dashes(object["d"], path: path + ".d", on: layer)
            if let trim { applyTrim(trim, to: layer) }
        } else {
            LottieAnimator.apply(color ?? .fixed([0, 0, 0, 1]), to: layer, keyPath: "fillColor", time: time, toColor)
            layer.fillRule = object["r"]?.number == 2 ? .evenOdd : .nonZero
            if let trim = sources.compactMap(\.trim).first {
                reader.diagnostics.tolerated("\(trim.path) (tm)", "a trim cuts strokes; the fills below it are drawn whole",
                                             file: reader.file, at: trim.position)
            }
        }
        return layer
    }

    /// A gradient fill or stroke, as lottie-ios draws one: a
    /// `CAGradientLayer` over the paths' bounds, masked by the filled (or
    /// stroked) paths. Colours and their alpha stops are merged at the
    /// colour stops; an animated gradient is drawn at its first value.
    private func gradient(_ object: JSONObject, stroke: Bool, sources: [PathSource], path: String) throws(SceneError) -> CALayer {
        let shape = Self.union(sources.map(\.path))
        var box = CGRect.null
        for data in shape.frames.isEmpty ? [shape.initial] : Self.keyedValues(shape) { box = box.union(data.boundingBox) }
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
        LottieAnimator.apply(values, to: holder, keyPath: "colors", time: time) { Self.stops($0, count: stopCount).colors }
        LottieAnimator.apply(values, to: holder, keyPath: "locations", time: time) {
            Self.stops($0, count: stopCount).locations.map { NSNumber(value: $0) }
        }
        let start = try reader.property(object, "s", path: path, reader.vector) ?? .fixed([0, 0])
        let end = try reader.property(object, "e", path: path, reader.vector) ?? .fixed([0, 0])
        func unit(_ p: [Double]) -> CGPoint {
            CGPoint(x: box.width > 0 ? (p[0] - box.minX) / box.width : 0, y: box.height > 0 ? (p[1] - box.minY) / box.height : 0)
        }
        if object["t"]?.number == 2 {
            // Core Animation's radial gradient reaches endPoint along each
            // axis of the bounds: the radius over each side keeps it round
            // whatever the shape's box. Its end depends on both points.
            holder.type = .radial
            LottieAnimator.apply(start, to: holder, keyPath: "startPoint", time: time, unit)
            let reach = LottieProperty<[Double]>.sampled(at: [start.frames, end.frames]) { frame in
                let (s, e) = (start.sampledValue(at: frame), end.sampledValue(at: frame))
                let radius = max(hypot(e[0] - s[0], e[1] - s[1]), 1e-6)
                return [s[0] + radius, s[1] + radius]
            }
            LottieAnimator.apply(reach, to: holder, keyPath: "endPoint", time: time, unit)
        } else {
            LottieAnimator.apply(start, to: holder, keyPath: "startPoint", time: time, unit)
            LottieAnimator.apply(end, to: holder, keyPath: "endPoint", time: time, unit)
        }
        let mask = CAShapeLayer()
        mask.anchorPoint = .zero
        mask.bounds = .zero
        let offset = CGAffineTransform(translationX: -box.minX, y: -box.minY)
        let trim = stroke ? sources.compactMap(\.trim).first.map(Self.trimWindow) : nil
        let copies = trim?.copies ?? 1
        LottieAnimator.apply(shape, to: mask, keyPath: "path", time: time) { CGPath(Self.repeated($0.applying(offset), copies)) }
        if stroke {
            mask.fillColor = nil
            mask.strokeColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
            try strokeGeometry(object, path: path, on: mask)
            if let trim { applyTrim(trim, to: mask) }
        } else {
            mask.fillRule = object["r"]?.number == 2 ? .evenOdd : .nonZero
        }
        let masked = CALayer()
        masked.anchorPoint = .zero
        masked.frame = box
        masked.addSublayer(holder)
        masked.mask = mask
        let layer = CALayer()
        layer.anchorPoint = .zero
        layer.bounds = .zero
        layer.addSublayer(masked)
        LottieAnimator.apply(try reader.property(object, "o", path: path, reader.number), to: layer, keyPath: "opacity",
                             time: time, LottieAnimator.opacity)
        return layer
    }

    /// A Lottie gradient's colours at its colour stops, each with the alpha
    /// its alpha stops give there.
    static func stops(_ values: [Double], count: Int) -> (colors: [CGColor], locations: [Double]) {
        var colors: [CGColor] = [], locations: [Double] = []
        let alphas = values.count > count * 4 ? Array(values[(count * 4)...]) : []
        func alpha(at offset: Double) -> Double {
            let pairs = stride(from: 0, to: alphas.count - 1, by: 2).map { (alphas[$0], alphas[$0 + 1]) }
            guard let first = pairs.first else { return 1 }
            if offset <= first.0 { return first.1 }
            for (a, b) in zip(pairs, pairs.dropFirst()) where offset <= b.0 {
                return a.1 + (b.1 - a.1) * (offset - a.0) / max(b.0 - a.0, 1e-9)
            }
            return pairs[pairs.count - 1].1
        }
        for k in 0..<count where k * 4 + 3 < values.count {
            let offset = min(max(values[k * 4], 0), 1)
            let (r, g, b) = (values[k * 4 + 1], values[k * 4 + 2], values[k * 4 + 3])
            colors.append(CGColor(red: min(max(r, 0), 1), green: min(max(g, 0), 1), blue: min(max(b, 0), 1),
                                  alpha: min(max(alpha(at: offset), 0), 1)))
            locations.append(offset)
        }
        return (colors, locations)
    }

    private static func keyedValues(_ property: LottieProperty<PathData>) -> [PathData] {
        if case .keyed(let keys) = property { return keys.map(\.value) }
        return [property.initial]
    }

    /// A stroke's width (`w`, keyframed too), caps (`lc`: 1 butt, 2 round,
    /// 3 square) and joins (`lj`: 1 miter, 2 round, 3 bevel).
    private func strokeGeometry(_ object: JSONObject, path: String, on layer: CAShapeLayer) throws(SceneError) {
        LottieAnimator.apply(try reader.property(object, "w", path: path, reader.number) ?? .fixed(1), to: layer,
                             keyPath: "lineWidth", time: time) { CGFloat(max($0, 0)) }
        layer.lineCap = [2: .round, 3: .square][object["lc"]?.smallInteger ?? 1] ?? .butt
        layer.lineJoin = [2: .round, 3: .bevel][object["lj"]?.smallInteger ?? 1] ?? .miter
    }

    /// The paths of several sources as one path: fixed if all are; else
    /// keyed at the one animated source's keyframes, or sampled at all of theirs.
    private static func union(_ paths: [LottieProperty<PathData>]) -> LottieProperty<PathData> {
        let animated = paths.filter(\.isAnimated)
        func joined(at pick: (LottieProperty<PathData>) -> PathData) -> PathData {
            var out = PathData()
            for p in paths { out.append(pick(p)) }
            return out
        }
        if animated.isEmpty { return .fixed(joined { $0.initial }) }
        if animated.count == 1, case .keyed(let keys) = animated[0] {
            return .keyed(keys.map { key in
                .init(frame: key.frame, value: joined { $0.isAnimated ? key.value : $0.initial }, hold: key.hold, easing: key.easing)
            })
        }
        // Several animated paths: joined at each of their keyframes (each
        // keyframe's own value held between, which is close for paths of
        // keyframes at the same frames, as bodymovin usually writes them).
        let frames = Array(Set(animated.flatMap(\.frames))).sorted()
        return .keyed(frames.map { frame in
            .init(frame: frame, value: joined { Self.latest($0, at: frame) }, hold: false, easing: nil)
        })
    }

    private static func latest(_ path: LottieProperty<PathData>, at frame: Double) -> PathData {
        guard case .keyed(let keys) = path else { return path.initial }
        return (keys.last { $0.frame <= frame } ?? keys[0]).value
    }

    /// A trim's window as lottie-ios's Core Animation engine computes it:
    /// start and end in percent of the path with the offset (a turn is the
    /// whole path) added, sampled where any of the three is keyframed; past
    /// 100 the window runs on into another copy of the path, so the path is
    /// drawn `copies` times over and the window divided by as many.
    private struct TrimWindow {
        var start: LottieProperty<Double>
        var end: LottieProperty<Double>
        var copies: Int
    }

    private static func trimWindow(_ trim: Trim) -> TrimWindow {
        var start = trim.start ?? .fixed(0), end = trim.end ?? .fixed(100)
        // Core Animation wants strokeStart below strokeEnd; Lottie does not.
        // A trim whose start is above its end at every keyframe of either is
        // the same window the other way round (lottie-ios swaps them).
        let keyFrames = Set(start.frames + end.frames).sorted()
        if (keyFrames.isEmpty ? [0] : keyFrames).allSatisfy({ start.value(at: $0) >= end.value(at: $0) }) {
            swap(&start, &end)
        }
        guard let offset = trim.offset, offset.isAnimated || offset.initial != 0 else { return TrimWindow(start: start, end: end, copies: 1) }
        let frames = [start.frames, end.frames, offset.frames]
        func turned(_ property: LottieProperty<Double>) -> LottieProperty<Double> {
            .sampled(at: frames) { frame in property.value(at: frame) + offset.value(at: frame) / 360 * 100 }
        }
        let (s, e) = (turned(start), turned(end))
        let ends: [Double] = if case .keyed(let keys) = e { keys.map(\.value) } else { [e.initial] }
        // At most 16 copies: a window further on than that is drawn at its end.
        let furthest = ends.filter(\.isFinite).max() ?? 100
        let copies = min(max(1, Int((min(furthest, 1600) / 100).rounded(.up))), 16)
        return TrimWindow(start: s, end: e, copies: copies)
    }

    /// `path` drawn `count` times over, one after the other.
    private static func repeated(_ path: PathData, _ count: Int) -> PathData {
        guard count > 1 else { return path }
        var out = PathData()
        for _ in 0..<count { out.append(path) }
        return out
    }

    private func applyTrim(_ trim: TrimWindow, to layer: CAShapeLayer) {
        let copies = Double(trim.copies)
        func fraction(_ percent: Double) -> CGFloat { CGFloat(min(max(percent / 100 / copies, 0), 1)) }
        // Where start still passes end, Core Animation draws nothing.
        LottieAnimator.apply(trim.start, to: layer, keyPath: "strokeStart", time: time) { fraction($0) }
        LottieAnimator.apply(trim.end, to: layer, keyPath: "strokeEnd", time: time) { fraction($0) }
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

extension LottieBezier {
    /// The same path drawn the other way round.
    var reversed: LottieBezier {
        guard vertices.count > 1 else { return self }
        let order = [0] + (1..<vertices.count).reversed()
        return LottieBezier(vertices: order.map { vertices[$0] }, inTangents: order.map { outTangents[$0] },
                            outTangents: order.map { inTangents[$0] }, closed: closed)
    }
}
