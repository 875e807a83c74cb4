// Every key of every layer type reads into the property of the same name,
// and every absent key leaves the format's default.
import Foundation
import Testing
@testable import LaminaScene

@Suite struct LayerKeyTests {
    /// The keys scene-format.md lists, per layer type.
    static let commonKeys = [
        "name", "bounds", "position", "frame", "anchorPoint", "anchorPointZ", "zPosition", "transform",
        "affineTransform", "sublayerTransform", "sublayers", "hidden", "opacity", "doubleSided", "backgroundColor",
        "cornerRadius", "maskedCorners", "borderWidth", "borderColor", "masksToBounds", "mask", "shadowColor",
        "shadowOpacity", "shadowOffset", "shadowRadius", "shadowPath", "contents", "contentsGravity",
        "contentsScale", "contentsRect", "contentsCenter", "contentsMultiplyColor", "filters", "backgroundFilters", "compositingFilter", "minificationFilter",
        "magnificationFilter", "geometryFlipped", "animations", "type",
    ]
    static let ownKeys: [LayerType: [String]] = [
        .layer: [], .transform: [],
        .shape: ["path", "fillColor", "fillRule", "strokeColor", "lineWidth", "lineCap", "lineJoin", "miterLimit",
                 "lineDashPattern", "lineDashPhase", "strokeStart", "strokeEnd"],
        .text: ["string", "font", "fontSize", "foregroundColor", "alignmentMode", "wrapped", "truncationMode"],
        .gradient: ["colors", "locations", "startPoint", "endPoint", "gradientType"],
        .replicator: ["instanceCount", "instanceTransform", "instanceColor", "instanceRedOffset",
                      "instanceGreenOffset", "instanceBlueOffset", "instanceAlphaOffset", "instanceDelay"],
        .emitter: ["emitterCells", "emitterBehaviors", "birthRate", "lifetime", "emitterPosition", "emitterZPosition", "emitterSize",
                   "emitterDepth", "emitterShape", "emitterMode", "renderMode", "preservesDepth", "velocity", "scale",
                   "spin", "spinBias", "seed"],
    ]

    @Test(arguments: LayerType.allCases)
    func theKeyTablesHaveExactlyTheFormatsKeys(type: LayerType) {
        let expected = Set(Self.commonKeys + (Self.ownKeys[type] ?? []))
        #expect(Set(SceneKeys.names(for: type)) == expected)
    }

    @Test func everyKeyOfEveryLayer() throws {
        let l = try decodeLayer("""
            {"name": "n", "bounds": [1, 2, 3, 4], "position": [5, 6], "anchorPoint": [0, 1], "anchorPointZ": 2,
             "zPosition": 3, "transform": [1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1, -0.002, 7, 8, 9, 1],
             "sublayerTransform": [{"scale": [2, 3, 1]}], "hidden": true, "opacity": 0.5, "doubleSided": false,
             "backgroundColor": "#102030", "cornerRadius": 4, "maskedCorners": ["minXMinY", "maxXMaxY"],
             "borderWidth": 2, "borderColor": [0.5, 0.25, 0, 1], "masksToBounds": true,
             "shadowColor": "#ff000080", "shadowOpacity": 0.75, "shadowOffset": [1, 2], "shadowRadius": 5,
             "shadowPath": "M 0 0 L 1 1", "contents": {"width": 2, "height": 3, "color": "#00ff00"},
             "contentsGravity": "topLeft", "contentsScale": 2, "contentsRect": [0, 0, 0.5, 0.5],
             "contentsCenter": [0.25, 0.25, 0.5, 0.5], "minificationFilter": "nearest",
             "magnificationFilter": "trilinear", "geometryFlipped": true,
             "mask": {"bounds": [0, 0, 3, 4], "backgroundColor": "#000"},
             "sublayers": [{"name": "a"}, {"name": "b", "type": "transform"}]}
            """)
        #expect(l.name == "n")
        #expect(l.bounds == CGRect(x: 1, y: 2, width: 3, height: 4))
        #expect(l.position == CGPoint(x: 5, y: 6))
        #expect(l.anchorPoint == CGPoint(x: 0, y: 1))
        #expect(l.anchorPointZ == 2)
        #expect(l.zPosition == 3)
        #expect(l.transform.fields == [1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1, -0.002, 7, 8, 9, 1])
        #expect(l.sublayerTransform == CATransform3DMakeScale(2, 3, 1))
        #expect(l.isHidden)
        #expect(l.opacity == 0.5)
        #expect(!l.isDoubleSided)
        #expect(l.backgroundColor == CGColor(red: 16.0 / 255, green: 32.0 / 255, blue: 48.0 / 255, alpha: 1))
        #expect(l.cornerRadius == 4)
        #expect(l.maskedCorners == [.layerMinXMinYCorner, .layerMaxXMaxYCorner])
        #expect(l.borderWidth == 2)
        #expect(l.borderColor == CGColor(red: 0.5, green: 0.25, blue: 0, alpha: 1))
        #expect(l.masksToBounds)
        #expect(l.shadowColor == CGColor(red: 1, green: 0, blue: 0, alpha: 128.0 / 255))
        #expect(l.shadowOpacity == 0.75)
        #expect(l.shadowOffset == CGSize(width: 1, height: 2))
        #expect(l.shadowRadius == 5)
        #expect(l.shadowPath?.elements == [.moveTo(CGPoint(x: 0, y: 0)), .lineTo(CGPoint(x: 1, y: 1))])
        let image = try #require(l.contents as? CGImage)
        #expect(image.width == 2 && image.height == 3)
        #expect(image.pixel(x: 1, y: 2) == CGImage.Pixel(red: 0, green: 255, blue: 0, alpha: 255))
        #expect(l.contentsGravity == .topLeft)
        #expect(l.contentsScale == 2)
        #expect(l.contentsRect == CGRect(x: 0, y: 0, width: 0.5, height: 0.5))
        #expect(l.contentsCenter == CGRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5))
        #expect(l.minificationFilter == .nearest)
        #expect(l.magnificationFilter == .trilinear)
        #expect(l.isGeometryFlipped)
        #expect(l.mask?.bounds == CGRect(x: 0, y: 0, width: 3, height: 4))
        #expect(l.mask?.backgroundColor == CGColor.black)
        #expect(l.sublayers?.map(\.name) == ["a", "b"])
        #expect(l.sublayers?.last is CATransformLayer)
    }

    @Test func shapeKeys() throws {
        let s = try #require(try decodeLayer("""
            {"type": "shape", "path": [["moveTo", 1, 2], ["lineTo", 3, 4]], "fillColor": null, "fillRule": "evenOdd",
             "strokeColor": "#0000ff", "lineWidth": 3, "lineCap": "square", "lineJoin": "bevel", "miterLimit": 4,
             "lineDashPattern": [5, 0, 2], "lineDashPhase": 1.5, "strokeStart": 0.25, "strokeEnd": 0.75}
            """) as? CAShapeLayer)
        #expect(s.path?.elements == [.moveTo(CGPoint(x: 1, y: 2)), .lineTo(CGPoint(x: 3, y: 4))])
        #expect(s.fillColor == nil)
        #expect(s.fillRule == .evenOdd)
        #expect(s.strokeColor == CGColor(red: 0, green: 0, blue: 1, alpha: 1))
        #expect(s.lineWidth == 3)
        #expect(s.lineCap == .square)
        #expect(s.lineJoin == .bevel)
        #expect(s.miterLimit == 4)
        #expect(s.lineDashPattern?.map(\.doubleValue) == [5, 0, 2])
        #expect(s.lineDashPhase == 1.5)
        #expect(s.strokeStart == 0.25)
        #expect(s.strokeEnd == 0.75)
        let other = try #require(try decodeLayer(##"{"type": "shape", "fillColor": "#123", "strokeColor": null}"##)
            as? CAShapeLayer)
        #expect(other.fillColor == CGColor(red: 0x11 / 255.0, green: 0x22 / 255.0, blue: 0x33 / 255.0, alpha: 1))
        #expect(other.strokeColor == nil)
    }

    @Test func textKeys() throws {
        let t = try #require(try decodeLayer("""
            {"type": "text", "string": "Hello", "font": "DejaVu Serif:bold", "fontSize": 12,
             "foregroundColor": "#000000", "alignmentMode": "justified", "wrapped": true, "truncationMode": "middle"}
            """) as? CATextLayer)
        #expect(t.string as? String == "Hello")
        #expect(t.font as? String == "DejaVu Serif:bold")
        #expect(t.fontSize == 12)
        #expect(t.foregroundColor == CGColor.black)
        #expect(t.alignmentMode == .justified)
        #expect(t.isWrapped)
        #expect(t.truncationMode == .middle)
    }

    @Test func textRunsBecomeAttributedText() throws {
        let t = try #require(try decodeLayer("""
            {"type": "text", "string": [{"text": "Big "}, {"text": "red", "font": "Mono", "fontSize": 20,
             "foregroundColor": "#f00", "underline": true}, {"text": "!", "underline": false}]}
            """) as? CATextLayer)
        // AttributedText, not NSAttributedString, which leaks on Linux.
        let s = try #require(t.string as? AttributedText)
        #expect(s.string == "Big red!")
        let runs = s.runs.map { ($0.text, $0.attributes) }
        #expect(runs.map(\.0) == ["Big ", "red", "!"])
        #expect(runs[0].1.isEmpty && runs[2].1.isEmpty)
        let red = runs[1].1
        #expect(red[TextRunAttribute.font] as? String == "Mono")
        #expect(red[TextRunAttribute.fontSize] as? CGFloat == 20)
        #expect(red[TextRunAttribute.foregroundColor] as? CGColor == CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        #expect(red[TextRunAttribute.underlineStyle] as? Int == 1)
    }

    @Test func gradientKeys() throws {
        let g = try #require(try decodeLayer("""
            {"type": "gradient", "colors": ["#ff0000", [0, 0, 1, 0.5]], "locations": [0.2, 0.8],
             "startPoint": [0, 0], "endPoint": [1, 1], "gradientType": "conic"}
            """) as? CAGradientLayer)
        #expect(g.colors?.compactMap { $0 as? CGColor } == [
            CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 0.5),
        ])
        #expect(g.locations?.map(\.doubleValue) == [0.2, 0.8])
        #expect(g.startPoint == .zero)
        #expect(g.endPoint == CGPoint(x: 1, y: 1))
        #expect(g.type == .conic)
    }

    @Test func replicatorKeys() throws {
        let r = try #require(try decodeLayer("""
            {"type": "replicator", "instanceCount": 5, "instanceTransform": [{"translate": [10, 0, 0]}],
             "instanceColor": "#808080", "instanceRedOffset": -0.1, "instanceGreenOffset": -0.2,
             "instanceBlueOffset": 0.1, "instanceAlphaOffset": -0.25, "instanceDelay": 0.5}
            """) as? CAReplicatorLayer)
        #expect(r.instanceCount == 5)
        #expect(r.instanceTransform == CATransform3DMakeTranslation(10, 0, 0))
        #expect(r.instanceColor == CGColor(gray: 128.0 / 255, alpha: 1))
        #expect(r.instanceRedOffset == -0.1)
        #expect(r.instanceGreenOffset == -0.2)
        #expect(r.instanceBlueOffset == 0.1)
        #expect(r.instanceAlphaOffset == -0.25)
        #expect(r.instanceDelay == 0.5)
    }

    @Test func frameSetsBoundsSizeAndPositionFromTheAnchorPoint() throws {
        // anchorPoint comes after frame in the text and still applies.
        let l = try decodeLayer(#"{"frame": [10, 20, 100, 50], "transform": [{"rotate": [1, 0, 0, 1]}], "anchorPoint": [0, 1]}"#)
        #expect(l.bounds == CGRect(x: 0, y: 0, width: 100, height: 50))
        #expect(l.position == CGPoint(x: 10, y: 70))
        let centred = try decodeLayer(#"{"frame": [10, 20, 100, 50]}"#)
        #expect(centred.position == CGPoint(x: 60, y: 45))
    }

    @Test func affineTransformSetsTheTransform() throws {
        let l = try decodeLayer(#"{"affineTransform": [1, 0, -1, 1, 5, 6]}"#)
        #expect(l.transform == CATransform3DMakeAffineTransform(CGAffineTransform(a: 1, b: 0, c: -1, d: 1, tx: 5, ty: 6)))
    }

    @Test func absentKeysLeaveTheFormatsDefaults() throws {
        let l = try decodeLayer("{}")
        #expect(type(of: l) == CALayer.self)
        #expect(l.name == nil)
        #expect(l.bounds == .zero)
        #expect(l.position == .zero)
        #expect(l.anchorPoint == CGPoint(x: 0.5, y: 0.5))
        #expect(l.anchorPointZ == 0 && l.zPosition == 0)
        #expect(l.transform == .identity && l.sublayerTransform == .identity)
        #expect(l.sublayers == nil && l.mask == nil)
        #expect(!l.isHidden && l.opacity == 1 && l.isDoubleSided)
        #expect(l.backgroundColor == nil)
        #expect(l.cornerRadius == 0 && l.maskedCorners == .allCorners)
        #expect(l.borderWidth == 0 && l.borderColor == CGColor.black)
        #expect(!l.masksToBounds)
        #expect(l.shadowColor == CGColor.black && l.shadowOpacity == 0)
        #expect(l.shadowOffset == CGSize(width: 0, height: -3) && l.shadowRadius == 3 && l.shadowPath == nil)
        #expect(l.contents == nil && l.contentsGravity == .resize && l.contentsScale == 1)
        #expect(l.contentsRect == CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(l.contentsCenter == CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(l.minificationFilter == .linear && l.magnificationFilter == .linear)
        #expect(!l.isGeometryFlipped)
        #expect(l.animationKeys() == nil)

        let s = try #require(try decodeLayer(#"{"type": "shape"}"#) as? CAShapeLayer)
        #expect(s.path == nil && s.fillColor == CGColor.black && s.fillRule == .nonZero && s.strokeColor == nil)
        #expect(s.lineWidth == 1 && s.lineCap == .butt && s.lineJoin == .miter && s.miterLimit == 10)
        #expect(s.lineDashPattern == nil && s.lineDashPhase == 0 && s.strokeStart == 0 && s.strokeEnd == 1)

        let t = try #require(try decodeLayer(#"{"type": "text"}"#) as? CATextLayer)
        #expect(t.string == nil && t.font == nil && t.fontSize == 36 && t.foregroundColor == CGColor.white)
        #expect(t.alignmentMode == .natural && !t.isWrapped && t.truncationMode == .none)

        let g = try #require(try decodeLayer(#"{"type": "gradient"}"#) as? CAGradientLayer)
        #expect(g.colors == nil && g.locations == nil && g.type == .axial)
        #expect(g.startPoint == CGPoint(x: 0.5, y: 0) && g.endPoint == CGPoint(x: 0.5, y: 1))

        let r = try #require(try decodeLayer(#"{"type": "replicator"}"#) as? CAReplicatorLayer)
        #expect(r.instanceCount == 1 && r.instanceTransform == .identity && r.instanceColor == CGColor.white)
        #expect(r.instanceRedOffset == 0 && r.instanceGreenOffset == 0 && r.instanceBlueOffset == 0)
        #expect(r.instanceAlphaOffset == 0 && r.instanceDelay == 0)

        #expect(try decodeLayer(#"{"type": "transform"}"#) is CATransformLayer)
    }

    @Test func maskedCornersNamesEachCorner() throws {
        for (name, corner) in SceneKeys.cornerMasks {
            #expect(try decodeLayer("{\"maskedCorners\": [\"\(name)\"]}").maskedCorners == corner)
        }
        #expect(try decodeLayer(#"{"maskedCorners": []}"#).maskedCorners == [])
    }

    @Test func everyNamedConstantReads() throws {
        for (name, gravity) in SceneKeys.gravities {
            #expect(try decodeLayer("{\"contentsGravity\": \"\(name)\"}").contentsGravity == gravity)
        }
        for (name, filter) in SceneKeys.filters {
            #expect(try decodeLayer("{\"minificationFilter\": \"\(name)\"}").minificationFilter == filter)
        }
        for (name, cap) in SceneKeys.lineCaps {
            #expect((try decodeLayer("{\"type\": \"shape\", \"lineCap\": \"\(name)\"}") as? CAShapeLayer)?.lineCap == cap)
        }
        for (name, join) in SceneKeys.lineJoins {
            #expect((try decodeLayer("{\"type\": \"shape\", \"lineJoin\": \"\(name)\"}") as? CAShapeLayer)?.lineJoin == join)
        }
        for (name, mode) in SceneKeys.alignments {
            #expect((try decodeLayer("{\"type\": \"text\", \"alignmentMode\": \"\(name)\"}") as? CATextLayer)?
                .alignmentMode == mode)
        }
        for (name, mode) in SceneKeys.truncations {
            #expect((try decodeLayer("{\"type\": \"text\", \"truncationMode\": \"\(name)\"}") as? CATextLayer)?
                .truncationMode == mode)
        }
        for (name, type) in SceneKeys.gradientTypes {
            #expect((try decodeLayer("{\"type\": \"gradient\", \"gradientType\": \"\(name)\"}") as? CAGradientLayer)?
                .type == type)
        }
    }
}

@Suite struct CanvasTests {
    @Test func canvasKeysAndTheRootLayer() throws {
        let scene = try decodeScene("""
            {"format": "lamina.scene/1", "width": 300, "height": 200.5, "scale": 2, "origin": "bottomLeft",
             "time": 1.5, "name": "root", "backgroundColor": "#fff", "anchorPoint": [0, 0],
             "sublayerTransform": [{"perspective": 500}]}
            """)
        #expect(scene.width == 300 && scene.height == 200.5 && scene.scale == 2)
        #expect(scene.origin == .bottomLeft && scene.time == 1.5)
        #expect(scene.pixelWidth == 600 && scene.pixelHeight == 401)
        let root = scene.rootLayer
        #expect(type(of: root) == CALayer.self)
        #expect(root.bounds == CGRect(x: 0, y: 0, width: 300, height: 200.5))
        #expect(root.position == CGPoint(x: 150, y: 100.25))
        #expect(root.name == "root" && root.backgroundColor == CGColor.white)
        #expect(root.anchorPoint == .zero)
        #expect(root.sublayerTransform.m34 == -1.0 / 500)
    }

    @Test func canvasDefaults() throws {
        let scene = try decodeScene(#"{"width": 10, "height": 20}"#)
        #expect(scene.scale == 1 && scene.origin == .topLeft && scene.time == 0)
        #expect(scene.rootLayer.sublayers == nil)
    }
}

/// Every scene key sets its property through the property table's own
/// setter, not through its key path (the runtime's generic projection).
@Suite struct SceneKeySetterTests {
    @Test func everyKeyHasTheTablesSetter() {
        #expect(!SceneKeys.all.isEmpty)
        #expect(SceneKey.keyPathSetters.withLock { $0 } == [])
    }
}
