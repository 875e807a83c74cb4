import LaminaRaster
import Foundation
import Testing
@testable import LaminaRender

@Suite("Filters")
struct FilterTests {
    private func close(_ a: SIMD4<Double>, _ b: SIMD4<Double>, _ tolerance: Double = 1e-3) -> Bool {
        ((a - b) * (a - b)).max() < tolerance * tolerance
    }

    @Test func theColourFiltersAreSVGsMatrices() {
        let red = SIMD4<Double>(1, 0, 0, 1)
        #expect(close(ColorMatrix.saturate(1).apply(red), red))
        #expect(close(ColorMatrix.saturate(0).apply(red), SIMD4(0.213, 0.213, 0.213, 1)))
        // A half turn of hue takes red towards cyan; a whole turn leaves it.
        #expect(close(ColorMatrix.hueRotate(2 * .pi).apply(red), red))
        let turned = ColorMatrix.hueRotate(.pi).apply(red)
        #expect(turned[0] < 0.1 && turned[1] > 0.2 && turned[2] > 0.2)
        #expect(close(ColorMatrix.contrast(0).apply(red), SIMD4(0.5, 0.5, 0.5, 1)))
        #expect(close(ColorMatrix.contrast(2).apply(SIMD4(0.6, 0.5, 0.4, 1)), SIMD4(0.7, 0.5, 0.3, 1)))
        #expect(close(ColorMatrix.brightness(0.25).apply(SIMD4(0.5, 0.9, 0, 0.5)), SIMD4(0.75, 1, 0.25, 0.5)), "clamped")
        #expect(close(ColorMatrix.invert.apply(SIMD4(0.2, 0.5, 1, 0.4)), SIMD4(0.8, 0.5, 0, 0.4)))
        #expect(close(ColorMatrix.monochrome(red: 0, green: 0, blue: 1, amount: 1).apply(red), SIMD4(0, 0, 0.2126, 1)))
        #expect(close(ColorMatrix.monochrome(red: 0, green: 0, blue: 1, amount: 0).apply(red), red))
        #expect(close(ColorMatrix.luminanceToAlpha.apply(SIMD4(1, 1, 1, 1)), SIMD4(0, 0, 0, 1)))
    }

    @Test func matricesJoinInOrder() {
        let a = ColorMatrix.invert, b = ColorMatrix.saturate(0.3)
        let colour = SIMD4<Double>(0.9, 0.2, 0.4, 0.8)
        #expect(close(a.then(b).apply(colour), b.apply(a.apply(colour))))
        #expect(ColorMatrix.identity.then(b) == b || close(ColorMatrix.identity.then(b).apply(colour), b.apply(colour)))
    }

    @Test func colourFiltersJoinIntoOnePassAndBlursGetTheirOwn() throws {
        let layer = CALayer()
        layer.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
        layer.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        let blur = CAFilter(type: .gaussianBlur)
        blur.setValue(2, forKey: "inputRadius")
        let nothing = CAFilter(type: .colorSaturate)  // inputAmount 1: no change, no pass
        layer.filters = [CAFilter(type: .colorInvert), CAFilter(type: .colorContrast), nothing, blur, CAFilter(type: .luminanceToAlpha)]
        let snapshot = try RenderLayer(snapshotOf: layer)
        #expect(snapshot.filters.count == 3, "\(snapshot.filters)")
        guard case .colorMatrix = snapshot.filters[0], case .blur(let sigma) = snapshot.filters[1], case .colorMatrix = snapshot.filters[2]
        else { Issue.record("\(snapshot.filters)"); return }
        #expect(sigma == 2)
        // A filter Lamina does not apply is refused, naming the layer.
        layer.filters = [CAFilter(type: CAFilter.Kind("vibrantColorMatrix"))]
        #expect(throws: RenderRefusal.self) { try RenderLayer(snapshotOf: layer) }
    }

    @Test func aBlurOfAnyRadiusIsPlannedWithinItsSurface() throws {
        // A fuzzing find: a radius of 1e300 became an infinite deviation in pixels and trapped.
        var layer = RenderLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
        layer.backgroundColor = .black
        layer.filters = [.blur(sigma: 1e300)]
        var root = RenderLayer()
        root.bounds = CGRect(x: 0, y: 0, width: 64, height: 64)
        root.sublayers = [layer]
        let plan = try RenderPlanner().plan(root, canvas: RenderCanvas(width: 64, height: 64))
        let sigmas = plan.passes.flatMap(\.commands).compactMap { command -> Double? in
            if case .filter(_, .blur(let method)) = command { return method.sigma }
            return nil
        }
        #expect(sigmas.count == 1 && sigmas.allSatisfy { $0.isFinite && $0 > 0 }, "\(sigmas)")
    }
}
