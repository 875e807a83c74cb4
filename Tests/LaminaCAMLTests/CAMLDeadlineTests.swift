import Foundation
import Testing
import ZIPFoundation
@testable import LaminaCAML
import Lamina

/// The CAML reader under a `RenderDeadline`: an archive stops before its
/// entries are inflated, a document between its elements and layers.
@Suite("CAML deadlines")
struct CAMLDeadlineTests {
    private static let passed = RenderDeadline(.now - .seconds(1))

    private static let plane = """
        <caml xmlns="http://www.apple.com/CoreAnimation/1.0"><CALayer bounds="0 0 40 30" position="20 15"/></caml>
        """

    @Test func anArchivePastItsDeadlineStopsBeforeItsEntriesAreInflated() throws {
        let archive = try CAMLDocumentTests.zip([("Test.wallpaper/Background.ca/main.caml", .file, Data(Self.plane.utf8))])
        #expect(try SceneLoader().load(archive).format == .tendies)
        let error = #expect(throws: SceneError.self) { try CAMLReader(deadline: Self.passed).read(tendies: archive) }
        #expect(error?.kind == .interrupted)
        #expect(error?.location.contains("Test.wallpaper/Background.ca/main.caml") == true)
    }

    @Test func aDocumentPastItsDeadlineStopsAtItsFirstLayer() {
        let error = #expect(throws: SceneError.self) {
            try CAMLReader(deadline: Self.passed).read(caml: Array(Self.plane.utf8), name: "plane.caml")
        }
        #expect(error?.kind == .interrupted)
        #expect(error?.location.hasPrefix("plane.caml:") == true)
        #expect(error?.line == 1)
    }
}
