import Foundation
import Testing
import Lamina
import SnapshotTesting
@testable import LaminaSnapshotTesting

/// A card: a rounded blue layer with a shadow and a white bar, in a tree.
func makeCard(color: CGColor = CGColor(red: 0.1, green: 0.4, blue: 0.9, alpha: 1)) -> CALayer {
    let card = CALayer()
    card.frame = CGRect(x: 40, y: 30, width: 160, height: 100)
    card.backgroundColor = color
    card.cornerRadius = 12
    let bar = CALayer()
    bar.frame = CGRect(x: 16, y: 16, width: 90, height: 12)
    bar.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
    card.addSublayer(bar)
    return card
}

/// Whether two pictures hold the same pixels (without printing them when not).
func samePixels(_ a: CGImage, _ b: CGImage) -> Bool { a.pixelBytes == b.pixelBytes }

/// A fresh folder for references, removed by the caller.
func referenceFolder() -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-snapshot-tests-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder.path
}

@Suite("Snapshotting layers and views")
struct StrategyTests {
    @Test func recordsThenPassesThenFailsWithThreePictures() throws {
        let folder = referenceFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = verifySnapshot(of: makeCard(), as: .image, named: "card", record: .missing, snapshotDirectory: folder)
        #expect(first?.contains("No reference was found on disk. Automatically recorded snapshot") == true)
        #expect(verifySnapshot(of: makeCard(), as: .image, named: "card", record: .missing, snapshotDirectory: folder) == nil)

        let changed = makeCard(color: CGColor(red: 0.1, green: 0.6, blue: 0.3, alpha: 1))
        let failure = try #require(verifySnapshot(of: changed, as: .image, named: "card", record: .missing, snapshotDirectory: folder))
        #expect(failure.contains("Snapshot \"card\" does not match reference."), "\(failure)")
        #expect(failure.contains("pixels differ"), "\(failure)")
        let line = try #require(failure.split(separator: "\n").first { $0.hasPrefix("Reference, new picture and difference: ") })
        let artifacts = String(line.dropFirst("Reference, new picture and difference: ".count))
        for name in ["reference.png", "failure.png", "difference.png"] {
            let picture = try PNGDecoder().decode(contentsOfFile: artifacts + "/" + name)
            #expect(picture.width == 320 && picture.height == 200, "\(name)")
        }
        // The failure picture is the new layer; the reference is the recorded one.
        let recorded = try PNGDecoder().decode(contentsOfFile: artifacts + "/reference.png")
        #expect(samePixels(recorded, (try PNGDecoder().decode(contentsOfFile: folder + "/recordsThenPassesThenFailsWithThreePictures.card.png"))))
    }

    @Test func aLayerIsDrawnInItsOwnBoundsAsRenderInDoesIt() throws {
        // Its position and transform in a superlayer play no part.
        let placed = makeCard()
        let moved = makeCard()
        moved.position = CGPoint(x: 500, y: 500)
        moved.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
        let parent = CALayer()
        parent.addSublayer(moved)
        let a = LayerPictures(scale: 1, backend: .cpu, size: nil).picture(of: placed, at: [0])
        let b = LayerPictures(scale: 1, backend: .cpu, size: nil).picture(of: moved, at: [0])
        #expect(a.width == 160 && a.height == 100)
        #expect(samePixels(a, b))
        // The bar's top-left corner is at (16, 16) of the picture; a bounds origin shifts what is shown.
        #expect(a.pixel(x: 17, y: 17)?.red == 255 && a.pixel(x: 15, y: 15)?.red == 26)
        placed.bounds.origin = CGPoint(x: 10, y: 10)
        let shifted = LayerPictures(scale: 1, backend: .cpu, size: nil).picture(of: placed, at: [0])
        #expect(shifted.pixel(x: 7, y: 7)?.red == 255 && shifted.pixel(x: 5, y: 5)?.red == 26)
    }

    @Test func scaleAndSizeSetThePicture() {
        let picture = LayerPictures(scale: 3, backend: .cpu, size: CGSize(width: 50, height: 20)).picture(of: makeCard(), at: [0])
        #expect(picture.width == 150 && picture.height == 60)
        // The main screen's scale (2) when none is given.
        #expect(LayerPictures(scale: nil, backend: .cpu, size: nil).picture(of: makeCard(), at: [0]).width == 320)
    }

    @Test func animationsAtATimeAndAsASheetOfFrames() throws {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 20, height: 10)
        let fade = CABasicAnimation(keyPath: "backgroundColor")
        fade.fromValue = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        fade.toValue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        fade.duration = 1
        layer.add(fade, forKey: "fade")
        let pictures = LayerPictures(scale: 1, backend: .cpu, size: nil)
        // .image, as render(in:) draws a layer: the model's values, no animation.
        #expect(pictures.picture(of: layer, at: [nil]).pixel(x: 5, y: 5)?.alpha == 0)
        let start = pictures.picture(of: layer, at: [0]), end = pictures.picture(of: layer, at: [0.999])
        #expect(start.pixel(x: 5, y: 5).map { [$0.red, $0.blue] } == [255, 0])
        #expect(end.pixel(x: 5, y: 5).map { $0.blue > 250 } == true)
        // Frames of one sheet share one size, even where an animation changes the bounds.
        let grow = CABasicAnimation(keyPath: "bounds.size.width")
        grow.toValue = 30
        grow.duration = 1
        let growing = CALayer()
        growing.bounds = layer.bounds
        growing.add(grow, forKey: "grow")
        #expect(pictures.picture(of: growing, at: [0.9]).width > 20)  // alone, a frame is its bounds at its time
        #expect(pictures.picture(of: growing, at: [0, 0.9]).width == 40)
        let sheet = pictures.picture(of: layer, at: [0, 0.5, 0.999])
        #expect(sheet.width == 60 && sheet.height == 10)
        #expect(sheet.pixel(x: 5, y: 5) == start.pixel(x: 5, y: 5))
        #expect(sheet.pixel(x: 45, y: 5) == end.pixel(x: 5, y: 5))
        let folder = referenceFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = verifySnapshot(of: layer, as: .frames(at: [0, 0.5]), named: "fade", record: .all, snapshotDirectory: folder)
        #expect(verifySnapshot(of: layer, as: .frames(at: [0, 0.5]), named: "fade", snapshotDirectory: folder) == nil)
        #expect(verifySnapshot(of: layer, as: .frames(at: [0, 0.6]), named: "fade", snapshotDirectory: folder) != nil)
    }

    @Test func theSceneJSONIsThePictureAsText() throws {
        let card = makeCard()
        card.shadowOpacity = 0.5
        let folder = referenceFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = verifySnapshot(of: card, as: .sceneJSON, named: "card", record: .all, snapshotDirectory: folder)
        let text = try String(contentsOfFile: folder + "/theSceneJSONIsThePictureAsText.card.json", encoding: .utf8)
        #expect(text.contains("\"cornerRadius\": 12"))
        // lamina render draws it as .image draws the layer.
        let scene = try SceneDecoder().decode(Data(text.utf8))
        let fromJSON = try LayerRenderer(backend: .cpu).render(scene, scale: 2)
        #expect(samePixels(fromJSON, LayerPictures(scale: 2, backend: .cpu, size: nil).picture(of: card, at: [0])))
        #expect(verifySnapshot(of: card, as: .sceneJSON, named: "card", snapshotDirectory: folder) == nil)
        card.cornerRadius = 8
        let failure = try #require(verifySnapshot(of: card, as: .sceneJSON, named: "card", snapshotDirectory: folder))
        let lines = failure.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("−") && $0.hasSuffix("\"cornerRadius\": 12,") }, "\(failure)")
        #expect(lines.contains { $0.hasPrefix("+") && $0.hasSuffix("\"cornerRadius\": 8,") }, "\(failure)")
    }

    @Test func theCAMLReadsBackToThePicture() throws {
        let card = makeCard()
        let gradient = CAGradientLayer()
        gradient.frame = CGRect(x: 100, y: 50, width: 40, height: 40)
        gradient.colors = [CGColor(red: 1, green: 0.5, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 0, alpha: 0.5)]
        gradient.locations = [0, 0.75]
        card.addSublayer(gradient)
        let shape = CAShapeLayer()
        shape.path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 30, height: 20), transform: nil)
        shape.fillRule = .evenOdd
        shape.position = CGPoint(x: 20, y: 60)
        shape.name = "dot \"one\"\nand <two>"
        card.addSublayer(shape)
        let folder = referenceFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = verifySnapshot(of: card, as: .caml, named: "card", record: .all, snapshotDirectory: folder)
        let url = URL(fileURLWithPath: folder + "/theCAMLReadsBackToThePicture.card.caml")
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains("<CAGradientLayer") && text.contains("fillRule=\"even-odd\"") && text.contains("<real value=\"0.75\"/>"))
        let read = try CAMLReader().read(contentsOf: url)
        #expect(read.warnings.isEmpty, "\(read.warnings)")
        #expect(read.scene.rootLayer.sublayers?.first?.sublayers?.first?.sublayers?.first?.sublayers?.last?.name == shape.name)
        let fromCAML = try LayerRenderer(backend: .cpu).render(read.scene, scale: 1)
        #expect(samePixels(fromCAML, LayerPictures(scale: 1, backend: .cpu, size: nil).picture(of: card, at: [0])))
        #expect(verifySnapshot(of: card, as: .caml, named: "card", snapshotDirectory: folder) == nil)
    }

    @Test func aViewIsSnapshotAsItsLayer() throws {
        let view = UIView(frame: CGRect(x: 0, y: 0, width: 40, height: 20))
        view.backgroundColor = UIColor(red: 0, green: 0.8, blue: 0.2, alpha: 1)
        let folder = referenceFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = verifySnapshot(of: view, as: .image(scale: 1), named: "view", record: .all, snapshotDirectory: folder)
        let picture = try PNGDecoder().decode(contentsOfFile: folder + "/aViewIsSnapshotAsItsLayer.view.png")
        #expect(picture.width == 40 && picture.pixel(x: 3, y: 3)?.green == 204)
        #expect(verifySnapshot(of: view, as: .image(scale: 1, size: CGSize(width: 50, height: 20)), named: "view",
                               snapshotDirectory: folder)?.contains("50 x 20 pixels") == true)
        #expect(view.frame.size == CGSize(width: 50, height: 20))
        _ = verifySnapshot(of: view, as: .sceneJSON, named: "view", record: .all, snapshotDirectory: folder)
        #expect(FileManager.default.fileExists(atPath: folder + "/aViewIsSnapshotAsItsLayer.view.json"))
    }

    @Test func aLayerThatCannotBeDrawnFailsTheTestSayingWhy() {
        let empty = CALayer()
        withKnownIssue {
            _ = LayerPictures(scale: 1, backend: .cpu, size: nil).picture(of: empty, at: [0])
        } matching: { issue in
            issue.description.contains("The layer could not be drawn") && issue.description.contains("not a picture of finite, positive size")
        }
    }

    @Test func anUnreadableReferenceSaysSo() throws {
        let folder = referenceFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: folder + "/anUnreadableReferenceSaysSo.card.png"))
        let failure = verifySnapshot(of: makeCard(), as: .image, named: "card", snapshotDirectory: folder)
        #expect(failure?.contains("The reference could not be read as a PNG picture") == true)
    }

    @Test(.enabled(if: (try? LayerRenderer(backend: .gl, fallBack: false)) != nil
                   || ProcessInfo.processInfo.environment["LAMINA_REQUIRE_GL"] == "1", "no EGL context on this machine"))
    func theGPUDrawsWithinAPerceptualTolerance() throws {
        let folder = referenceFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = verifySnapshot(of: makeCard(), as: .image(backend: .cpu), named: "card", record: .all, snapshotDirectory: folder)
        #expect(verifySnapshot(of: makeCard(), as: .image(precision: 0.99, perceptualPrecision: 0.98, backend: .gl), named: "card",
                               snapshotDirectory: folder) == nil)
    }
}
