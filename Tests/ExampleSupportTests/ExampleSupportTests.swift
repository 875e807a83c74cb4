// ExampleSupport: the example programs' command line, the book's image
// stand-in, and the two files each program writes.
import ExampleSupport
import Foundation
import Lamina
import Testing

@Suite struct ExampleOptionsTests {
    @Test func defaultsChooseTheBackendAndDrawIntoExamplesOut() throws {
        let options = try ExampleOptions(parsing: [])
        #expect(options == ExampleOptions())
        #expect(options.backend == .auto)
        #expect(options.outputDirectory == "examples/out")
    }

    @Test func readsTheBackendAndTheFolder() throws {
        let options = try ExampleOptions(parsing: ["--out", "/tmp/x", "--backend", "cpu"])
        #expect(options.backend == .cpu)
        #expect(try ExampleOptions(parsing: ["--backend", "gl"]).backend == .gl)
        #expect(options.outputDirectory == "/tmp/x")
    }

    @Test func refusesWhatItCannotRead() {
        #expect(throws: ExampleOptionsError.unknownArgument("--scale")) {
            try ExampleOptions(parsing: ["--scale", "2"])
        }
        #expect(throws: ExampleOptionsError.missingValue("--out")) { try ExampleOptions(parsing: ["--out"]) }
        #expect(throws: ExampleOptionsError.invalidValue("--backend", "metal")) {
            try ExampleOptions(parsing: ["--backend", "metal"])
        }
        #expect(throws: ExampleOptionsError.invalidValue("--out", "")) { try ExampleOptions(parsing: ["--out", ""]) }
        #expect("\(ExampleOptionsError.invalidValue("--backend", "metal"))" == "--backend takes auto, gl or cpu, not 'metal'")
    }
}

@Suite struct BookImageTests {
    /// The programs must show what the conformance scenes show, pixel for pixel.
    @Test func snowmanIsTheConformanceScenesCheckerboard() throws {
        let json = """
            {"width": 64, "height": 64, "sublayers": [
              {"contents": {"checker": [64, 64, 8], "colors": ["#f0a030", "#303030"]}}]}
            """
        let scene = try SceneDecoder().decode(Data(json.utf8))
        let decoded = try #require(scene.rootLayer.sublayers?.first?.contents as? CGImage)
        let snowman = try #require(try UIImage.snowman().cgImage)
        #expect(snowman == decoded)
        #expect(snowman.pixel(x: 0, y: 0) == CGImage.Pixel(red: 0xf0, green: 0xa0, blue: 0x30, alpha: 255))
        #expect(snowman.pixel(x: 8, y: 0) == CGImage.Pixel(red: 0x30, green: 0x30, blue: 0x30, alpha: 255))
    }

    @Test func rgbCodesSplitIntoComponents() {
        let color = UIColor(rgb: 0xe6194b)
        #expect(color == UIColor(red: 0xe6 / 255.0, green: 0x19 / 255.0, blue: 0x4b / 255.0, alpha: 1))
        #expect(UIColor(rgb: 0xffffff) == .white)
    }
}

@Suite struct BookTextTests {
    /// The text programs must show the text of the example scenes.
    @Test func loremIpsumIsTheExampleScenesText() throws {
        let scenes = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("examples/scenes")
        let scene = try SceneDecoder().decode(Data(contentsOf: scenes.appendingPathComponent("text-6-2.json")))
        let text = try #require(scene.rootLayer.sublayers?.first?.sublayers?.first as? CATextLayer)
        #expect(text.string as? String == BookText.loremIpsum)
    }
}

@Suite struct ExampleOutputTests {
    private func temporaryFolder() throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("ExampleSupportTests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A 40 x 30 white root view holding a red 10 x 10 view.
    private func rootView() -> UIView {
        let view = UIView(frame: CGRect(x: 0, y: 0, width: 40, height: 30))
        view.backgroundColor = .white
        let square = UIView(frame: CGRect(x: 5, y: 5, width: 10, height: 10))
        square.backgroundColor = .red
        view.addSubview(square)
        return view
    }

    @Test func writesThePictureAndTheSameTreeAsAScene() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var options = ExampleOptions()
        options.backend = .cpu
        options.outputDirectory = folder + "/out"  // made when missing

        let paths = try Example.write("tiny", rootView: rootView(), options: options)
        #expect(paths == [folder + "/out/tiny.png", folder + "/out/tiny.json"])

        let picture = try PNGDecoder().decode(contentsOfFile: paths[0])
        #expect(picture.width == 40 && picture.height == 30)
        #expect(picture.pixel(x: 10, y: 10) == CGImage.Pixel(red: 255, green: 0, blue: 0, alpha: 255))
        #expect(picture.pixel(x: 30, y: 20) == CGImage.Pixel(red: 255, green: 255, blue: 255, alpha: 255))

        let scene = try SceneDecoder().decode(Data(contentsOf: URL(fileURLWithPath: paths[1])))
        #expect(scene.width == 40 && scene.height == 30)
        let square = try #require(scene.rootLayer.sublayers?.first)
        #expect(square.frame == CGRect(x: 5, y: 5, width: 10, height: 10))
        #expect(square.backgroundColor == UIColor.red.cgColor)
    }

    @Test func atScaleTwoThePictureDoublesAndEveryViewsLayerTakesTheScale() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var options = ExampleOptions()
        options.backend = .cpu
        options.outputDirectory = folder
        let root = rootView()
        let square = try #require(root.subviews.first)
        // A layer made in code, not a view's: it keeps its own scale.
        let sublayer = CALayer()
        square.layer.addSublayer(sublayer)

        let paths = try Example.write("tiny", rootView: root, scale: 2, options: options)
        #expect(root.layer.contentsScale == 2 && square.layer.contentsScale == 2)
        #expect(sublayer.contentsScale == 1)
        let picture = try PNGDecoder().decode(contentsOfFile: paths[0])
        #expect(picture.width == 80 && picture.height == 60)
        #expect(picture.pixel(x: 20, y: 20) == CGImage.Pixel(red: 255, green: 0, blue: 0, alpha: 255))
        let scene = try SceneDecoder().decode(Data(contentsOf: URL(fileURLWithPath: paths[1])))
        #expect(scene.scale == 2 && scene.width == 40)
    }

    @Test func anEmptyRootViewIsRefusedAndNothingIsWritten() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var options = ExampleOptions()
        options.backend = .cpu
        options.outputDirectory = folder

        #expect(throws: SceneError.self) { try Example.write("empty", rootView: UIView(), options: options) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }
}
