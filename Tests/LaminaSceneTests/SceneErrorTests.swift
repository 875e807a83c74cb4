// Every kind of refusal, with its exact JSON location and a message that
// says what was expected.
import Foundation
import Testing
@testable import LaminaScene
import LaminaJSON

/// One refused scene: the text, and what the first issue must say.
struct RefusalCase: CustomStringConvertible, Sendable {
    let json: String
    let kind: SceneError.Kind
    let location: String
    let words: String

    /// A case whose text is a whole scene.
    init(scene json: String, _ kind: SceneError.Kind, _ location: String, _ words: String) {
        self.json = json
        self.kind = kind
        self.location = location
        self.words = words
    }

    /// A case whose text is the one sublayer of a 100 x 100 scene; the
    /// location is given from that layer (`@` for `$.sublayers[0]`).
    init(_ layer: String, _ kind: SceneError.Kind, _ location: String, _ words: String) {
        self.json = "{\"width\": 100, \"height\": 100, \"sublayers\": [\(layer)]}"
        self.kind = kind
        self.location = location.replacingOccurrences(of: "@", with: "$.sublayers[0]")
        self.words = words
    }

    var description: String { json }
}

@Suite struct SceneErrorTests {
    static let documentCases: [RefusalCase] = [
        .init(scene: ##"{"width": 10, "height": 10,}"##, .syntax, "$", "trailing comma"),
        .init(scene: ##"{"width": NaN, "height": 1}"##, .nonFinite, "$.width", "finite"),
        .init(scene: ##"{"width": 1e999, "height": 1}"##, .nonFinite, "$.width", "too large"),
        .init(scene: ##"{"width": 1, "width": 2, "height": 1}"##, .duplicateKey, "$.width", "duplicate key 'width'"),
        .init(scene: ##"{"width": 1, "height": 1} {}"##, .syntax, "$", "after the end of the document"),
        .init(scene: "[1]", .wrongType, "$", "expected a scene (a JSON object"),
        .init(scene: ##"{"format": "lamina.scene/2", "width": 1, "height": 1}"##, .unsupportedFormat, "$.format",
              "unsupported format \"lamina.scene/2\""),
        .init(scene: ##"{"format": 1, "width": 1, "height": 1}"##, .wrongType, "$.format", "expected a string"),
        .init(scene: ##"{"height": 1}"##, .missingKey, "$", "'width' is required"),
        .init(scene: ##"{"width": 0, "height": 1}"##, .outOfRange, "$.width", "expected a number > 0, found 0"),
        .init(scene: ##"{"width": 1, "height": 1, "scale": -2}"##, .outOfRange, "$.scale", "> 0"),
        .init(scene: ##"{"width": 1, "height": 1, "origin": "top"}"##, .unknownName, "$.origin",
              "did you mean \"topLeft\"?"),
        .init(scene: ##"{"width": 1, "height": 1, "time": "now"}"##, .wrongType, "$.time",
              "expected a number, found a string"),
        .init(scene: ##"{"width": 1, "height": 1, "type": "shape"}"##, .invalidValue, "$.type", "plain CALayer"),
        .init(scene: ##"{"width": 1, "height": 1, "bounds": [0, 0, 1, 1]}"##, .conflict, "$.bounds",
              "come from 'width' and 'height'"),
        .init(scene: ##"{"width": 1, "height": 1, "frame": [0, 0, 1, 1]}"##, .conflict, "$.frame",
              "come from 'width' and 'height'"),
        .init(scene: ##"{"width": 1, "height": 1, "widht": 2}"##, .unknownKey, "$.widht", "did you mean 'width'?"),
    ]

    static let layerCases: [RefusalCase] = [
        // Keys and types
        .init(##"{"cornerRadious": 3}"##, .unknownKey, "@.cornerRadious", "did you mean 'cornerRadius'?"),
        .init(##"{"path": "M 0 0"}"##, .unknownKey, "@.path", "belongs to shape layers (\"type\": \"shape\")"),
        .init(##"{"width": 3}"##, .unknownKey, "@.width", "top-level object only"),
        .init(##"{"type": "shap"}"##, .unknownName, "@.type", "did you mean \"shape\"?"),
        .init(##"{"type": 1}"##, .wrongType, "@.type", "found a number"),
        .init("3", .wrongType, "@", "expected a layer (an object), found a number"),
        // Wrong types
        .init(##"{"opacity": "1"}"##, .wrongType, "@.opacity", "expected a number from 0 to 1, found a string"),
        .init(##"{"hidden": 1}"##, .wrongType, "@.hidden", "expected true or false, found a number"),
        .init(##"{"name": 3}"##, .wrongType, "@.name", "expected a string, found a number"),
        .init(##"{"bounds": [0, 0, 1]}"##, .wrongType, "@.bounds", "(4 numbers), found an array of 3"),
        .init(##"{"bounds": [0, 0, "1", 1]}"##, .wrongType, "@.bounds[2]", "found a string"),
        .init(##"{"position": {"x": 1}}"##, .wrongType, "@.position", "expected a point [x, y] (2 numbers), found an object"),
        .init(##"{"sublayers": {}}"##, .wrongType, "@.sublayers", "expected an array of layers"),
        .init(##"{"sublayers": [{}, {"opacity": true}]}"##, .wrongType, "@.sublayers[1].opacity", "found a boolean"),
        .init(##"{"mask": [1]}"##, .wrongType, "@.mask", "expected a layer"),
        .init(##"{"backgroundColor": null}"##, .wrongType, "@.backgroundColor", "found null"),
        // Negative sizes and ranges
        .init(##"{"bounds": [0, 0, -1, 1]}"##, .outOfRange, "@.bounds[2]", "expected a number ≥ 0, found -1"),
        .init(##"{"frame": [0, 0, 1, -1]}"##, .outOfRange, "@.frame[3]", "≥ 0"),
        .init(##"{"cornerRadius": -1}"##, .outOfRange, "@.cornerRadius", "≥ 0"),
        .init(##"{"borderWidth": -1}"##, .outOfRange, "@.borderWidth", "≥ 0"),
        .init(##"{"shadowRadius": -1}"##, .outOfRange, "@.shadowRadius", "≥ 0"),
        .init(##"{"opacity": 1.5}"##, .outOfRange, "@.opacity", "from 0 to 1, found 1.5"),
        .init(##"{"shadowOpacity": -0.1}"##, .outOfRange, "@.shadowOpacity", "from 0 to 1"),
        .init(##"{"contentsScale": 0}"##, .outOfRange, "@.contentsScale", "> 0"),
        .init(##"{"contentsRect": [0, 0, -1, 1]}"##, .outOfRange, "@.contentsRect[2]", "≥ 0"),
        .init(##"{"type": "shape", "strokeEnd": 2}"##, .outOfRange, "@.strokeEnd", "from 0 to 1"),
        .init(##"{"type": "shape", "lineWidth": -1}"##, .outOfRange, "@.lineWidth", "≥ 0"),
        .init(##"{"type": "shape", "lineDashPattern": [1, -1]}"##, .outOfRange, "@.lineDashPattern[1]", "≥ 0"),
        .init(##"{"type": "shape", "lineDashPattern": [0, 0]}"##, .invalidValue, "@.lineDashPattern", "length > 0"),
        .init(##"{"type": "shape", "lineCap": "rounded"}"##, .unknownName, "@.lineCap",
              "expected one of \"butt\", \"round\" or \"square\" (did you mean \"round\"?)"),
        .init(##"{"type": "shape", "fillRule": "evenodd"}"##, .unknownName, "@.fillRule", "did you mean \"evenOdd\"?"),
        .init(##"{"type": "text", "fontSize": 0}"##, .outOfRange, "@.fontSize", "> 0"),
        .init(##"{"type": "text", "font": ""}"##, .invalidValue, "@.font", "cannot be empty"),
        .init(##"{"type": "text", "string": 5}"##, .wrongType, "@.string", "a string or an array of runs"),
        .init(##"{"type": "text", "string": [{"text": "a", "fnt": "b"}]}"##, .unknownKey, "@.string[0].fnt",
              "did you mean 'font'?"),
        .init(##"{"type": "text", "string": [{"font": "a"}]}"##, .missingKey, "@.string[0]", "'text' is required"),
        .init(##"{"type": "gradient", "locations": [0, 1.5]}"##, .outOfRange, "@.locations[1]", "from 0 to 1"),
        .init(##"{"type": "gradient", "colors": ["#000", "#fff"], "locations": [0]}"##, .invalidValue, "@.locations",
              "one location per colour (2), found 1"),
        .init(##"{"type": "replicator", "instanceCount": 1.5}"##, .wrongType, "@.instanceCount", "whole number"),
        .init(##"{"type": "replicator", "instanceCount": -1}"##, .outOfRange, "@.instanceCount", "≥ 0"),
        .init(##"{"maskedCorners": ["minXMinY", "minXMinY"]}"##, .invalidValue, "@.maskedCorners[1]", "listed twice"),
        .init(##"{"maskedCorners": ["topLeft"]}"##, .unknownName, "@.maskedCorners[0]", "\"minXMinY\""),
        .init(##"{"contentsGravity": "middle"}"##, .unknownName, "@.contentsGravity", "\"center\""),
        // Colours
        .init(##"{"backgroundColor": "#12"}"##, .invalidValue, "@.backgroundColor", "is not a colour"),
        .init(##"{"backgroundColor": "red"}"##, .invalidValue, "@.backgroundColor", "is not a colour"),
        .init(##"{"backgroundColor": "Clear"}"##, .invalidValue, "@.backgroundColor", "did you mean \"clear\"?"),
        .init(##"{"backgroundColor": [1, 0]}"##, .wrongType, "@.backgroundColor", "found an array of 2"),
        .init(##"{"backgroundColor": [2, 0, 0]}"##, .outOfRange, "@.backgroundColor[0]", "from 0 to 1, found 2"),
        // Conflicts
        .init(##"{"frame": [0, 0, 1, 1], "bounds": [0, 0, 1, 1]}"##, .conflict, "@.frame", "with 'bounds'"),
        .init(##"{"position": [1, 1], "frame": [0, 0, 1, 1]}"##, .conflict, "@.frame", "with 'position'"),
        .init(##"{"transform": [], "affineTransform": [1, 0, 0, 1, 0, 0]}"##, .conflict, "@.affineTransform",
              "both set the layer's transform"),
        // Transforms
        .init(##"{"transform": [1, 2, 3]}"##, .wrongType, "@.transform", "(16 numbers), found an array of 3"),
        .init(##"{"transform": 1}"##, .wrongType, "@.transform", "16 numbers or an array of operations"),
        .init(##"{"transform": [{"rotate": [1, 0, 0, 0]}]}"##, .invalidValue, "@.transform[0].rotate", "no direction"),
        .init(##"{"transform": [{"perspective": 0}]}"##, .invalidValue, "@.transform[0].perspective", "no meaning"),
        .init(##"{"transform": [{"translate": [1, 2]}]}"##, .wrongType, "@.transform[0].translate", "[tx, ty, tz]"),
        .init(##"{"transform": [{"spin": 1}]}"##, .unknownName, "@.transform[0].spin", "unknown transform operation"),
        .init(##"{"transform": [{"rotat": [1, 0, 0, 1]}]}"##, .unknownName, "@.transform[0].rotat", "did you mean 'rotate'?"),
        .init(##"{"transform": [{"set": {"M34": 1}}]}"##, .unknownKey, "@.transform[0].set.M34", "did you mean 'm34'?"),
        .init(##"{"transform": [{"translate": [1, 2, 3], "scale": [1, 1, 1]}]}"##, .wrongType, "@.transform[0]",
              "exactly one key"),
        .init(##"{"transform": [3]}"##, .wrongType, "@.transform", "(16 numbers), found an array of 1"),
        .init(##"{"transform": [{"scale": [1e300, 1, 1]}, {"scale": [1e300, 1, 1]}]}"##, .nonFinite, "@.transform",
              "overflows"),
        .init(##"{"sublayerTransform": [{"matrix": [1]}]}"##, .wrongType, "@.sublayerTransform[0].matrix", "16 numbers"),
        .init(##"{"affineTransform": [1, 0, 0, 1]}"##, .wrongType, "@.affineTransform", "[a, b, c, d, tx, ty]"),
        // Paths
        .init(##"{"type": "shape", "path": "M 0 0 X"}"##, .invalidValue, "@.path", "invalid SVG path data at character 6"),
        .init(##"{"type": "shape", "path": [["lineTo", 1, 1]]}"##, .invalidValue, "@.path[0]", "needs a current point"),
        .init(##"{"type": "shape", "path": [["close"]]}"##, .invalidValue, "@.path[0]", "needs a current point"),
        .init(##"{"type": "shape", "path": [["moveTo", 1]]}"##, .wrongType, "@.path[0]",
              "expected [\"moveTo\", x, y] (3 elements), found 2"),
        .init(##"{"type": "shape", "path": [["arc", 0, 0, -1, 0, 1, true]]}"##, .outOfRange, "@.path[0][3]", "≥ 0"),
        .init(##"{"type": "shape", "path": [["arc", 0, 0, 1, 0, 1, 1]]}"##, .wrongType, "@.path[0][6]", "true or false"),
        .init(##"{"type": "shape", "path": [["rect", 0, 0, -1, 1]]}"##, .outOfRange, "@.path[0][3]", "≥ 0"),
        .init(##"{"type": "shape", "path": [["moveTo", 0, 0], ["lineto", 1, 1]]}"##, .unknownName, "@.path[1][0]",
              "did you mean \"lineTo\"?"),
        .init(##"{"type": "shape", "path": [[1, 2]]}"##, .wrongType, "@.path[0][0]", "name of a path operation"),
        .init(##"{"type": "shape", "path": [["roundedRectCorners", 0, 0, 1, 1, 1, 1, ["top"]]]}"##, .unknownName,
              "@.path[0][7][0]", "did you mean \"topLeft\"?"),
        .init(##"{"type": "shape", "path": 5}"##, .wrongType, "@.path", "a path (SVG path data or an array of operations)"),
        .init(##"{"shadowPath": [[]]}"##, .wrongType, "@.shadowPath[0]", "a path operation"),
        // Images
        .init(##"{"contents": "data:image/heic;base64,AAAA"}"##, .invalidValue, "@.contents", "only PNG, JPEG, WebP and GIF data URIs"),
        .init(##"{"contents": "data:image/jpeg;base64,/9j/AAAA"}"##, .invalidValue, "@.contents", "not a valid JPEG"),
        .init(##"{"contents": "data:image/png;base64,!!!"}"##, .invalidValue, "@.contents", "not valid base64"),
        .init(##"{"contents": "data:image/png;base64,AAAA"}"##, .invalidValue, "@.contents", "not a valid PNG"),
        .init(##"{"contents": "no-such-file.png"}"##, .fileAccess, "@.contents", "cannot read the image"),
        .init(##"{"contents": 1}"##, .wrongType, "@.contents", "expected an image"),
        .init(##"{"contents": {"width": 0, "height": 1, "color": "#000"}}"##, .outOfRange, "@.contents.width", "≥ 1"),
        .init(##"{"contents": {"width": 1, "height": 1}}"##, .missingKey, "@.contents", "'color' is required"),
        .init(##"{"contents": {"checker": [1, 2]}}"##, .wrongType, "@.contents.checker", "[width, height, cell]"),
        .init(##"{"contents": {"checker": [2, 2, 0]}}"##, .outOfRange, "@.contents.checker[2]", "≥ 1"),
        .init(##"{"contents": {"checker": [2, 2, 1], "color": "#fff"}}"##, .unknownKey, "@.contents.color",
              "belongs to another form"),
        .init(##"{"contents": {"checker": [2, 2, 1], "colors": ["#fff"]}}"##, .wrongType, "@.contents.colors",
              "[color1, color2]"),
        // Animations
        .init(##"{"animations": [{"toValue": 1}]}"##, .missingKey, "@.animations[0]", "'keyPath' is required"),
        .init(##"{"animations": [{"keyPath": "opacty"}]}"##, .unknownName, "@.animations[0].keyPath",
              "did you mean \"opacity\"?"),
        .init(##"{"animations": [{"keyPath": "path"}]}"##, .unknownName, "@.animations[0].keyPath",
              "is a property of CAShapeLayer, not of a CALayer"),
        .init(##"{"animations": [{"keyPath": "transform.rotation.w"}]}"##, .unknownName, "@.animations[0].keyPath",
              "not an animatable key path"),
        .init(##"{"animations": [{"keyPath": "opacity", "toValue": "x"}]}"##, .wrongType, "@.animations[0].toValue",
              "expected a number from 0 to 1, found a string"),
        .init(##"{"animations": [{"keyPath": "position", "fromValue": 1}]}"##, .wrongType, "@.animations[0].fromValue",
              "expected a point [x, y]"),
        .init(##"{"animations": [{"keyPath": "opacity", "values": [1]}]}"##, .unknownKey, "@.animations[0].values",
              "is a key of keyframe animations"),
        .init(##"{"animations": [{"keyPath": "opacity", "mass": 1}]}"##, .unknownKey, "@.animations[0].mass",
              "is a key of spring animations"),
        .init(##"{"animations": [{"keyPath": "opacity", "duraton": 1}]}"##, .unknownKey, "@.animations[0].duraton",
              "did you mean 'duration'?"),
        .init(##"{"animations": [{"type": "keyframe", "keyPath": "opacity"}]}"##, .missingKey, "@.animations[0]",
              "needs 'values'"),
        .init(##"{"animations": [{"type": "keyframe", "keyPath": "opacity", "values": []}]}"##, .invalidValue,
              "@.animations[0].values", "at least one value"),
        .init(##"{"animations": [{"type": "keyframe", "keyPath": "opacity", "values": [0, 1], "keyTimes": [0]}]}"##,
              .invalidValue, "@.animations[0].keyTimes", "expected 2 key times for 2 values, found 1"),
        .init(##"{"animations": [{"type": "keyframe", "keyPath": "opacity", "values": [0, 1, 0], "keyTimes": [0, 0.6, 0.5]}]}"##,
              .invalidValue, "@.animations[0].keyTimes[2]", "must not decrease"),
        .init(##"{"animations": [{"type": "keyframe", "keyPath": "opacity", "values": [0, 2]}]}"##, .outOfRange,
              "@.animations[0].values[1]", "from 0 to 1"),
        .init(##"{"animations": [{"type": "tween", "keyPath": "opacity"}]}"##, .unknownName, "@.animations[0].type",
              "expected one of \"basic\", \"keyframe\", \"spring\" or \"group\""),
        .init(##"{"animations": [{"keyPath": "opacity", "fillMode": "forward"}]}"##, .unknownName,
              "@.animations[0].fillMode", "did you mean \"forwards\"?"),
        .init(##"{"animations": [{"keyPath": "opacity", "timingFunction": [2, 0, 1, 1]}]}"##, .outOfRange,
              "@.animations[0].timingFunction[0]", "from 0 to 1"),
        .init(##"{"animations": [{"keyPath": "opacity", "timingFunction": "easeOutIn"}]}"##, .unknownName,
              "@.animations[0].timingFunction", "did you mean"),
        .init(##"{"animations": [{"keyPath": "opacity", "duration": -1}]}"##, .outOfRange, "@.animations[0].duration", "≥ 0"),
        .init(##"{"animations": [{"keyPath": "opacity", "repeatCount": -1}]}"##, .outOfRange,
              "@.animations[0].repeatCount", "≥ 0"),
        .init(##"{"animations": [{"keyPath": "opacity", "autoreverses": "yes"}]}"##, .wrongType,
              "@.animations[0].autoreverses", "true or false"),
        .init(##"{"animations": [{"type": "spring", "keyPath": "opacity", "mass": 0}]}"##, .outOfRange,
              "@.animations[0].mass", "> 0"),
        .init(##"{"animations": [{"type": "spring", "keyPath": "opacity", "damping": -1}]}"##, .outOfRange,
              "@.animations[0].damping", "≥ 0"),
        .init(##"{"animations": {}}"##, .wrongType, "@.animations", "an array of animations"),
        .init(##"{"animations": [1]}"##, .wrongType, "@.animations[0]", "an animation"),
    ]

    @Test(arguments: documentCases + layerCases)
    func refusal(_ c: RefusalCase) throws {
        let e = try #require(sceneError(c.json), "decoded: \(c.json)")
        #expect(e.kind == c.kind, "\(e)")
        #expect(e.location == c.location, "\(e)")
        #expect(e.message.contains(c.words), "\(e)")
        #expect(e.position != nil, "\(e)")
    }

    @Test func everyKindOfErrorIsCovered() {
        let covered = Set((Self.documentCases + Self.layerCases).map(\.kind))
        // Limits and interruptions have their own tests.
        #expect(covered.union([.limitExceeded, .interrupted]) == Set(SceneError.Kind.allCases))
    }

    @Test func positionsPointAtTheOffendingValueOrKey() throws {
        let text = """
            {
              "width": 100, "height": 100,
              "sublayers": [
                {"opacity": 2},
                {"cornerRadious": 3}
              ]
            }
            """
        let e = try #require(sceneError(text))
        #expect(e.issues.count == 2)
        #expect(e.issues[0].location == "$.sublayers[0].opacity")
        #expect(e.issues[0].position == SourcePosition(line: 4, column: 17))
        #expect(e.issues[1].location == "$.sublayers[1].cornerRadious")
        #expect(e.issues[1].position == SourcePosition(line: 5, column: 6))
        #expect(e.description == """
            $.sublayers[0].opacity: expected a number from 0 to 1, found 2 (line 4, column 17)
            $.sublayers[1].cornerRadious: unknown key 'cornerRadious' for a CALayer (did you mean 'cornerRadius'?) (line 5, column 6)
            """)
    }

    @Test func severalIssuesAreCollectedInDocumentOrder() throws {
        // The mask and sublayers are read after the other keys, yet the
        // issues come out in the order of the text.
        let e = try #require(sceneError("""
            {"width": 100, "height": 100, "sublayers": [{"opacity": -1}], "mask": {"hidden": 0},
             "scale": 0, "shadowRadius": -1, "bogus": 1}
            """))
        #expect(e.issues.map(\.location) == [
            "$.sublayers[0].opacity", "$.mask.hidden", "$.scale", "$.shadowRadius", "$.bogus",
        ])
    }

    @Test func collectingStopsAtFiftyIssues() throws {
        let layers = Array(repeating: ##"{"opacity": 9}"##, count: 80).joined(separator: ",")
        let e = try #require(sceneError("{\"width\": 1, \"height\": 1, \"sublayers\": [\(layers)]}"))
        #expect(e.issues.count == DecodingContext.maxIssues)
        #expect(e.location == "$.sublayers[0].opacity")
    }
}

/// Warnings for a person: each reason shown at its first three places, the
/// rest of the same reason counted on one line that names the first of them.
@Suite struct WarningLinesTests {
    static func warning(_ subject: String, _ reason: String, line: Int, action: SceneWarning.Action = .skipped,
                        file: String = "a.json", count: Int = 1) -> SceneWarning {
        SceneWarning(action: action, subject: subject, reason: reason, file: file,
                     position: SourcePosition(line: line, column: 1), count: count)
    }

    @Test func manyWarningsOfOneReasonAreSummed() {
        var warnings = (0..<6).map { Self.warning("$.layers[\($0)].ks.p", "expressions are JavaScript", line: $0 + 1) }
        warnings.insert(Self.warning("$.layers[0].ef[0]", "effects are not drawn", line: 9), at: 2)
        warnings.append(Self.warning("$.layers[9].ks.o", "expressions are JavaScript", line: 20, count: 4))
        warnings.append(Self.warning("$.layers[1].ks.p", "expressions are JavaScript", line: 2, action: .tolerated))
        let lines = SceneWarning.lines(for: warnings, perReason: 3)
        #expect(lines == [
            "a.json:1:1: skipped $.layers[0].ks.p: expressions are JavaScript",
            "a.json:2:1: skipped $.layers[1].ks.p: expressions are JavaScript",
            "a.json:3:1: skipped $.layers[2].ks.p: expressions are JavaScript",
            // 3 single places and one warning counted 4 times: 7.
            "a.json: skipped 7 more the same way, the first $.layers[3].ks.p at 4:1: expressions are JavaScript",
            "a.json:9:1: skipped $.layers[0].ef[0]: effects are not drawn",
            "a.json:2:1: tolerated $.layers[1].ks.p: expressions are JavaScript",
        ])
    }

    @Test func oneLeftOverIsShownInFull() {
        let warnings = (0..<4).map { Self.warning("$.layers[\($0)].ks.p", "expressions are JavaScript", line: $0 + 1) }
        #expect(SceneWarning.lines(for: warnings, perReason: 3) == warnings.map(\.description))
        #expect(SceneWarning.lines(for: [], perReason: 3).isEmpty)
    }
}
