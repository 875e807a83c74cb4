import Foundation
import Lamina
import Testing
@testable import LaminaServer

/// Signed links and the slots they fill (the routes themselves run in
/// scripts/checks/templates.py, against the real server).
@Suite struct URLSignerTests {
    let signer = URLSigner(keys: ["new-key", "old-key"])

    @Test func aSignedLinkVerifies() throws {
        let signed = signer.sign("/t/card.png?title=Hello%20world")
        #expect(signed.hasPrefix("/t/card.png?title=Hello%20world&sig="))
        #expect(signed.count == "/t/card.png?title=Hello%20world&sig=".count + 43)
        try signer.verify(signed)
    }

    @Test func aLinkWithoutAQuerySignsWithAQuestionMark() throws {
        let signed = signer.sign("/t/card.png")
        #expect(signed.hasPrefix("/t/card.png?sig="))
        try signer.verify(signed)
    }

    @Test func aWholeURLSignsItsPathAndQuery() throws {
        let signed = signer.sign("https://cards.example.com/t/card.png?title=Hi")
        #expect(signed.hasPrefix("https://cards.example.com/t/card.png?title=Hi&sig="))
        try signer.verify(String(signed.dropFirst("https://cards.example.com".count)))
    }

    @Test func signingAgainReplacesTheSignature() {
        let signed = signer.sign("/t/card.png?title=Hi")
        #expect(signer.sign(signed) == signed)
    }

    @Test func aTamperedLinkIsRefused() {
        let signed = signer.sign("/t/card.png?title=Hi")
        #expect(throws: URLSigner.Refusal.mismatch) { try signer.verify(signed.replacingOccurrences(of: "title=Hi", with: "title=Ho")) }
        #expect(throws: URLSigner.Refusal.mismatch) { try signer.verify(signed.replacingOccurrences(of: "card.png", with: "card.gif")) }
        #expect(throws: URLSigner.Refusal.mismatch) { try signer.verify(signed + "&extra=1") }
    }

    @Test func anUnsignedLinkIsRefusedAsMissing() {
        #expect(throws: URLSigner.Refusal.missing) { try signer.verify("/t/card.png?title=Hi") }
        #expect(throws: URLSigner.Refusal.missing) { try signer.verify("/t/card.png") }
    }

    /// Keys rotate: a link signed with the old key still verifies while the
    /// old key is listed, and not once it is dropped.
    @Test func everyListedKeyIsAccepted() throws {
        let old = URLSigner(keys: ["old-key"]).sign("/t/card.png?title=Hi")
        try signer.verify(old)
        #expect(throws: URLSigner.Refusal.mismatch) { try URLSigner(keys: ["new-key"]).verify(old) }
    }

    @Test func keysFromTheList() {
        #expect(URLSigner.keys(fromList: " a , b,,c ") == ["a", "b", "c"])
        #expect(URLSigner.keys(fromList: "") == [])
    }

    @Test func parametersAreDecodedAndSigLeftOut() throws {
        let values = try TemplateRoutes.parameters(of: "/t/card.png?title=Hello+big%20world&accent=%23ff0000&sig=abc")
        #expect(values == ["title": "Hello big world", "accent": "#ff0000"])
        #expect(throws: APIError.self) { try TemplateRoutes.parameters(of: "/t/card.png?title=a&title=b") }
        #expect(throws: APIError.self) { try TemplateRoutes.parameters(of: "/t/card.png?title=%zz") }
    }
}

@Suite struct TemplateSlotTests {
    private func slot(_ kind: TemplateSlot.Kind, allow: [String] = []) -> TemplateSlot {
        var slot = TemplateSlot(name: "s", kind: kind, targets: [.init(layer: "l", key: "k")])
        slot.allow = allow
        slot.maxLength = 5
        slot.range = 0...10
        return slot
    }

    private func accepts(_ slot: TemplateSlot, _ text: String) -> Bool {
        (try? slot.check(text)) != nil
    }

    @Test func textIsBoundedInCharacters() {
        #expect(accepts(slot(.text), "héllo"))
        #expect(!accepts(slot(.text), "hello!"))
    }

    @Test func coloursAreHexWithOrWithoutHash() {
        for good in ["#fff", "ff8800", "#ff8800cc", "clear"] { #expect(accepts(slot(.color), good), "\(good)") }
        for bad in ["red", "#ff88", "ff88001", "#gggggg", ""] { #expect(!accepts(slot(.color), bad), "\(bad)") }
    }

    @Test func numbersAreFiniteAndInRange() {
        #expect(accepts(slot(.number), "2.5"))
        #expect(!accepts(slot(.number), "11"))
        #expect(!accepts(slot(.number), "nan"))
        #expect(!accepts(slot(.number), "1e400"))
    }

    @Test func imagesComeFromTheAllowList() {
        let images = slot(.image, allow: ["https://img.example.com/", "https://cdn.example.org"])
        #expect(accepts(images, "https://img.example.com/a.png"))
        #expect(accepts(images, "https://cdn.example.org/b.png"))
        #expect(!accepts(images, "https://cdn.example.org.evil.net/b.png"), "a prefix ending in the host must end the host")
        #expect(!accepts(images, "https://other.example.com/a.png"))
        #expect(!accepts(images, "file:///etc/passwd"))
        #expect(!accepts(images, "data:image/png;base64,AAAA"), "data URIs only where allow has data:")
        #expect(accepts(slot(.image, allow: ["data:"]), "data:image/png;base64,AAAA"))
    }

    @Test func aMisfitNamesTheSlot() {
        do {
            _ = try slot(.number).check("twelve")
            Issue.record("accepted")
        } catch {
            #expect(error.slot == "s")
            #expect(error.message.hasPrefix("s must be a number"))
        }
    }
}

/// Templates in the other formats: a Lottie animation's layers are named by
/// their `nm`, a solid's on the layer that draws its colour.
@Suite struct TemplateFormatTests {
    @Test func aLottieSolidTakesAColourSlot() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-template-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let lottie = """
            {"v": "5.7.0", "fr": 30, "ip": 0, "op": 30, "w": 40, "h": 30, "layers": [
              {"ty": 1, "nm": "backdrop", "ind": 1, "ip": 0, "op": 30, "st": 0, "sw": 40, "sh": 30, "sc": "#336699",
               "ks": {"o": {"a": 0, "k": 100}, "p": {"a": 0, "k": [20, 15, 0]}, "a": {"a": 0, "k": [20, 15, 0]}}}]}
            """
        try Data(lottie.utf8).write(to: folder.appendingPathComponent("badge.json"))
        try Data(#"{"slots": {"tint": {"type": "color", "layer": "backdrop", "default": "336699"}}}"#.utf8)
            .write(to: folder.appendingPathComponent("badge.slots.json"))
        let library = try TemplateLibrary(folder: folder.path, limits: .default)
        let template = try #require(library["badge"])
        let loaded = try await template.scene(filling: ["tint": "ff0000"], limits: .default, deadline: nil, images: FetchedImages())
        #expect(loaded.isLottie)
        let solids = Template.layers(named: "backdrop", in: loaded.scene.rootLayer)
        #expect(solids.count == 1)
        #expect(solids.first?.backgroundColor == CGColor(red: 1, green: 0, blue: 0, alpha: 1))
    }

    @Test func aSlotNamingALayerTheSceneLacksStopsTheLibrary() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-template-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"{"width": 10, "height": 10, "sublayers": [{"name": "a", "bounds": [0, 0, 5, 5]}]}"#.utf8)
            .write(to: folder.appendingPathComponent("t.json"))
        try Data(#"{"slots": {"x": {"type": "number", "layer": "b", "key": "opacity", "min": 0, "max": 1, "default": 1}}}"#.utf8)
            .write(to: folder.appendingPathComponent("t.slots.json"))
        #expect(throws: TemplateLibrary.Problem.self) { try TemplateLibrary(folder: folder.path, limits: .default) }
    }
}
