import Foundation
import Testing
import ZIPFoundation
@testable import LaminaLottie
import Lamina

/// Lottie animations in zip archives: dotLottie (`.lottie`, a manifest
/// naming its animations) and Lottie zips (an animation's JSON and its
/// images, no manifest, as lottie-android reads them); which animation is
/// drawn, and what is refused.
@Suite("Lottie archives")
struct LottieArchiveTests {
    /// A zip archive in memory of `entries` (path, contents).
    static func zip(_ entries: [(String, [UInt8])]) throws -> [UInt8] {
        let archive = try Archive(data: Data(), accessMode: .create)
        for (path, bytes) in entries {
            let data = Data(bytes)
            try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) {
                position, size in data.subdata(in: Int(position)..<(Int(position) + size))
            }
        }
        return [UInt8](try #require(archive.data))
    }

    /// A 100 x 100 animation of one square of `color` ("1, 0, 0"), or of the
    /// image asset `image` where given.
    static func animation(color: String = "1, 0, 0", image: String? = nil) -> [UInt8] {
        let layer = image.map { _ in #"{"ty": 2, "ind": 1, "refId": "img", "ip": 0, "op": 20, "ks": {}}"# }
            ?? #"{"ty": 4, "ind": 1, "ip": 0, "op": 20, "ks": {}, "shapes": [{"ty": "rc", "p": {"a": 0, "k": [50, 50]}, "s": {"a": 0, "k": [40, 40]}, "r": {"a": 0, "k": 0}}, {"ty": "fl", "c": {"a": 0, "k": [\#(color), 1]}, "o": {"a": 0, "k": 100}}]}"#
        let assets = image.map { #"[{"id": "img", "w": 100, "h": 100, "u": "images/", "p": "\#($0)", "e": 0}]"# } ?? "[]"
        return Array(#"{"v": "5.7.0", "fr": 10, "ip": 0, "op": 20, "w": 100, "h": 100, "assets": \#(assets), "layers": [\#(layer)]}"#.utf8)
    }

    /// A 100 x 100 PNG of one colour.
    static func png(_ r: UInt8, _ g: UInt8, _ b: UInt8) throws -> [UInt8] {
        try PNGEncoder().encode(CGImage(width: 100, height: 100, straightRGBA: Array([[UInt8]](repeating: [r, g, b, 255], count: 10_000).joined())))
    }

    func middle(_ loaded: LoadedScene) throws -> [UInt8] {
        let pixel = try #require(try LayerRenderer(backend: .cpu).render(loaded.scene).pixel(x: 50, y: 50))
        return [pixel.red, pixel.green, pixel.blue]
    }

    @Test func aDotLottieDrawsItsManifestsFirstAnimationOrTheOneNamed() throws {
        let manifest = Array(#"{"version": "1", "animations": [{"id": "red"}, {"id": "blue"}]}"#.utf8)
        let bytes = try Self.zip([("manifest.json", manifest), ("animations/red.json", Self.animation()),
                                  ("animations/blue.json", Self.animation(color: "0, 0, 1"))])
        let first = try SceneLoader().load(bytes)
        #expect(first.format == .dotLottie && first.isLottie)
        #expect(try middle(first) == [255, 0, 0])
        let blue = try SceneLoader(options: .init(animation: "blue")).load(bytes)
        #expect(try middle(blue) == [0, 0, 255])
        #expect(blue.fingerprint != first.fingerprint, "another animation is another scene to a cache")
        let missing = #expect(throws: SceneError.self) { try SceneLoader(options: .init(animation: "green")).load(bytes) }
        #expect(missing?.kind == .unknownName && missing?.message.contains("red, blue") == true, "\(String(describing: missing))")
    }

    /// lottie-android's zips: the JSON anywhere in the archive, its images
    /// found by file name, macOS's `__MACOSX` copies passed over.
    @Test func aLottieZipIsItsAnimationWithItsImages() throws {
        let bytes = try Self.zip([("anim/images/img_0.png", try Self.png(0, 255, 0)), ("__MACOSX/anim/._data.json", [0, 5, 22, 7]),
                                  ("anim/data.json", Self.animation(image: "img_0.png"))])
        let loaded = try SceneLoader().load(bytes, name: "sticker.zip")
        #expect(loaded.format == .dotLottie && loaded.isLottie)
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
        #expect(try middle(loaded) == [0, 255, 0])
        // Declared a zip (a server's application/zip), it is read as Lottie too.
        #expect(try SceneLoader().load(bytes, format: .tendies).isLottie)
    }

    @Test func aLottieZipOfSeveralAnimationsDrawsTheFirstOrTheOneNamed() throws {
        let bytes = try Self.zip([("red.json", Self.animation()), ("blue.json", Self.animation(color: "0, 0, 1"))])
        let first = try SceneLoader().load(bytes, name: "two.zip")
        #expect(try middle(first) == [255, 0, 0])
        #expect(first.warnings.contains { $0.action == .tolerated && $0.reason.contains("2 animations") && $0.reason.contains("blue") })
        let blue = try SceneLoader(options: .init(animation: "blue")).load(bytes, name: "two.zip")
        #expect(try middle(blue) == [0, 0, 255] && blue.warnings.isEmpty)
    }

    /// A message naming an archive's animations names ten, and counts the
    /// rest; the name asked for is cut short if long.
    @Test func aMissingAnimationsMessageStaysShort() throws {
        let bytes = try Self.zip((0..<25).map { ("a\($0).json", Self.animation()) })
        let asked = String(repeating: "x", count: 10_000)
        let error = #expect(throws: SceneError.self) { try SceneLoader(options: .init(animation: asked)).load(bytes) }
        let message = try #require(error?.message)
        #expect(message.contains("a0, a1") && message.contains("and 15 more") && message.count < 400, "\(message)")
    }

    /// An entry that would inflate past the limits is refused by its
    /// declared size, before it is inflated: a zip bomb costs nothing.
    @Test func anEntryInflatingPastTheLimitsIsRefusedBeforeInflating() throws {
        var limits = SceneLimits.default
        limits.documentBytes = 100_000
        limits.imageBytes = 100_000
        let bomb = try Self.zip([("data.json", [UInt8](repeating: 0x20, count: 5_000_000))])
        #expect(bomb.count < 20_000, "it compresses")
        for reading in [{ try LottieReader(limits: limits).read(dotLottie: bomb, name: "bomb.zip") },
                        { try LottieReader(limits: limits).read(dotLottie: Self.zip([("manifest.json", Array(#"{"animations": [{"id": "a"}]}"#.utf8)),
                                                                                    ("animations/a.json", [UInt8](repeating: 0x20, count: 5_000_000))]),
                                                                  name: "bomb.lottie") }] {
            let error = #expect(throws: SceneError.self) { _ = try reading() }
            #expect(error?.kind == .limitExceeded && error?.message.contains("5000000 bytes") == true, "\(String(describing: error))")
        }
    }

    /// A zip of a wallpaper stays CAML; an animation chosen for an input
    /// that is no archive is a conflict, not ignored.
    @Test func onlyArchivesOfLottieAreReadAsLottie() throws {
        let wallpaper = try Self.zip([("Test.wallpaper/Background.ca/main.caml", Array("<caml/>".utf8)), ("notes.json", Array("{}".utf8))])
        #expect(!LottieReader.isLottieArchive(wallpaper))
        #expect(!LottieReader.isLottieArchive(try Self.zip([("main.caml", Array("<caml/>".utf8)), ("notes.json", Array("{}".utf8))])))
        #expect(!LottieReader.isLottieArchive(try Self.zip([("images/a.png", try Self.png(1, 2, 3))])), "no animation in it")
        let conflict = #expect(throws: SceneError.self) { try SceneLoader(options: .init(animation: "x")).load(Self.animation()) }
        #expect(conflict?.kind == .conflict)
    }
}
