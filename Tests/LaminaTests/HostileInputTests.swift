import Foundation
import Testing
@testable import Lamina

/// Scenes an attacker would send a render server (issue 12): each class of
/// finding with the instance that was reported and one of our own. Every
/// scene here is either drawn on every backend or refused with a
/// `SceneError` or `RenderRefusal` that names its JSON location: never a
/// trap, a hang, unbounded memory, or an error in a backend's own words.
@Suite("Hostile input")
struct HostileInputTests {
    /// Decodes `json` (no files) and renders it on `backend`, returning the
    /// picture or the refusal.
    private func outcome(_ json: String, backend: RenderBackend, scale: Double? = nil,
                         budget: RenderBudget = .default) throws -> Result<CGImage, RenderRefusal> {
        let scene = try SceneDecoder(options: .init(allowsFiles: false)).decode(json)
        let renderer = try LayerRenderer(backend: backend, fallBack: false, budget: budget)
        do {
            return .success(try renderer.render(scene, scale: scale))
        } catch let refusal as RenderRefusal {
            return .failure(refusal)
        }
    }

    private func refusal(_ json: String, backend: RenderBackend = .cpu, scale: Double? = nil,
                         budget: RenderBudget = .default) throws -> RenderRefusal? {
        if case .failure(let r) = try outcome(json, backend: backend, scale: scale, budget: budget) { return r }
        return nil
    }

    private func sceneError(_ json: String) -> SceneError? {
        do { _ = try SceneDecoder(options: .init(allowsFiles: false)).decode(json); return nil } catch { return error }
    }

    // MARK: Traps on numbers a scene controls

    @Test("Huge text layers render (instance: height 1e300, contentsScale 1e20)", arguments: availableBackends)
    func hugeTextLayers(backend: RenderBackend) throws {
        for json in [
            ##"{"width": 200, "height": 100, "sublayers": [{"type": "text", "string": "hello", "frame": [0, 0, 100, 1e300]}]}"##,
            ##"{"width": 200, "height": 100, "sublayers": [{"type": "text", "string": "hello", "frame": [0, 0, 100, 50], "contentsScale": 1e20}]}"##,
            // Our own: wide instead of tall, and a gradient of the same size.
            ##"{"width": 200, "height": 100, "sublayers": [{"type": "text", "string": "hello", "frame": [-1e300, 0, 1e300, 50]}]}"##,
            ##"{"width": 200, "height": 100, "sublayers": [{"type": "gradient", "colors": ["#ff0000", "#0000ff"], "frame": [0, 0, 1e300, 1e300]}]}"##,
        ] {
            let image = try #require(try outcome(json, backend: backend).get())
            #expect(image.width == 200 && image.height == 100)
        }
    }

    @Test("A cube face 1.5e25 points tall, spinning in perspective, renders (a fuzzing find: its projected extent was not finite and Foundation's rect intersection trapped)", arguments: availableBackends)
    func cubeFaceBeyondAnyScale(backend: RenderBackend) throws {
        let json = #"""
            {"format":"lamina.scene/1","width":600,"height":400,"backgroundColor":"#ffffff","sublayers":[{"bounds":[0,0,600,400],"position":[300,200],"sublayerTransform":[1,0,0,0,0,0.9009688679024191,-0.4338837391175581,0.04086776747823512,0,0.4338837391175581,0.9009688679024191,-0.0018019377358048383,0,0,0,1],"sublayers":[{"type":"transform","position":[300,200],"animations":[{"keyPath":"transform.rotation.y","fromValue":0,"toValue":6.283185307179586,"duration":3}],"sublayers":[{"bounds":[0,0,150,150],"transform":[1,0,0,0,0,1,0,0,0,0,1,0,0.0,0.0,75.0,1],"backgroundColor":"#e6194b"},{"bounds":[0,0,150,150],"transform":[6.123233995736766e-17,0,-1,0,0,1,0,0,1,0,6.123233995736766e-17,0,75.0,0.0,0.0,1],"backgroundColor":"#3cb44b"},{"bounds":[0,0,150,15000000000000000000000000],"transform":[1,0,0,0,0,6.123233995736766e-17,1,0,0,-1,6.123233995736766e-17,0,0.0,-75.0,0.0,1],"backgroundColor":"#4363d8"},{"bounds":[0,0,150,150],"transform":[1,0,0,0,1,6.123233995736766e-17,-1,0,0,1,6.123233995736766e-17,0,0.0,75.0,0.0,1],"backgroundColor":"#f58231"},{"bounds":[0,0,150,150],"transform":[6.123233995736766e-17,0,1,0,0,1,0,0,-1,0,6.123233995736766e-17,0,-75.0,0.0,0.0,1],"backgroundColor":"#911eb4"},{"bounds":[0,0,151,150],"transform":[-1,0,-1.2246467991473532e-16,0,0,1,0,0,1.2246467991473532e-16,0,-1,0,0.0,0.0,-75.0,1],"backgroundColor":"#46f0f0"}]}]}]}
            """#
        let scene = try SceneDecoder().decode(Data(json.utf8))
        let image = try LayerRenderer(backend: backend, fallBack: false).render(scene, scale: 0.4)
        #expect(image.width == 240 && image.height == 160)
    }

    @Test("Huge layers under perspective render (instance: 1e15 points tall)", arguments: availableBackends)
    func hugeLayersInPerspective(backend: RenderBackend) throws {
        let perspective = "[1,0,0,0, 0,1,0,0, 0,0,1,-0.002, 0,0,0,1]"
        let tilt = "[1,0,0,0, 0,0.7,0.7,0, 0,-0.7,0.7,0, 0,0,0,1]"
        for frame in ["[0, 0, 100, 1e15]", "[-1e300, -1e300, 1e300, 1e300]", "[50, 50, 1e-300, 1e-300]"] {
            let json = ##"{"width": 200, "height": 100, "sublayerTransform": \##(perspective), "sublayers": [{"frame": \##(frame), "##
                + ##""backgroundColor": "#ff0000", "cornerRadius": 5, "borderWidth": 2, "shadowOpacity": 1, "shadowRadius": 1e300, "##
                + ##""masksToBounds": true, "transform": \##(tilt), "sublayers": [{"frame": [0, 0, 10, 10], "backgroundColor": "#00ff00"}]}]}"##
            // Drawn whole, or refused at the layer that asked: never a trap.
            switch try outcome(json, backend: backend) {
            case .success(let image):
                #expect(image.width == 200 && image.height == 100, "\(frame)")
            case .failure(let refusal):
                #expect(refusal.layer != .root && !refusal.message.isEmpty, "\(frame): \(refusal)")
            }
        }
    }

    @Test("A canvas whose pixel size overflows is refused before anything is allocated")
    func overflowingCanvas() throws {
        // The instance: an infinite height once scaled used to count as 0 pixels.
        let overflowing = try #require(try refusal(##"{"width": 1, "height": 1e308, "scale": 2}"##))
        #expect(overflowing.layer == .root && overflowing.message.contains("canvas"))
        // Our own: a scale given apart from the scene (the CLI's --scale).
        let refused = try #require(try refusal(##"{"width": 200, "height": 150}"##, scale: 1e20))
        #expect(refused.layer == .root && refused.message.contains("canvas"))
        let scaled = try #require(try refusal(##"{"width": 200, "height": 150}"##, scale: 163))
        #expect(scaled.message.contains("32600 x 24450"))
    }

    // MARK: Hangs

    @Test("Replicators with absurd instance counts are refused, not walked")
    func replicatorInstances() throws {
        // The instance: 10^14 instances and no sublayers.
        let error = try #require(sceneError(##"{"width": 100, "height": 100, "sublayers": [{"type": "replicator", "instanceCount": 1e14}]}"##))
        #expect(error.kind == .limitExceeded && error.location == "$.sublayers[0]")
        // Our own, through the library (no scene limits): nested replicators
        // of a million each, and an empty one of Int.max.
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        let outer = CAReplicatorLayer(), inner = CAReplicatorLayer(), empty = CAReplicatorLayer()
        outer.instanceCount = 1_000_000
        inner.instanceCount = 1_000_000
        inner.addSublayer(CALayer())
        outer.addSublayer(inner)
        empty.instanceCount = .max
        root.sublayers = [CALayer(), outer]
        let renderer = try LayerRenderer(backend: .cpu)
        #expect(throws: RenderRefusal.self) { try renderer.render(root, canvas: RenderCanvas(width: 100, height: 100)) }
        do {
            _ = try renderer.prepare(root, canvas: RenderCanvas(width: 100, height: 100))
        } catch {
            #expect(error.layer == LayerPath([.sublayer(1), .sublayer(0)]))
            #expect(error.description.hasPrefix("$.sublayers[1].sublayers[0]: "))
        }
        root.sublayers = [empty]
        #expect(throws: RenderRefusal.self) { try renderer.prepare(root, canvas: RenderCanvas(width: 100, height: 100)) }
    }

    @Test("Image files that are FIFOs or devices are refused without blocking")
    func specialFilesAsContents() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-hostile-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(mkfifo(directory.appendingPathComponent("pipe.png").path, 0o600) == 0)
        let decoder = SceneDecoder(options: .init(baseDirectory: directory))
        for (file, words) in [("pipe.png", "FIFO"), ("/dev/zero", "character device"), (directory.path, "directory")] {
            let json = ##"{"width": 10, "height": 10, "sublayers": [{"frame": [0, 0, 5, 5], "contents": "\##(file)"}]}"##
            #expect(throws: SceneError.self) { try decoder.decode(json) }
            do { _ = try decoder.decode(json) } catch {
                #expect(error.location == "$.sublayers[0].contents")
                #expect(error.message.contains(words), "\(error.message)")
            }
        }
    }

    @Test("Errors quote a short prefix of a huge key or value")
    func hugeKeysInErrors() throws {
        let key = String(repeating: "k", count: 10_000_000)
        let error = try #require(sceneError(##"{"width": 10, "height": 10, "\##(key)": 1}"##))
        #expect(error.description.utf8.count < 1000)
        #expect(error.description.contains("10000002 bytes in all"))
        // Our own: a huge value where a name is expected.
        let value = String(repeating: "v", count: 1_000_000)
        let valueError = try #require(sceneError(##"{"width": 10, "height": 10, "sublayers": [{"type": "shape", "lineCap": "\##(value)"}]}"##))
        #expect(valueError.description.utf8.count < 1000)
    }

    // MARK: Memory inside the limits

    @Test("Planes cutting each other are bounded by the depth-sorting budget")
    func intersectingPlanes() throws {
        // Planes through one point at spread angles all cut each other.
        func planes(_ n: Int) -> String {
            (0..<n).map { i in
                let a = Double(i) * 2.4, b = Double(i) * 0.7
                let (ca, sa, cb, sb) = (cos(a), sin(a), cos(b), sin(b))
                let m = [ca, sa * sb, -sa * cb, 0, 0, cb, sb, 0, sa, -ca * sb, ca * cb, 0, 0, 0, 0, 1]
                return ##"{"bounds": [0, 0, 300, 300], "position": [200, 200], "zPosition": \##(i % 7), "backgroundColor": "#336699", "transform": \##(m)}"##
            }.joined(separator: ",")
        }
        let json = ##"{"width": 400, "height": 400, "sublayerTransform": [1,0,0,0, 0,1,0,0, 0,0,1,-0.002, 0,0,0,1], "##
            + ##""sublayers": [{"type": "transform", "position": [200, 200], "bounds": [0, 0, 400, 400], "sublayers": [\##(planes(300))]}]}"##
        // The instance: 300 planes on a 400x400 canvas (1.7-5.8 GB before).
        let refused = try #require(try refusal(json))
        #expect(refused.layer == .root && refused.message.contains("depth sorting"))
        // Our own: a tighter budget refuses a smaller scene the same way,
        // and a scene within it renders.
        var budget = RenderBudget.default
        budget.depthFragments = 200
        let small = json.replacingOccurrences(of: planes(300), with: planes(30))
        #expect(try refusal(small, budget: budget)?.message.contains("depth sorting") == true)
        budget.depthFragments = 1_000_000
        _ = try outcome(small, backend: .cpu, budget: budget).get()
    }

    @Test("Offscreen surfaces are freed after their last use and counted against the budget", arguments: availableBackends)
    func shadowedAndMaskedLayers(backend: RenderBackend) throws {
        // The instance: 100 full-canvas shadowed layers (6.4 GB on GL before).
        let shadowed = (0..<100).map { _ in
            ##"{"frame": [0, 0, 400, 300], "backgroundColor": "#ffffff", "shadowOpacity": 0.5, "shadowRadius": 4, "opacity": 0.9}"##
        }.joined(separator: ",")
        let json = ##"{"width": 400, "height": 300, "sublayers": [\##(shadowed)]}"##
        let renderer = try LayerRenderer(backend: backend, fallBack: false)
        let plan = try renderer.prepare(try SceneDecoder().decode(json))
        // Each layer's intermediate surfaces (its alpha, the blur's passes)
        // die once its shadow is made; its picture and its shadow live
        // until the output pass that draws them all (a translucent layer's
        // shadow is drawn apart from it, to show through it).
        let total = plan.surfaces.reduce(0) { $0 + $1.pixelCount }
        #expect(plan.surfaces.count >= 300)
        // At most two canvases a layer, each with room for the blur's reach
        // (3 x 4 points a side), alive at once; the intermediates freed.
        let pictureAndShadow = 2 * (400 + 24) * (300 + 24)
        #expect(plan.peakSurfacePixels <= 100 * pictureAndShadow && plan.peakSurfacePixels < total,
                "surfaces alive at once: \(plan.peakSurfacePixels) of \(total)")
        _ = try renderer.renderer.render(plan)
        // Our own: nested masks, and a budget too small for one layer's
        // surfaces, refused naming that layer and why.
        var nested = ##"{"frame": [0, 0, 400, 300], "backgroundColor": "#ff0000"}"##
        for _ in 0..<98 { nested = ##"{"frame": [0, 0, 400, 300], "mask": {"frame": [0, 0, 400, 300], "backgroundColor": "#000000"}, "sublayers": [\##(nested)]}"## }
        let maskPlan = try renderer.prepare(try SceneDecoder().decode(##"{"width": 400, "height": 300, "sublayers": [\##(nested)]}"##))
        #expect(maskPlan.peakSurfacePixels <= 300 * 400 * 300)
        var budget = RenderBudget.default
        budget.surfacePixels = 100_000
        let refused = try #require(try refusal(json, backend: backend, budget: budget))
        #expect(refused.layer == LayerPath([.sublayer(0)]))
        #expect(refused.message.contains("shadow") || refused.message.contains("group opacity"))
    }

    // MARK: Quadratic time

    @Test("A letter with 99,990 combining marks is drawn (marks are shaped 30 at a time)")
    func combiningMarks() throws {
        let marks = String(repeating: "\u{0301}", count: 99_990)
        for text in ["a" + marks, String(repeating: "e" + String(repeating: "\u{0308}", count: 50) + " ", count: 1900)] {
            let json = ##"{"width": 200, "height": 60, "sublayers": [{"type": "text", "string": "\##(text)", "frame": [0, 0, 200, 60], "wrapped": true, "truncationMode": "end"}]}"##
            _ = try #require(try outcome(json, backend: .cpu).get())
        }
    }

    // MARK: What validate accepts, every backend renders

    @Test("Scenes that backends used to refuse in their own words render", arguments: availableBackends)
    func noInternalRefusals(backend: RenderBackend) throws {
        let wide = try pngDataURI(width: 40000, height: 400), strip = try pngDataURI(width: 20000, height: 2)
        let scenes = [
            // Images wider than a texture may be (CPU pixmaps, GL textures).
            ##"{"width": 200, "height": 100, "sublayers": [{"frame": [10, 10, 180, 80], "contents": "\##(wide)"}]}"##,
            ##"{"width": 200, "height": 100, "sublayers": [{"frame": [10, 10, 180, 2], "contents": "\##(strip)", "contentsGravity": "center"}]}"##,
            // Contents squeezed to nothing, and seen edge-on.
            ##"{"width": 100, "height": 100, "sublayers": [{"frame": [10, 10, 1e-300, 50], "contents": "\##(strip)", "masksToBounds": true, "cornerRadius": 1}]}"##,
            ##"{"width": 100, "height": 100, "sublayerTransform": [1,0,0,0, 0,1,0,0, 0,0,1,-0.01, 0,0,0,1], "sublayers": [{"frame": [0, 0, 100, 100], "contents": "\##(strip)", "transform": [0,0,-1,0, 0,1,0,0, 1,0,0,0, 0,0,0,1]}]}"##,
            // A path with coordinates at the edge of what doubles hold.
            ##"{"width": 100, "height": 100, "sublayers": [{"type": "shape", "frame": [0, 0, 100, 100], "path": "M 0 0 L 1e300 1e300 L 0 1e300 Z", "strokeColor": "#000000", "lineWidth": 1e300}]}"##,
            // A layer almost at the eye.
            ##"{"width": 100, "height": 100, "sublayerTransform": [1,0,0,0, 0,1,0,0, 0,0,1,-0.01, 0,0,0,1], "sublayers": [{"frame": [0, 0, 100, 100], "backgroundColor": "#ff0000", "zPosition": 99.9999999, "shadowOpacity": 1}]}"##,
        ]
        for json in scenes {
            switch try outcome(json, backend: backend) {
            case .success: break
            case .failure(let refusal):
                // A refusal is allowed only as a budget speaking of the scene.
                #expect(refusal.description.hasPrefix("$"), "\(refusal)")
            }
        }
    }

    private func pngDataURI(width: Int, height: Int) throws -> String {
        let pixels = [UInt8](repeating: 255, count: width * height * 4)
        let image = try CGImage(width: width, height: height, premultipliedRGBA: pixels)
        return "data:image/png;base64," + (try image.pngData()).base64EncodedString()
    }
}
