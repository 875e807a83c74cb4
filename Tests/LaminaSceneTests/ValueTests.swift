// Colours, transforms, paths and images: every form the format allows,
// against the Core Animation calls the format says they are.
import Foundation
import LaminaPNG
import Testing
@testable import LaminaScene
import LaminaJSON

@Suite struct ColorValueTests {
    private func color(_ json: String) throws -> CGColor? {
        try decodeLayer("{\"backgroundColor\": \(json)}").backgroundColor
    }

    @Test func everyColourForm() throws {
        #expect(try color(##""#abc""##) == CGColor(red: 0xaa / 255.0, green: 0xbb / 255.0, blue: 0xcc / 255.0, alpha: 1))
        #expect(try color(##""#A0B1C2""##) == CGColor(red: 0xa0 / 255.0, green: 0xb1 / 255.0, blue: 0xc2 / 255.0, alpha: 1))
        #expect(try color(##""#10203040""##)
            == CGColor(red: 0x10 / 255.0, green: 0x20 / 255.0, blue: 0x30 / 255.0, alpha: 0x40 / 255.0))
        #expect(try color("[0.1, 0.2, 0.3]") == CGColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 1))
        #expect(try color("[0.1, 0.2, 0.3, 0.4]") == CGColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4))
        #expect(try color(#""clear""#) == CGColor(red: 0, green: 0, blue: 0, alpha: 0))
    }

    @Test func canonicalColourForms() {
        #expect(JSONWriter.number(0) == "0")
        let cases: [(CGColor, String)] = [
            (CGColor(red: 1, green: 0, blue: 0, alpha: 1), "\"#ff0000\""),
            (CGColor(red: 1, green: 0, blue: 0, alpha: 128.0 / 255), "\"#ff000080\""),
            (CGColor(red: 0, green: 0, blue: 0, alpha: 0), "\"clear\""),
            (CGColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 1), "[0.1, 0.2, 0.3]"),
            (CGColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.5), "[0.1, 0.2, 0.3, 0.5]"),
        ]
        for (c, text) in cases {
            #expect(JSONWriter().write(ColorValue.encode(c)) == text + "\n")
        }
    }
}

@Suite struct TransformValueTests {
    private func transform(_ json: String) throws -> CATransform3D {
        try decodeLayer("{\"transform\": \(json)}").transform
    }

    @Test func sixteenNumbersAreTheFieldsInOrder() throws {
        let fields: [CGFloat] = (1...16).map { CGFloat($0) }
        #expect(try transform("[\(fields.map { "\(Int($0))" }.joined(separator: ","))]").fields == fields)
    }

    @Test func operationsApplyTheCoreAnimationCallsInOrder() throws {
        var t = CATransform3DIdentity
        t = CATransform3DTranslate(t, 10, 20, 30)
        t = CATransform3DScale(t, 2, 3, 4)
        t = CATransform3DRotate(t, 0.5, 1, 2, 3)
        t = CATransform3DRotate(t, 45 * .pi / 180, 0, 1, 0)
        t = CATransform3DConcat(CATransform3D(perspectiveDistance: 500), t)
        t.m12 = 0.25
        t.m44 = 2
        let m = CATransform3D(fields: (1...16).map { CGFloat($0) / 10 })!
        t = CATransform3DConcat(m, t)
        let a = CGAffineTransform(a: 1, b: 0.5, c: -0.5, d: 1, tx: 7, ty: 8)
        t = CATransform3DConcat(CATransform3DMakeAffineTransform(a), t)
        let decoded = try transform("""
            [{"translate": [10, 20, 30]}, {"scale": [2, 3, 4]}, {"rotate": [0.5, 1, 2, 3]},
             {"rotateDegrees": [45, 0, 1, 0]}, {"perspective": 500}, {"set": {"m12": 0.25, "m44": 2}},
             {"matrix": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6]},
             {"affine": [1, 0.5, -0.5, 1, 7, 8]}]
            """)
        #expect(decoded == t)
    }

    @Test func listingFiveFiveIsPerspectiveThenRotation() throws {
        // The book's listing 5.5: m34 = -1/500, then CATransform3DRotate.
        var expected = CATransform3DIdentity
        expected.m34 = -1.0 / 500
        expected = CATransform3DRotate(expected, 0.785398, 0, 1, 0)
        #expect(try transform(#"[{"perspective": 500}, {"rotate": [0.785398, 0, 1, 0]}]"#) == expected)
        #expect(try transform("[]") == .identity)
    }
}

@Suite struct PathValueTests {
    private func path(_ json: String) throws -> [PathElement] {
        let shape = try #require(try decodeLayer("{\"type\": \"shape\", \"path\": \(json)}") as? CAShapeLayer)
        return try #require(shape.path).elements
    }

    @Test func svgPathData() throws {
        #expect(try path(#""M 10 20 L 30 40 Q 1 2 3 4 C 5 6 7 8 9 10 Z""#) == [
            .moveTo(CGPoint(x: 10, y: 20)), .lineTo(CGPoint(x: 30, y: 40)),
            .quadCurveTo(control: CGPoint(x: 1, y: 2), to: CGPoint(x: 3, y: 4)),
            .curveTo(control1: CGPoint(x: 5, y: 6), control2: CGPoint(x: 7, y: 8), to: CGPoint(x: 9, y: 10)),
            .closeSubpath,
        ])
        #expect(try path(#""M 175 100 A 25 25 0 1 1 175 99.9 Z""#).count > 3)
    }

    @Test func everyOperationIsTheMatchingBezierPathCall() throws {
        let expected = UIBezierPath()
        expected.move(to: CGPoint(x: 1, y: 2))
        expected.addLine(to: CGPoint(x: 3, y: 4))
        expected.addQuadCurve(to: CGPoint(x: 7, y: 8), controlPoint: CGPoint(x: 5, y: 6))
        expected.addCurve(to: CGPoint(x: 5, y: 6), controlPoint1: CGPoint(x: 1, y: 2), controlPoint2: CGPoint(x: 3, y: 4))
        expected.addArc(withCenter: CGPoint(x: 50, y: 50), radius: 10, startAngle: 0, endAngle: 2, clockwise: false)
        expected.close()
        expected.append(UIBezierPath(rect: CGRect(x: 1, y: 2, width: 3, height: 4)))
        expected.append(UIBezierPath(ovalIn: CGRect(x: 5, y: 6, width: 7, height: 8)))
        expected.append(UIBezierPath(roundedRect: CGRect(x: 0, y: 0, width: 20, height: 10), cornerRadius: 3))
        expected.append(UIBezierPath(
            roundedRect: CGRect(x: 50, y: 50, width: 100, height: 100), byRoundingCorners: [.topRight, .bottomLeft],
            cornerRadii: CGSize(width: 20, height: 10)))
        let decoded = try path("""
            [["moveTo", 1, 2], ["lineTo", 3, 4], ["quadTo", 5, 6, 7, 8], ["curveTo", 1, 2, 3, 4, 5, 6],
             ["arc", 50, 50, 10, 0, 2, false], ["close"], ["rect", 1, 2, 3, 4], ["ellipse", 5, 6, 7, 8],
             ["roundedRect", 0, 0, 20, 10, 3], ["roundedRectCorners", 50, 50, 100, 100, 20, 10, ["topRight", "bottomLeft"]]]
            """)
        #expect(decoded == expected.pathData.elements)
    }

    @Test func arcClockwiseSweepsWithIncreasingAngleAsUIKitDoes() throws {
        // A quarter from angle 0 to pi/2, clockwise: from (60, 50) down to
        // (50, 60) on a y-down screen, bulging towards +x +y.
        let elements = try path(#"[["arc", 50, 50, 10, 0, 1.5707963267948966, true]]"#)
        #expect(elements.first == .moveTo(CGPoint(x: 60, y: 50)))
        guard case .curveTo(let c1, _, let end)? = elements.last else {
            Issue.record("expected a curve, got \(elements)")
            return
        }
        #expect(abs(end.x - 50) < 1e-9 && abs(end.y - 60) < 1e-9)
        #expect(c1.y > 50)
        // The same angles counter-clockwise go the long way round, through -y.
        let long = try path(#"[["arc", 50, 50, 10, 0, 1.5707963267948966, false]]"#)
        let points = long.flatMap(\.points)
        #expect(points.contains { $0.y < 45 })
    }

    @Test func anArcAfterAPointJoinsItWithALine() throws {
        let elements = try path(#"[["moveTo", 0, 0], ["arc", 50, 50, 10, 0, 1, true]]"#)
        #expect(elements[1] == .lineTo(CGPoint(x: 60, y: 50)))
    }
}

@Suite struct ImageValueTests {
    private func contents(_ json: String, options: SceneDecoder.Options = .init()) throws -> CGImage {
        let scene = try decodeScene(
            "{\"width\": 10, \"height\": 10, \"sublayers\": [{\"contents\": \(json)}]}", options: options)
        return try #require(scene.rootLayer.sublayers?.first?.contents as? CGImage)
    }

    private func pixel(_ image: CGImage, _ x: Int, _ y: Int) -> [UInt8] {
        guard let p = image.pixel(x: x, y: y) else { return [] }
        return [p.red, p.green, p.blue, p.alpha]
    }

    @Test func checkerboardHasTheFirstColourAtTheOrigin() throws {
        let image = try contents(##"{"checker": [20, 12, 4], "colors": ["#f0a030", "#303030"]}"##)
        #expect(image.width == 20 && image.height == 12)
        for y in 0..<12 {
            for x in 0..<20 {
                let first = (x / 4 + y / 4) % 2 == 0
                #expect(pixel(image, x, y) == (first ? [0xf0, 0xa0, 0x30, 255] : [0x30, 0x30, 0x30, 255]))
            }
        }
        // Colours default to black then white.
        let plain = try contents(#"{"checker": [2, 1, 1]}"#)
        #expect(pixel(plain, 0, 0) == [0, 0, 0, 255] && pixel(plain, 1, 0) == [255, 255, 255, 255])
    }

    @Test func solidImageIsPremultiplied() throws {
        let image = try contents(#"{"width": 3, "height": 2, "color": [1, 0.5, 0, 0.5]}"#)
        #expect(image.width == 3 && image.height == 2)
        // Straight (255, 128, 0, 128), premultiplied.
        #expect(pixel(image, 2, 1) == [128, 64, 0, 128])
    }

    @Test func dataURIAndFile() throws {
        let source = try CGImage(width: 2, height: 2, straightRGBA: [
            255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 128,
        ])
        let png = try PNGEncoder().encode(source)
        let uri = "data:image/png;base64," + Data(png).base64EncodedString()
        #expect(try contents("\"\(uri)\"") == source)

        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-scene-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(png).write(to: dir.appendingPathComponent("picture.png"))
        #expect(try contents(#""picture.png""#, options: .init(baseDirectory: dir)) == source)
        // A scene file's own directory is the base.
        let sceneFile = dir.appendingPathComponent("scene.json")
        try Data(#"{"width": 4, "height": 4, "contents": "picture.png"}"#.utf8).write(to: sceneFile)
        #expect(try SceneDecoder().decode(contentsOf: sceneFile).rootLayer.contents as? CGImage == source)
        // A server forbids files.
        let e = sceneError(#"{"width": 4, "height": 4, "contents": "picture.png"}"#,
                           options: .init(baseDirectory: dir, allowsFiles: false))
        #expect(e?.kind == .fileAccess && e?.location == "$.contents")
    }
}
