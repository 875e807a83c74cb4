import Foundation
import LaminaJSON

// The keys of text layers (`"type": "text"`).
extension SceneKeys {
    static let alignments: [(String, CATextLayerAlignmentMode)] = [
        ("natural", .natural), ("left", .left), ("right", .right), ("center", .center), ("justified", .justified),
    ]
    static let truncations: [(String, CATextLayerTruncationMode)] = [
        ("none", .none), ("start", .start), ("middle", .middle), ("end", .end),
    ]

    static let textKeys: [SceneKey] = [
        SceneKey("string", types: [.text], decode: { c, v, p, layer throws(SceneError) in
            if let s = try c.text(v, at: p) { (layer as? CATextLayer)?.string = s }
        }, encode: { layer, _, path throws(SceneError) in
            guard let string = (layer as? CATextLayer)?.string else { return nil }
            return try TextValue.encode(string, at: path)
        }),
        SceneKey("font", types: [.text], decode: { c, v, p, layer throws(SceneError) in
            if let f = try c.fontName(v, at: p) { (layer as? CATextLayer)?.font = f }
        }, encode: { layer, _, path throws(SceneError) in
            guard let font = (layer as? CATextLayer)?.font else { return nil }
            // A font object is written as its name: the layer's size is
            // fontSize, whatever size the font carries.
            guard let name = font as? String ?? (font as? TextLayerFont)?.textLayerFontName else {
                throw SceneError(.invalidValue, at: path.description,
                                 "a font of type \(type(of: font)) cannot be written; only a font name or a UIFont, CTFont or CGFont can")
            }
            return .string(name)
        }),
        .number("fontSize", \CATextLayer.fontSize),
        .color("foregroundColor", \CATextLayer.foregroundColor),
        .names("alignmentMode", \CATextLayer.alignmentMode, alignments),
        .bool("wrapped", \CATextLayer.isWrapped),
        .names("truncationMode", \CATextLayer.truncationMode, truncations),
    ]
}

extension DecodingContext {
    static let runKeys = ["text", "font", "fontSize", "foregroundColor", "underline", "kern", "strokeWidth", "strokeColor"]

    /// A font family or fontconfig pattern: a non-empty string.
    func fontName(_ value: JSONValue, at path: JSONPath) throws(SceneError) -> String? {
        guard let name = try string(value, at: path) else { return nil }
        guard !name.isEmpty else {
            try report(.invalidValue, value, at: path, "a font name cannot be empty")
            return nil
        }
        return name
    }

    /// A string, or an array of runs made into an `AttributedText` (not an
    /// `NSAttributedString`, which leaks on Linux: see `AttributedText`).
    func text(_ value: JSONValue, at path: JSONPath) throws(SceneError) -> Any? {
        switch value.kind {
        case .string(let s):
            try countText(s.unicodeScalars.count, value, at: path)
            return s
        case .array(let runs):
            var text: [AttributedText.Run] = []
            var length = 0
            var ok = true
            for (k, run) in runs.enumerated() {
                guard let (piece, count) = try textRun(run, at: path / k) else { ok = false; continue }
                length += count
                try countText(length, value, at: path)
                text.append(piece)
            }
            return ok ? AttributedText(text) : nil
        default:
            try wrongType(value, at: path, expected: "a string or an array of runs {\"text\", ...}")
            return nil
        }
    }

    private func textRun(_ value: JSONValue, at path: JSONPath) throws(SceneError) -> (AttributedText.Run, Int)? {
        guard let run = try object(value, at: path, "a run {\"text\", \"font\"?, \"fontSize\"?, ...}") else {
            return nil
        }
        try checkKeys(of: run, at: path, allowed: Self.runKeys, what: "a text run")
        guard let text = try required("text", of: run, value, at: path, { v, p throws(SceneError) in
            try string(v, at: p)
        }) else { return nil }
        var attributes: [NSAttributedString.Key: Any] = [:]
        var ok = true
        if let v = run["font"] {
            if let f = try fontName(v, at: path / "font") { attributes[TextRunAttribute.font] = f } else { ok = false }
        }
        if let v = run["fontSize"] {
            if let s = try number(v, at: path / "fontSize", .positive) {
                attributes[TextRunAttribute.fontSize] = CGFloat(s)
            } else { ok = false }
        }
        if let v = run["foregroundColor"] {
            if let c = try color(v, at: path / "foregroundColor") {
                attributes[TextRunAttribute.foregroundColor] = c
            } else { ok = false }
        }
        if let v = run["underline"] {
            if let u = try bool(v, at: path / "underline") {
                if u { attributes[TextRunAttribute.underlineStyle] = 1 }
            } else { ok = false }
        }
        if let v = run["kern"] {
            if let k = try number(v, at: path / "kern") { attributes[TextRunAttribute.kern] = CGFloat(k) } else { ok = false }
        }
        if let v = run["strokeWidth"] {
            if let w = try number(v, at: path / "strokeWidth") {
                attributes[TextRunAttribute.strokeWidth] = CGFloat(w)
            } else { ok = false }
        }
        if let v = run["strokeColor"] {
            if let c = try color(v, at: path / "strokeColor") { attributes[TextRunAttribute.strokeColor] = c } else { ok = false }
        }
        guard ok else { return nil }
        return (AttributedText.Run(text, attributes: attributes), text.unicodeScalars.count)
    }

    private func countText(_ length: Int, _ value: JSONValue, at path: JSONPath) throws(SceneError) {
        guard length <= limits.textLength else {
            throw fatal(.limitExceeded, at: path, value.position,
                        "the text has more than \(limits.textLength) characters (the limit)")
        }
    }
}

/// The JSON form of a text layer's `string`.
enum TextValue {
    /// A `String` as itself; an `NSAttributedString` as runs, one per stretch
    /// of equal attributes.
    static func encode(_ string: Any, at path: JSONPath) throws(SceneError) -> JSONValue {
        if let s = string as? String { return .string(s) }
        if let text = string as? AttributedText {
            var runs: [JSONValue] = []
            for piece in text.runs { runs.append(try run(piece.text, piece.attributes, at: path / runs.count)) }
            return .array(runs)
        }
        guard let attributed = string as? NSAttributedString else {
            throw SceneError(.invalidValue, at: path.description,
                             "a string of type \(type(of: string)) cannot be written; only String, AttributedText and NSAttributedString can")
        }
        var runs: [JSONValue] = []
        var failure: SceneError?
        let whole = attributed.string as NSString
        attributed.enumerateAttributes(in: NSRange(location: 0, length: attributed.length)) { attributes, range, stop in
            do throws(SceneError) {
                runs.append(try run(whole.substring(with: range), attributes, at: path / runs.count))
            } catch {
                failure = error
                stop.pointee = true
            }
        }
        if let failure { throw failure }
        return .array(runs)
    }

    private static func run(
        _ text: String, _ attributes: [NSAttributedString.Key: Any], at path: JSONPath
    ) throws(SceneError) -> JSONValue {
        var members: [(String, JSONValue)] = [("text", .string(text))]
        for (key, value) in attributes.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            func unsupported() -> SceneError {
                SceneError(.invalidValue, at: path.description,
                           "the attribute \(key.rawValue) = \(value) of a text run cannot be written")
            }
            switch key {
            case TextRunAttribute.font:
                if let name = value as? String {
                    members.append(("font", .string(name)))
                } else if let font = value as? TextLayerFont {
                    members.append(("font", .string(font.textLayerFontName)))
                    // The font's size is the run's, unless the run gives its own.
                    if let size = font.textLayerFontSize, attributes[TextRunAttribute.fontSize] == nil {
                        members.append(("fontSize", .number(Double(size))))
                    }
                } else {
                    throw unsupported()
                }
            case TextRunAttribute.fontSize:
                guard let size = number(value) else { throw unsupported() }
                members.append(("fontSize", .number(size)))
            case TextRunAttribute.foregroundColor, TextRunAttribute.coreTextForegroundColor:
                // Two names for the run's colour; UIKit's wins when both are
                // given, as when the text is drawn.
                if key == TextRunAttribute.coreTextForegroundColor,
                   attributes[TextRunAttribute.foregroundColor] != nil { continue }
                guard let color = value as? CGColor else { throw unsupported() }
                members.append(("foregroundColor", ColorValue.encode(color)))
            case TextRunAttribute.underlineStyle:
                guard let style = number(value) else { throw unsupported() }
                if style != 0 { members.append(("underline", .bool(true))) }
            case TextRunAttribute.kern, TextRunAttribute.coreTextKern:
                // Two names, as for the colour: UIKit's wins.
                if key == TextRunAttribute.coreTextKern, attributes[TextRunAttribute.kern] != nil { continue }
                guard let kern = number(value), kern.isFinite else { throw unsupported() }
                if kern != 0 { members.append(("kern", .number(kern))) }
            case TextRunAttribute.strokeWidth, TextRunAttribute.coreTextStrokeWidth:
                if key == TextRunAttribute.coreTextStrokeWidth, attributes[TextRunAttribute.strokeWidth] != nil { continue }
                guard let width = number(value), width.isFinite else { throw unsupported() }
                if width != 0 { members.append(("strokeWidth", .number(width))) }
            case TextRunAttribute.strokeColor, TextRunAttribute.coreTextStrokeColor:
                if key == TextRunAttribute.coreTextStrokeColor, attributes[TextRunAttribute.strokeColor] != nil { continue }
                guard let color = value as? CGColor else { throw unsupported() }
                members.append(("strokeColor", ColorValue.encode(color)))
            default:
                throw unsupported()
            }
        }
        // Keys in the format's order, whatever order the attributes came in.
        let order = DecodingContext.runKeys
        return .object(members.sorted { (order.firstIndex(of: $0.0) ?? 99) < (order.firstIndex(of: $1.0) ?? 99) })
    }

    private static func number(_ value: Any) -> Double? {
        switch value {
        case let v as CGFloat: Double(v)
        case let v as Double: v
        case let v as Float: Double(v)
        case let v as Int: Double(v)
        case let v as Int32: Double(v)  // CTUnderlineStyle's raw value
        case let v as NSNumber: v.doubleValue
        default: nil
        }
    }
}
