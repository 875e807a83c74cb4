import Foundation
import LaminaCore
import LaminaScene
import LaminaJSON

/// One property of a Lottie file, fixed or keyframed (`{"a": 0|1, "k": ...}`).
///
/// A keyframe holds its value from its frame on; the segment to the next
/// keyframe eases along the cubic Bézier its `o` (out) and `i` (in)
/// tangents make, which is exactly a `CAMediaTimingFunction`; a hold
/// keyframe (`h: 1`) keeps its value until the next. bodymovin 4 wrote each
/// segment's end value as `e`; 5 takes it from the next keyframe's `s`.
enum LottieProperty<Value> {
    case fixed(Value)
    case keyed([Keyframe])

    struct Keyframe {
        /// The frame, in the composition that holds the layer.
        var frame: Double
        var value: Value
        /// Held until the next keyframe.
        var hold: Bool
        /// The easing to the next keyframe: (o.x, o.y, i.x, i.y); nil: linear.
        var easing: (Double, Double, Double, Double)?
        /// A position's spatial tangents, relative to its value: leaving it
        /// (its own `to`) and arriving at it (the previous keyframe's `ti`);
        /// nil when absent or zero.
        var spatialOut: [Double]? = nil, spatialIn: [Double]? = nil
    }

    /// The value at the start (the first keyframe's, for a keyframed one).
    var initial: Value {
        switch self {
        case .fixed(let v): v
        case .keyed(let frames): frames[0].value
        }
    }

    var isAnimated: Bool {
        if case .keyed = self { return true }
        return false
    }

    /// The values it takes at its keyframes (its one value, when fixed).
    var keyframeValues: [Value] {
        if case .keyed(let keys) = self { return keys.map(\.value) }
        return [initial]
    }

    /// The keyframes' frames (empty when fixed).
    var frames: [Double] {
        if case .keyed(let keys) = self { return keys.map(\.frame) }
        return []
    }

    /// A value made by `make` from properties keyframed at `frameLists`:
    /// made at each of their keyframes and at seven steps between, so
    /// that their easing shows; fixed when none is keyframed.
    static func sampled(at frameLists: [[Double]], _ make: (Double) -> Value) -> LottieProperty<Value> {
        let keyFrames = Array(Set(frameLists.flatMap { $0 })).sorted()
        guard keyFrames.count > 1 else { return .fixed(make(keyFrames.first ?? 0)) }
        var frames: [Double] = []
        for (a, b) in zip(keyFrames, keyFrames.dropFirst()) {
            for step in 0..<8 { frames.append(a + (b - a) * Double(step) / 8) }
        }
        frames.append(keyFrames[keyFrames.count - 1])
        return .keyed(frames.map { Keyframe(frame: $0, value: make($0), hold: false, easing: nil) })
    }

    /// One value made from several properties, as lottie-ios's
    /// `Keyframes.combined` makes it: fixed when none is keyframed; at the
    /// keyframed ones' keyframes, with their holds and easing, when they
    /// all share them (frames, holds, easing); else every tenth of a frame
    /// from the first keyframe to the last (at most `LottieTime.maxSamples`),
    /// each value held, since Core Animation cannot ease one value by
    /// several curves. `value` reads a part between its keyframes; when
    /// `mayTake` refuses that many samples, the value is made at each of the
    /// parts' keyframes instead, straight between.
    static func combined<Part>(_ parts: [LottieProperty<Part>], value: (LottieProperty<Part>, Double) -> Part,
                               mayTake: (Int) -> Bool = { _ in true }, _ make: ([Part]) -> Value) -> LottieProperty<Value> {
        let keyed = parts.compactMap { part -> [LottieProperty<Part>.Keyframe]? in
            if case .keyed(let keys) = part, keys.count > 1 { return keys }
            return nil
        }
        guard let base = keyed.first else { return .fixed(make(parts.map(\.initial))) }
        func timing(_ key: LottieProperty<Part>.Keyframe) -> [Double] {
            [key.frame, key.hold ? 1 : 0] + (key.easing.map { [$0.0, $0.1, $0.2, $0.3] } ?? [])
        }
        if keyed.allSatisfy({ $0.count == base.count && zip($0, base).allSatisfy { timing($0) == timing($1) } }) {
            return .keyed(base.indices.map { index in
                let values = parts.map { part -> Part in
                    if case .keyed(let keys) = part, keys.count > 1 { return keys[index].value }
                    return part.initial
                }
                return .init(frame: base[index].frame, value: make(values), hold: base[index].hold, easing: base[index].easing)
            })
        }
        let frames = keyed.flatMap { $0.map(\.frame) }
        let (first, last) = (frames.min() ?? 0, frames.max() ?? 0)
        let step = max(0.1, (last - first) / Double(LottieTime.maxSamples))
        let count = max(1, Int(((last - first) / step).rounded(.up)))
        guard mayTake(count) else {
            return .keyed(Array(Set(frames)).sorted().map { frame in
                .init(frame: frame, value: make(parts.map { value($0, frame) }), hold: false, easing: nil)
            })
        }
        return .keyed((0..<count).map { k in
            let frame = first + Double(k) * step
            return .init(frame: frame, value: make(parts.map { value($0, frame) }), hold: true, easing: nil)
        })
    }

    func map<T>(_ transform: (Value) -> T) -> LottieProperty<T> {
        switch self {
        case .fixed(let v): return .fixed(transform(v))
        case .keyed(let keys):
            return .keyed(keys.map { .init(frame: $0.frame, value: transform($0.value), hold: $0.hold, easing: $0.easing) })
        }
    }
}

extension LottieProperty {
    /// The value at `frame`: eased between keyframes for numbers, lists of
    /// numbers and paths (morphed point by point), else the last keyframe's
    /// at or before it (a time-remapped precomposition's values, sampled).
    func sampledValue(at frame: Double) -> Value {
        switch self {
        case .fixed(let value):
            return value
        case .keyed(let keys):
            if let numbers = self as? LottieProperty<Double> { return numbers.value(at: frame) as! Value }
            if let lists = self as? LottieProperty<[Double]> { return lists.value(at: frame) as! Value }
            if let paths = self as? LottieProperty<PathData> { return paths.value(at: frame) as! Value }
            return (keys.last { $0.frame <= frame } ?? keys[0]).value
        }
    }
}

extension LottieProperty {
    /// The value at `frame`: between two keyframes, `mix`ed at the
    /// segment's eased fraction; the earlier keyframe's where the segment
    /// is held or `mix` cannot join the two.
    func eased(at frame: Double, _ mix: (Value, Value, Double) -> Value?) -> Value {
        guard case .keyed(let keys) = self, let first = keys.first else { return initial }
        if frame <= first.frame { return first.value }
        for k in 0..<(keys.count - 1) where frame < keys[k + 1].frame {
            let (a, b) = (keys[k], keys[k + 1])
            guard !a.hold else { return a.value }
            var t = (frame - a.frame) / max(b.frame - a.frame, 1e-9)
            if let e = a.easing {
                t = CAMediaTimingFunction(controlPoints: Float(e.0), Float(e.1), Float(e.2), Float(e.3)).solve(forInput: t)
            }
            return mix(a.value, b.value, t) ?? a.value
        }
        return keys[keys.count - 1].value
    }
}

extension LottieProperty where Value == LottieBezier {
    /// The shape at `frame`: eased, each point moved straight (held when
    /// the two have different vertices).
    func value(at frame: Double) -> LottieBezier { eased(at: frame) { $0.interpolated(to: $1, $2) } }
}

extension LottieProperty where Value == PathData {
    /// The path at `frame`: eased and morphed point by point (held when the
    /// two cannot morph, as Core Animation holds them).
    func value(at frame: Double) -> PathData {
        eased(at: frame) { PathMorph.canMorph($0, $1) ? PathMorph.interpolate($0, $1, fraction: $2) : nil }
    }
}

extension LottieProperty where Value == Double {
    /// The value at `frame`, eased as the file says.
    func value(at frame: Double) -> Double {
        guard case .keyed(let keys) = self else { return initial }
        return LottieEasing.sample(keys.map { ($0.frame, [$0.value], $0.hold, $0.easing) }, at: frame)[0]
    }
}

extension LottieProperty where Value == [Double] {
    /// The value at `frame`, eased as the file says.
    func value(at frame: Double) -> [Double] {
        guard case .keyed(let keys) = self else { return initial }
        return LottieEasing.sample(keys.map { ($0.frame, $0.value, $0.hold, $0.easing) }, at: frame)
    }
}

/// Sampling keyframed numbers between their keyframes (for paths made from
/// several animated numbers: a rectangle's size and roundness).
enum LottieEasing {
    static func sample(_ keys: [(frame: Double, value: [Double], hold: Bool, easing: (Double, Double, Double, Double)?)],
                       at frame: Double) -> [Double] {
        guard let first = keys.first else { return [] }
        if frame <= first.frame { return first.value }
        for k in 0..<(keys.count - 1) where frame < keys[k + 1].frame {
            let (a, b) = (keys[k], keys[k + 1])
            if a.hold { return a.value }
            var t = (frame - a.frame) / max(b.frame - a.frame, 1e-9)
            if let e = a.easing {
                t = CAMediaTimingFunction(controlPoints: Float(e.0), Float(e.1), Float(e.2), Float(e.3)).solve(forInput: t)
            }
            return zip(a.value, b.value).map { $0 + ($1 - $0) * t }
        }
        return keys[keys.count - 1].value
    }
}

extension LottieProperty where Value == PathData {
    /// How many of its keyframes' paths cannot morph into the next one's
    /// (`PathMorph.canMorph`: a different number of vertices, as a star
    /// whose number of points changes, or a path that gains one).
    var segmentsThatCannotMorph: Int {
        guard case .keyed(let keys) = self else { return 0 }
        return zip(keys, keys.dropFirst()).count { !$0.hold && !PathMorph.canMorph($0.value, $1.value) }
    }
}

/// Reads the properties of a Lottie document, reporting where they are wrong.
struct LottiePropertyReader {
    let file: String
    let diagnostics: Diagnostics

    func error(_ path: String, _ value: JSONValue?, _ message: String) -> SceneError {
        SceneError(.invalidValue, at: "\(file): \(path)", position: value?.position, message)
    }

    /// Warns, at `path`, where `shape`'s keyframes change their number of
    /// vertices: Core Animation cannot morph such paths (its result is
    /// undefined), and Lamina jumps from one to the next at the keyframe.
    func warnWhereShapesCannotMorph(_ shape: LottieProperty<PathData>, at path: String, position: SourcePosition) {
        let count = shape.segmentsThatCannotMorph
        guard count > 0 else { return }
        diagnostics.tolerated(path, "the path's keyframes differ in their number of vertices, which Core Animation cannot morph: each shape shows until the next keyframe's (\(count) of them)",
                              file: file, at: position)
    }

    /// A property object at `key` of `object`; nil when absent.
    func property<Value>(_ object: JSONObject, _ key: String, path: String,
                         _ read: (JSONValue, String) throws(SceneError) -> Value) throws(SceneError) -> LottieProperty<Value>? {
        guard let value = object[key] else { return nil }
        let here = path + "." + key
        guard let body = value.object else {
            // Some exporters write an effect's value bare (`"v": 0`): read
            // as a value that does not change, when it reads as one.
            guard value.number != nil || value.array != nil, let bare = try? read(value, here) else {
                throw error(here, value, "expected a property object {\"a\": 0 or 1, \"k\": value}")
            }
            diagnostics.tolerated(here, "a bare value where a property object {\"a\": 0, \"k\": value} belongs: read as a fixed value",
                                  file: file, at: value.position)
            return .fixed(bare)
        }
        if body["x"] != nil {
            try diagnostics.skipped("\(here).x", "expressions are JavaScript, which Core Animation does not run; the property's own value is drawn",
                                    file: file, at: value.position)
        }
        if let animated = body["a"], animated.number != 0, animated.number != 1 {
            diagnostics.tolerated("\(here).a", "\"a\" is 0 (a fixed value) or 1 (keyframes): the value is read by the form of \"k\"",
                                  file: file, at: animated.position)
        }
        guard let k = body["k"] else { throw error(here, value, "a property needs its value \"k\"") }
        if let keys = k.array, let firstKey = keys.first, firstKey.object?["t"] != nil {
            return .keyed(try keyframes(keys, path: here + ".k", read))
        }
        return .fixed(try read(k, here + ".k"))
    }

    private func keyframes<Value>(_ keys: JSONArray, path: String,
                                  _ read: (JSONValue, String) throws(SceneError) -> Value) throws(SceneError) -> [LottieProperty<Value>.Keyframe] {
        var out: [LottieProperty<Value>.Keyframe] = []
        var pendingEnd: (JSONValue, String)?
        var pendingTangentIn: [Double]?
        for (index, key) in keys.enumerated() {
            let here = "\(path)[\(index)]"
            guard let object = key.object, let frame = object["t"]?.number, frame.isFinite else {
                throw error(here, key, "a keyframe needs its frame \"t\", a finite number")
            }
            if let last = out.last, frame < last.frame {
                throw error(here + ".t", object["t"], "keyframes must be in order of their frames (\(frame) after \(last.frame))")
            }
            let start = object["s"].map { ($0, here + ".s") } ?? pendingEnd
            guard let (startValue, startPath) = start else {
                // The last keyframe of a bodymovin 4 file carries only its frame.
                if let previous = out.last {
                    var last = LottieProperty<Value>.Keyframe(frame: frame, value: previous.value, hold: true, easing: nil)
                    last.spatialIn = pendingTangentIn
                    out.append(last)
                }
                continue
            }
            let value = try read(Self.unwrapped(startValue), startPath)
            pendingEnd = object["e"].map { ($0, here + ".e") }
            let hold = (object["h"]?.number ?? 0) == 1
            var keyframe = LottieProperty<Value>.Keyframe(frame: frame, value: value, hold: hold, easing: Self.easing(object))
            // A keyframe's `to` leaves its own value; its `ti` arrives at the
            // next keyframe's (the segment between them is the keyframe's).
            keyframe.spatialOut = Self.tangent(object["to"])
            keyframe.spatialIn = pendingTangentIn
            pendingTangentIn = Self.tangent(object["ti"])
            out.append(keyframe)
        }
        guard !out.isEmpty else { throw error(path, nil, "a keyframed property needs at least one keyframe") }
        return out
    }

    /// bodymovin writes a keyframe's value of one number as `[n]`, and a
    /// shape's as `[{...}]`.
    private static func unwrapped(_ value: JSONValue) -> JSONValue {
        if let array = value.array, array.count == 1, array[0].object != nil { return array[0] }
        return value
    }

    /// Two finite numbers, not both zero.
    private static func tangent(_ value: JSONValue?) -> [Double]? {
        guard let numbers = value?.array?.compactMap(\.number), numbers.count >= 2,
              numbers[0].isFinite, numbers[1].isFinite, numbers[0] != 0 || numbers[1] != 0 else { return nil }
        return [numbers[0], numbers[1]]
    }

    private static func easing(_ key: JSONObject) -> (Double, Double, Double, Double)? {
        func first(_ v: JSONValue?) -> Double? { v?.number ?? v?.array?.first?.number }
        guard let o = key["o"]?.object, let i = key["i"]?.object,
              let ox = first(o["x"]), let oy = first(o["y"]), let ix = first(i["x"]), let iy = first(i["y"])
        else { return nil }
        // The curve's x must stay in 0...1 for it to be a function of time.
        return (min(max(ox, 0), 1), oy, min(max(ix, 0), 1), iy)
    }

    // MARK: Values

    func number(_ value: JSONValue, _ path: String) throws(SceneError) -> Double {
        if let n = value.number, n.isFinite { return n }
        if let n = value.array?.first?.number, n.isFinite { return n }
        throw error(path, value, "expected a finite number")
    }

    func vector(_ value: JSONValue, _ path: String) throws(SceneError) -> [Double] {
        if let n = value.number, n.isFinite { return [n, n] }
        guard let items = value.array, !items.isEmpty else { throw error(path, value, "expected an array of numbers") }
        var out: [Double] = []
        for (k, item) in items.enumerated() {
            guard let n = item.number, n.isFinite else { throw error("\(path)[\(k)]", item, "expected a finite number") }
            out.append(n)
        }
        // A vector of one number is x alone (y 0), as lottie-ios reads it.
        if out.count == 1 { out.append(0) }
        return out
    }

    /// `[r, g, b, 1]` from `[r, g, b]` or `[r, g, b, a]`, each 0...1 (a file
    /// whose three components are all above 1 wrote 0...255). The fourth
    /// number is read and ignored: Lottie's colours are opaque, their
    /// transparency is the fill's or stroke's opacity (lottie-ios, "for
    /// consistency with Lottie on other platforms", and lottie-web alike).
    func color(_ value: JSONValue, _ path: String) throws(SceneError) -> [Double] {
        var c = Array(try vector(value, path).prefix(3))
        guard c.count == 3 else { throw error(path, value, "expected a colour [r, g, b] or [r, g, b, a]") }
        if c.allSatisfy({ $0 > 1 }) { c = c.map { $0 / 255 } }
        return c.map { min(max($0, 0), 1) } + [1]
    }

    /// A Bézier shape `{"v": points, "i": in tangents, "o": out tangents, "c": closed}`.
    func shape(_ value: JSONValue, _ path: String) throws(SceneError) -> LottieBezier {
        guard let object = value.object else { throw error(path, value, "expected a shape {\"v\", \"i\", \"o\", \"c\"}") }
        func points(_ key: String) throws(SceneError) -> [CGPoint] {
            guard let items = object[key]?.array else { return [] }
            var out: [CGPoint] = []
            for (k, item) in items.enumerated() {
                let v = try vector(item, "\(path).\(key)[\(k)]")
                out.append(CGPoint(x: v[0], y: v[1]))
            }
            return out
        }
        let vertices = try points("v"), ins = try points("i"), outs = try points("o")
        guard ins.count == vertices.count || ins.isEmpty, outs.count == vertices.count || outs.isEmpty else {
            throw error(path, value, "a shape has one in and one out tangent per vertex (\(vertices.count) vertices, \(ins.count) in, \(outs.count) out)")
        }
        return LottieBezier(vertices: vertices, inTangents: ins.isEmpty ? vertices.map { _ in .zero } : ins,
                            outTangents: outs.isEmpty ? vertices.map { _ in .zero } : outs,
                            closed: object["c"]?.bool ?? false)
    }
}

/// A Lottie Bézier path: vertices with tangents relative to them.
struct LottieBezier {
    var vertices: [CGPoint]
    var inTangents: [CGPoint]
    var outTangents: [CGPoint]
    var closed: Bool

    /// The path `t` of the way to `other`, each point moved straight
    /// (nil when the two have different vertices or one is closed).
    func interpolated(to other: LottieBezier, _ t: Double) -> LottieBezier? {
        guard vertices.count == other.vertices.count, closed == other.closed else { return nil }
        func mix(_ a: [CGPoint], _ b: [CGPoint]) -> [CGPoint] {
            zip(a, b).map { CGPoint(x: $0.x + ($1.x - $0.x) * t, y: $0.y + ($1.y - $0.y) * t) }
        }
        return LottieBezier(vertices: mix(vertices, other.vertices), inTangents: mix(inTangents, other.inTangents),
                            outTangents: mix(outTangents, other.outTangents), closed: closed)
    }

    /// The path, every segment a cubic (so that two keyframes of the same
    /// vertex count morph into each other).
    var pathData: PathData {
        var data = PathData()
        guard let first = vertices.first else { return data }
        data.move(to: first)
        func segment(_ a: Int, _ b: Int) {
            let (from, to) = (vertices[a], vertices[b])
            data.addCurve(to: to, control1: CGPoint(x: from.x + outTangents[a].x, y: from.y + outTangents[a].y),
                          control2: CGPoint(x: to.x + inTangents[b].x, y: to.y + inTangents[b].y))
        }
        for k in 1..<max(vertices.count, 1) { segment(k - 1, k) }
        if closed {
            segment(vertices.count - 1, 0)
            data.closeSubpath()
        }
        return data
    }
}

extension JSONValue {
    /// A number that names something (a layer type, an index, a cap): a
    /// whole number of at most nine digits, else nil. A file's `1e300`
    /// must not become an `Int` (which traps).
    var smallInteger: Int? {
        guard let n = number, n.isFinite, abs(n) < 1e9 else { return nil }
        return Int(n)
    }
}
