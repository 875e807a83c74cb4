import Foundation
import Testing
@testable import Lamina
import LaminaRender

/// A layer that draws a red square in its top-left quarter with Core
/// Graphics, as a delegate-less subclass would on iOS.
private final class QuarterLayer: CALayer {
    override func draw(in ctx: CGContext) {
        ctx.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        ctx.fill(CGRect(x: 0, y: 0, width: bounds.width / 2, height: bounds.height / 2))
    }
}

@Suite("LayerRenderer")
struct LayerRendererTests {
    /// A translucent layer and its shadow are each faded by the layer's
    /// opacity, not as one group: the shadow shows through the layer, as
    /// Core Animation draws it (Apple's picture of lottie-ios's pr_2559
    /// matches this to the level). A black layer at opacity 0.5 over its own
    /// black shadow (no offset, no blur) on white: 255 · 0.5 · 0.5 ≈ 64, where
    /// a group would leave 128.
    @Test(arguments: availableBackends)
    func aTranslucentLayersShadowShowsThroughIt(backend: RenderBackend) throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 40, height: 20)
        root.backgroundColor = CGColor.white
        let layer = CALayer()
        layer.frame = CGRect(x: 10, y: 5, width: 20, height: 10)
        layer.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        layer.opacity = 0.5
        layer.shadowOpacity = 1
        layer.shadowRadius = 0
        layer.shadowOffset = .zero
        root.addSublayer(layer)
        let image = try LayerRenderer(backend: backend, fallBack: false).render(root, canvas: RenderCanvas(width: 40, height: 20))
        #expect(abs(rgba(image, 20, 10)[0] - 64) <= 2, "\(rgba(image, 20, 10))")
        #expect(rgba(image, 5, 10) == [255, 255, 255, 255])
    }

    @Test(arguments: availableBackends)
    func drawInContentIsRenderedAtContentsScale(backend: RenderBackend) throws {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
        root.position = CGPoint(x: 20, y: 20)
        root.backgroundColor = CGColor.white
        let layer = QuarterLayer()
        layer.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
        layer.contentsScale = 2
        layer.setNeedsDisplay()
        root.addSublayer(layer)
        let renderer = try LayerRenderer(backend: backend, fallBack: false)
        let image = try renderer.render(root, canvas: RenderCanvas(width: 40, height: 40, scale: 2))
        #expect(image.width == 80)
        // Top-left quarter red (y down, as on iOS), the rest white.
        #expect(rgba(image, 10, 10) == [255, 0, 0, 255])
        #expect(rgba(image, 60, 10) == [255, 255, 255, 255])
        #expect(rgba(image, 10, 60) == [255, 255, 255, 255])
    }

    @Test(arguments: availableBackends)
    func contentsMultiplyColorMultipliesTheContentsAndNothingElse(backend: RenderBackend) throws {
        let layer = CALayer()
        layer.frame = CGRect(x: 0, y: 0, width: 40, height: 20)
        layer.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        // White contents over the left half only.
        layer.contents = try CGImage(width: 2, height: 1, straightRGBA: [255, 255, 255, 255, 0, 0, 0, 0])
        layer.magnificationFilter = .nearest
        layer.contentsMultiplyColor = CGColor(red: 1, green: 0.5, blue: 0, alpha: 0.5)
        let image = try LayerRenderer(backend: backend, fallBack: false).render(layer, canvas: RenderCanvas(width: 40, height: 20))
        // Half-transparent orange over the blue background; the background itself untouched.
        let left = rgba(image, 10, 10), right = rgba(image, 30, 10)
        #expect(abs(Int(left[0]) - 128) <= 1 && abs(Int(left[1]) - 64) <= 1 && abs(Int(left[2]) - 127) <= 1 && left[3] == 255, "\(left)")
        #expect(right == [0, 0, 255, 255])
    }

    /// Core Animation magnifies a `linear` picture with eased weights
    /// (smoothstep of the distance between texel centres, as Apple's
    /// snapshots show), minifies it bilinearly, and `nearest` stays nearest.
    @Test(arguments: availableBackends)
    func magnifiedPicturesEaseBetweenTexelsMinifiedOnesDoNot(backend: RenderBackend) throws {
        func row(_ texels: [UInt8], width: Int, filter: CALayerContentsFilter = .linear) throws -> [Int] {
            let layer = CALayer()
            layer.frame = CGRect(x: 0, y: 0, width: CGFloat(width), height: 1)
            layer.contents = try CGImage(width: texels.count, height: 1, straightRGBA: texels.flatMap { [$0, $0, $0, 255] })
            layer.magnificationFilter = filter
            let image = try LayerRenderer(backend: backend, fallBack: false).render(layer, canvas: RenderCanvas(width: Double(width), height: 1))
            return (0..<width).map { rgba(image, $0, 0)[0] }
        }
        func near(_ a: [Int], _ b: [Int]) -> Bool { a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= 2 } }
        // Black and white texels four times magnified: pixel x reads at
        // t = (x + ½) / 4 − ½ past the black centre, weight 3t² − 2t³ on
        // white: t = ⅛, ⅜, ⅝, ⅞ give 0.043, 0.316, 0.684, 0.957 (bilinear
        // would give 32, 96, 159, 223).
        let magnified = try row([0, 255], width: 8)
        #expect(near(magnified, [0, 0, 11, 81, 174, 244, 255, 255]), "\(magnified)")
        #expect(try row([0, 255], width: 8, filter: .nearest) == [0, 0, 0, 0, 255, 255, 255, 255])
        // Three texels into two pixels: pixel 0 reads ¼ of the way from
        // black to white, linearly 64 (eased it would be 40).
        let minified = try row([0, 255, 255], width: 2)
        #expect(near(minified, [64, 255]), "\(minified)")
    }

    /// A 40 x 40 canvas, white, with a 20 x 20 square of `color` in its middle carrying `filters`.
    private func filtered(_ filters: [CAFilter], color: CGColor, backend: RenderBackend) throws -> CGImage {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
        root.backgroundColor = CGColor.white
        let square = CALayer()
        square.frame = CGRect(x: 10, y: 10, width: 20, height: 20)
        square.backgroundColor = color
        square.filters = filters
        root.addSublayer(square)
        return try LayerRenderer(backend: backend, fallBack: false).render(root, canvas: RenderCanvas(width: 40, height: 40))
    }

    @Test(arguments: availableBackends)
    func colourFiltersChangeTheLayersColoursOnly(backend: RenderBackend) throws {
        let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        func centre(_ filters: [CAFilter]) throws -> [Int] { rgba(try filtered(filters, color: red, backend: backend), 20, 20) }
        func near(_ a: [Int], _ b: [Int]) -> Bool { zip(a, b).allSatisfy { abs($0 - $1) <= 1 } }
        #expect(near(try centre([CAFilter(type: .colorInvert)]), [0, 255, 255, 255]))
        let grey = CAFilter(type: .colorSaturate)
        grey.setValue(0, forKey: "inputAmount")
        #expect(near(try centre([grey]), [54, 54, 54, 255]), "0.213 of red")
        let swap = CAFilter(type: .colorMatrix)
        swap.setValue([0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0] as [Double], forKey: "inputColorMatrix")
        #expect(near(try centre([swap]), [0, 0, 255, 255]))
        // Consecutive colour filters in order: inverted (cyan), then swapped (yellow).
        #expect(near(try centre([CAFilter(type: .colorInvert), swap]), [255, 255, 0, 255]))
        let alpha = CAFilter(type: .luminanceToAlpha)
        #expect(near(try centre([alpha]), [201, 201, 201, 255]), "black at 0.2125 over white")
        // Outside the layer nothing changes: the filters act on what it drew.
        #expect(rgba(try filtered([CAFilter(type: .colorInvert)], color: red, backend: backend), 2, 2) == [255, 255, 255, 255])
    }

    /// The colour filters not exercised above, each on a (0.5, 0.25, 0)
    /// square, against values worked from their definitions by hand.
    @Test(arguments: availableBackends)
    func hueContrastBrightnessAndMonochromeFilters(backend: RenderBackend) throws {
        let brown = CGColor(red: 0.5, green: 0.25, blue: 0, alpha: 1)
        func centre(_ type: CAFilter.Kind, _ set: (CAFilter) -> Void) throws -> [Int] {
            let filter = CAFilter(type: type)
            set(filter)
            return rgba(try filtered([filter], color: brown, backend: backend), 20, 20)
        }
        func near(_ a: [Int], _ b: [Double]) -> Bool { zip(a, b).allSatisfy { abs(Double($0) - $1 * 255) <= 1.5 } }
        // Brightness 0.2: each channel plus 0.2.
        let brighter = try centre(.colorBrightness) { $0.setValue(0.2, forKey: "inputAmount") }
        #expect(near(brighter, [0.7, 0.45, 0.2, 1]), "\(brighter)")
        // Contrast 2 about mid grey: (c − 0.5)·2 + 0.5, clamped.
        let contrasted = try centre(.colorContrast) { $0.setValue(2, forKey: "inputAmount") }
        #expect(near(contrasted, [0.5, 0, 0, 1]), "\(contrasted)")
        // Monochrome in blue: the Rec. 709 luminance 0.2126·0.5 + 0.7152·0.25 = 0.2851, as blue.
        let mono = try centre(.colorMonochrome) { $0.setValue(CGColor(red: 0, green: 0, blue: 1, alpha: 1), forKey: "inputColor") }
        #expect(near(mono, [0, 0, 0.2851, 1]), "\(mono)")
        // Hue turned half a turn, SVG's matrix at cos −1, sin 0:
        // R = −0.574·0.5 + 1.43·0.25 = 0.0705, G = 0.426·0.5 + 0.43·0.25 = 0.3205, B = 0.426·0.5 + 1.43·0.25 = 0.5705.
        let turned = try centre(.colorHueRotate) { $0.setValue(Double.pi, forKey: "inputAngle") }
        #expect(near(turned, [0.0705, 0.3205, 0.5705, 1]), "\(turned)")
    }

    @Test(arguments: availableBackends)
    func aGaussianBlurSpreadsTheLayerSymmetrically(backend: RenderBackend) throws {
        let blur = CAFilter(type: .gaussianBlur)
        blur.setValue(3, forKey: "inputRadius")
        let image = try filtered([blur], color: CGColor(red: 0, green: 0, blue: 0, alpha: 1), backend: backend)
        // Black on white: half a pixel inside the edge, 255 (1 - Φ(0.5 / 3)) = 111; the middle black; 3σ outside still white.
        let edge = rgba(image, 10, 20)[0], middle = rgba(image, 20, 20)[0], outside = rgba(image, 1, 20)[0]
        #expect(abs(Int(edge) - 111) <= 12, "\(edge)")
        #expect(middle <= 3 && outside >= 250, "\(middle) \(outside)")
        // Left and right edges alike.
        #expect(abs(Int(rgba(image, 8, 20)[0]) - Int(rgba(image, 31, 20)[0])) <= 3)
    }

    @Test(.enabled(if: availableBackends.contains(.gl), "no EGL context on this machine: nothing to compare the CPU with"))
    func bothBackendsDrawTheSameScene() throws {
        let scene = try SceneDecoder().decode("""
            {"width": 120, "height": 90, "backgroundColor": "#ffffff", "sublayers": [
              {"bounds": [0, 0, 60, 40], "position": [60, 45], "backgroundColor": "#3366cc", "cornerRadius": 8,
               "borderWidth": 3, "borderColor": "#112244", "transform": [{"perspective": 200}, {"rotateDegrees": [30, 0, 1, 0]}]},
              {"type": "shape", "bounds": [0, 0, 120, 90], "position": [60, 45], "fillColor": null, "strokeColor": "#cc3300",
               "lineWidth": 4, "lineCap": "round", "path": "M 10 80 Q 60 10 110 80"}
            ]}
            """)
        let gl = try LayerRenderer(backend: .gl, fallBack: false).render(scene)
        let cpu = try LayerRenderer(backend: .cpu).render(scene)
        // Pixel by pixel within anti-aliasing: count the pixels that differ by
        // more than a few levels on some channel.
        var differing = 0
        for i in stride(from: 0, to: gl.pixelBytes.count, by: 4) {
            let d = (0..<4).map { abs(Int(gl.pixelBytes[i + $0]) - Int(cpu.pixelBytes[i + $0])) }.max()!
            if d > 48 { differing += 1 }
        }
        #expect(Double(differing) / Double(gl.width * gl.height) < 0.01)
    }

    @Test("Both backends blur a shadow by the plan's one method: within 2 levels",
          .enabled(if: availableBackends.contains(.gl), "no EGL context on this machine: nothing to compare the CPU with"))
    func bothBackendsBlurAlike() throws {
        // Shadows that run at full size (3), once halved (12) and twice (30).
        let scene = try SceneDecoder().decode("""
            {"width": 420, "height": 160, "sublayers": [
              {"bounds": [0, 0, 60, 60], "position": [70, 80], "backgroundColor": "#ffffff", "shadowOpacity": 1,
               "shadowRadius": 3, "shadowOffset": [0, 0]},
              {"bounds": [0, 0, 60, 60], "position": [210, 80], "backgroundColor": "#ffffff", "shadowOpacity": 1,
               "shadowRadius": 12, "shadowOffset": [0, 0]},
              {"bounds": [0, 0, 60, 60], "position": [350, 80], "backgroundColor": "#ffffff", "shadowOpacity": 1,
               "shadowRadius": 30, "shadowOffset": [0, 0]}
            ]}
            """)
        let gl = try LayerRenderer(backend: .gl, fallBack: false).render(scene)
        let cpu = try LayerRenderer(backend: .cpu).render(scene)
        var worst = 0
        for i in stride(from: 3, to: gl.pixelBytes.count, by: 4) {
            worst = max(worst, abs(Int(gl.pixelBytes[i]) - Int(cpu.pixelBytes[i])))
        }
        #expect(worst <= 2, "the shadows' alpha differs by \(worst) levels")
    }

    /// A layer's path masked by its mask's path is one draw on the CPU
    /// (`RenderPlannerOptions.fillsMaskedPaths`); GL takes the surfaces.
    @Test func onlyTheCPUBackendFillsMaskedPaths() throws {
        #expect(try LayerRenderer(backend: .cpu).planner.options.fillsMaskedPaths)
        #expect(!RenderPlanner().options.fillsMaskedPaths)
        let broken = ["LAMINA_EGL_PLATFORM": "no-such-platform"]
        #expect(try LayerRenderer(backend: .gl, environment: broken, warn: { _ in }).planner.options.fillsMaskedPaths)
    }

    @Test(.enabled(if: availableBackends.contains(.gl), "no EGL context on this machine"))
    func theGLBackendsPlannerLeavesMaskedPathsToSurfaces() throws {
        #expect(try !LayerRenderer(backend: .gl, fallBack: false).planner.options.fillsMaskedPaths)
    }

    @Test func glFallsBackToTheCPUWithAWarning() throws {
        // An environment of its own, not setenv: the process's environment
        // is shared by every test running in parallel (one that read it
        // mid-test would silently lose GL).
        let broken = ["LAMINA_EGL_PLATFORM": "no-such-platform"]
        var warnings: [String] = []
        let renderer = try LayerRenderer(backend: .gl, environment: broken, warn: { warnings.append($0) })
        #expect(renderer.backend == .cpu)
        #expect(warnings.count == 1 && warnings[0].contains("rendering on the CPU"))
        #expect(throws: (any Error).self) { try LayerRenderer(backend: .gl, fallBack: false, environment: broken) }
    }
}

@Suite("Offscreen surfaces")
struct OffscreenSurfaceTests {
    /// A masked layer is drawn offscreen, then drawn back. At a position
    /// between pixels its surface is laid on the target's pixels, so its
    /// edges stay as sharp as drawn directly: an edge that falls on a pixel
    /// boundary leaves the pixel before it empty and the one after it full
    /// (a surface resampled half a pixel off spread it over three).
    @Test(arguments: availableBackends)
    func aMaskedLayerBetweenPixelsKeepsItsEdgesSharp(backend: RenderBackend) throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 40, height: 20)
        let layer = CALayer()
        layer.frame = CGRect(x: 10.5, y: 4.5, width: 20, height: 10)
        let bar = CALayer()
        bar.frame = CGRect(x: 0.5, y: 0.5, width: 10, height: 8)  // edges at x 11 and 21, y 5 and 13
        bar.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        layer.addSublayer(bar)
        let mask = CALayer()
        mask.frame = layer.bounds
        mask.backgroundColor = CGColor.white
        layer.mask = mask
        root.addSublayer(layer)
        let image = try LayerRenderer(backend: backend, fallBack: false).render(root, canvas: RenderCanvas(width: 40, height: 20))
        #expect(rgba(image, 10, 8)[3] == 0, "left of the bar: \(rgba(image, 10, 8))")
        #expect(rgba(image, 11, 8) == [255, 0, 0, 255], "the bar's first column: \(rgba(image, 11, 8))")
        #expect(rgba(image, 20, 8) == [255, 0, 0, 255] && rgba(image, 21, 8)[3] == 0, "its last, and past it")
        #expect(rgba(image, 15, 4)[3] == 0 && rgba(image, 15, 5) == [255, 0, 0, 255], "above it, and its first row")
    }

    /// A masked layer turned 30° is drawn offscreen in the target's pixels,
    /// turned as it is drawn there: what the mask lets through is the very
    /// picture the layer draws unmasked. (A surface in the layer's own
    /// plane, turned on the way back, softened every edge in it.)
    @Test(arguments: availableBackends)
    func aTurnedMaskedLayerDrawsAsItWouldUnmasked(backend: RenderBackend) throws {
        func render(masked: Bool) throws -> CGImage {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 60, height: 60)
            let layer = CALayer()
            layer.bounds = CGRect(x: 0, y: 0, width: 36, height: 24)
            layer.position = CGPoint(x: 30.3, y: 29.6)
            layer.transform = CATransform3DMakeRotation(.pi / 6, 0, 0, 1)
            let bar = CALayer()
            bar.frame = CGRect(x: 4, y: 4, width: 22, height: 12)
            bar.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            layer.addSublayer(bar)
            if masked {
                let mask = CALayer()
                mask.frame = layer.bounds
                mask.backgroundColor = CGColor.white
                layer.mask = mask
            }
            root.addSublayer(layer)
            return try LayerRenderer(backend: backend, fallBack: false).render(root, canvas: RenderCanvas(width: 60, height: 60))
        }
        let direct = try render(masked: false), masked = try render(masked: true)
        var worst = 0
        for y in 0..<60 {
            for x in 0..<60 {
                worst = max(worst, zip(rgba(direct, x, y), rgba(masked, x, y)).map { abs($0 - $1) }.max()!)
            }
        }
        #expect(worst <= 2, "the masked picture differs from the unmasked one by up to \(worst) levels")
    }
}

@Suite("Gradient layers")
struct GradientLayerTests {
    /// A gradient is read at each pixel's own point, at whatever scale the
    /// layer is seen: a 10-point gradient layer shown 8 times larger by its
    /// transform still runs smoothly from its very first pixel. (A picture
    /// of it made at the canvas's density and magnified was flat over its
    /// first and last half picture-pixel: four screen pixels.)
    @Test(arguments: availableBackends)
    func aMagnifiedGradientIsExactAtEveryPixel(backend: RenderBackend) throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 80, height: 8)
        let gradient = CAGradientLayer()
        gradient.bounds = CGRect(x: 0, y: 0, width: 10, height: 1)
        gradient.anchorPoint = .zero
        gradient.position = .zero
        gradient.transform = CATransform3DMakeScale(8, 8, 1)
        gradient.colors = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1)]
        gradient.startPoint = CGPoint(x: 0, y: 0.5)
        gradient.endPoint = CGPoint(x: 1, y: 0.5)
        root.addSublayer(gradient)
        let image = try LayerRenderer(backend: backend, fallBack: false).render(root, canvas: RenderCanvas(width: 80, height: 8))
        for x in [0, 1, 2, 3, 40, 76, 77, 78, 79] {
            let t = (Double(x) + 0.5) / 80
            let expected = [Int((255 * (1 - t)).rounded()), 0, Int((255 * t).rounded()), 255]
            let seen = rgba(image, x, 4)
            #expect(zip(seen, expected).allSatisfy { abs($0 - $1) <= 1 }, "pixel \(x): \(seen), the gradient there is \(expected)")
        }
    }
}

@Suite("Rectangular shapes")
struct RectangularShapeTests {
    /// A shape layer's rectangle between pixels is covered by its columns'
    /// and rows' overlaps (no edge accumulation): within a level of the
    /// same outline given with a fifth vertex, which the rasterizer covers.
    @Test func aRectangleBetweenPixelsDrawsAsTheRasterizerDrawsIt() throws {
        func render(extraVertex: Bool) throws -> CGImage {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 40, height: 30)
            let shape = CAShapeLayer()
            shape.frame = root.bounds
            let path = CGMutablePath()
            var corners = [CGPoint(x: 3.3, y: 2.7), CGPoint(x: 31.6, y: 2.7), CGPoint(x: 31.6, y: 21.2), CGPoint(x: 3.3, y: 21.2)]
            if extraVertex { corners.insert(CGPoint(x: 17, y: 2.7), at: 1) }
            path.addLines(between: corners)
            path.closeSubpath()
            shape.path = path
            shape.fillColor = CGColor(red: 0.2, green: 0.6, blue: 1, alpha: 0.8)
            root.addSublayer(shape)
            return try LayerRenderer(backend: .cpu).render(root, canvas: RenderCanvas(width: 80, height: 60, scale: 2.3))
        }
        let rectangle = try render(extraVertex: false), pentagon = try render(extraVertex: true)
        var worst = 0
        for y in 0..<60 { for x in 0..<80 { worst = max(worst, zip(rgba(rectangle, x, y), rgba(pentagon, x, y)).map { abs($0 - $1) }.max()!) } }
        #expect(worst <= 1, "\(worst) levels apart")
        #expect(rgba(rectangle, 40, 30)[3] > 0)
    }
}

@Suite("Group opacity")
struct GroupOpacityTests {
    /// A layer at opacity 0.5 with a red sublayer and a blue one over its
    /// right half, on a transparent canvas.
    private func render(allowsGroupOpacity: Bool, backend: RenderBackend) throws -> CGImage {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 40, height: 20)
        root.position = CGPoint(x: 20, y: 10)
        let group = CALayer()
        group.frame = root.bounds
        group.opacity = 0.5
        group.allowsGroupOpacity = allowsGroupOpacity
        let red = CALayer(), blue = CALayer()
        red.frame = CGRect(x: 0, y: 0, width: 40, height: 20)
        red.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        blue.frame = CGRect(x: 20, y: 0, width: 20, height: 20)
        blue.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        group.sublayers = [red, blue]
        root.addSublayer(group)
        return try LayerRenderer(backend: backend, fallBack: false).render(root, canvas: RenderCanvas(width: 40, height: 20))
    }

    @Test("allowsGroupOpacity = false fades each sublayer once, on its own", arguments: availableBackends)
    func withoutGroupOpacity(backend: RenderBackend) throws {
        let image = try render(allowsGroupOpacity: false, backend: backend)
        // Red alone: half transparent (it was faded twice: alpha 64).
        #expect(rgba(image, 5, 10) == [128, 0, 0, 128])
        // Blue over red, each at half: red shows through.
        let overlap = rgba(image, 30, 10)
        #expect(abs(overlap[0] - 64) <= 1 && abs(overlap[2] - 128) <= 1 && abs(overlap[3] - 191) <= 1, "\(overlap)")
    }

    @Test("With group opacity the composited group fades once", arguments: availableBackends)
    func withGroupOpacity(backend: RenderBackend) throws {
        let image = try render(allowsGroupOpacity: true, backend: backend)
        #expect(rgba(image, 5, 10) == [128, 0, 0, 128])
        #expect(rgba(image, 30, 10) == [0, 0, 128, 128])
    }
}

@Suite("masksToBounds in 3D")
struct MasksToBoundsIn3DTests {
    /// A card centred on the canvas, rounded, bordered, clipping a sublayer
    /// that fills it, turned about the y axis in perspective: a picture
    /// symmetric top to bottom.
    @Test("A clipped card in perspective stays symmetric (its surface is not stretched to fit)", arguments: availableBackends)
    func tiltedCardIsSymmetric(backend: RenderBackend) throws {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 300, height: 200)
        root.position = CGPoint(x: 150, y: 100)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 400
        root.sublayerTransform = perspective
        let card = CALayer()
        card.bounds = CGRect(x: 0, y: 0, width: 180.3, height: 120.7)
        card.position = CGPoint(x: 150, y: 100)
        card.transform = CATransform3DMakeRotation(.pi / 5, 0, 1, 0)
        card.masksToBounds = true
        card.cornerRadius = 12
        card.borderWidth = 3
        card.borderColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        let fill = CALayer()
        fill.frame = card.bounds.insetBy(dx: -20, dy: -20)
        fill.backgroundColor = CGColor(red: 0.2, green: 0.4, blue: 0.8, alpha: 1)
        card.addSublayer(fill)
        root.addSublayer(card)
        let image = try LayerRenderer(backend: backend, fallBack: false).render(root, canvas: RenderCanvas(width: 300, height: 200, scale: 2))
        // Each row's coverage against its mirror row.
        var worst = 0
        for y in 0..<(image.height / 2) {
            var top = 0, bottom = 0
            for x in 0..<image.width {
                top += rgba(image, x, y)[3]
                bottom += rgba(image, x, image.height - 1 - y)[3]
            }
            worst = max(worst, abs(top - bottom))
        }
        // Resampling the clipped surface through the perspective leaves less
        // than a pixel of coverage between a row and its mirror (when the
        // surface was stretched onto its extent, 17 pixels on an edge row).
        #expect(worst < 255, "rows differ from their mirror by up to \(worst) / 255")
    }
}

@Suite("Texture filters")
struct TextureFilterTests {
    @Test("Trilinear minification averages what a pixel covers, on every backend", arguments: availableBackends)
    func trilinearMinificationAverages(backend: RenderBackend) throws {
        // A checkerboard of single texels, 256 wide, shrunk 8 times and turned
        // a little: each pixel covers 64 texels, half of them white.
        var bytes = [UInt8](repeating: 0, count: 256 * 256 * 4)
        for y in 0..<256 { for x in 0..<256 where (x + y) % 2 == 0 {
            for c in 0..<4 { bytes[(y * 256 + x) * 4 + c] = 255 }
        } }
        for y in 0..<256 { for x in 0..<256 { bytes[(y * 256 + x) * 4 + 3] = 255 } }
        let board = try CGImage(width: 256, height: 256, premultipliedRGBA: bytes)
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 64, height: 64)
        root.position = CGPoint(x: 32, y: 32)
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 32, height: 32)
        layer.position = CGPoint(x: 32, y: 32)
        layer.contents = board
        layer.minificationFilter = .trilinear
        layer.transform = CATransform3DMakeRotation(0.1, 0, 0, 1)
        root.addSublayer(layer)
        let image = try LayerRenderer(backend: backend, fallBack: false).render(root, canvas: RenderCanvas(width: 64, height: 64, scale: 1))
        var worst = 0
        for y in 24..<40 { for x in 24..<40 { worst = max(worst, abs(rgba(image, x, y)[0] - 128)) } }
        // Bilinear reads four texels of 64 and swings from black to white.
        #expect(worst <= 16, "a pixel strays \(worst) levels from the mean grey")
    }
}

@Suite("Split draws")
struct SplitDrawTests {
    /// Every pixel whose whole square lies well inside the quad `corners`
    /// (pixel coordinates, convex, either winding): shrunk by `margin` pixels.
    private func interiorPixels(of corners: [CGPoint], margin: Double, width: Int, height: Int) -> [(Int, Int)] {
        var pixels: [(Int, Int)] = []
        let n = corners.count
        let area = (0..<n).reduce(0.0) { s, i in
            let a = corners[i], b = corners[(i + 1) % n]
            return s + Double(a.x * b.y - b.x * a.y)
        }
        let sign = area > 0 ? 1.0 : -1.0
        for y in 0..<height {
            for x in 0..<width {
                let px = Double(x) + 0.5, py = Double(y) + 0.5
                let inside = (0..<n).allSatisfy { i in
                    let a = corners[i], b = corners[(i + 1) % n]
                    let ex = Double(b.x - a.x), ey = Double(b.y - a.y)
                    let cross = (ex * (py - Double(a.y)) - ey * (px - Double(a.x))) * sign
                    return cross / (ex * ex + ey * ey).squareRoot() > margin
                }
                if inside { pixels.append((x, y)) }
            }
        }
        return pixels
    }

    /// The pixel corners of a layer's bounds under its matrix to the root.
    private func screenCorners(of layer: CALayer, in root: CALayer) -> [CGPoint] {
        [CGPoint(x: 0, y: 0), CGPoint(x: layer.bounds.width, y: 0),
         CGPoint(x: layer.bounds.width, y: layer.bounds.height), CGPoint(x: 0, y: layer.bounds.height)]
            .map { root.convert($0, from: layer) }
    }

    @Test("A layer cut by depth sorting shows no seam where its pieces meet", arguments: availableBackends)
    func depthSortedPiecesMeetExactly(backend: RenderBackend) throws {
        // A red card turned in perspective, and a thin bar standing through
        // it: the bar's plane (the first in the depth sorter's tree) cuts the
        // card into pieces, drawn apart.
        let scene = try SceneDecoder().decode("""
            {"width": 160, "height": 120, "backgroundColor": "#000000",
             "sublayerTransform": [{"perspective": 300}], "sublayers": [
              {"bounds": [0, 0, 4, 100], "position": [80, 60], "backgroundColor": "#00ff00",
               "transform": [{"rotateDegrees": [80, 0, 1, 0]}]},
              {"bounds": [0, 0, 120, 80], "position": [80, 60], "backgroundColor": "#ff0000",
               "transform": [{"rotateDegrees": [35, 1, 1, 0]}]}
            ]}
            """)
        let renderer = try LayerRenderer(backend: backend, fallBack: false)
        let plan = try renderer.prepare(scene)
        let redPieces = plan.passes.last!.commands.filter {
            if case .polygon(let d) = $0, case .color(let c) = d.fill { return c.red == 1 && c.green == 0 }
            return false
        }
        #expect(redPieces.count >= 2, "the bar's plane must cut the card for this test to mean anything")
        let image = try renderer.render(scene)
        let root = scene.rootLayer, bar = root.sublayers![0], card = root.sublayers![1]
        let barCorners = screenCorners(of: bar, in: root)
        let barBox = CGRect(x: barCorners.map(\.x).min()!, y: barCorners.map(\.y).min()!,
                            width: barCorners.map(\.x).max()! - barCorners.map(\.x).min()!,
                            height: barCorners.map(\.y).max()! - barCorners.map(\.y).min()!).insetBy(dx: -2, dy: -2)
        var seams: [String] = []
        for (x, y) in interiorPixels(of: screenCorners(of: card, in: root), margin: 1.5, width: image.width, height: image.height)
        where !barBox.contains(CGPoint(x: Double(x) + 0.5, y: Double(y) + 0.5)) {
            let p = rgba(image, x, y)
            if p != [255, 0, 0, 255] { seams.append("(\(x), \(y)): \(p)") }
        }
        #expect(seams.isEmpty, "the card's interior shows the background at \(seams.count) pixels: \(seams.prefix(5))")
    }

    @Test("Nine-part contents in perspective show no seam between the parts", arguments: availableBackends)
    func ninePartContentsMeetExactly(backend: RenderBackend) throws {
        let white = try CGImage(width: 30, height: 30, filledWith: CGImage.Pixel(red: 255, green: 255, blue: 255, alpha: 255))
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 160, height: 120)
        root.position = CGPoint(x: 80, y: 60)
        root.backgroundColor = CGColor.black
        var perspective = CATransform3DIdentity
        perspective.m34 = -1 / 300
        root.sublayerTransform = perspective
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 120, height: 80)
        layer.position = CGPoint(x: 80, y: 60)
        layer.contents = white
        layer.contentsCenter = CGRect(x: 0.3, y: 0.3, width: 0.4, height: 0.4)
        layer.transform = CATransform3DMakeRotation(.pi / 5, 1, 1, 0)
        root.addSublayer(layer)
        let image = try LayerRenderer(backend: backend, fallBack: false).render(root, canvas: RenderCanvas(width: 160, height: 120, scale: 1))
        var seams: [String] = []
        for (x, y) in interiorPixels(of: screenCorners(of: layer, in: root), margin: 1.5, width: 160, height: 120) {
            let p = rgba(image, x, y)
            if p != [255, 255, 255, 255] { seams.append("(\(x), \(y)): \(p)") }
        }
        #expect(seams.isEmpty, "the picture shows the background at \(seams.count) pixels: \(seams.prefix(5))")
    }
}
