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
                          reader: LottiePropertyReader) throws(SceneError) -> LottieProperty<PathData> {
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
