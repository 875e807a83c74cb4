import Foundation
import LaminaCore
import LaminaScene
import LaminaJSON

/// The glyphs a Lottie file carries (`chars`: each character's outline, as
/// After Effects exported it, for a font family and style), with the fonts
/// that name them (`fonts.list`: a font name `fName` is a family `fFamily`
/// in a style `fStyle`). Text whose every character has its glyph here is
/// drawn from these outlines, as lottie-web draws it, and looks as the
/// designer's font did whatever is installed.
struct LottieGlyphs {
    /// A glyph: its outline at size 100 (y down, the baseline at 0) and
    /// how far it moves the pen, at size 100.
    struct Glyph {
        var outline: PathData
        var advance: Double
    }

    private struct Key: Hashable {
        var character: String
        var family: String
        var style: String
    }

    private var glyphs: [Key: Glyph] = [:]
    /// Font name → (family, style).
    private var fonts: [String: (family: String, style: String)] = [:]

    static let empty = LottieGlyphs()

    private init() {}

    /// Reads `fonts.list` and `chars`; a glyph that cannot be read is
    /// skipped with a warning (its text is then drawn with a font).
    init(fonts: JSONValue?, chars: JSONValue?, reader: LottiePropertyReader) throws(SceneError) {
        for font in fonts?.object?["list"]?.array.map(Array.init) ?? [] {
            guard let object = font.object, let name = object["fName"]?.string else { continue }
            self.fonts[name] = (object["fFamily"]?.string ?? name, object["fStyle"]?.string ?? "")
        }
        for (k, value) in (chars?.array.map(Array.init) ?? []).enumerated() {
            let here = "$.chars[\(k)]"
            guard let object = value.object, let character = object["ch"]?.string,
                  let advance = object["w"]?.number, advance.isFinite else {
                try reader.diagnostics.skipped(here, "a glyph needs its character \"ch\" and its width \"w\"", file: reader.file,
                                               at: value.position)
                continue
            }
            let items = try LottieShapeItem.read(object["data"]?.object?["shapes"]?.array.map(Array.init) ?? [], path: here + ".data.shapes",
                                                 reader: reader, depth: 1)
            var outline = PathData()
            Self.collect(items, matrix: .identity, into: &outline)
            let key = Key(character: character, family: object["fFamily"]?.string ?? "", style: object["style"]?.string ?? "")
            glyphs[key] = Glyph(outline: outline, advance: advance)
        }
    }

    /// The glyph of `character` in the font named `fontName`, if the file carries it.
    func glyph(_ character: Character, fontName: String) -> Glyph? {
        guard let font = fonts[fontName] else { return nil }
        return glyphs[Key(character: String(character), family: font.family, style: font.style)]
    }

    /// Whether every character of `text` but line breaks has its glyph.
    func covers(_ text: String, fontName: String) -> Bool {
        !glyphs.isEmpty && text.allSatisfy { "\r\n\u{3}".contains($0) || glyph($0, fontName: fontName) != nil }
    }

    /// The paths of a glyph's shape items, through their groups' transforms
    /// (at their first values: glyphs do not move).
    private static func collect(_ items: [LottieShapeItem], matrix: CGAffineTransform, into outline: inout PathData) {
        for item in items {
            switch item {
            case .path(let path, _, _):
                outline.append(path.pathData(roundedBy: nil).path.initial.applying(matrix))
            case .group(let group):
                collect(group.items, matrix: (group.transform?.initialMatrix ?? .identity).concatenating(matrix), into: &outline)
            default:
                break
            }
        }
    }
}

extension LottieTransform {
    /// The transform at its first values, as one affine matrix (`p + R·S·(q - a)`).
    var initialMatrix: CGAffineTransform {
        let a = anchor?.initial ?? [0, 0]
        let p = position?.initial ?? [positionX?.initial ?? 0, positionY?.initial ?? 0]
        let s = scale?.initial ?? [100, 100]
        let r = (rotation?.initial ?? 0) * .pi / 180
        return CGAffineTransform(translationX: -a[0], y: -a[1])
            .concatenating(CGAffineTransform(scaleX: s[0] / 100, y: s[1] / 100))
            .concatenating(CGAffineTransform(rotationAngle: r))
            .concatenating(CGAffineTransform(translationX: p[0], y: p[1]))
    }
}
