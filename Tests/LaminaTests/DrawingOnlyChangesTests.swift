import Foundation
import Testing
@testable import Lamina
@testable import LaminaCPU

/// `LayerRenderer.drawsOnlyChanges`: an animation's frames drawn in order,
/// each over the one before where it changed, are the frames drawn whole.
@Suite("Drawing only what changed")
struct DrawingOnlyChangesTests {
    /// A tree of what moves in the ways frames differ: a still ground, a
    /// layer sliding across it, a shape's stroke drawing on, a masked layer
    /// whose mask grows (an offscreen surface), a group fading in (its
    /// sublayers overlap: a surface), a layer that shows halfway through,
    /// and one blended onto what is under it.
    static func animatedTree() -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 120, height: 90)
        let ground = CAGradientLayer()
        ground.frame = root.bounds
        ground.colors = [UIColor.white.cgColor, UIColor.cyan.cgColor]
        root.addSublayer(ground)

        func solid(_ frame: CGRect, _ color: UIColor) -> CALayer {
            let layer = CALayer()
            layer.frame = frame
            layer.backgroundColor = color.cgColor
            return layer
        }
        func animate(_ layer: CALayer, _ keyPath: String, from: Any, to: Any, begin: Double = 0, duration: Double = 1) {
            let animation = CABasicAnimation(keyPath: keyPath)
            animation.fromValue = from
            animation.toValue = to
            animation.beginTime = begin
            animation.duration = duration
            animation.fillMode = .both
            layer.add(animation, forKey: keyPath)
        }

        let slider = solid(CGRect(x: 0, y: 10, width: 14, height: 10), .red)
        slider.cornerRadius = 3
        animate(slider, "position.x", from: 7, to: 113)
        root.addSublayer(slider)

        let ring = CAShapeLayer()
        ring.frame = CGRect(x: 80, y: 30, width: 30, height: 30)
        ring.path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 30, height: 30), transform: nil)
        ring.fillColor = nil
        ring.strokeColor = UIColor.blue.cgColor
        ring.lineWidth = 4
        animate(ring, "strokeEnd", from: 0, to: 1)
        root.addSublayer(ring)

        let masked = solid(CGRect(x: 10, y: 35, width: 40, height: 30), .green)
        let mask = solid(CGRect(x: 0, y: 0, width: 10, height: 30), .black)
        animate(mask, "bounds.size.width", from: 10, to: 70, begin: 0.2, duration: 0.4)
        masked.mask = mask
        root.addSublayer(masked)

        let group = CALayer()
        group.frame = CGRect(x: 60, y: 65, width: 50, height: 20)
        for x in [0.0, 15] {
            group.addSublayer(solid(CGRect(x: x, y: 0, width: 30, height: 20), .orange))
        }
        animate(group, "opacity", from: 0, to: 1, begin: 0.5, duration: 0.3)
        root.addSublayer(group)

        let late = solid(CGRect(x: 5, y: 70, width: 20, height: 15), .purple)
        late.isHidden = true
        let show = CAKeyframeAnimation(keyPath: "hidden")
        show.values = [true, false]
        show.keyTimes = [0, 0.5]
        show.calculationMode = .discrete
        show.duration = 1
        show.fillMode = .both
        late.add(show, forKey: "show")
        root.addSublayer(late)

        let blended = solid(CGRect(x: 30, y: 0, width: 20, height: 90), .yellow)
        blended.compositingFilter = "multiplyBlendMode"
        animate(blended, "position.y", from: 45, to: 60, begin: 0.6, duration: 0.2)
        root.addSublayer(blended)
        return root
    }

    @Test func framesDrawnOverTheLastAreTheFramesDrawnWhole() throws {
        let tree = Self.animatedTree()
        let canvas = RenderCanvas(width: 120, height: 90, scale: 2)
        let whole = try LayerRenderer(backend: .cpu)
        let changes = try LayerRenderer(backend: .cpu)
        changes.drawsOnlyChanges = true
        #expect(changes.drawsOnlyChanges && !whole.drawsOnlyChanges)
        let frames = 30
        for k in 0..<frames {
            let time = Double(k) / Double(frames - 1)
            let expected = try whole.render(tree, canvas: canvas, time: time).pixelBytes
            #expect(try changes.render(tree, canvas: canvas, time: time).pixelBytes == expected, "frame \(k)")
        }
        let drawnOver = try #require(changes.renderer as? CPURenderer).framesDrawnOverLast
        #expect(drawnOver == frames - 1)
    }

    /// Each frame's frozen tree is written over the last one's
    /// (`RenderLayer.resnapshot`): here the layers that show change from
    /// frame to frame in number and in kind (nested groups whose members
    /// come and go, a shape whose fill goes, a picture that shows and
    /// goes, a whole tree hidden for a while), and the frames, taken out of
    /// order, are still those drawn afresh.
    @Test func aTreeWhoseLayersComeAndGoIsDrawnAsItWouldBeAfresh() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 60, height: 40)
        func showing(_ layer: CALayer, from begin: Double, to end: Double) {
            let show = CAKeyframeAnimation(keyPath: "hidden")
            show.values = [true, false, true]
            show.keyTimes = [0, NSNumber(value: begin), NSNumber(value: end)]
            show.calculationMode = .discrete
            show.duration = 1
            show.fillMode = .both
            layer.add(show, forKey: "show")
        }
        for g in 0..<3 {
            let group = CALayer()
            group.frame = CGRect(x: Double(g) * 20, y: 0, width: 20, height: 40)
            for k in 0..<4 {
                let member: CALayer
                if k % 2 == 0 {
                    let shape = CAShapeLayer()
                    shape.path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 8, height: 8), transform: nil)
                    shape.fillColor = UIColor.blue.cgColor
                    let fill = CAKeyframeAnimation(keyPath: "fillColor")
                    fill.values = [UIColor.blue.cgColor, UIColor.clear.cgColor]
                    fill.keyTimes = [0, 0.6]
                    fill.calculationMode = .discrete
                    fill.duration = 1
                    fill.fillMode = .both
                    shape.add(fill, forKey: "fill")
                    member = shape
                } else {
                    member = CALayer()
                    member.backgroundColor = UIColor.red.cgColor
                    let picture = CABasicAnimation(keyPath: "contents")
                    picture.toValue = try CGImage(width: 2, height: 2, filledWith: CGImage.Pixel(red: 0, green: 200, blue: 0, alpha: 255))
                    picture.beginTime = 0.3
                    picture.duration = 0.4
                    member.add(picture, forKey: "picture")
                }
                member.frame = CGRect(x: 2, y: 2 + Double(k) * 9, width: 8, height: 8)
                showing(member, from: Double(g * 4 + k) / 14, to: Double(g * 4 + k + 3) / 14)
                group.addSublayer(member)
            }
            showing(group, from: Double(g) / 6, to: 0.6 + Double(g) / 8)
            root.addSublayer(group)
        }
        showing(root, from: 0.05, to: 0.9)
        let canvas = RenderCanvas(width: 60, height: 40, scale: 1)
        let whole = try LayerRenderer(backend: .cpu)
        let changes = try LayerRenderer(backend: .cpu)
        changes.drawsOnlyChanges = true
        for k in [0, 3, 7, 12, 5, 19, 1, 16, 10, 20, 14, 2, 18, 9, 13] {
            let time = Double(k) / 20
            let expected = try whole.render(root, canvas: canvas, time: time).pixelBytes
            #expect(try changes.render(root, canvas: canvas, time: time).pixelBytes == expected, "time \(time)")
        }
    }

    /// Lottie animations of `../shared/lottie` (several kinds: shapes and
    /// trim paths, masks and mattes, precompositions), every frame.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: lottieSamples.path), "no ../shared/lottie beside the repository"),
          arguments: ["9squares_AlBoardman", "TwitterHeartButton", "vcTransition1", "LottieFiles/step_loader", "Issues/issue_1541"])
    func lottieFramesDrawnOverTheLastAreTheFramesDrawnWhole(sample: String) throws {
        let loaded = try SceneLoader().load(contentsOf: lottieSamples.appendingPathComponent("\(sample).json"))
        let scene = loaded.scene
        let canvas = scene.canvas(scale: 120 / max(scene.width, scene.height))
        let whole = try LayerRenderer(backend: .cpu)
        let changes = try LayerRenderer(backend: .cpu)
        changes.drawsOnlyChanges = true
        let rate = try #require(loaded.frameRate), count = Int((try #require(loaded.duration) * rate).rounded())
        for k in 0..<count {
            let time = scene.time + Double(k) / rate
            let expected = try whole.render(scene.rootLayer, canvas: canvas, time: time).pixelBytes
            #expect(try changes.render(scene.rootLayer, canvas: canvas, time: time).pixelBytes == expected, "frame \(k)")
        }
        #expect(try #require(changes.renderer as? CPURenderer).framesDrawnOverLast > 0)
    }

    /// Community wallpapers of `../shared/caml-corpus` (full-screen pictures
    /// under a few moving layers: most of each frame stays), a second of them.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: wallpapers.path), "no ../shared/caml-corpus beside the repository"),
          arguments: ["RainbowSprinkles", "Snoopy", "Space", "TintedCubes", "boykisser"])
    func wallpaperFramesDrawnOverTheLastAreTheFramesDrawnWhole(name: String) throws {
        let scene = try SceneLoader().load(contentsOf: wallpapers.appendingPathComponent("\(name).tendies")).scene
        let canvas = scene.canvas(scale: 0.2)
        let whole = try LayerRenderer(backend: .cpu)
        let changes = try LayerRenderer(backend: .cpu)
        changes.drawsOnlyChanges = true
        for k in 0..<12 {
            let time = scene.time + Double(k) / 12
            let expected = try whole.render(scene.rootLayer, canvas: canvas, time: time).pixelBytes
            #expect(try changes.render(scene.rootLayer, canvas: canvas, time: time).pixelBytes == expected, "frame \(k)")
        }
        #expect(try #require(changes.renderer as? CPURenderer).framesDrawnOverLast > 0)
    }
}

/// `../shared/caml-corpus/wallpapers` beside the repository.
private let wallpapers = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../shared/caml-corpus/wallpapers").standardizedFileURL

/// `../shared/lottie/samples` beside the repository.
private let lottieSamples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../shared/lottie/samples").standardizedFileURL
