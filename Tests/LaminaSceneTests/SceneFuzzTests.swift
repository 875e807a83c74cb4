// Random and mutated scenes never crash or hang the decoder: each one
// either decodes (and then encodes and reads back to the same tree) or is
// refused with a SceneError that names where. Seeded, so every run checks
// the same few thousand cases and a failure can be replayed.
import Foundation
import Testing
@testable import LaminaScene
import LaminaCore
import LaminaJSON

@Suite struct SceneFuzzTests {
    /// Tight enough that no case spends long making pictures, loose enough
    /// for every seed scene.
    static let limits = SceneLimits(imagePixels: 100_000, totalImagePixels: 400_000)

    /// Scenes that exercise every part of the decoder.
    static var seeds: [String] {
        var texts = Conformance.sceneFiles.compactMap { try? String(contentsOf: $0, encoding: .utf8) }
        texts.append("""
            {"format": "lamina.scene/1", "width": 200, "height": 100, "scale": 2, "origin": "bottomLeft", "time": 1,
             "sublayerTransform": [{"perspective": 400}, {"set": {"m34": -0.01}}, {"matrix": [1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]}],
             "animations": [{"keyPath": "sublayerTransform.rotation.y", "type": "spring", "fromValue": 0, "toValue": 1}],
             "sublayers": [
               {"frame": [10, 10, 50, 40], "affineTransform": [1, 0.2, 0, 1, 3, 4], "cornerRadius": 5,
                "maskedCorners": ["maxXMaxY"], "mask": {"type": "shape", "path": [["ellipse", 0, 0, 50, 40]]},
                "contents": {"checker": [8, 8, 2], "colors": ["#f00", [0, 0, 1, 0.5]]}, "contentsGravity": "top",
                "shadowOpacity": 0.5, "shadowPath": "M 0 0 L 10 0 L 10 10 Z", "borderWidth": 1, "borderColor": "#123"},
               {"type": "text", "string": [{"text": "a", "fontSize": 9, "font": "Mono"}, {"text": "b", "underline": true}],
                "foregroundColor": "clear", "alignmentMode": "center", "wrapped": true, "truncationMode": "end"},
               {"type": "gradient", "colors": ["#000", "#fff", "#f00"], "locations": [0, 0.3, 1], "gradientType": "radial",
                "startPoint": [0, 0], "endPoint": [1, 1]},
               {"type": "replicator", "instanceCount": 3, "instanceTransform": [{"rotateDegrees": [30, 0, 0, 1]}],
                "instanceColor": "#ff0000", "instanceAlphaOffset": -0.2, "instanceDelay": 0.1,
                "sublayers": [{"type": "transform", "sublayers": [{"bounds": [0, 0, 5, 5], "backgroundColor": [1, 0, 0]}]}],
                "animations": [{"type": "keyframe", "keyPath": "instanceColor", "values": ["#fff", [0.1, 0.2, 0.3]],
                  "keyTimes": [0, 1], "timingFunction": [0.2, 0, 0.8, 1], "fillMode": "forwards", "duration": 2,
                  "repeatCount": 2, "autoreverses": true, "beginTime": 0.5, "speed": 2, "timeOffset": 0.1}]},
               {"type": "shape", "path": [["moveTo", 1, 2], ["lineTo", 3, 4], ["quadTo", 1, 2, 3, 4],
                 ["curveTo", 1, 2, 3, 4, 5, 6], ["arc", 50, 50, 10, 0, 3, true], ["close"], ["rect", 0, 0, 4, 4],
                 ["roundedRect", 0, 0, 9, 9, 2], ["roundedRectCorners", 0, 0, 10, 10, 2, 3, ["topLeft"]]],
                "fillColor": null, "strokeColor": "#00f", "lineWidth": 2, "lineCap": "round", "lineJoin": "bevel",
                "miterLimit": 4, "lineDashPattern": [4, 2], "lineDashPhase": 1, "strokeStart": 0.1, "strokeEnd": 0.9,
                "fillRule": "evenOdd",
                "animations": [{"keyPath": "strokeEnd", "fromValue": 0, "toValue": 1, "timingFunction": "easeIn"}]}
             ]}
            """)
        return texts
    }

    @Test(.timeLimit(.minutes(2)))
    func mutatedScenesAreDecodedOrRefusedCleanly() throws {
        var random = SeededRandom(seed: 0x5EED)
        let seeds = Self.seeds.map { Array($0.utf8) }
        var stats = Stats()
        for _ in 0..<2400 {
            var bytes = random.pick(seeds)
            for _ in 0..<random.int(1...2) {
                bytes = mutate(bytes, &random)
            }
            try check(bytes, &stats)
        }
        // The mutations reach past the JSON reader into the scene reader.
        #expect(stats.decoded > 50 && stats.refusedAfterParsing > 500, "\(stats)")
    }

    @Test(.timeLimit(.minutes(2)))
    func randomDocumentsAreDecodedOrRefusedCleanly() throws {
        var random = SeededRandom(seed: 0xF022)
        var stats = Stats()
        for _ in 0..<1200 {
            var generator = RandomJSON(random: random)
            let text = JSONWriter(prettyPrinted: random.chance(0.5)).write(generator.scene())
            random = generator.random
            try check(Array(text.utf8), &stats)
        }
        #expect(stats.decoded > 20 && stats.refusedAfterParsing > 500, "\(stats)")
    }

    struct Stats: CustomStringConvertible {
        var decoded = 0, refusedAfterParsing = 0, refusedByParser = 0
        var description: String { "decoded \(decoded), refused \(refusedAfterParsing) + \(refusedByParser) as JSON" }
    }

    /// Decodes; a success must encode and read back to the same tree, a
    /// refusal must say where.
    private func check(_ bytes: [UInt8], _ stats: inout Stats) throws {
        let decoder = SceneDecoder(limits: Self.limits, options: .init(allowsFiles: false))
        let scene: Scene
        do {
            scene = try decoder.decode(Data(bytes))
        } catch {
            // Typed throws: the error is a SceneError by construction.
            #expect(!error.issues.isEmpty)
            for issue in error.issues {
                #expect(issue.location.hasPrefix("$") && !issue.message.isEmpty, "\(issue)")
            }
            if [.syntax, .duplicateKey, .nonFinite].contains(error.kind) && error.issues.count == 1 {
                stats.refusedByParser += 1
            } else {
                stats.refusedAfterParsing += 1
            }
            return
        }
        stats.decoded += 1
        let encoded = try SceneEncoder(limits: Self.limits).encode(scene)
        let again = try decoder.decode(encoded)
        let (before, after) = (TreeFingerprint.of(scene), TreeFingerprint.of(again))
        if before != after {
            Issue.record("\(TreeFingerprint.firstDifference(before, after))\n\(String(decoding: bytes, as: UTF8.self))")
        }
    }

    /// One random change: a byte flip, an insertion or deletion, a
    /// truncation, or a structural change (a value of another type, a
    /// duplicated key, a huge or tiny number) made on the parsed document.
    private func mutate(_ bytes: [UInt8], _ random: inout SeededRandom) -> [UInt8] {
        guard !bytes.isEmpty else { return Array("{}".utf8) }
        var out = bytes
        let i = random.int(0...(bytes.count - 1))
        // Half the changes are structural, so that many cases get past the
        // JSON reader.
        switch random.int(0...9) {
        case 0:
            out[i] = UInt8(random.int(0...255))
        case 1:
            out[i] = random.pick(Array("{}[]\",:0123456789-.eE tfn\\".utf8))
        case 2:
            out.insert(random.pick(Array("{}[]\",:-0.9e\u{7F}".utf8) + [0xC3, 0xFF, 0x00]), at: i)
        case 3:
            out.removeSubrange(i..<min(bytes.count, i + random.int(1...8)))
        case 4:
            out = Array(bytes.prefix(i))
        default:
            guard let value = try? JSONParser.parse(bytes) else { return out }
            var tree = TreeMutation(random: random)
            let mutated = tree.mutate(value)
            random = tree.random
            out = Array(JSONWriter(prettyPrinted: false).write(mutated).utf8)
        }
        return out
    }
}

/// Structural mutations of a parsed document: replace one value (chosen
/// uniformly by walking) with a value of another type or an extreme one.
struct TreeMutation {
    var random: SeededRandom

    mutating func mutate(_ value: JSONValue) -> JSONValue {
        var count = 0
        countNodes(value, &count)
        var target = random.int(0...max(0, count - 1))
        return replace(value, &target)
    }

    private func countNodes(_ v: JSONValue, _ count: inout Int) {
        count += 1
        switch v.kind {
        case .array(let items): for item in items { countNodes(item, &count) }
        case .object(let o): for m in o.members { countNodes(m.value, &count) }
        default: break
        }
    }

    private mutating func replace(_ v: JSONValue, _ target: inout Int) -> JSONValue {
        if target == 0 {
            target = -1
            return replacement(for: v)
        }
        target -= 1
        switch v.kind {
        case .array(let items):
            return .array(items.map { replace($0, &target) })
        case .object(let o):
            return .object(o.members.map { ($0.key, replace($0.value, &target)) })
        default:
            return v
        }
    }

    private mutating func replacement(for v: JSONValue) -> JSONValue {
        switch random.int(0...9) {
        case 0: return .null
        case 1: return .bool(random.chance(0.5))
        case 2: return .number(random.pick([0, -1, 1e300, -1e-300, 0.5, 1e15, 16384, 3]))
        case 3: return .string(random.pick(["", "#fff", "clear", "shape", "M 0 0 L 1 1", "data:image/png;base64,AAAA",
                                            "lamina.scene/2", "moveTo", "keyframe", "opacity", "transform.rotation.z"]))
        case 4: return .array([])
        case 5: return .object([])
        case 6: return .array([v, v])
        case 7:
            // The same value with one more key, perhaps a known one.
            if case .object(let o) = v.kind {
                let key = random.pick(SceneKeys.all.map(\.name) + ["type", "frame", "mask", "bogus"])
                return .object(o.members.map { ($0.key, $0.value) } + [(key, v)].filter { _ in o[key] == nil })
            }
            return .array([v])
        case 8:
            if case .array(let items) = v.kind, !items.isEmpty {
                return .array(Array(items.dropLast()))
            }
            return .numbers([1, 2, 3])
        default:
            return .numbers((0..<random.int(0...16)).map { _ in CGFloat(random.int(-5...400)) })
        }
    }
}

/// Random documents shaped loosely like scenes: objects with the format's
/// key names and random values, nested a few levels.
struct RandomJSON {
    var random: SeededRandom

    mutating func scene() -> JSONValue {
        var members: [(String, JSONValue)] = [("width", .number(Double(random.int(-1...300)))),
                                              ("height", .number(Double(random.int(1...300))))]
        if random.chance(0.1) { members.removeFirst() }
        members += layerMembers(depth: 0)
        return .object(members)
    }

    private mutating func layerMembers(depth: Int) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = []
        var used = Set<String>()
        if random.chance(0.5) {
            members.append(("type", .string(random.pick(LayerType.names + ["bogus"]))))
            used.insert("type")
        }
        let keys = SceneKeys.all.map(\.name) + ["frame", "mask", "sublayers", "animations"]
        for _ in 0..<random.int(0...6) {
            let key = random.pick(keys)
            guard used.insert(key).inserted else { continue }
            members.append((key, value(for: key, depth: depth)))
        }
        return members
    }

    private mutating func value(for key: String, depth: Int) -> JSONValue {
        switch key {
        case "sublayers" where depth < 3:
            return .array((0..<random.int(0...3)).map { _ in .object(layerMembers(depth: depth + 1)) })
        case "mask" where depth < 3:
            return .object(layerMembers(depth: depth + 1))
        case "animations":
            return .array((0..<random.int(0...2)).map { _ in
                var m: [(String, JSONValue)] = [("keyPath", .string(random.pick(["opacity", "position", "transform",
                    "bounds.size.width", "backgroundColor", "colors", "path", "bogus"])))]
                if random.chance(0.5) { m.append(("type", .string(random.pick(["basic", "keyframe", "spring"])))) }
                for k in ["fromValue", "toValue", "values", "keyTimes", "duration", "mass", "timingFunction"]
                where random.chance(0.3) {
                    m.append((k, anyValue(depth: 2)))
                }
                return .object(m)
            })
        default:
            return anyValue(depth: 0)
        }
    }

    private mutating func anyValue(depth: Int) -> JSONValue {
        switch random.int(0...(depth > 2 ? 4 : 7)) {
        case 0: return .null
        case 1: return .bool(random.chance(0.5))
        case 2: return .number(random.pick([0, 1, -1, 0.5, 2, 100, 1e10]))
        case 3: return .string(random.pick(["#fff", "#12345678", "clear", "round", "M 0 0 L 5 5 Z", "linear", "x"]))
        case 4: return .numbers((0..<random.int(0...5)).map { _ in CGFloat(random.int(-2...50)) / 2 })
        case 5:
            return .array((0..<random.int(0...4)).map { _ in
                random.chance(0.5) ? .array([.string(random.pick(["moveTo", "lineTo", "arc", "rect", "close"]))]
                                            + (0..<random.int(0...6)).map { _ in .number(Double(random.int(0...9))) })
                    : anyValue(depth: depth + 1)
            })
        case 6:
            return .object([(random.pick(["translate", "scale", "rotate", "perspective", "width", "checker"]),
                             anyValue(depth: depth + 1))])
        default:
            return .object((0..<random.int(0...3)).map { _ in
                (random.pick(["width", "height", "color", "checker", "colors", "text", "font"]), anyValue(depth: depth + 1))
            }.reduce(into: [(String, JSONValue)]()) { acc, kv in
                if !acc.contains(where: { $0.0 == kv.0 }) { acc.append(kv) }
            })
        }
    }
}
