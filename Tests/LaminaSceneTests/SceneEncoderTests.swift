// The encoder: canonical output, and decode(encode(tree)) == tree for
// hand-written scenes and randomised trees.
import Foundation
import Testing
@testable import LaminaScene

@Suite struct SceneEncoderTests {
    @Test func canonicalFormWritesOnlyWhatDiffersInTheFormatsOrder() throws {
        let scene = try decodeScene("""
            {"sublayers": [{"zPosition": 0, "type": "shape", "lineWidth": 2, "opacity": 0.4, "frame": [0, 0, 10, 20],
              "fillColor": "#000000", "strokeColor": null, "transform": [{"translate": [1, 2, 3]}],
              "animations": [{"keyPath": "opacity", "toValue": 1, "duration": 0.5}],
              "path": [["moveTo", 0, 0], ["lineTo", 10, 20.5]]}],
             "height": 20, "width": 10, "time": 0, "scale": 1, "backgroundColor": [1, 1, 1]}
            """)
        #expect(try SceneEncoder().encodeToString(scene) == """
            {
              "format": "lamina.scene/1",
              "width": 10,
              "height": 20,
              "backgroundColor": "#ffffff",
              "sublayers": [
                {
                  "type": "shape",
                  "bounds": [0, 0, 10, 20],
                  "position": [5, 10],
                  "transform": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1],
                  "opacity": 0.4,
                  "path": "M 0 0 L 10 20.5",
                  "lineWidth": 2,
                  "animations": [
                    {
                      "keyPath": "opacity",
                      "toValue": 1,
                      "duration": 0.5
                    }
                  ]
                }
              ]
            }

            """)
        #expect(try SceneEncoder(prettyPrinted: false).encodeToString(scene).hasPrefix(
            ##"{"format":"lamina.scene/1","width":10,"height":20,"backgroundColor":"#ffffff","sublayers":[{"type":"shape""##))
    }

    @Test func everyFormOfTheFormatRoundTrips() throws {
        let scene = try decodeScene("""
            {"width": 200, "height": 100, "scale": 2, "origin": "bottomLeft", "time": 0.75, "name": "root",
             "sublayerTransform": [{"perspective": 400}], "animations": [{"keyPath": "sublayerTransform.rotation.y",
               "type": "spring", "fromValue": 0, "toValue": 1, "damping": 3}],
             "sublayers": [
               {"frame": [10, 10, 50, 40], "affineTransform": [1, 0.2, 0, 1, 3, 4], "cornerRadius": 5,
                "maskedCorners": ["maxXMaxY"], "mask": {"type": "shape", "path": [["ellipse", 0, 0, 50, 40]]},
                "contents": {"checker": [8, 8, 2], "colors": ["#f00", [0, 0, 1, 0.5]]}, "contentsGravity": "top"},
               {"type": "text", "string": [{"text": "a", "fontSize": 9}, {"text": "b", "underline": true}],
                "foregroundColor": "clear"},
               {"type": "gradient", "colors": ["#000", "#fff", "#f00"], "locations": [0, 0.3, 1],
                "gradientType": "radial"},
               {"type": "replicator", "instanceCount": 3, "instanceTransform": [{"rotateDegrees": [30, 0, 0, 1]}],
                "sublayers": [{"type": "transform", "sublayers": [{"bounds": [0, 0, 5, 5]}]}],
                "animations": [{"type": "keyframe", "keyPath": "instanceColor", "values": ["#fff", [0.1, 0.2, 0.3]],
                  "keyTimes": [0, 1], "timingFunction": [0.2, 0, 0.8, 1], "fillMode": "forwards"}]},
               {"type": "shape", "path": "M 175 100 A 25 25 0 1 1 175 99.9 Z", "lineDashPattern": [],
                "shadowPath": [["roundedRectCorners", 0, 0, 10, 10, 2, 3, ["topLeft"]]], "fillColor": null}
             ]}
            """)
        try expectRoundTrip(scene)
    }

    @Test func randomTreesRoundTrip() throws {
        for seed in 1...150 {
            var generator = RandomTrees(seed: UInt64(seed))
            try expectRoundTrip(generator.scene(), "seed \(seed)")
        }
    }

    private func expectRoundTrip(_ scene: Scene, _ note: String = "",
                                 sourceLocation: SourceLocation = #_sourceLocation) throws {
        let encoded = try SceneEncoder().encode(scene)
        let decoded: Scene
        do {
            decoded = try SceneDecoder().decode(encoded)
        } catch {
            Issue.record("\(note): \(error)\n\(String(decoding: encoded, as: UTF8.self))", sourceLocation: sourceLocation)
            return
        }
        let (before, after) = (TreeFingerprint.of(scene), TreeFingerprint.of(decoded))
        if before != after {
            Issue.record("\(note): \(TreeFingerprint.firstDifference(before, after))", sourceLocation: sourceLocation)
        }
        #expect(try SceneEncoder().encode(decoded) == encoded, "\(note)", sourceLocation: sourceLocation)
    }

    @Test func whatTheFormatCannotSayIsRefused() throws {
        func refusal(_ build: (CALayer) -> Void) -> SceneError? {
            let scene = Scene(width: 10, height: 10)
            let layer = CALayer()
            scene.rootLayer.addSublayer(layer)
            build(layer)
            do {
                _ = try SceneEncoder().encode(scene)
                return nil
            } catch {
                return error
            }
        }
        let nan = refusal { $0.opacity = .nan }
        #expect(nan?.kind == .nonFinite && nan?.location == "$.sublayers[0].opacity")
        let inf = refusal { $0.transform.m41 = .infinity }
        #expect(inf?.kind == .nonFinite && inf?.location == "$.sublayers[0].transform[12]")
        let contents = refusal { $0.contents = "a string" }
        #expect(contents?.kind == .invalidValue && contents?.location == "$.sublayers[0].contents")
        let along = refusal { layer in
            let motion = CAKeyframeAnimation(keyPath: "position")
            let path = CGMutablePath()
            path.move(to: .zero)
            path.addLine(to: CGPoint(x: 10, y: 0))
            motion.path = path
            layer.add(motion, forKey: "move")
        }
        #expect(along?.message.contains("path") == true)
        let valueFunction = refusal {
            let a = CABasicAnimation(keyPath: "transform")
            a.valueFunction = CAValueFunction(name: .rotateZ)
            $0.add(a, forKey: "spin")
        }
        #expect(valueFunction?.location == "$.sublayers[0].animations[0]")
        #expect(valueFunction?.message.contains("valueFunction") == true)
        let wrongValue = refusal {
            let a = CABasicAnimation(keyPath: "position")
            a.toValue = CGFloat(3)
            $0.add(a, forKey: "move")
        }
        #expect(wrongValue?.location == "$.sublayers[0].animations[0].toValue")
        let gravity = refusal { $0.contentsGravity = CALayerContentsGravity("sideways") }
        #expect(gravity?.location == "$.sublayers[0].contentsGravity")

        var scene = Scene(width: 10, height: 10)
        scene.rootLayer.bounds.size.width = 11
        #expect(throws: SceneError.self) { try SceneEncoder().encode(scene) }
        scene = Scene(width: 10, height: 10, rootLayer: CAShapeLayer())
        #expect(throws: SceneError.self) { try SceneEncoder().encode(scene) }
        scene = Scene(width: -1, height: 10)
        #expect(throws: SceneError.self) { try SceneEncoder().encode(scene) }
    }

    @Test func deepTreesAreRefusedNotOverflowed() throws {
        let scene = Scene(width: 10, height: 10)
        var parent = scene.rootLayer
        for _ in 0..<5000 {
            let child = CALayer()
            parent.addSublayer(child)
            parent = child
        }
        let e = #expect(throws: SceneError.self) { try SceneEncoder().encode(scene) }
        #expect(e?.kind == .limitExceeded)
    }

    @Test func aSharedImageIsWrittenForEachLayerAndReadsBack() throws {
        let scene = Scene(width: 10, height: 10)
        let image = try #require(ImageValue.checkerboard(width: 4, height: 4, cell: 1, colors: (.black, .white)))
        for _ in 0..<3 {
            let l = CALayer()
            l.contents = image
            scene.rootLayer.addSublayer(l)
        }
        let text = try SceneEncoder().encodeToString(scene)
        let uris = text.components(separatedBy: "data:image/png;base64,").count - 1
        #expect(uris == 3)
        let decoded = try SceneDecoder().decode(text)
        #expect(decoded.rootLayer.sublayers?.allSatisfy { $0.contents as? CGImage == image } == true)
    }

    /// A font object as LaminaText's are, which this module cannot see.
    private struct NamedFont: TextLayerFont {
        var textLayerFontName: String
        var textLayerFontSize: CGFloat?
    }

    @Test func fontObjectsAndCoreTextAttributesAreWrittenAsTheFormatsNames() throws {
        let scene = Scene(width: 10, height: 10)
        let layer = CATextLayer()
        layer.font = NamedFont(textLayerFontName: "Mono", textLayerFontSize: 99)
        layer.fontSize = 10
        let string = NSMutableAttributedString(string: "abcd")
        string.setAttributes([
            TextRunAttribute.font: NamedFont(textLayerFontName: "Serif", textLayerFontSize: 12),
            TextRunAttribute.coreTextForegroundColor: CGColor(red: 1, green: 0, blue: 0, alpha: 1),
            TextRunAttribute.underlineStyle: Int32(1),
        ], range: NSRange(location: 0, length: 1))
        string.setAttributes([
            TextRunAttribute.font: NamedFont(textLayerFontName: "Serif", textLayerFontSize: 12),
            TextRunAttribute.fontSize: CGFloat(20),
        ], range: NSRange(location: 1, length: 1))
        string.setAttributes([
            TextRunAttribute.font: NamedFont(textLayerFontName: "Sans", textLayerFontSize: nil),
            TextRunAttribute.foregroundColor: CGColor(red: 0, green: 0, blue: 1, alpha: 1),
            TextRunAttribute.coreTextForegroundColor: CGColor(red: 1, green: 0, blue: 0, alpha: 1),
        ], range: NSRange(location: 2, length: 1))
        layer.string = string
        scene.rootLayer.addSublayer(layer)

        let json = try SceneEncoder(prettyPrinted: false).encodeToString(scene)
        // The layer's font is a name only: its size is fontSize.
        #expect(json.contains(##""font":"Mono","fontSize":10"##) && !json.contains("99"))
        #expect(json.contains(##"{"text":"a","font":"Serif","fontSize":12,"foregroundColor":"#ff0000","underline":true}"##))
        // A run's own size wins over its font's.
        #expect(json.contains(##"{"text":"b","font":"Serif","fontSize":20}"##))
        // UIKit's colour wins over Core Text's, as when drawn.
        #expect(json.contains(##"{"text":"c","font":"Sans","foregroundColor":"#0000ff"}"##))
        #expect(json.contains(##"{"text":"d"}"##))
        _ = try SceneDecoder().decode(json)
    }
}
