import Foundation
import Testing
import ZIPFoundation
@testable import LaminaCAML
import Lamina
import LaminaJSON

/// The error `body` throws, or nil.
func sceneError(_ body: () throws -> Void) -> SceneError? {
    do {
        try body()
        return nil
    } catch let error as SceneError {
        return error
    } catch {
        Issue.record("not a SceneError: \(error)")
        return nil
    }
}

/// A folder under the temporary directory, removed by the caller.
func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-caml-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

func write(_ text: String, to url: URL) throws {
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
}

/// A solid PNG.
func png(_ r: UInt8, _ g: UInt8, _ b: UInt8, size: Int = 8) throws -> Data {
    var pixels: [UInt8] = []
    for _ in 0..<(size * size) { pixels += [r, g, b, 255] }
    return Data(try PNGEncoder().encode(CGImage(width: size, height: size, straightRGBA: pixels)))
}

/// A one-layer wallpaper plane: a `.ca` bundle's main.caml with a coloured
/// square that spins for ever.
func plane(_ color: String, square: Int, states: String = "") -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <caml xmlns="http://www.apple.com/CoreAnimation/1.0">
      <CALayer id="#root" bounds="0 0 100 160" position="50 80" name="Root">
        <sublayers>
          <CALayer id="square" bounds="0 0 \(square) \(square)" position="50 80" backgroundColor="\(color)">
            <animations>
              <animation type="CABasicAnimation" keyPath="transform.rotation.z" fromValue="0" toValue="6.283185307"
                         duration="2" repeatCount="inf"/>
            </animations>
          </CALayer>
        </sublayers>
        \(states)
      </CALayer>
    </caml>
    """
}

@Suite("CAML documents")
struct CAMLDocumentTests {
    // MARK: Values

    @Test func keyPathAttributesAndTypedValuesSetPartsThroughKeyValueCoding() throws {
        let result = try readCAML(caml("""
            <CALayer bounds="0 0 10 10" position="5 5" position.x="40" transform="scale(2)" transform.rotation.z="1.5707963"
                     bounds.size.width="30"/>
            """))
        let layer = try #require(result.documentRoot?.sublayers?.first)
        #expect(layer.position == CGPoint(x: 40, y: 5))
        #expect(layer.bounds.size == CGSize(width: 30, height: 10))
        // The scale stays, the rotation is replaced: what setValue(_:forKeyPath:) does.
        let t = layer.transform
        #expect(abs(t.m11) < 1e-6 && abs(t.m12 - 2) < 1e-6 && abs(t.m21 + 2) < 1e-6)
    }

    @Test(arguments: [
        ("1 0 0 0 0 1 0 0 0 0 1 0 5 6 0 1", CATransform3DMakeTranslation(5, 6, 0)),
        ("1 0 0 1 5 6", CATransform3DMakeTranslation(5, 6, 0)),
        ("translate(5, 6)", CATransform3DMakeTranslation(5, 6, 0)),
        ("rotate(0deg) rotate(0deg, 0, 1, 0)", CATransform3DIdentity),
        ("rotate(0.5turn)", CATransform3DMakeRotation(.pi, 0, 0, 1)),
        ("scale(2, 3) translateX(4)", CATransform3DTranslate(CATransform3DMakeScale(2, 3, 1), 4, 0, 0)),
        ("matrix(2, 0, 0, 2, 1, 1)", CATransform3DConcat(CATransform3DMakeAffineTransform(CGAffineTransform(a: 2, b: 0, c: 0, d: 2, tx: 1, ty: 1)), .identity)),
    ])
    func transformsAsMatricesAndFunctions(text: String, expected: CATransform3D) throws {
        let t = try #require(CAMLText.transform(text))
        for (a, b) in Swift.zip(t.entries, expected.entries) { #expect(abs(a - b) < 1e-9, "\(text)") }
    }

    @Test(arguments: ["rotate(45)", "skew(10deg)", "1 2 3", "translate(1, 2, 3, 4)", "scale(x)", "perspective(0)"].dropFirst())
    func badTransformsAreRefusedWithTheirPlace(text: String) throws {
        let error = try #require(sceneError { _ = try readCAML(caml("<CALayer bounds=\"0 0 1 1\"\n  transform=\"\(text)\"/>")) })
        #expect(error.kind == .wrongType)
        #expect(error.position?.line == 6, "\(error)")
        #expect(error.location.contains("@transform"))
    }

    @Test func sceneErrorsPointIntoTheXML() throws {
        // A value of the right form but out of range: the scene decoder's
        // check, at the attribute's place in the CAML.
        let text = caml("<CALayer bounds=\"0 0 10 10\"\n          opacity=\"3\"/>")
        let error = try #require(sceneError { _ = try readCAML(text) })
        #expect(error.kind == .outOfRange)
        #expect(error.position == SourcePosition(line: 6, column: 11), "\(error)")
        #expect(error.location.hasPrefix("document.caml: scene $.sublayers[0].sublayers[0].sublayers[0].opacity"), "\(error.location)")
    }

    /// Values built from a list or an animation's attributes are refused at
    /// their own place, never at line 0.
    @Test(arguments: [
        ("<CALayer bounds=\"0 0 10 10\"><animations>\n<animation type=\"CAKeyframeAnimation\" keyPath=\"opacity\" duration=\"1\" keyTimes=\"0 0.8 0.5\"><values><real value=\"0\"/><real value=\"1\"/><real value=\"0\"/></values></animation></animations></CALayer>",
         "keyTimes", 6, 70),
        ("<CALayer bounds=\"0 0 10 10\"><animations>\n<animation type=\"CASpringAnimation\" keyPath=\"position.x\" mass=\"0\" fromValue=\"0\" toValue=\"1\"/></animations></CALayer>",
         "mass", 6, 58),
        ("<CALayer bounds=\"0 0 10 10\"\n  borderWidth=\"-2\"/>", "borderWidth", 6, 3),
    ])
    func builtValuesAreRefusedWhereTheyAreWritten(body: String, key: String, line: Int, column: Int) throws {
        let error = try #require(sceneError { _ = try readCAML(caml(body)) })
        #expect(error.location.contains(key), "\(error)")
        #expect(error.position == SourcePosition(line: line, column: column), "\(error)")
    }

    // MARK: Skipped and strict

    @Test func whatIsNotDrawnIsReportedOnceEachAndRefusedWhenStrict() throws {
        let text = caml("""
            <CAPortalLayer position="1 1"/>
            <CAPortalLayer position="2 2"/>
            <CALayer bounds="0 0 5 5" cornerCurve="continuous" allowsEdgeAntialiasing="1">
              <meshTransform value="1 1 1"/>
              <animations><animation type="CATransition" duration="1"/></animations>
            </CALayer>
            <CALayer bounds="0 0 5 5"><scriptComponents/></CALayer>
            """)
        let result = try readCAML(text)
        let subjects = result.warnings.map(\.subject)
        #expect(subjects.contains("<CAPortalLayer>"))
        #expect(result.warnings.first { $0.subject == "<CAPortalLayer>" }?.count == 2)
        #expect(result.warnings.first { $0.subject == "<CAPortalLayer>" }?.position == SourcePosition(line: 5, column: 7))
        #expect(subjects.contains("@cornerCurve of <CALayer>"))
        #expect(subjects.contains("<meshTransform> in <CALayer>"))
        #expect(subjects.contains("<animation type=\"CATransition\">"))
        #expect(subjects.contains("<scriptComponents> in <CALayer>"))
        #expect(!subjects.contains { $0.contains("allowsEdgeAntialiasing") }, "no effect on pixels: read silently")
        let nested = try readCAML(caml("""
            <CALayer bounds="0 0 5 5"><meshTransform value="1 1 1"/>
              <sublayers><CALayer bounds="0 0 5 5"><meshTransform value="1 1 1"/></CALayer></sublayers>
            </CALayer>
            """))
        #expect(nested.warnings.map(\.count) == [2], "\(nested.warnings)")
        #expect(result.warnings.allSatisfy { $0.description.contains("document.caml:") })

        let strict = try #require(sceneError { _ = try readCAML(text, strict: true) })
        #expect(strict.message.contains("CAPortalLayer"))
        #expect(strict.position == SourcePosition(line: 5, column: 7))
    }

    @Test func emittersAndTheirCellsAreRead() throws {
        let result = try readCAML(caml("""
            <CAEmitterLayer bounds="0 0 100 100" emitterShape="rectangle" emitterSize="200 50" renderMode="oldestLast" seed="7">
              <emitterCells>
                <CAEmitterCell name="dot" birthRate="4" lifetime="2.5" velocity="30" emissionRange="6.283" sizeBias="2"
                               color="1 0.5 0.25" beginTime="-3">
                  <contents type="CGImage" src="data:image/jpeg;base64,\(Self.blueJPEG)"/>
                  <emitterCells><CAEmitterCell birthRate="1" lifetime="1" spinBias="2"/></emitterCells>
                </CAEmitterCell>
              </emitterCells>
              <emitterBehaviors><CAEmitterBehavior behavior="attractor" falloff="inf" stiffness="2" position="5 6" attractorType="radial"/>
                <CAEmitterBehavior behavior="light"/></emitterBehaviors>
            </CAEmitterLayer>
            """))
        func emitters(_ layer: CALayer) -> [CAEmitterLayer] {
            ((layer as? CAEmitterLayer).map { [$0] } ?? []) + (layer.sublayers ?? []).flatMap(emitters)
        }
        let emitter = try #require(emitters(result.scene.rootLayer).first)
        #expect(emitter.emitterShape == CAEmitterLayerEmitterShape.rectangle && emitter.emitterSize == CGSize(width: 200, height: 50))
        #expect(emitter.renderMode == CAEmitterLayerRenderMode.oldestLast && emitter.seed == 7)
        let cell = try #require(emitter.emitterCells?.first)
        #expect(cell.name == "dot" && cell.birthRate == 4 && cell.lifetime == 2.5 && cell.velocity == 30 && cell.beginTime == -3)
        #expect(cell.contents is CGImage && cell.color?.green == 0.5)
        #expect(cell.emitterCells?.first?.birthRate == 1)
        // What a cell does not have (editors' private keys) and behaviours: one warning each, at its place.
        let subjects = result.warnings.map(\.subject)
        #expect(subjects.contains("@sizeBias of <CAEmitterCell>"), "\(subjects)")
        #expect(subjects.contains("@spinBias of <CAEmitterCell>"))
        #expect(subjects.contains("emitter behaviour 'light'"), "what Lamina does not run is named")
        let attractor = try #require(emitter.emitterBehaviors?.first)
        #expect(attractor.type == .attractor && attractor.number("falloff") == .infinity && attractor.numbers("position") == [5, 6])
        #expect(result.warnings.first { $0.subject == "@sizeBias of <CAEmitterCell>" }?.position.line == 7)
    }

    @Test func theSameIdOnTwoLayersIsToleratedAndStatesApplyToEach() throws {
        // Editors copy layers with their ids (4 of 17 community wallpapers).
        let text = """
            <caml xmlns="http://www.apple.com/CoreAnimation/1.0">
              <CALayer bounds="0 0 40 20" position="20 10" geometryFlipped="1">
                <sublayers>
                  <CALayer id="dot" bounds="0 0 10 10" position="10 10" opacity="1"/>
                  <CALayer id="dot" bounds="0 0 10 10" position="30 10" opacity="1"/>
                </sublayers>
                <states><LKState name="Off"><elements>
                  <LKStateSetValue targetId="dot" keyPath="opacity"><value type="real" value="0"/></LKStateSetValue>
                </elements></LKState></states>
              </CALayer>
            </caml>
            """
        let result = try readCAML(text, state: "Off")
        let warning = try #require(result.warnings.first { $0.subject.contains("'dot'") })
        #expect(warning.action == .tolerated && warning.position.line == 5)
        let dots = try #require(result.documentRoot?.sublayers)
        #expect(dots.map(\.opacity) == [0, 0])
    }

    // MARK: States and transitions

    static let stateful = caml("""
        <CALayer id="lid" bounds="0 0 40 20" position="60 20" backgroundColor="0.2 0.4 0.8"/>
        """).replacingOccurrences(of: "</sublayers>", with: """
        </sublayers>
        <states>
          <LKState name="Locked"><elements/></LKState>
          <LKState name="Unlock"><elements>
            <LKStateSetValue targetId="lid" keyPath="position.y"><value type="integer" value="60"/></LKStateSetValue>
            <LKStateSetValue targetId="lid" keyPath="backgroundColor"><value type="CGColor" value="1 0 0"/></LKStateSetValue>
          </elements></LKState>
          <LKState name="Sleep" basedOn="Unlock"><elements>
            <LKStateSetValue targetId="lid" keyPath="opacity"><value type="real" value="0.5"/></LKStateSetValue>
          </elements></LKState>
        </states>
        <stateTransitions>
          <LKStateTransition fromState="*" toState="Unlock"><elements>
            <LKStateTransitionElement targetId="lid" key="position.y">
              <animation type="CASpringAnimation" mass="1" stiffness="200" damping="20" velocity="0" duration="1"/>
            </LKStateTransitionElement>
            <LKStateTransitionElement targetId="lid" key="backgroundColor">
              <animation type="CABasicAnimation" duration="0.5"/>
            </LKStateTransitionElement>
          </elements></LKStateTransition>
        </stateTransitions>
        """)

    func lid(_ result: CAMLReader.Result) throws -> CALayer {
        try #require(result.documentRoot?.sublayers?.first)
    }

    @Test func statesSetValuesByTargetIdAndFollowBasedOn() throws {
        let base = try readCAML(Self.stateful)
        #expect(base.states == ["Locked", "Sleep", "Unlock"])
        #expect(try lid(base).position.y == 20)
        let unlocked = try lid(readCAML(Self.stateful, state: "Unlock"))
        #expect(unlocked.position == CGPoint(x: 60, y: 60))
        #expect(unlocked.backgroundColor?.components == [1, 0, 0, 1])
        let asleep = try lid(readCAML(Self.stateful, state: "Sleep"))
        #expect(asleep.position.y == 60 && asleep.opacity == 0.5)
    }

    @Test func aTransitionAnimatesFromOneStatesValuesToTheOthers() throws {
        let result = try readCAML(Self.stateful, transition: .init(from: "Locked", to: "Unlock"))
        let layer = try lid(result)
        #expect(layer.position.y == 60, "the model is in the end state")
        let spring = try #require(layer.animation(forKey: "position.y") as? CASpringAnimation)
        #expect(spring.fromValue as? CGFloat == 20 && spring.toValue as? CGFloat == 60)
        #expect(spring.stiffness == 200 && spring.damping == 20)
        let colour = try #require(layer.animation(forKey: "backgroundColor") as? CABasicAnimation)
        #expect((colour.fromValue as? CGColor)?.components == [0.2, 0.4, 0.8, 1])
        // The lid moves: start, middle and end of the transition differ, and the end is the Unlock state.
        let frames = try [0, 0.1, 2].map { try pixels(result.scene, time: $0) }
        #expect(frames[0] != frames[1] && frames[1] != frames[2])
        #expect(frames[2] == (try pixels(readCAML(Self.stateful, state: "Unlock").scene)))
        #expect(frames[0] == (try pixels(readCAML(Self.stateful, state: "Locked").scene)))
    }

    @Test func aPreviewShowsTheLockScreenThenPlaysTheUnlock() throws {
        let locked = try pixels(readCAML(Self.stateful, state: "Locked").scene)
        let unlocked = try pixels(readCAML(Self.stateful, state: "Unlock").scene)
        let preview = try readCAML(Self.stateful, transition: .lockScreenPreview(begins: 1)).scene
        #expect(try pixels(preview, time: 0) == locked && pixels(preview, time: 0.9) == locked, "the lock screen until the unlock")
        let moving = try pixels(preview, time: 1.1)
        #expect(moving != locked && moving != unlocked)
        #expect(try pixels(preview, time: 4) == unlocked)
        // What the state sets that no animation moves waits for the unlock too.
        let element = try #require(Self.stateful.range(of: "<LKStateTransitionElement targetId=\"lid\" key=\"backgroundColor\">"))
        let end = try #require(Self.stateful.range(of: "</LKStateTransitionElement>", range: element.upperBound..<Self.stateful.endIndex))
        var unanimated = Self.stateful
        unanimated.removeSubrange(element.lowerBound..<end.upperBound)
        #expect(unanimated != Self.stateful)
        let held = try readCAML(unanimated, transition: .lockScreenPreview(begins: 1)).scene
        #expect(try pixels(held, time: 0.9) == locked && pixels(held, time: 4) == unlocked)
        // PosterBoard's own names: Lock and Home, for an orientation and an appearance.
        let named = Self.stateful.replacingOccurrences(of: "\"Locked\"", with: "\"Lock PortraitUp Dark\"")
            .replacingOccurrences(of: "\"Unlock\"", with: "\"Home PortraitUp Dark\"")
        let dark = try readCAML(named, transition: .lockScreenPreview(appearance: "Dark", begins: 1)).scene
        #expect(try pixels(dark, time: 0) == locked && pixels(dark, time: 4) == unlocked)
        let none = try #require(sceneError { _ = try readCAML(named, transition: .lockScreenPreview(begins: 1)) })
        #expect(none.message.contains("no lock screen to preview") && none.message.contains("Lock PortraitUp Dark"), "\(none)")
    }

    @Test func aScreenShowsTheCentreOfALargerRoot() throws {
        // A 100-unit root with a red square in its middle and a blue one in a corner; a 40 x 30 screen.
        let text = caml("""
            <CALayer bounds="0 0 10 10" position="50 50" backgroundColor="1 0 0"/>
            <CALayer bounds="0 0 10 10" position="5 95" backgroundColor="0 0 1"/>
            """, width: 100, height: 100)
        let reader = CAMLReader(options: .init(screen: CGSize(width: 40, height: 30)))
        let scene = try reader.read(caml: Array(text.utf8)).scene
        #expect(scene.width == 40 && scene.height == 30)
        let image = try LayerRenderer(backend: .cpu).render(scene)
        let middle = try #require(image.pixel(x: 20, y: 15)), corner = try #require(image.pixel(x: 1, y: 1))
        #expect(middle.red == 255 && middle.blue == 0, "the root's centre in the picture's middle: \(middle)")
        #expect(corner.red == 255 && corner.green == 255, "white: the blue corner square is off the screen: \(corner)")
        // The same square, the same size: no scaling, only the window (red from 15 to 25).
        #expect(try #require(image.pixel(x: 15, y: 15)).green == 0 && image.pixel(x: 26, y: 15)?.green == 255)

        // A root the screen's size in points (40 x 30 at 3x): scaled to cover the 120 x 90 pixels.
        let points = caml(#"<CALayer bounds="0 0 10 10" position="20 15" backgroundColor="1 0 0"/>"#, width: 40, height: 30)
        let scaled = try CAMLReader(options: .init(screen: CGSize(width: 120, height: 90), screenScale: 3))
            .read(caml: Array(points.utf8)).scene
        let big = try LayerRenderer(backend: .cpu).render(scaled)
        #expect(big.width == 120 && big.height == 90)
        // The square is 30 pixels wide about the middle: 45 to 75.
        #expect(big.pixel(x: 46, y: 45)?.green == 0 && big.pixel(x: 74, y: 45)?.green == 0 && big.pixel(x: 43, y: 45)?.green == 255)
    }

    @Test func aTransitionElementCanNameAnotherByItsId() throws {
        // PosterBoard writes one element and names it from the other transitions: <LKStateTransitionElement object="#15"/>.
        let shared = Self.stateful
            .replacingOccurrences(of: "<LKStateTransitionElement targetId=\"lid\" key=\"position.y\">",
                                  with: "<LKStateTransitionElement id=\"#15\" targetId=\"lid\" key=\"position.y\">")
            .replacingOccurrences(of: "<LKStateTransition fromState=\"*\" toState=\"Unlock\">",
                                  with: "<LKStateTransition fromState=\"*\" toState=\"Sleep\">")
            .replacingOccurrences(of: "</stateTransitions>", with: """
                <LKStateTransition fromState="Locked" toState="Unlock"><elements><LKStateTransitionElement object="#15"/></elements></LKStateTransition>
                </stateTransitions>
                """)
        let layer = try lid(readCAML(shared, transition: .init(from: "Locked", to: "Unlock")))
        let spring = try #require(layer.animation(forKey: "position.y") as? CASpringAnimation)
        #expect(spring.fromValue as? CGFloat == 20 && spring.toValue as? CGFloat == 60)
        let dangling = shared.replacingOccurrences(of: "object=\"#15\"", with: "object=\"#99\"")
        #expect(try #require(sceneError { _ = try readCAML(dangling, transition: .init(from: "Locked", to: "Unlock")) }).message.contains("#99"))
    }

    @Test func parallaxGroupsMoveTheirLayersWithTheTilt() throws {
        let text = caml("""
            <CALayer name="moon" bounds="0 0 10 10" position="60 40" backgroundColor="1 1 0"/>
            """).replacingOccurrences(of: "<sublayers>", with: """
            <style><wallpaperParallaxGroups type="NSArray"><NSDictionary>
              <axis type="string" value="x"/><keyPath type="string" value="position.x"/>
              <layerName type="string" value="moon"/><mapMinTo type="integer" value="-20"/><mapMaxTo type="integer" value="20"/>
              <view type="string" value="Floating"/>
            </NSDictionary></wallpaperParallaxGroups></style>
            <sublayers>
            """)
        func moonX(_ tilt: CGPoint?) throws -> CGFloat {
            let result = try CAMLReader(options: .init(tilt: tilt)).read(caml: Array(text.utf8))
            #expect(result.warnings.isEmpty, "\(result.warnings)")
            return try #require(result.documentRoot?.sublayers?.first).position.x
        }
        #expect(try moonX(nil) == 60)
        #expect(try moonX(CGPoint(x: 1, y: 0)) == 80 && moonX(CGPoint(x: -1, y: 0)) == 40 && moonX(CGPoint(x: 0.5, y: 1)) == 70)
    }

    @Test func badStatesAreRefused() throws {
        let unknown = try #require(sceneError { _ = try readCAML(Self.stateful, state: "Dream") })
        #expect(unknown.kind == .unknownName && unknown.message.contains("Locked, Sleep, Unlock"))
        let cycle = Self.stateful.replacingOccurrences(of: "<LKState name=\"Unlock\">", with: "<LKState name=\"Unlock\" basedOn=\"Sleep\">")
        #expect(try #require(sceneError { _ = try readCAML(cycle, state: "Sleep") }).message.contains("cycle"))
        let target = Self.stateful.replacingOccurrences(of: "targetId=\"lid\" keyPath=\"opacity\"", with: "targetId=\"nobody\" keyPath=\"opacity\"")
        let noTarget = try #require(sceneError { _ = try readCAML(target, state: "Sleep") })
        #expect(noTarget.message.contains("nobody") && noTarget.position != nil)
    }

    // MARK: Bundles, wallpapers, archives

    @Test func aBundleReadsItsRootDocumentAndAssets() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = folder.appendingPathComponent("Clock.ca")
        try write("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>rootDocument</key><string>scene.caml</string></dict></plist>
            """, to: bundle.appendingPathComponent("index.xml"))
        try write(caml("""
            <CALayer bounds="0 0 40 40" position="30 30"><contents type="CGImage" src="assets/red.png"/></CALayer>
            <CALayer bounds="0 0 40 40" position="90 50"><contents><CGImage src="./assets/../assets/blue.png"/></contents></CALayer>
            """), to: bundle.appendingPathComponent("scene.caml"))
        try FileManager.default.createDirectory(at: bundle.appendingPathComponent("assets"), withIntermediateDirectories: true)
        try png(255, 0, 0).write(to: bundle.appendingPathComponent("assets/red.png"))
        try png(0, 0, 255).write(to: bundle.appendingPathComponent("assets/blue.png"))
        let result = try CAMLReader().read(contentsOf: bundle)
        let image = try LayerRenderer(backend: .cpu).render(result.scene)
        #expect(image.pixel(x: 30, y: 30).map { [$0.red, $0.green, $0.blue] } == [255, 0, 0])
        #expect(image.pixel(x: 90, y: 50).map { [$0.red, $0.green, $0.blue] } == [0, 0, 255])

        // A path out of the bundle is refused, however it is spelled.
        for src in ["../outside.png", "assets/../../outside.png", "/etc/hostname"] {
            try write(caml("<CALayer bounds=\"0 0 4 4\"><contents type=\"CGImage\" src=\"\(src)\"/></CALayer>"),
                      to: bundle.appendingPathComponent("scene.caml"))
            try png(0, 255, 0).write(to: folder.appendingPathComponent("outside.png"))
            let error = try #require(sceneError { _ = try CAMLReader().read(contentsOf: bundle) })
            #expect(error.kind == .fileAccess && error.message.contains("outside the bundle"), "\(src): \(error)")
        }
        // A link that leads out is refused too.
        try FileManager.default.createSymbolicLink(at: bundle.appendingPathComponent("assets/link.png"),
                                                   withDestinationURL: folder.appendingPathComponent("outside.png"))
        try write(caml("<CALayer bounds=\"0 0 4 4\"><contents type=\"CGImage\" src=\"assets/link.png\"/></CALayer>"),
                  to: bundle.appendingPathComponent("scene.caml"))
        #expect(try #require(sceneError { _ = try CAMLReader().read(contentsOf: bundle) }).kind == .fileAccess)
        // A JPEG draws, as a file of the bundle and as a data URI.
        try Data(base64Encoded: Self.blueJPEG)!.write(to: bundle.appendingPathComponent("assets/photo.jpg"))
        try write(caml("""
            <CALayer bounds="0 0 40 40" position="30 30"><contents type="CGImage" src="assets/photo.jpg"/></CALayer>
            <CALayer bounds="0 0 40 40" position="90 50"><contents type="CGImage" src="data:image/jpeg;base64,\(Self.blueJPEG)"/></CALayer>
            """), to: bundle.appendingPathComponent("scene.caml"))
        let photos = try LayerRenderer(backend: .cpu).render(CAMLReader().read(contentsOf: bundle).scene)
        for (x, y) in [(30, 30), (90, 50)] {
            let p = try #require(photos.pixel(x: x, y: y))
            #expect(p.red < 12 && p.green < 12 && p.blue > 243, "\(p)")
        }
        // An image of another format is skipped with a warning (strict: refused).
        try Data([0, 0, 0, 0x18] + Array("ftypheic".utf8)).write(to: bundle.appendingPathComponent("assets/photo.heic"))
        try write(caml("<CALayer bounds=\"0 0 4 4\"><contents type=\"CGImage\" src=\"assets/photo.heic\"/></CALayer>"),
                  to: bundle.appendingPathComponent("scene.caml"))
        #expect(try CAMLReader().read(contentsOf: bundle).warnings.map(\.subject) == ["image 'assets/photo.heic'"])
        #expect(sceneError { _ = try CAMLReader(options: .init(strict: true)).read(contentsOf: bundle) } != nil)
        // A bare document cannot reach files at all.
        #expect(try #require(sceneError { _ = try readCAML(caml("<CALayer><contents type=\"CGImage\" src=\"a.png\"/></CALayer>")) })
            .kind == .fileAccess)
    }

    /// 2 x 2 red and green PNGs (Pillow's encoder).
    static let redPNG = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg=="
    static let greenPNG = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGNk+M/AwMDAxMDAwMDAAAAMHgEDBINhkwAAAABJRU5ErkJggg=="

    @Test(arguments: ["linear", "discrete"])
    func aVideoLayersFramesPlay(mode: String) throws {
        // As CAPlayground writes a video layer: its frames as a keyframe animation of contents.
        let red = "data:image/png;base64,\(Self.redPNG)", green = "data:image/png;base64,\(Self.greenPNG)"
        let text = caml("""
            <CALayer bounds="0 0 40 40" position="20 20" caplayKind="video" caplayFrameCount="2" caplayFPS="2">
              <contents type="CGImage" src="\(red)"/>
              <animations><animation type="CAKeyframeAnimation" calculationMode="\(mode)" keyPath="contents" beginTime="1e-100"
                  duration="1" repeatCount="inf" mica_autorecalculatesDuration="1">
                <values><CGImage src="\(red)"/><CGImage src="\(green)"/></values>
              </animation></animations>
            </CALayer>
            """, width: 40, height: 40)
        let result = try readCAML(text)
        // The editors' own attributes: one warning for each kind, tolerated (not refused when strict).
        let subjects = result.warnings.map(\.subject)
        #expect(subjects.contains("the editor's own attributes caplay*") && subjects.contains("the editor's own attributes mica_*"), "\(subjects)")
        #expect(result.warnings.first { $0.subject.hasSuffix("caplay*") }?.count == 3)
        _ = try readCAML(text, strict: true)
        func centre(at time: Double) throws -> CGImage.Pixel {
            try #require(try LayerRenderer(backend: .cpu).render(result.scene, time: time).pixel(x: 20, y: 20))
        }
        let quarter = try centre(at: 0.25), late = try centre(at: 0.75)
        if mode == "linear" {
            // Linear: red dissolves into green over the second (key times 0 and 1).
            #expect(abs(Int(quarter.red) - 191) <= 2 && abs(Int(quarter.green) - 64) <= 2, "\(quarter)")
            #expect(abs(Int(late.red) - 64) <= 2 && abs(Int(late.green) - 191) <= 2, "\(late)")
        } else {
            // Discrete: each frame for half the second.
            #expect(quarter.red == 255 && quarter.green == 0 && late.red == 0 && late.green == 255, "\(quarter) \(late)")
        }
    }

    @Test func filtersAreRead() throws {
        let result = try readCAML(caml("""
            <CALayer bounds="0 0 20 20" backgroundColor="1 0 0">
              <filters>
                <CAFilter name="gaussianBlur" inputRadius="4"/>
                <CAFilter name="grey" filter="colorSaturate"><inputAmount type="real" value="0"/></CAFilter>
                <CAFilter filter="colorMonochrome" inputColor="0 0 1" inputAmount="0.5"/>
                <CAFilter filter="vibrantColorMatrix"/>
                <CAFilter filter="colorInvert" inputWidth="3"/>
              </filters>
            </CALayer>
            """))
        func layers(_ l: CALayer) -> [CALayer] { [l] + (l.sublayers ?? []).flatMap(layers) }
        let layer = try #require(layers(result.scene.rootLayer).first { $0.filters != nil })
        let filters = try #require(layer.filters as? [CAFilter])
        #expect(filters.map(\.type) == [.gaussianBlur, .colorSaturate, .colorMonochrome, .colorInvert])
        #expect(filters[0].number("inputRadius") == 4 && filters[1].name == "grey" && filters[1].number("inputAmount") == 0)
        #expect(filters[2].color("inputColor")?.blue == 1)
        let subjects = result.warnings.map(\.subject)
        #expect(subjects.contains("filter 'vibrantColorMatrix'") && subjects.contains("@inputWidth of <CAFilter>"), "\(subjects)")
    }

    @Test func backgroundFiltersAndBackdropLayersAreRead() throws {
        let result = try readCAML(caml("""
            <CALayer name="glass" bounds="0 0 20 20"><backgroundFilters><CAFilter filter="gaussianBlur" inputRadius="6"/></backgroundFilters></CALayer>
            <CABackdropLayer name="backdrop" bounds="0 0 20 20" groupName="g" scale="0.25">
              <filters><CAFilter filter="colorSaturate" inputAmount="0"/></filters>
            </CABackdropLayer>
            """))
        #expect(result.warnings.isEmpty, "\(result.warnings)")
        func layers(_ l: CALayer) -> [CALayer] { [l] + (l.sublayers ?? []).flatMap(layers) }
        let all = layers(result.scene.rootLayer)
        let glass = try #require(all.first { $0.name == "glass" }?.backgroundFilters as? [CAFilter])
        #expect(glass.map(\.type) == [.gaussianBlur] && glass[0].number("inputRadius") == 6)
        let backdrop = try #require(all.first { $0.name == "backdrop" })
        #expect((backdrop.backgroundFilters as? [CAFilter])?.map(\.type) == [.colorSaturate])
        #expect(backdrop.filters == nil, "a backdrop layer's filters are its background filters")
    }

    @Test func aFiltersParameterAnimates() throws {
        let result = try readCAML(caml("""
            <CALayer name="blurred" bounds="0 0 20 20" backgroundColor="1 0 0">
              <filters><CAFilter name="gaussianBlur" inputRadius="0"/></filters>
              <animations><animation type="CABasicAnimation" keyPath="filters.gaussianBlur.inputRadius" fromValue="0" toValue="6" duration="2"/></animations>
            </CALayer>
            """))
        #expect(result.warnings.isEmpty, "\(result.warnings)")
        func layers(_ l: CALayer) -> [CALayer] { [l] + (l.sublayers ?? []).flatMap(layers) }
        let layer = try #require(layers(result.scene.rootLayer).first { $0.name == "blurred" })
        let presented = layer.presentation(atTime: 1)
        #expect(presented.value(forKeyPath: "filters.gaussianBlur.inputRadius").flatMap { $0 as? Double }.map { abs($0 - 3) < 1e-9 } == true)
    }

    @Test func statesAndTransitionsSetAFiltersParameter() throws {
        let text = caml("""
            <CALayer id="glass" name="glass" bounds="0 0 20 20" position="20 20" backgroundColor="1 0 0">
              <filters><CAFilter name="tone" filter="colorMatrix"><inputColorMatrix type="CAColorMatrix" value="matrix(1 0 0 0 0 0 1 0 0 0 0 0 1 0 0 0 0 0 1 0)"/></CAFilter></filters>
            </CALayer>
            <CALayer id="plain" name="plain" bounds="0 0 20 20"/>
            """, width: 40, height: 40)
            .replacingOccurrences(of: "</sublayers>", with: """
            </sublayers>
            <states>
              <LKState name="Base"><elements/></LKState>
              <LKState name="Grey"><elements>
                <LKStateSetValue targetId="glass" keyPath="filters.tone.inputColorMatrix">
                  <value type="CAColorMatrix" value="matrix(0.3 0.59 0.11 0 0 0.3 0.59 0.11 0 0 0.3 0.59 0.11 0 0 0 0 0 1 0)"/>
                </LKStateSetValue>
                <LKStateSetValue targetId="plain" keyPath="filters.tone.inputColorMatrix">
                  <value type="CAColorMatrix" value="matrix(0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 0)"/>
                </LKStateSetValue>
              </elements></LKState>
            </states>
            <stateTransitions>
              <LKStateTransition fromState="*" toState="Grey"><elements>
                <LKStateTransitionElement targetId="glass" key="filters.tone.inputColorMatrix">
                  <animation type="CABasicAnimation" keyPath="filters.tone.inputColorMatrix" duration="2"/>
                </LKStateTransitionElement>
              </elements></LKStateTransition>
            </stateTransitions>
            """)
        let grey = try readCAML(text, state: "Grey")
        #expect(grey.warnings.isEmpty, "\(grey.warnings)")
        func layers(_ l: CALayer) -> [CALayer] { [l] + (l.sublayers ?? []).flatMap(layers) }
        let glass = try #require(layers(grey.scene.rootLayer).first { $0.name == "glass" })
        #expect((glass.value(forKeyPath: "filters.tone.inputColorMatrix") as? [Any])?.count == 20)
        #expect(layers(grey.scene.rootLayer).first { $0.name == "plain" }?.filters == nil, "no filter to set: nothing changes")
        let centre = try #require(try LayerRenderer(backend: .cpu).render(grey.scene).pixel(x: 20, y: 20))
        #expect(abs(Int(centre.red) - 77) <= 1 && centre.red == centre.green && centre.green == centre.blue, "red, greyed: \(centre)")
        // The transition runs the matrix from the base state's to the grey one.
        let moving = try readCAML(text, transition: .init(from: "Base", to: "Grey"))
        let halfway = try #require(try LayerRenderer(backend: .cpu).render(moving.scene, time: 1).pixel(x: 20, y: 20))
        #expect(halfway.red > 150 && halfway.red < 200 && halfway.green > 20, "half way between red and grey: \(halfway)")
    }

    @Test func compositingFiltersAreBlendModes() throws {
        let result = try readCAML(caml("""
            <CALayer bounds="0 0 20 20" backgroundColor="1 0 0">
              <sublayers>
                <CALayer name="attribute" bounds="0 0 4 4" compositingFilter="multiplyBlendMode"/>
                <CALayer name="element" bounds="0 0 4 4"><compositingFilter type="filter" filter="screenBlendMode"/></CALayer>
                <CALayer name="object" bounds="0 0 4 4"><compositingFilter><CAFilter filter="plusL"/></compositingFilter></CALayer>
                <CALayer name="coreImage" bounds="0 0 4 4" compositingFilter="CISoftLightBlendMode"/>
                <CALayer name="porterDuff" bounds="0 0 4 4" compositingFilter="destOut"/>
                <CALayer name="nonSeparable" bounds="0 0 4 4" compositingFilter="luminosityBlendMode"/>
              </sublayers>
            </CALayer>
            """))
        func layers(_ l: CALayer) -> [CALayer] { [l] + (l.sublayers ?? []).flatMap(layers) }
        var modes: [String: String] = [:]
        for layer in layers(result.scene.rootLayer) {
            if let name = layer.name, let filter = layer.compositingFilter as? String { modes[name] = filter }
        }
        #expect(modes == ["attribute": "multiplyBlendMode", "element": "screenBlendMode", "object": "plusL",
                          "coreImage": "softLightBlendMode"])
        // A Porter-Duff operator is skipped, at its place, and the layer drawn source-over.
        let skipped = try #require(result.warnings.first { $0.subject == "compositingFilter 'destOut'" })
        #expect(skipped.position.line == 11, "\(skipped)")
        // A non-separable mode too: Core Animation draws it source-over.
        let nonSeparable = try #require(result.warnings.first { $0.subject == "compositingFilter 'luminosityBlendMode'" })
        #expect(nonSeparable.position.line == 12 && "\(nonSeparable)".contains("source-over"), "\(nonSeparable)")
    }

    @Test func animationsUnderKeysAreRead() throws {
        for body in [
            #"<p key="animation-1" type="CABasicAnimation" keyPath="opacity" fromValue="0" toValue="1" duration="2"/>"#,
            #"<p key="animation-1"><animation type="CABasicAnimation" keyPath="opacity" fromValue="0" toValue="1" duration="2"/></p>"#,
        ] {
            let result = try readCAML(caml("<CALayer bounds=\"0 0 10 10\" backgroundColor=\"0 0 0\"><animations>\(body)</animations></CALayer>"))
            #expect(result.warnings.isEmpty, "\(result.warnings)")
            func layers(_ l: CALayer) -> [CALayer] { [l] + (l.sublayers ?? []).flatMap(layers) }
            #expect(layers(result.scene.rootLayer).contains { !($0.animationKeys() ?? []).isEmpty }, "\(body)")
        }
    }

    /// An 8 x 8 blue JPEG (Pillow's encoder, quality 95, 4:4:4): a writer other than ours.
    static let blueJPEG = "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAIBAQEBAQIBAQECAgICAgQDAgICAgUEBAMEBgUGBgYFBgYGBwkIBgcJBwYGCAsICQoKCgoKBggLDAsKDAkKCgr/2wBDAQICAgICAgUDAwUKBwYHCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgr/wAARCAAIAAgDAREAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwD8c6/38Pys/9k="

/// A wallpaper folder: three planes, named as PosterBoard names them, in an order that is not the drawing order.
    static func makeWallpaper(in folder: URL, states: String = "") throws -> URL {
        let wallpaper = folder.appendingPathComponent("Test.wallpaper")
        for (name, color, square) in [("Foreground", "1 0 0", 30), ("Background", "0 0 1", 90), ("Floating", "0 1 0", 60)] {
            try write(plane(color, square: square, states: states),
                      to: wallpaper.appendingPathComponent("1.Test_\(name)-100w-160h@1x~iphone.ca/main.caml"))
        }
        return wallpaper
    }

    @Test func aWallpaperCompositesBackgroundFloatingForeground() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CAMLReader().read(contentsOf: try Self.makeWallpaper(in: folder))
        #expect(result.scene.width == 100 && result.scene.height == 160)
        let image = try LayerRenderer(backend: .cpu).render(result.scene)
        // Each plane's square shows where the ones in front leave it.
        #expect(image.pixel(x: 50, y: 80).map { [$0.red, $0.green, $0.blue] } == [255, 0, 0])
        #expect(image.pixel(x: 50, y: 80 + 22).map { [$0.red, $0.green, $0.blue] } == [0, 255, 0])
        #expect(image.pixel(x: 50, y: 80 + 40).map { [$0.red, $0.green, $0.blue] } == [0, 0, 255])
    }

    /// Without `--device`, the device a wallpaper's folder names: a plane
    /// whose root is that screen in points is drawn at its pixels, as the
    /// phone shows it; `screen` overrides the name.
    @Test func theFolderNameStatesTheDevice() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let wallpaper = folder.appendingPathComponent("7.Named-100w-160h@2x~iphone.wallpaper")
        try write(plane("1 0 0", square: 30, states: ""), to: wallpaper.appendingPathComponent("7.Named_Background-100w-160h@2x~iphone.ca/main.caml"))
        let result = try CAMLReader().read(contentsOf: wallpaper)
        #expect(result.scene.width == 200 && result.scene.height == 320)
        let image = try LayerRenderer(backend: .cpu).render(result.scene)
        // The 30-point square in the middle, 60 pixels across.
        #expect(image.pixel(x: 100 + 28, y: 160)?.red == 255 && image.pixel(x: 100 + 32, y: 160)?.red != 255)
        let explicit = try CAMLReader(options: .init(screen: CGSize(width: 100, height: 160), screenScale: 1)).read(contentsOf: wallpaper)
        #expect(explicit.scene.width == 100 && explicit.scene.height == 160)
        #expect(CAMLReader.namedDevice(in: "a/9999.Custom-810w-1080h@2x~ipad.wallpaper/9999.Custom_Floating-810w-1080h@2x~ipad.ca/main.caml")?.screen
                == CGSize(width: 1620, height: 2160))
        #expect(CAMLReader.namedDevice(in: "Clock.ca/main.caml") == nil)
        #expect(CAMLReader.namedDevice(in: "x-99999999999w-1h@3x.ca/main.caml") == nil, "no screen is that wide")
    }

    /// A zip archive in memory.
    static func zip(_ entries: [(String, Entry.EntryType, Data)]) throws -> [UInt8] {
        let archive = try Archive(data: Data(), accessMode: .create)
        for (path, type, data) in entries {
            try archive.addEntry(with: path, type: type, uncompressedSize: Int64(data.count), compressionMethod: .deflate) {
                position, size in data.subdata(in: Int(position)..<(Int(position) + size))
            }
        }
        return [UInt8](try #require(archive.data))
    }

    @Test func aTendiesArchiveHoldsAWallpaper() throws {
        var entries: [(String, Entry.EntryType, Data)] = [("descriptors/", .directory, Data())]
        for (name, color, square) in [("Background", "0 0 1", 90), ("Floating", "0 1 0", 60), ("Foreground", "1 0 0", 30)] {
            entries.append(("descriptors/ABC/versions/0/contents/Test.wallpaper/\(name).ca/main.caml", .file,
                            Data(plane(color, square: square).utf8)))
        }
        entries.append(("__MACOSX/._junk", .file, Data([1, 2, 3])))
        let result = try CAMLReader(options: .init(allowsFiles: true)).read(tendies: try Self.zip(entries))
        let image = try LayerRenderer(backend: .cpu).render(result.scene)
        #expect(image.pixel(x: 50, y: 80).map { [$0.red, $0.green, $0.blue] } == [255, 0, 0])
        #expect(image.pixel(x: 50, y: 80 + 40).map { [$0.red, $0.green, $0.blue] } == [0, 0, 255])
    }

    @Test(arguments: ["../evil.ca/main.caml", "/abs/main.caml", "a/../../evil.caml"])
    func archiveEntriesThatEscapeAreRefused(path: String) throws {
        let bytes = try Self.zip([(path, .file, Data(plane("1 0 0", square: 10).utf8))])
        let error = try #require(sceneError { _ = try CAMLReader().read(tendies: bytes) })
        #expect(error.message.contains("leads outside the archive"), "\(error)")
    }

    @Test func archiveLinksCountsAndSizesAreLimited() throws {
        let link = try Self.zip([("x.ca/main.caml", .symlink, Data("/etc/passwd".utf8))])
        #expect(try #require(sceneError { _ = try CAMLReader().read(tendies: link) }).message.contains("link"))

        var small = SceneLimits.default
        small.documentBytes = 20_000
        small.imageBytes = 20_000
        let bomb = try Self.zip([("x.ca/main.caml", .file, Data(count: 5_000_000))])
        #expect(bomb.count < 20_000, "it compresses")
        let inflated = try #require(sceneError { _ = try CAMLReader(limits: small).read(tendies: bomb) })
        #expect(inflated.kind == .limitExceeded)

        let many = try Self.zip((0...TendiesArchive.maximumEntries).map { ("f\($0)", .file, Data()) })
        #expect(try #require(sceneError { _ = try CAMLReader().read(tendies: many) }).kind == .limitExceeded)
        #expect(try #require(sceneError { _ = try CAMLReader().read(tendies: [1, 2, 3, 4]) }).message.contains("zip"))
    }

    // MARK: Hostile documents

    @Test func hostileDocumentsAreRefusedQuickly() throws {
        let laughs = """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
            <caml><CALayer name="&lol2;"/></caml>
            """
        #expect(try #require(sceneError { _ = try readCAML(laughs) }).message.contains("entity declaration is refused"))

        let deep = "<caml>" + String(repeating: "<CALayer><sublayers>", count: 5000) + String(repeating: "</sublayers></CALayer>", count: 5000) + "</caml>"
        #expect(try #require(sceneError { _ = try readCAML(deep) }).kind == .limitExceeded)

        // An enormous attribute: a rectangle of a million numbers is not a rectangle.
        let huge = caml("<CALayer bounds=\"\(String(repeating: "1 ", count: 1_000_000))\"/>")
        #expect(try #require(sceneError { _ = try readCAML(huge) }).kind == .wrongType)

        var limits = SceneLimits.default
        limits.documentBytes = 1000
        #expect(try #require(sceneError {
            _ = try CAMLReader(limits: limits).read(caml: Array(huge.utf8))
        }).kind == .limitExceeded)

        // More layers than the scene limits: the decoder's limit, refused before anything is drawn.
        limits = .default
        limits.layerCount = 50
        let wide = caml(String(repeating: "<CALayer bounds=\"0 0 1 1\"/>", count: 100))
        #expect(try #require(sceneError { _ = try CAMLReader(limits: limits).read(caml: Array(wide.utf8)) }).kind == .limitExceeded)

        #expect(try #require(sceneError { _ = try readCAML("<plist/>") }).kind == .unsupportedFormat)
        #expect(try #require(sceneError { _ = try readCAML("<caml><CALayer/></caml>") }).message.contains("bounds"))
    }
}

extension CATransform3D {
    var entries: [CGFloat] { [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44] }
}

@Suite("CAML timing")
struct CAMLTimingTests {
    @Test func aBeginTimeOf1eMinus100IsTheStartOfTime() throws {
        // What editors write so that Core Animation keeps "the start": sampled
        // at 0, the animation must already apply, or a loop's first frame is wrong.
        let text = caml("""
            <CALayer bounds="0 0 20 20" position="20 40" backgroundColor="0 0 1">
              <animations><animation type="CABasicAnimation" keyPath="position.x" fromValue="60" toValue="100"
                                     beginTime="1e-100" duration="1" repeatCount="inf"/></animations>
            </CALayer>
            """)
        let layer = try #require(readCAML(text).documentRoot?.sublayers?.first)
        #expect(layer.animation(forKey: "position.x")?.beginTime == 0)
        #expect(layer.presentation(atTime: 0).position.x == 60)
    }
}

/// CAML is in Core Animation's own space: y grows upwards unless a layer's
/// `geometryFlipped` turns its sublayers over, and flips compose down the tree.
@Suite("CAML coordinates")
struct CAMLCoordinateTests {
    /// A 120 x 80 root (flipped or not) with a red 20 x 10 layer whose corner is at (0, 0).
    static func corner(rootFlipped: Bool, inner: String = "") -> String {
        """
        <caml xmlns="http://www.apple.com/CoreAnimation/1.0">
          <CALayer bounds="0 0 120 80" position="60 40" backgroundColor="1 1 1" geometryFlipped="\(rootFlipped ? 1 : 0)">
            <sublayers>
              <CALayer bounds="0 0 20 10" position="10 5" backgroundColor="1 0 0"/>
              \(inner)
            </sublayers>
          </CALayer>
        </caml>
        """
    }

    static func rgb(_ image: CGImage, _ x: Int, _ y: Int) -> [UInt8]? {
        image.pixel(x: x, y: y).map { [$0.red, $0.green, $0.blue] }
    }

    @Test func anUnflippedRootHasItsOriginAtTheBottomLeft() throws {
        let image = try LayerRenderer(backend: .cpu).render(readCAML(Self.corner(rootFlipped: false)).scene)
        #expect(Self.rgb(image, 5, 75) == [255, 0, 0])
        #expect(Self.rgb(image, 5, 5) == [255, 255, 255])
    }

    @Test func aFlippedRootHasItsOriginAtTheTopLeft() throws {
        let image = try LayerRenderer(backend: .cpu).render(readCAML(Self.corner(rootFlipped: true)).scene)
        #expect(Self.rgb(image, 5, 5) == [255, 0, 0])
        #expect(Self.rgb(image, 5, 75) == [255, 255, 255])
    }

    @Test func flipsComposeDownTheTree() throws {
        // Under an unflipped root, a flipped container (the root's size) turns
        // its own sublayers back to y-down; one more flip below turns them up again.
        let nested = """
            <CALayer bounds="0 0 120 80" position="60 40" geometryFlipped="1">
              <sublayers>
                <CALayer bounds="0 0 10 10" position="115 5" backgroundColor="0 0 1"/>
                <CALayer bounds="0 0 120 80" position="60 40" geometryFlipped="1">
                  <sublayers><CALayer bounds="0 0 10 10" position="60 5" backgroundColor="0 1 0"/></sublayers>
                </CALayer>
              </sublayers>
            </CALayer>
            """
        let image = try LayerRenderer(backend: .cpu).render(readCAML(Self.corner(rootFlipped: false, inner: nested)).scene)
        #expect(Self.rgb(image, 5, 75) == [255, 0, 0])    // the root's own: y-up
        #expect(Self.rgb(image, 115, 5) == [0, 0, 255])   // flipped once: y-down
        #expect(Self.rgb(image, 60, 75) == [0, 255, 0])   // flipped twice: y-up
        #expect(Self.rgb(image, 60, 5) == [255, 255, 255])
    }

    @Test func contentsAndGradientsFollowTheSpaceTheyAreIn() throws {
        // A gradient's startPoint (0, 0) is its layer's origin: the bottom in y-up space.
        let text = """
            <caml xmlns="http://www.apple.com/CoreAnimation/1.0">
              <CALayer bounds="0 0 40 40" position="20 20">
                <sublayers>
                  <CAGradientLayer bounds="0 0 40 40" position="20 20" startPoint="0.5 0" endPoint="0.5 1">
                    <colors><CGColor value="1 0 0"/><CGColor value="0 0 1"/></colors>
                  </CAGradientLayer>
                </sublayers>
              </CALayer>
            </caml>
            """
        let image = try LayerRenderer(backend: .cpu).render(readCAML(text).scene)
        let bottom = try #require(Self.rgb(image, 20, 38)), top = try #require(Self.rgb(image, 20, 1))
        #expect(bottom[0] > 230 && bottom[2] < 25, "\(bottom)")
        #expect(top[2] > 230 && top[0] < 25, "\(top)")
    }

    @Test func theConvertedSceneJSONDrawsTheSamePicture() throws {
        let result = try readCAML(Self.corner(rootFlipped: false))
        let converted = try SceneDecoder().decode(result.sceneJSON)
        #expect(try pixels(converted) == pixels(result.scene))
    }

    @Test func eachBundleOfAWallpaperKeepsItsOwnFlip() throws {
        // The background unflipped (its square's corner at the bottom left),
        // the foreground flipped (its square's at the top left).
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let wallpaper = folder.appendingPathComponent("Mixed.wallpaper")
        for (name, flipped, color) in [("Background", false, "0 0 1"), ("Foreground", true, "1 0 0")] {
            try write("""
                <caml xmlns="http://www.apple.com/CoreAnimation/1.0">
                  <CALayer bounds="0 0 100 160" position="50 80" geometryFlipped="\(flipped ? 1 : 0)">
                    <sublayers><CALayer bounds="0 0 20 20" position="10 10" backgroundColor="\(color)"/></sublayers>
                  </CALayer>
                </caml>
                """, to: wallpaper.appendingPathComponent("Mixed_\(name)-100w-160h@1x~iphone.ca/main.caml"))
        }
        let image = try LayerRenderer(backend: .cpu).render(CAMLReader().read(contentsOf: wallpaper).scene)
        #expect(Self.rgb(image, 10, 150) == [0, 0, 255])
        #expect(Self.rgb(image, 10, 10) == [255, 0, 0])
    }
}
