// compositingFilter and additive emitters, on both backends: the blend of
// a layer (as a group) with what lies under it in its target.
import Foundation
import Testing
import Lamina

@Suite struct BlendModeRenderingTests {
    private func near(_ a: [Int], _ b: [Int], _ tolerance: Int = 1) -> Bool { zip(a, b).allSatisfy { abs($0 - $1) <= tolerance } }

    /// A 40 x 20 canvas: its left half (0.2, 0.6, 1), its right half
    /// nothing; over both, a 40 x 10 band of `layer`.
    private func render(_ band: CALayer, backend: RenderBackend) throws -> CGImage {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 40, height: 20)
        let backdrop = CALayer()
        backdrop.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
        backdrop.backgroundColor = CGColor(red: 0.2, green: 0.6, blue: 1, alpha: 1)
        root.addSublayer(backdrop)
        band.frame = CGRect(x: 0, y: 5, width: 40, height: 10)
        root.addSublayer(band)
        return try LayerRenderer(backend: backend, fallBack: false).render(root, canvas: RenderCanvas(width: 40, height: 20))
    }

    @Test(arguments: availableBackends)
    func multiplyDarkensWhatLiesUnderAndLeavesNothingAsItIs(backend: RenderBackend) throws {
        let band = CALayer()
        band.backgroundColor = CGColor(red: 1, green: 0.5, blue: 0, alpha: 1)
        band.compositingFilter = "multiplyBlendMode"
        let image = try render(band, backend: backend)
        #expect(near(rgba(image, 10, 10), [51, 77, 0, 255]), "\(rgba(image, 10, 10))")
        #expect(near(rgba(image, 30, 10), [255, 128, 0, 255]), "over nothing the band is itself: \(rgba(image, 30, 10))")
        #expect(rgba(image, 10, 2) == [51, 153, 255, 255], "outside the band the backdrop is untouched")
    }

    @Test(arguments: availableBackends)
    func aLayerBlendsAsOneGroupWithItsSublayers(backend: RenderBackend) throws {
        // Difference of the band (white, with a black sublayer on its left
        // quarter) with the backdrop: the sublayer is part of the group, so
        // where it covers the band, the group is black and differs by nothing.
        let band = CALayer()
        band.backgroundColor = CGColor.white
        let inner = CALayer()
        inner.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        inner.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        band.addSublayer(inner)
        band.compositingFilter = CAFilter(type: .differenceBlendMode)
        let image = try render(band, backend: backend)
        #expect(near(rgba(image, 5, 10), [51, 153, 255, 255]), "black group: the backdrop as it was: \(rgba(image, 5, 10))")
        #expect(near(rgba(image, 15, 10), [204, 102, 0, 255]), "white group: the backdrop inverted: \(rgba(image, 15, 10))")
    }

    @Test(arguments: availableBackends)
    func screenWithAShadowBlendsTheShadowToo(backend: RenderBackend) throws {
        // A black shadow screened onto the backdrop changes nothing.
        let band = CALayer()
        band.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        band.shadowOpacity = 1
        band.shadowRadius = 0
        band.shadowOffset = CGSize(width: 0, height: 4)
        band.compositingFilter = "screenBlendMode"
        let image = try render(band, backend: backend)
        #expect(near(rgba(image, 10, 10), [51, 153, 255, 255]), "\(rgba(image, 10, 10))")
        #expect(near(rgba(image, 10, 17), [51, 153, 255, 255]), "the shadow below the band: \(rgba(image, 10, 17))")
    }

    @Test(arguments: availableBackends)
    func anAdditiveEmittersParticlesAddTheirLight(backend: RenderBackend) throws {
        // Two particles of (0.4, 0.2, 0) on the same spot over dark grey:
        // added, not laid over each other.
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
        root.backgroundColor = CGColor(red: 0.1, green: 0.1, blue: 0.1, alpha: 1)
        let emitter = CAEmitterLayer()
        emitter.frame = root.bounds
        emitter.emitterPosition = CGPoint(x: 10, y: 10)
        emitter.renderMode = .additive
        let cell = CAEmitterCell()
        cell.contents = try CGImage(width: 8, height: 8, filledWith: CGImage.Pixel(red: 255, green: 255, blue: 255, alpha: 255))
        cell.birthRate = 1
        cell.lifetime = 10
        cell.color = CGColor(red: 0.4, green: 0.2, blue: 0, alpha: 1)
        emitter.emitterCells = [cell]
        root.addSublayer(emitter)
        let image = try LayerRenderer(backend: backend, fallBack: false)
            .render(root, canvas: RenderCanvas(width: 20, height: 20), time: 1.5)
        #expect(near(rgba(image, 10, 10), [230, 128, 26, 255], 2), "0.1 + 0.4 + 0.4, 0.1 + 0.2 + 0.2, 0.1: \(rgba(image, 10, 10))")
        emitter.renderMode = .unordered
        let laid = try LayerRenderer(backend: backend, fallBack: false)
            .render(root, canvas: RenderCanvas(width: 20, height: 20), time: 1.5)
        #expect(near(rgba(laid, 10, 10), [102, 51, 0, 255]), "\(rgba(laid, 10, 10))")
    }

    @Test(arguments: availableBackends)
    func nonSeparableModesAreDrawnSourceOverAsCoreAnimationDrawsThem(backend: RenderBackend) throws {
        // Core Animation applies no hue, saturation, colour or luminosity
        // filter (Apple's picture of lottie-ios's blend_mode_test): a
        // translucent band naming one lies over the backdrop as one without.
        func band(_ filter: Any?) -> CALayer {
            let band = CALayer()
            band.backgroundColor = CGColor(red: 1, green: 0.5, blue: 0, alpha: 0.6)
            band.compositingFilter = filter
            return band
        }
        let plain = try render(band(nil), backend: backend)
        for filter: Any in ["luminosityBlendMode", "hueBlendMode", "CISaturationBlendMode", CAFilter(type: .colorBlendMode)] {
            let image = try render(band(filter), backend: backend)
            #expect(rgba(image, 10, 10) == rgba(plain, 10, 10), "\(filter): \(rgba(image, 10, 10))")
            #expect(rgba(image, 30, 10) == rgba(plain, 30, 10), "\(filter): \(rgba(image, 30, 10))")
        }
        // Source-over, not the W3C's luminosity (which would keep the blue's hue).
        #expect(near(rgba(plain, 10, 10), [173, 138, 102, 255]), "\(rgba(plain, 10, 10))")
    }

    @Test func aCompositingFilterThatIsNoBlendModeIsRefusedAtItsLayer() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        let odd = CALayer()
        odd.compositingFilter = "destOut"
        root.addSublayer(odd)
        #expect {
            try LayerRenderer(backend: .cpu, fallBack: false).render(root, canvas: RenderCanvas(width: 10, height: 10))
        } throws: { "\($0)".contains("sublayers[0]") && "\($0)".contains("destOut") }
    }

    /// A layer over a red left half and a blue right half, its background
    /// filters applied to them within its bounds.
    private func backdrop(_ filters: [CAFilter], cornerRadius: CGFloat = 0, backend: RenderBackend) throws -> CGImage {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 40, height: 20)
        for (x, color) in [(0, CGColor(red: 1, green: 0, blue: 0, alpha: 1)), (20, CGColor(red: 0, green: 0, blue: 1, alpha: 1))] {
            let half = CALayer()
            half.frame = CGRect(x: x, y: 0, width: 20, height: 20)
            half.backgroundColor = color
            root.addSublayer(half)
        }
        let glass = CALayer()
        glass.frame = CGRect(x: 10, y: 5, width: 20, height: 10)
        glass.cornerRadius = cornerRadius
        glass.backgroundFilters = filters
        root.addSublayer(glass)
        return try LayerRenderer(backend: backend, fallBack: false).render(root, canvas: RenderCanvas(width: 40, height: 20))
    }

    @Test(arguments: availableBackends)
    func backgroundFiltersFilterWhatLiesBehindWithinTheBounds(backend: RenderBackend) throws {
        let inverted = try backdrop([CAFilter(type: .colorInvert)], backend: backend)
        #expect(rgba(inverted, 12, 10) == [0, 255, 255, 255] && rgba(inverted, 28, 10) == [255, 255, 0, 255])
        #expect(rgba(inverted, 5, 10) == [255, 0, 0, 255] && rgba(inverted, 12, 2) == [255, 0, 0, 255], "outside: untouched")
        let blur = CAFilter(type: .gaussianBlur)
        blur.setValue(3, forKey: "inputRadius")
        let blurred = try backdrop([blur], backend: backend)
        // Across the edge inside the bounds, the colours mix; outside they do not.
        let middle = rgba(blurred, 20, 10)
        #expect(middle[0] > 60 && middle[2] > 60, "\(middle)")
        #expect(rgba(blurred, 20, 2) == [0, 0, 255, 255])
        // Far from the edge, the blur (which sees beyond the bounds) keeps the colour.
        #expect(rgba(blurred, 11, 10)[0] > 240)
    }

    @Test(arguments: availableBackends)
    func aRoundedLayersBackdropIsRounded(backend: RenderBackend) throws {
        let image = try backdrop([CAFilter(type: .colorInvert)], cornerRadius: 5, backend: backend)
        #expect(rgba(image, 10, 5) == [255, 0, 0, 255], "the corner pixel lies outside the rounded bounds")
        #expect(rgba(image, 15, 10) == [0, 255, 255, 255])
    }

    @Test(arguments: availableBackends)
    func aFiltersParameterAnimatesByItsNameAndTheModelKeepsItsValue(backend: RenderBackend) throws {
        let json = """
            {"width": 40, "height": 20, "sublayers": [
              {"position": [10, 10], "bounds": [0, 0, 20, 20], "backgroundColor": [1, 0, 0, 1]},
              {"position": [30, 10], "bounds": [0, 0, 20, 20], "backgroundColor": [0, 0, 1, 1]},
              {"position": [20, 10], "bounds": [0, 0, 30, 20],
               "backgroundFilters": [{"type": "gaussianBlur", "name": "frost", "inputRadius": 0}],
               "animations": [{"type": "basic", "keyPath": "backgroundFilters.frost.inputRadius", "fromValue": 0, "toValue": 8, "duration": 2}]}]}
            """
        let scene = try SceneDecoder().decode(Array(json.utf8))
        let renderer = try LayerRenderer(backend: backend, fallBack: false)
        let sharp = try renderer.render(scene, time: 0), blurred = try renderer.render(scene, time: 1)
        #expect(rgba(sharp, 19, 10) == [255, 0, 0, 255], "radius 0 at the start")
        let mixed = rgba(blurred, 19, 10)
        #expect(mixed[0] < 200 && mixed[2] > 50, "radius 4 half way: \(mixed)")
        let glass = try #require(scene.rootLayer.sublayers?.last)
        #expect(glass.value(forKeyPath: "backgroundFilters.frost.inputRadius") as? Double == 0, "the model's filter is untouched")
        glass.setValue(2.5, forKeyPath: "backgroundFilters.frost.inputRadius")
        #expect((glass.backgroundFilters?.first as? CAFilter)?.number("inputRadius") == 2.5)
    }
}
