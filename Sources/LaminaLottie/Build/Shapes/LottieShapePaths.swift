import Foundation
import LaminaCore
import LaminaScene
import LaminaJSON

/// The paths Lottie's parametric shapes make: rectangles (`rc`), ellipses
/// (`el`), stars and polygons (`sr`), drawn from the same point and in the
/// same direction as lottie-web and lottie-ios draw them (trims and
/// morphs depend on it).
enum LottieShapePaths {
    /// The control-point distance of a quarter circle as a cubic, as a
    /// fraction of its radius: 4/3·(√2 − 1), the value lottie-ios and
    /// lottie-web draw ellipses and rounded corners with.
    static let kappa = 0.5522847498

    /// A rectangle, an ellipse or a star, made at each keyframe of the
    /// numbers that shape it.
    static func generated(_ object: JSONObject, type: String, path: String,
                          reader: LottiePropertyReader) throws(SceneError) -> LottiePath {
        let position = try reader.property(object, "p", path: path, reader.vector) ?? .fixed([0, 0])
        let reversed = object["d"]?.number == 3
        switch type {
        case "rc":
            let size = try reader.property(object, "s", path: path, reader.vector) ?? .fixed([0, 0])
            let roundness = try reader.property(object, "r", path: path, reader.number) ?? .fixed(0)
            return .rectangle(position: position, size: size, roundness: roundness, reversed: reversed)
        case "el":
            let size = try reader.property(object, "s", path: path, reader.vector) ?? .fixed([0, 0])
            return .generated(.sampled(at: [position.frames, size.frames]) { frame in
                Self.ellipse(center: position.value(at: frame), size: size.value(at: frame), reversed: reversed)
            })
        default:
            let points = try reader.property(object, "pt", path: path, reader.number) ?? .fixed(5)
            let outer = try reader.property(object, "or", path: path, reader.number) ?? .fixed(0)
            let inner = try reader.property(object, "ir", path: path, reader.number)
            let rotation = try reader.property(object, "r", path: path, reader.number) ?? .fixed(0)
            let isStar = object["sy"]?.number != 2
            // The count may change over time (lottie-ios makes the path at
            // each keyframe, with the count between two keyframes'
            // interpolated); each keyframe's is bounded.
            let counts: [Double]
            switch points {
            case .fixed(let count): counts = [count]
            case .keyed(let keys): counts = keys.map(\.value)
            }
            guard counts.allSatisfy({ $0.isFinite && $0 >= 2 && $0 <= 1000 }) else {
                throw reader.error(path + ".pt", object["pt"], "a star or polygon has 2 to 1,000 points")
            }
            let outerRoundness = try reader.property(object, "os", path: path, reader.number) ?? .fixed(0)
            let innerRoundness = try reader.property(object, "is", path: path, reader.number) ?? .fixed(0)
            let frames = [position.frames, outer.frames, inner?.frames ?? [], rotation.frames, outerRoundness.frames, innerRoundness.frames,
                          points.frames]
            return .generated(.sampled(at: frames) { frame in
                let count = min(max(points.value(at: frame), 2), 1000)
                let star = Star(points: count, outer: outer.value(at: frame), inner: isStar ? inner?.value(at: frame) ?? 0 : nil,
                                outerRoundness: outerRoundness.value(at: frame), innerRoundness: innerRoundness.value(at: frame),
                                rotation: rotation.value(at: frame))
                let bezier = star.bezier(center: position.value(at: frame))
                return (reversed ? bezier.reversed : bezier).pathData
            })
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

    /// A star (`inner` radius given) or a polygon, as lottie-ios draws
    /// them: its first point straight up, turned by `rotation` degrees,
    /// clockwise; rounded by `outerRoundness` and `innerRoundness` (percent)
    /// with tangents along the circle through each point; a fractional
    /// count of points ends on a part point.
    struct Star {
        var points: Double
        var outer: Double
        var inner: Double?
        var outerRoundness: Double
        var innerRoundness: Double
        var rotation: Double

        /// lottie-ios's tangent lengths, per radius and unit of roundness.
        static let starTangent = 0.47829, polygonTangent = 0.25

        func bezier(center c: [Double]) -> LottieBezier {
            let center = CGPoint(x: c[0], y: c[1])
            var out = LottieBezier(vertices: [], inTangents: [], outTangents: [], closed: true)
            func polar(_ radius: Double, _ angle: Double) -> CGPoint { CGPoint(x: radius * cos(angle), y: radius * sin(angle)) }
            /// The tangent at `point` (relative to the centre) along its circle, `length` long.
            func along(_ point: CGPoint, _ length: Double) -> CGPoint {
                let theta = atan2(point.y, point.x) - .pi / 2
                return CGPoint(x: length * cos(theta), y: length * sin(theta))
            }
            func add(_ point: CGPoint, from previous: CGPoint, leaving: Double, arriving: Double) {
                if leaving != 0 || arriving != 0, let last = out.vertices.indices.last {
                    let leave = along(previous, leaving)
                    out.outTangents[last] = CGPoint(x: -leave.x, y: -leave.y)
                    out.vertices.append(CGPoint(x: point.x + center.x, y: point.y + center.y))
                    out.inTangents.append(along(point, arriving))
                } else {
                    out.vertices.append(CGPoint(x: point.x + center.x, y: point.y + center.y))
                    out.inTangents.append(.zero)
                }
                out.outTangents.append(.zero)
            }
            var angle = (rotation - 90) * .pi / 180
            let perPoint = 2 * .pi / points
            guard let inner else {
                // A polygon: its corners on the outer radius.
                let round = outerRoundness / 100 * outer * Self.polygonTangent
                var point = polar(outer, angle)
                add(point, from: point, leaving: 0, arriving: 0)
                for _ in 0..<Int(points.rounded(.up)) {
                    angle += perPoint
                    let previous = point
                    point = polar(outer, angle)
                    add(point, from: previous, leaving: round, arriving: round)
                }
                return out
            }
            let half = perPoint / 2
            let part = points - points.rounded(.down)
            var partRadius = 0.0
            var point: CGPoint
            if part != 0 {
                angle += half * (1 - part)
                partRadius = inner + part * (outer - inner)
                point = polar(partRadius, angle)
                angle += perPoint * part / 2
            } else {
                point = polar(outer, angle)
                angle += half
            }
            add(point, from: point, leaving: 0, arriving: 0)
            let (outerRound, innerRound) = (outerRoundness / 100, innerRoundness / 100)
            let count = Int(points.rounded(.up)) * 2
            var towardOuter = false
            for k in 0..<count {
                var radius = towardOuter ? outer : inner
                var step = half
                if partRadius != 0, k == count - 2 { step = perPoint * part / 2 }
                if partRadius != 0, k == count - 1 { radius = partRadius }
                let previous = point
                point = polar(radius, angle)
                var leaving = (towardOuter ? inner * innerRound : outer * outerRound) * Self.starTangent
                var arriving = (towardOuter ? outer * outerRound : inner * innerRound) * Self.starTangent
                if part != 0, k == 0 { leaving *= part }
                if part != 0, k == count - 1 { arriving *= part }
                add(point, from: previous, leaving: leaving, arriving: arriving)
                angle += step
                towardOuter.toggle()
            }
            return out
        }
    }

}

/// A path item's path, kept in the form rounded corners (`rd`) work on.
enum LottiePath {
    /// `sh`: keyframed Bézier paths.
    case bezier(LottieProperty<LottieBezier>)
    /// `rc`: a rounded corner replaces its roundness, as lottie-ios draws it.
    case rectangle(position: LottieProperty<[Double]>, size: LottieProperty<[Double]>, roundness: LottieProperty<Double>,
                   reversed: Bool)
    /// `el`, `sr`: made at each frame; lottie-ios does not round them.
    case generated(LottieProperty<PathData>)

    var isBezier: Bool { if case .bezier = self { true } else { false } }

    /// The path, its corners rounded by `radius` where it has one. Nil
    /// `rounded` when the path cannot be rounded (an ellipse or a star).
    func pathData(roundedBy radius: LottieProperty<Double>?) -> (path: LottieProperty<PathData>, rounded: Bool) {
        switch self {
        case .bezier(let shape):
            guard let radius else { return (shape.map(\.pathData), true) }
            if !radius.isAnimated { return (shape.map { $0.roundingCorners(radius.initial).pathData }, true) }
            // The shape and the radius combined as lottie-ios combines them
            // (`LottieProperty.combined`: their shared keyframes, else a
            // tenth of a frame held), each sample rounded.
            enum Part { case shape(LottieBezier), radius(Double) }
            let parts: [LottieProperty<Part>] = [shape.map { .shape($0) }, radius.map { .radius($0) }]
            let rounded = LottieProperty<PathData>.combined(parts, value: { part, frame in
                if case .radius = part.initial { return .radius(radius.value(at: frame)) }
                return .shape(shape.value(at: frame))
            }) { values in
                guard case .shape(let bezier) = values[0], case .radius(let r) = values[1] else { return PathData() }
                return bezier.roundingCorners(r).pathData
            }
            return (rounded, true)
        case .rectangle(let position, let size, let roundness, let reversed):
            let corner = radius ?? roundness
            return (.sampled(at: [position.frames, size.frames, corner.frames]) { frame in
                LottieShapePaths.rectangle(center: position.value(at: frame), size: size.value(at: frame),
                                           radius: corner.value(at: frame), reversed: reversed)
            }, true)
        case .generated(let data):
            return (data, radius == nil)
        }
    }
}

extension LottieBezier {
    /// After Effects' Round Corners on this path, as lottie-ios and
    /// lottie-web compute it: each corner (a vertex without tangents; not
    /// the ends of an open path) becomes two vertices, `radius` back along
    /// each of its edges (at most half the edge), joined by a curve whose
    /// tangents reach 0.5519 of the way to the corner.
    func roundingCorners(_ radius: Double) -> LottieBezier {
        guard radius > 0, vertices.count > 1 else { return self }
        let reach = 0.5519
        var out = LottieBezier(vertices: [], inTangents: [], outTangents: [], closed: closed)
        let n = vertices.count
        for k in 0..<n {
            let corner = vertices[k]
            let isCorner = inTangents[k] == .zero && outTangents[k] == .zero
            guard isCorner, closed || (k != 0 && k != n - 1) else {
                out.vertices.append(corner)
                out.inTangents.append(inTangents[k])
                out.outTangents.append(outTangents[k])
                continue
            }
            func toward(_ other: CGPoint) -> CGPoint {
                let d = hypot(other.x - corner.x, other.y - corner.y)
                let t = d > 0 ? min(d / 2, radius) / d : 0
                return CGPoint(x: corner.x + (other.x - corner.x) * t, y: corner.y + (other.y - corner.y) * t)
            }
            let before = toward(vertices[(k + n - 1) % n]), after = toward(vertices[(k + 1) % n])
            out.vertices.append(before)
            out.inTangents.append(.zero)
            out.outTangents.append(CGPoint(x: (corner.x - before.x) * reach, y: (corner.y - before.y) * reach))
            out.vertices.append(after)
            out.inTangents.append(CGPoint(x: (corner.x - after.x) * reach, y: (corner.y - after.y) * reach))
            out.outTangents.append(.zero)
        }
        return out
    }

    /// The same path drawn the other way round.
    var reversed: LottieBezier {
        guard vertices.count > 1 else { return self }
        let order = [0] + (1..<vertices.count).reversed()
        return LottieBezier(vertices: order.map { vertices[$0] }, inTangents: order.map { outTangents[$0] },
                            outTangents: order.map { inTangents[$0] }, closed: closed)
    }
}
