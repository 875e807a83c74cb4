import Foundation
import Testing
import Lamina

/// A CAML document whose root flips its geometry, so that its sublayers
/// are placed y-down as the scene format's are (unflipped, CAML is y-up).
func caml(_ body: String, width: Int = 120, height: Int = 80) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <caml xmlns="http://www.apple.com/CoreAnimation/1.0">
      <CALayer bounds="0 0 \(width) \(height)" position="\(width / 2) \(height / 2)" backgroundColor="1 1 1" geometryFlipped="1">
        <sublayers>
          \(body)
        </sublayers>
      </CALayer>
    </caml>
    """
}

/// The scene JSON a `caml(...)` document must equal: the root layer as the
/// canvas' only sublayer.
func sceneJSON(_ sublayers: String, width: Int = 120, height: Int = 80) -> String {
    """
    {"width": \(width), "height": \(height), "sublayers": [{"bounds": [0, 0, \(width), \(height)],
     "position": [\(width / 2), \(height / 2)], "backgroundColor": [1, 1, 1], "sublayers": [\(sublayers)]}]}
    """
}

extension CAMLReader.Result {
    /// The root layer of the (first) document: the scene's root holds the
    /// y-up screen each document sits on, which holds the document's root.
    var documentRoot: CALayer? { scene.rootLayer.sublayers?.first?.sublayers?.first }
}

/// The RGBA bytes of `scene` at `time`, drawn on the CPU.
func pixels(_ scene: Scene, time: Double = 0) throws -> [UInt8] {
    let image = try LayerRenderer(backend: .cpu).render(scene, time: time)
    return image.withUnsafeBytes { Array($0) }
}

func readCAML(_ text: String, state: String? = nil, transition: CAMLReader.Transition? = nil,
              strict: Bool = false) throws -> CAMLReader.Result {
    try CAMLReader(options: .init(strict: strict)).read(caml: Array(text.utf8), state: state, transition: transition)
}

/// For each layer class and animation kind: a CAML document and the scene
/// JSON that says the same draw the same pixels, at several times.
@Suite("CAML and scene JSON agree")
struct CAMLEquivalenceTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var caml: String
        var json: String
        var times: [Double] = [0]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "CALayer", caml: """
            <CALayer bounds="0 0 50 30" position="40 30" backgroundColor="0.9 0.2 0.1 0.8" cornerRadius="6"
                     borderWidth="2" borderColor="0 0 0.5" opacity="0.9" maskedCorners="5"
                     shadowOpacity="0.5" shadowRadius="4" shadowOffset="2 3" transform.rotation.z="0.3" zPosition="2"/>
            <CALayer bounds="0 0 30 30" position="90 50" anchorPoint="0 0" masksToBounds="1">
              <backgroundColor type="CGColor" value="0 0.6 0.2" opacity="0.5"/>
              <transform type="CATransform3D" value="1 0 0 0 0 1 0 0 0 0 1 0 -10 -5 0 1"/>
            </CALayer>
            """, json: """
            {"bounds": [0, 0, 50, 30], "position": [40, 30], "backgroundColor": [0.9, 0.2, 0.1, 0.8], "cornerRadius": 6,
             "borderWidth": 2, "borderColor": [0, 0, 0.5], "opacity": 0.9, "maskedCorners": ["minXMinY", "minXMaxY"],
             "shadowOpacity": 0.5, "shadowRadius": 4, "shadowOffset": [2, 3], "transform": [{"rotate": [0.3, 0, 0, 1]}], "zPosition": 2},
            {"bounds": [0, 0, 30, 30], "position": [90, 50], "anchorPoint": [0, 0], "masksToBounds": true,
             "backgroundColor": [0, 0.6, 0.2, 0.5], "transform": [{"translate": [-10, -5, 0]}]}
            """),
        Case(name: "CATransformLayer", caml: """
            <CATransformLayer bounds="0 0 60 60" position="60 40" transform="perspective(300) rotate(30deg, 0, 1, 0)">
              <sublayers>
                <CALayer bounds="0 0 40 40" position="30 30" backgroundColor="0.2 0.4 0.9" zPosition="10"/>
                <CALayer bounds="0 0 40 40" position="30 30" backgroundColor="0.9 0.4 0.2" transform="rotateY(90deg)"/>
              </sublayers>
            </CATransformLayer>
            """, json: """
            {"type": "transform", "bounds": [0, 0, 60, 60], "position": [60, 40],
             "transform": [{"perspective": 300}, {"rotateDegrees": [30, 0, 1, 0]}], "sublayers": [
              {"bounds": [0, 0, 40, 40], "position": [30, 30], "backgroundColor": [0.2, 0.4, 0.9], "zPosition": 10},
              {"bounds": [0, 0, 40, 40], "position": [30, 30], "backgroundColor": [0.9, 0.4, 0.2], "transform": [{"rotateDegrees": [90, 0, 1, 0]}]}]}
            """),
        Case(name: "CAShapeLayer", caml: """
            <CAShapeLayer bounds="0 0 100 60" position="60 40" path="M 10 10 L 90 10 L 50 55 Z M 40 20 L 60 20 L 50 35 Z"
                          fillColor="0.1 0.5 0.8" fillRule="even-odd" strokeColor="0 0 0" lineWidth="3" lineJoin="round"
                          lineCap="round" strokeEnd="0.8">
              <lineDashPattern><real value="6"/><integer value="3"/></lineDashPattern>
            </CAShapeLayer>
            """, json: """
            {"type": "shape", "bounds": [0, 0, 100, 60], "position": [60, 40], "path": "M 10 10 L 90 10 L 50 55 Z M 40 20 L 60 20 L 50 35 Z",
             "fillColor": [0.1, 0.5, 0.8], "fillRule": "evenOdd", "strokeColor": [0, 0, 0], "lineWidth": 3, "lineJoin": "round",
             "lineCap": "round", "strokeEnd": 0.8, "lineDashPattern": [6, 3]}
            """),
        Case(name: "CATextLayer", caml: """
            <CATextLayer bounds="0 0 110 40" position="60 40" string="Lamina" fontSize="24" foregroundColor="0.1 0.1 0.3"
                         alignmentMode="center" contentsScale="2"/>
            """, json: """
            {"type": "text", "bounds": [0, 0, 110, 40], "position": [60, 40], "string": "Lamina", "fontSize": 24,
             "foregroundColor": [0.1, 0.1, 0.3], "alignmentMode": "center", "contentsScale": 2}
            """),
        Case(name: "CAGradientLayer", caml: """
            <CAGradientLayer bounds="0 0 100 60" position="60 40" startPoint="0 0" endPoint="1 1" type="radial">
              <colors><CGColor value="1 0 0"/><CGColor value="0 0 1 0.5"/><CGColor value="0 1 0"/></colors>
              <locations><real value="0"/><real value="0.3"/><real value="1"/></locations>
            </CAGradientLayer>
            """, json: """
            {"type": "gradient", "bounds": [0, 0, 100, 60], "position": [60, 40], "startPoint": [0, 0], "endPoint": [1, 1],
             "gradientType": "radial", "colors": [[1, 0, 0], [0, 0, 1, 0.5], [0, 1, 0]], "locations": [0, 0.3, 1]}
            """),
        Case(name: "CAReplicatorLayer", caml: """
            <CAReplicatorLayer bounds="0 0 120 80" position="60 40" instanceCount="5" instanceTransform="translate(20, 5, 0)"
                               instanceColor="1 1 1" instanceRedOffset="-0.2" instanceAlphaOffset="-0.1">
              <sublayers><CALayer bounds="0 0 15 15" position="15 20" backgroundColor="1 0.5 0"/></sublayers>
            </CAReplicatorLayer>
            """, json: """
            {"type": "replicator", "bounds": [0, 0, 120, 80], "position": [60, 40], "instanceCount": 5,
             "instanceTransform": [{"translate": [20, 5, 0]}], "instanceColor": [1, 1, 1], "instanceRedOffset": -0.2,
             "instanceAlphaOffset": -0.1, "sublayers": [{"bounds": [0, 0, 15, 15], "position": [15, 20], "backgroundColor": [1, 0.5, 0]}]}
            """),
        Case(name: "mask and contents", caml: """
            <CALayer bounds="0 0 60 60" position="60 40" contentsGravity="resizeAspect">
              <contents><CGImage src="\(Self.checker)"/></contents>
              <mask><CAShapeLayer path="M 30 0 L 60 30 L 30 60 L 0 30 Z"/></mask>
            </CALayer>
            """, json: """
            {"bounds": [0, 0, 60, 60], "position": [60, 40], "contentsGravity": "resizeAspect", "contents": "\(Self.checker)",
             "mask": {"type": "shape", "path": "M 30 0 L 60 30 L 30 60 L 0 30 Z"}}
            """),
        Case(name: "CABasicAnimation", caml: """
            <CALayer bounds="0 0 30 30" position="20 40" backgroundColor="0.2 0.2 0.8">
              <animations>
                <animation type="CABasicAnimation" keyPath="position.x" fromValue="20" toValue="100" duration="2"
                           timingFunction="easeInEaseOut" beginTime="0.5" fillMode="both" removedOnCompletion="0"/>
                <animation type="CABasicAnimation" keyPath="backgroundColor" duration="1" autoreverses="1" repeatCount="inf">
                  <toValue><CGColor value="1 0 0"/></toValue>
                </animation>
                <animation type="CABasicAnimation" keyPath="transform" duration="2" additive="1">
                  <toValue type="CATransform3D" value="rotate(90deg)"/>
                </animation>
              </animations>
            </CALayer>
            """, json: """
            {"bounds": [0, 0, 30, 30], "position": [20, 40], "backgroundColor": [0.2, 0.2, 0.8], "animations": [
              {"keyPath": "position.x", "fromValue": 20, "toValue": 100, "duration": 2, "timingFunction": "easeInEaseOut",
               "beginTime": 0.5, "fillMode": "both", "removedOnCompletion": false},
              {"keyPath": "backgroundColor", "duration": 1, "autoreverses": true, "repeatCount": "infinity", "toValue": [1, 0, 0]},
              {"keyPath": "transform", "duration": 2, "additive": true, "toValue": [{"rotateDegrees": [90, 0, 0, 1]}]}]}
            """, times: [0, 0.3, 1.2, 1.7, 3]),
        Case(name: "CAKeyframeAnimation", caml: """
            <CALayer bounds="0 0 20 20" position="20 40" backgroundColor="0.8 0.3 0.1">
              <animations>
                <animation type="CAKeyframeAnimation" keyPath="position" duration="3" calculationMode="cubic">
                  <values><CGPoint value="20 40"/><CGPoint value="60 10"/><CGPoint value="100 40"/><CGPoint value="60 70"/></values>
                  <keyTimes><real value="0"/><real value="0.2"/><real value="0.7"/><real value="1"/></keyTimes>
                </animation>
                <animation type="CAKeyframeAnimation" keyPath="opacity" duration="3" calculationMode="discrete" keyTimes="0 0.5">
                  <values><real value="1"/><real value="0.4"/></values>
                </animation>
                <animation type="CAKeyframeAnimation" keyPath="transform.rotation.z" duration="3" cumulative="1" repeatCount="2">
                  <values><real value="0"/><real value="1"/><real value="2"/></values>
                  <timingFunctions>
                    <CAMediaTimingFunction name="easeIn"/><CAMediaTimingFunction controlPoints="0.1 0.9 0.2 1"/>
                  </timingFunctions>
                </animation>
              </animations>
            </CALayer>
            """, json: """
            {"bounds": [0, 0, 20, 20], "position": [20, 40], "backgroundColor": [0.8, 0.3, 0.1], "animations": [
              {"type": "keyframe", "keyPath": "position", "duration": 3, "calculationMode": "cubic",
               "values": [[20, 40], [60, 10], [100, 40], [60, 70]], "keyTimes": [0, 0.2, 0.7, 1]},
              {"type": "keyframe", "keyPath": "opacity", "duration": 3, "calculationMode": "discrete", "keyTimes": [0, 0.5],
               "values": [1, 0.4]},
              {"type": "keyframe", "keyPath": "transform.rotation.z", "duration": 3, "cumulative": true, "repeatCount": 2,
               "values": [0, 1, 2], "timingFunctions": ["easeIn", [0.1, 0.9, 0.2, 1]]}]}
            """, times: [0, 0.5, 1.4, 2.5, 4]),
        Case(name: "CASpringAnimation", caml: """
            <CALayer bounds="0 0 20 20" position="20 40" backgroundColor="0.1 0.6 0.3">
              <animations>
                <animation type="CASpringAnimation" keyPath="position.x" fromValue="20" toValue="100" mass="1.5"
                           stiffness="120" damping="6" velocity="4" duration="2"/>
              </animations>
            </CALayer>
            """, json: """
            {"bounds": [0, 0, 20, 20], "position": [20, 40], "backgroundColor": [0.1, 0.6, 0.3], "animations": [
              {"type": "spring", "keyPath": "position.x", "fromValue": 20, "toValue": 100, "mass": 1.5, "stiffness": 120,
               "damping": 6, "initialVelocity": 4, "duration": 2}]}
            """, times: [0, 0.2, 0.6, 1.5]),
        Case(name: "CAAnimationGroup", caml: """
            <CALayer bounds="0 0 20 20" position="20 40" backgroundColor="0.5 0.1 0.6">
              <animations>
                <animation type="CAAnimationGroup" duration="2" repeatCount="inf" beginTime="0.25" timingFunction="easeOut">
                  <animations>
                    <animation type="CABasicAnimation" keyPath="position.x" toValue="100" duration="1.5"/>
                    <animation type="CABasicAnimation" keyPath="opacity" toValue="0.2" beginTime="1" duration="2" fillMode="backwards"/>
                  </animations>
                </animation>
              </animations>
            </CALayer>
            """, json: """
            {"bounds": [0, 0, 20, 20], "position": [20, 40], "backgroundColor": [0.5, 0.1, 0.6], "animations": [
              {"type": "group", "duration": 2, "repeatCount": "infinity", "beginTime": 0.25, "timingFunction": "easeOut",
               "animations": [{"keyPath": "position.x", "toValue": 100, "duration": 1.5},
                              {"keyPath": "opacity", "toValue": 0.2, "beginTime": 1, "duration": 2, "fillMode": "backwards"}]}]}
            """, times: [0, 0.5, 1.1, 1.9, 2.3, 5.1]),
    ]

    /// A 4x4 checkerboard PNG as a data URI.
    static let checker: String = {
        var pixels = [UInt8](repeating: 255, count: 4 * 4 * 4)
        for y in 0..<4 { for x in 0..<4 where (x + y) % 2 == 0 { pixels[(y * 4 + x) * 4] = 30; pixels[(y * 4 + x) * 4 + 1] = 90 } }
        let image = try! CGImage(width: 4, height: 4, straightRGBA: pixels)
        return "data:image/png;base64," + Data(try! PNGEncoder().encode(image)).base64EncodedString()
    }()

    @Test(arguments: cases)
    func sameScene(_ c: Case) throws {
        let fromCAML = try readCAML(caml(c.caml))
        #expect(fromCAML.warnings.isEmpty, "\(fromCAML.warnings)")
        let fromJSON = try SceneDecoder().decode(sceneJSON(c.json))
        for t in c.times {
            let a = try pixels(fromCAML.scene, time: t), b = try pixels(fromJSON, time: t)
            #expect(a == b, "\(c.name) at t = \(t): the CAML and the scene JSON draw differently")
        }
        // The converted JSON reads back to the same picture.
        let again = try SceneDecoder().decode(fromCAML.sceneJSON)
        #expect(try pixels(again, time: c.times.last!) == pixels(fromJSON, time: c.times.last!))
    }

    @Test func animationsChangeThePicture() throws {
        // The equivalence above would hold for two documents that ignore their
        // animations alike; make sure the animated cases move.
        for c in Self.cases where c.times.count > 1 {
            let scene = try readCAML(caml(c.caml)).scene
            let frames = try c.times.map { try pixels(scene, time: $0) }
            #expect(Set(frames.map { $0.hashValue }).count > 1, "\(c.name) does not animate")
        }
    }
}
