import Foundation
import Testing
import Lamina
@testable import LaminaCAML

/// The conformance scenes: the repository's, and ../shared's where it is beside it.
private let sceneFiles: [URL] = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardizedFileURL
    let folders = [root.appendingPathComponent("Tests/Conformance/scenes"),
                   root.appendingPathComponent("../shared/conformance/scenes").standardizedFileURL]
    return folders.flatMap { folder in
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
            .filter { $0.hasSuffix(".json") }.map { folder.appendingPathComponent($0) }
    }
}()

@Suite("Writing CAML")
struct CAMLWriterTests {
    /// Every conformance scene, written as CAML and read back, draws the
    /// same picture (animated scenes at their own time), or is refused
    /// for what CAML cannot hold, naming it.
    @Test(arguments: sceneFiles)
    func aSceneWrittenAsCAMLReadsBackToTheSamePicture(file: URL) throws {
        let scene = try SceneDecoder().decode(Data(contentsOf: file))
        let caml: String
        do {
            caml = try CAMLWriter().write(scene)
        } catch {
            #expect(error.issues.allSatisfy { $0.message.contains("CAML cannot write rich text") }, "\(error)")
            return
        }
        let read = try CAMLReader().read(caml: Array(caml.utf8), name: file.lastPathComponent)
        // The only warnings: a non-separable blend mode, which Core
        // Animation draws source-over, as the scene itself is drawn.
        #expect(read.warnings.allSatisfy { $0.reason.contains("non-separable") }, "\(read.warnings)")
        let renderer = try LayerRenderer(backend: .cpu)
        let original = try renderer.render(scene)
        let again = try renderer.render(read.scene, scale: Double(scene.scale), time: scene.time)
        let same = original.pixelBytes == again.pixelBytes
        // CAML's space grows upwards, so the written root flips its
        // sublayers' geometry; Lamina decides which side of a layer faces
        // the viewer within its flattening ancestor, where that flip counts
        // as a mirror, so a layer that is not double-sided shows the other
        // side. Which way Core Animation counts geometryFlipped there is not
        // settled (no recording of it yet).
        let mirrorsFacing = try String(contentsOf: file, encoding: .utf8).contains(#""doubleSided": false"#)
        withKnownIssue("geometryFlipped and doubleSided", isIntermittent: false) {
            #expect(same, "\(file.lastPathComponent)")
        } when: { mirrorsFacing }
    }

    @Test func theRootKeepsTheCanvasUprightInCAMLsSpace() throws {
        let topLeft = try SceneDecoder().decode(Data(#"{"width": 10, "height": 20}"#.utf8))
        #expect(try CAMLWriter().write(topLeft).contains(#"<CALayer bounds="0 0 10 20" position="5 10" geometryFlipped="1"/>"#))
        let bottomLeft = try SceneDecoder().decode(Data(#"{"width": 10, "height": 20, "origin": "bottomLeft"}"#.utf8))
        #expect(try CAMLWriter().write(bottomLeft).contains(#"<CALayer bounds="0 0 10 20" position="5 10"/>"#))
    }
}
