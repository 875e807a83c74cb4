// A text description of a layer tree made through the layers' own public API
// (key-value coding), independent of the scene encoder: two trees with the
// same fingerprint hold the same values in every property of every layer,
// mask and animation. Round-trip tests compare these, so a key the encoder
// forgot shows up as a difference.
import Foundation
@testable import LaminaScene

enum TreeFingerprint {
    static func of(_ scene: Scene) -> String {
        "canvas \(scene.width) \(scene.height) \(scene.scale) \(scene.origin) \(scene.time)\n"
            + of(scene.rootLayer)
    }

    static func of(_ layer: CALayer, indent: String = "") -> String {
        var out = indent + "\(type(of: layer))\n"
        for key in type(of: layer).layerPropertyKeys.sorted() where key != "sublayers" && key != "mask" {
            out += indent + "  \(key) = \(describe(layer.value(forKey: key)))\n"
        }
        // Animations in order; their keys are not part of the format (the
        // decoder makes them from the key paths).
        for key in layer.animationKeys() ?? [] {
            out += indent + "  animation: \(describe(animation: layer.animation(forKey: key)))\n"
        }
        if let mask = layer.mask {
            out += indent + "  mask:\n" + of(mask, indent: indent + "    ")
        }
        for sublayer in layer.sublayers ?? [] {
            out += of(sublayer, indent: indent + "  ")
        }
        return out
    }

    static func describe(animation: CAAnimation?) -> String {
        guard let a = animation else { return "nil" }
        var parts = ["\(type(of: a))", "begin \(a.beginTime)", "duration \(a.duration)", "speed \(a.speed)",
                     "offset \(a.timeOffset)", "repeat \(a.repeatCount)", "autoreverses \(a.autoreverses)",
                     "fill \(a.fillMode.rawValue)", "timing \(describe(a.timingFunction))"]
        if let p = a as? CAPropertyAnimation { parts.append("keyPath \(p.keyPath ?? "nil")") }
        if let b = a as? CABasicAnimation {
            parts += ["from \(describe(b.fromValue))", "to \(describe(b.toValue))", "by \(describe(b.byValue))"]
        }
        if let s = a as? CASpringAnimation {
            parts.append("spring \(s.mass) \(s.stiffness) \(s.damping) \(s.initialVelocity)")
        }
        if let k = a as? CAKeyframeAnimation {
            parts += ["values \(describe(k.values))", "keyTimes \(describe(k.keyTimes))"]
        }
        return parts.joined(separator: ", ")
    }

    static func describe(_ value: Any?) -> String {
        guard let value else { return "nil" }
        switch value {
        case let v as Bool where type(of: value) == Bool.self: return "\(v)"
        case let v as CGFloat: return "\(Double(v))"
        case let v as Double: return "\(v)"
        case let v as Float: return "\(v)f"
        case let v as Int: return "\(v)"
        case let v as NSNumber: return "#\(v.doubleValue)"
        case let v as String: return "\"\(v)\""
        case let v as CGPoint: return "point(\(v.x), \(v.y))"
        case let v as CGSize: return "size(\(v.width), \(v.height))"
        case let v as CGRect: return "rect(\(v.origin.x), \(v.origin.y), \(v.size.width), \(v.size.height))"
        case let v as CATransform3D: return "matrix\(v.fields.map { Double($0) })"
        case let v as CGColor: return v.description
        case let v as CGPath: return "path(\(v.svgPathData))"
        case let v as CGImage: return "image(\(v.width)x\(v.height) \(checksum(v.pixelBytes)))"
        case let v as CACornerMask: return "corners(\(v.rawValue))"
        case let v as CAMediaTimingFunction: return "curve(\(v.c1x), \(v.c1y), \(v.c2x), \(v.c2y))"
        case let v as AttributedText:
            return describe(v.nsAttributedString)
        case let v as NSAttributedString:
            var runs: [String] = []
            let whole = v.string as NSString
            v.enumerateAttributes(in: NSRange(location: 0, length: v.length)) { attributes, range, _ in
                let described = attributes.map { "\($0.key.rawValue)=\(describe($0.value))" }.sorted()
                runs.append("\"\(whole.substring(with: range))\"{\(described.joined(separator: ","))}")
            }
            return "attributed[\(runs.joined(separator: " "))]"
        case let v as [Any]: return "[" + v.map { describe($0) }.joined(separator: ", ") + "]"
        case let v as any RawRepresentable: return "\(v.rawValue)"
        default: return "\(type(of: value))(\(value))"
        }
    }

    /// The first line where two fingerprints differ, with the line before.
    static func firstDifference(_ a: String, _ b: String) -> String {
        let (x, y) = (a.split(separator: "\n"), b.split(separator: "\n"))
        for i in 0..<max(x.count, y.count) {
            let l = i < x.count ? String(x[i]) : "(end)", r = i < y.count ? String(y[i]) : "(end)"
            if l != r {
                return "line \(i + 1): expected\n\(l)\nfound\n\(r)"
            }
        }
        return "no difference"
    }

    /// FNV-1a over the bytes: enough to tell pictures apart in a test.
    static func checksum(_ bytes: [UInt8]) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes {
            h ^= UInt64(b)
            h = h &* 0x100_0000_01b3
        }
        return String(h, radix: 16)
    }
}
