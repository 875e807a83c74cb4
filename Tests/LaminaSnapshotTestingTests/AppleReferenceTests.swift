import Foundation
import Testing
import Lamina
import SnapshotTesting
@testable import LaminaSnapshotTesting

/// `../shared/lottie` beside the repository: Lottie samples and the pictures
/// Apple's Core Animation drew of them (through lottie-ios's snapshot tests).
let lottieFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../shared/lottie").standardizedFileURL

@Suite("References recorded on Apple's systems")
struct AppleReferenceTests {
    /// A reference that Apple's Core Animation drew verifies here under the
    /// tolerance lottie-ios's own snapshot tests use (precision 0.985,
    /// perceptual precision 0.97), and a reference of another moment (25%) does not.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: lottieFolder.path + "/manifest.json"),
                   "no ../shared/lottie beside the repository"),
          arguments: ["9squares_AlBoardman", "TwitterHeartButton", "LottieLogo2"])
    func appleReferenceVerifies(sample: String) throws {
        let loaded = try SceneLoader().load(contentsOf: lottieFolder.appendingPathComponent("samples/\(sample).json"))
        let layer = loaded.scene.rootLayer
        // Apple's picture: the animation fitted into the snapshot's points, at 2x.
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: lottieFolder.appendingPathComponent("manifest.json"))) as! [String: Any]
        let entry = (manifest["samples"] as! [[String: Any]]).first { $0["name"] as? String == sample }!
        let points = entry["snapshot_points"] as! [Double]
        let scale = 2 * min(points[0] / Double(loaded.scene.width), points[1] / Double(loaded.scene.height)) * (1 - 1e-12)
        let name = "testCoreAnimationRenderingEngine." + sample.replacingOccurrences(of: "/", with: "-")

        let folder = referenceFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }

        let strategy = { (progress: Double) in
            Snapshotting<CALayer, CGImage>.image(at: loaded.time(atProgress: progress), precision: 0.985, perceptualPrecision: 0.97,
                                                 scale: scale)
        }
        func use(_ reference: String) throws {
            try? FileManager.default.removeItem(atPath: folder + "/apple.moment.png")
            try FileManager.default.copyItem(atPath: lottieFolder.path + "/reference/\(reference).png", toPath: folder + "/apple.moment.png")
        }
        try use("\(name)-50")
        let failure = verifySnapshot(of: layer, as: strategy(0.5), named: "moment", snapshotDirectory: folder,
                                     testName: "apple")
        #expect(failure == nil, "\(failure ?? "")")
        try use("\(name)-25")
        #expect(verifySnapshot(of: layer, as: strategy(0.5), named: "moment", snapshotDirectory: folder, testName: "apple") != nil)
    }
}
