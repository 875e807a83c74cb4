import Foundation
import Synchronization
import Testing
@testable import Lamina

/// `SceneLoader`: every format through one door, sniffed or declared, and
/// every reader stopped at its deadline with the place it had reached.
@Suite("Scene loader")
struct SceneLoaderTests {
    static let json = ##"{"width": 40, "height": 30, "sublayers": [{"bounds": [0, 0, 10, 10], "position": [5, 5], "backgroundColor": "#ff0000"}]}"##
    static let caml = """
        <caml xmlns="http://www.apple.com/CoreAnimation/1.0"><CALayer bounds="0 0 40 30" position="20 15">\
        <sublayers><CALayer bounds="0 0 10 10" position="5 5" backgroundColor="1 0 0"/></sublayers></CALayer></caml>
        """

    static var orbit: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("examples/wallpapers/Orbit.wallpaper")
    }

    @Test func formatsAreSniffedFromTheirFirstBytes() {
        #expect(SceneLoader.Format(sniffing: Array(Self.json.utf8)) == .json)
        #expect(SceneLoader.Format(sniffing: Array("\u{FEFF} \n\t".utf8) + Array(Self.caml.utf8)) == .caml)
        #expect(SceneLoader.Format(sniffing: [0x50, 0x4B, 0x03, 0x04, 0, 0]) == .tendies)
        #expect(SceneLoader.Format(sniffing: Array("GIF89a".utf8)) == nil)
        #expect(SceneLoader.Format(sniffing: []) == nil)
        #expect(SceneLoader.Format(mediaType: "text/xml") == .caml)
        #expect(SceneLoader.Format(mediaType: "application/x-tendies") == .tendies)
        #expect(SceneLoader.Format(mediaType: "image/png") == nil)
    }

    @Test func jsonAndCAMLOfTheSameSceneLoadAlike() throws {
        let loader = SceneLoader()
        let fromJSON = try loader.load(Array(Self.json.utf8))
        let fromCAML = try loader.load(Array(Self.caml.utf8))
        #expect(fromJSON.format == .json && fromCAML.format == .caml)
        #expect(fromJSON.fingerprint.count == 64 && fromCAML.fingerprint.count == 64)
        #expect(fromJSON.scene.width == fromCAML.scene.width && fromJSON.scene.height == fromCAML.scene.height)
        #expect(fromJSON.sceneJSON == nil)
        // The CAML's scene JSON reads back to a scene of the same fingerprint.
        let again = try loader.load(Array(try #require(fromCAML.sceneJSON).utf8), format: .json)
        #expect(again.fingerprint == fromCAML.fingerprint)
    }

    @Test func theFingerprintIgnoresSpelling() throws {
        let loader = SceneLoader()
        let a = try loader.load(Array(Self.json.utf8)).fingerprint
        let b = try loader.load(Array(##"{ "height": 30.0, "sublayers": [{"position": [5, 5], "backgroundColor": "#ff0000", "bounds": [0, 0, 1e1, 10]}], "width": 40 }"##.utf8)).fingerprint
        #expect(a == b)
    }

    @Test func aFolderOrAnArchiveIsReadByItsName() throws {
        let loaded = try SceneLoader().load(contentsOf: Self.orbit)
        #expect(loaded.format == .caml)
        #expect(!loaded.states.isEmpty)
    }

    @Test func aFileOfAnotherNameIsReadByItsBytes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-loader-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("scene.txt")
        try Data(Self.caml.utf8).write(to: file)
        #expect(try SceneLoader().load(contentsOf: file).format == .caml)
        try Data(Self.json.utf8).write(to: file)
        #expect(try SceneLoader().load(contentsOf: file).format == .json)
    }

    @Test func unknownBytesAndMisplacedOptionsAreRefused() {
        #expect(throws: SceneError.self) { try SceneLoader().load(Array("GIF89a".utf8)) }
        let error = #expect(throws: SceneError.self) {
            try SceneLoader(options: .init(state: "Locked")).load(Array(Self.json.utf8))
        }
        #expect(error?.kind == .conflict)
    }

    // MARK: Deadlines

    private static let passed = RenderDeadline(.now - .seconds(1))
    private static let abandoned = RenderDeadline(.now + .seconds(60), isAbandoned: { true })

    @Test(arguments: [SceneLoader.Format.json, .caml])
    func aReadPastItsDeadlineStopsWhereItWas(format: SceneLoader.Format) {
        let bytes = Array((format == .json ? Self.json : Self.caml).utf8)
        let error = #expect(throws: SceneError.self) {
            try SceneLoader(deadline: Self.passed).load(bytes, format: format, name: "doc")
        }
        #expect(error?.kind == .interrupted)
        #expect(error?.message.contains("deadline passed") == true)
        #expect(error?.position != nil)
        let abandoned = #expect(throws: SceneError.self) {
            try SceneLoader(deadline: Self.abandoned).load(bytes, format: format, name: "doc")
        }
        #expect(abandoned?.kind == .interrupted)
        #expect(abandoned?.message.contains("abandoned") == true)
    }

    /// Work abandoned in the middle of a long read stops within a few
    /// checks of it, far before the read's end (counted in checks, not time).
    @Test func aLongReadStopsSoonAfterItIsAbandoned() throws {
        let layers = (0..<20_000).map { #"<CALayer bounds="0 0 10 10" position="\#($0 % 300) \#($0 / 300)"/>"# }.joined()
        let bytes = Array(#"<caml xmlns="http://www.apple.com/CoreAnimation/1.0"><CALayer bounds="0 0 300 300" position="150 150"><sublayers>\#(layers)</sublayers></CALayer></caml>"#.utf8)
        #expect(throws: Never.self) { try SceneLoader(options: .init(limits: .unlimitedForTests)).load(bytes) }
        // Abandoned at the 100th check (the XML reader checks every 256
        // elements, the builder before each layer): it stops well before the last layer.
        let checks = Mutex(0)
        let deadline = RenderDeadline(.now + .seconds(3600), isAbandoned: { checks.withLock { $0 += 1; return $0 >= 100 } })
        let error = #expect(throws: SceneError.self) {
            try SceneLoader(options: .init(limits: .unlimitedForTests), deadline: deadline).load(bytes)
        }
        #expect(error?.kind == .interrupted)
        let column = try #require(error?.column)
        #expect(column < bytes.count * 3 / 4, "stopped at column \(column) of \(bytes.count)")
    }
}

extension SceneLimits {
    /// Room for the long documents of these tests.
    static var unlimitedForTests: SceneLimits {
        var limits = SceneLimits.default
        limits.layerCount = 1_000_000
        return limits
    }
}
