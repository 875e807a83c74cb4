// Every scene of the shared conformance suite decodes, and reads back to the
// same tree after encoding.
import Foundation
import Testing
@testable import LaminaScene

@Suite struct ConformanceSceneTests {
    @Test(.enabled(if: !Conformance.sceneFiles.isEmpty, "no ../shared/conformance/scenes beside the repository"))
    func everyConformanceSceneDecodesAndRoundTrips() throws {
        for file in Conformance.sceneFiles {
            let scene = try SceneDecoder().decode(contentsOf: file)
            let encoded = try SceneEncoder().encode(scene)
            let again = try SceneDecoder().decode(encoded)
            #expect(TreeFingerprint.of(again) == TreeFingerprint.of(scene), "\(file.lastPathComponent)")
            // Canonical: encoding the decoded copy gives the same bytes.
            #expect(try SceneEncoder().encode(again) == encoded, "\(file.lastPathComponent)")
        }
    }
}
