import LaminaRaster
import Foundation
import Synchronization
import Testing
@testable import LaminaRender

@Suite("Emitters")
struct EmitterTests {
    private func emitter(birthRate: Float = 10, lifetime: Float = 1, configure: (CAEmitterCell) -> Void = { _ in }) throws -> CAEmitterLayer {
        let cell = CAEmitterCell()
        cell.contents = try CGImage(width: 4, height: 2, filledWith: CGImage.Pixel(red: 255, green: 255, blue: 255, alpha: 255))
        cell.birthRate = birthRate
        cell.lifetime = lifetime
        configure(cell)
        let layer = CAEmitterLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        layer.emitterCells = [cell]
        return layer
    }

    private func particles(_ layer: CAEmitterLayer, at time: Double, budget: RenderBudget = .default) throws -> [RenderLayer] {
        try RenderLayer(snapshotOf: layer, options: SnapshotOptions(budget: budget, time: time)).sublayers
    }

    @Test func aCellKeepsBirthRateTimesLifetimeParticlesAlive() throws {
        let layer = try emitter(birthRate: 10, lifetime: 1)
        #expect(try particles(layer, at: 0).count == 1)       // the first, born at 0
        #expect(try particles(layer, at: 0.55).count == 6)    // born at 0, 0.1, ... 0.5
        #expect(try particles(layer, at: 5.05).count == 10)   // born at 4.1 ... 5.0
        layer.birthRate = 2                                   // the layer's multiplier
        #expect(try particles(layer, at: 5.01).count == 20)
        layer.lifetime = 0.5
        #expect(try particles(layer, at: 5.01).count == 10)
    }

    @Test func aParticleMovesSpinsGrowsAndChangesColourAsItsCellSays() throws {
        let layer = try emitter(birthRate: 1, lifetime: 10) { cell in
            cell.velocity = 40; cell.yAcceleration = 10; cell.emissionLongitude = .pi / 2
            cell.spin = 0.5; cell.scaleSpeed = 0.1; cell.alphaSpeed = -0.2
            cell.color = CGColor(red: 1, green: 0.5, blue: 0, alpha: 1)
        }
        layer.emitterPosition = CGPoint(x: 10, y: 20)
        let first = try #require(try particles(layer, at: 2.5).first)  // born at 0, 2.5 s old
        // Along +y at 40 pt/s, accelerating 10 pt/s²: 20 + 100 + 31.25.
        let centre = first.transformToSuperlayer.apply(to: CGPoint(x: 2, y: 1))
        #expect(abs(centre.x - 10) < 1e-9 && abs(centre.y - 151.25) < 1e-9)
        let corner = first.transformToSuperlayer.apply(to: CGPoint(x: 4, y: 1))  // the right edge's middle
        let angle = atan2(corner.y - centre.y, corner.x - centre.x), length = hypot(corner.y - centre.y, corner.x - centre.x)
        #expect(abs(angle - 1.25) < 1e-9 && abs(length - 2 * 1.25) < 1e-9)
        let tint = try #require(first.tint)
        #expect(tint.red == 1 && tint.green == 0.5 && abs(tint.alpha - 0.5) < 1e-6)
    }

    @Test func rangesSpreadValuesOverMeanPlusOrMinusHalfTheRange() throws {
        let layer = try emitter(birthRate: 1000, lifetime: 100) { cell in
            cell.velocity = 100; cell.velocityRange = 40
        }
        let simulation = EmitterSimulation(layer)
        let speeds = simulation.particles(at: 0.01, order: .unordered).map { p in
            (p.position - SIMD3(0, 0, 0)).x / (0.01 - p.birth)
        }.filter(\.isFinite)
        #expect(speeds.count > 5)
        #expect(speeds.allSatisfy { $0 >= 80 - 1e-6 && $0 <= 120 + 1e-6 })
        #expect(Set(speeds.map { Int($0) }).count > 3, "the range spreads the speeds")
    }

    @Test func aConeOfTwoPiSpreadsDirectionsEverywhere() {
        let random = ParticleRandom(seed: 7)
        var octants = Set<Int>()
        for k in 0..<400 {
            let d = EmitterSimulation.direction(longitude: 0, latitude: 0, cone: 2 * .pi, random.child(k))
            #expect(abs((d * d).sum() - 1) < 1e-9)
            octants.insert((d.x > 0 ? 1 : 0) + (d.y > 0 ? 2 : 0) + (d.z > 0 ? 4 : 0))
        }
        #expect(octants.count == 8)
        // A zero cone keeps the emission direction itself.
        let d = EmitterSimulation.direction(longitude: .pi / 2, latitude: 0, cone: 0, random)
        #expect(abs(d.x) < 1e-12 && abs(d.y - 1) < 1e-12)
    }

    @Test func aFrameDependsOnItsTimeAloneNotOnWhatWasDrawnBefore() throws {
        // Each thread builds its own tree, as parallel frames of one scene do.
        @Sendable func frame(_ t: Double, seed: UInt32 = 0) throws -> [CATransform3D] {
            let layer = try EmitterTests().emitter(birthRate: 30, lifetime: 2) { cell in
                cell.velocity = 50; cell.velocityRange = 30; cell.emissionRange = 2 * .pi; cell.spinRange = 3
            }
            layer.seed = seed
            return try EmitterTests().particles(layer, at: t).map(\.transformToSuperlayer)
        }
        let alone = try frame(1.7)
        #expect(alone.count == 52)  // born at 0, 1/30, ... 1.7
        _ = try frame(0.3); _ = try frame(5)
        #expect(try frame(1.7) == alone)
        let results = Mutex<[[CATransform3D]]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            if let f = try? frame(1.7) { results.withLock { $0.append(f) } }
        }
        #expect(results.withLock { $0 }.allSatisfy { $0 == alone } && results.withLock { $0.count } == 4)
        // Another seed, other particles.
        #expect(try frame(1.7, seed: 1) != alone)
    }

    @Test func aCellEmitsOnlyInItsActiveTimeAndANegativeBeginTimeShowsItsPast() throws {
        let layer = try emitter(birthRate: 1, lifetime: 100) { $0.beginTime = -15 }
        #expect(try particles(layer, at: 0).count == 16)  // born at -15, -14, ... 0
        let late = try emitter(birthRate: 1, lifetime: 100) { $0.beginTime = 2; $0.duration = 3 }
        #expect(try particles(late, at: 1).isEmpty)
        #expect(try particles(late, at: 10).count == 3)   // born at 2, 3, 4
    }

    @Test func subCellsEmitFromTheirParentWithItsScaleAndColour() throws {
        let layer = try emitter(birthRate: 1, lifetime: 10) { cell in
            cell.velocity = 10
            cell.scale = 2
            cell.color = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            let trail = CAEmitterCell()
            trail.contents = cell.contents
            trail.birthRate = 4
            trail.lifetime = 1
            cell.emitterCells = [trail]
        }
        let all = try particles(layer, at: 0.6)  // the parent, and its trail born at 0, 0.25, 0.5
        #expect(all.count == 4)
        let trail = all.filter { $0.tint?.red == 1 && $0.tint?.green == 0 }
        #expect(trail.count == 4, "sub-particles take their parent's colour")
        let scales = all.map { hypot($0.transformToSuperlayer.m11, $0.transformToSuperlayer.m12) }
        #expect(scales.allSatisfy { abs($0 - 2) < 1e-9 }, "and its scale: \(scales)")
    }

    @Test func renderModesOrderTheParticles() throws {
        let layer = try emitter(birthRate: 1, lifetime: 10) { $0.velocity = 10 }
        func xs() throws -> [Double] { try particles(layer, at: 3.5).map { Double($0.transformToSuperlayer.m41) } }
        let oldestFirst = try xs()
        #expect(oldestFirst == oldestFirst.sorted(by: >), "the oldest (farthest) drawn first")
        layer.renderMode = .oldestLast
        #expect(try xs() == oldestFirst.reversed())
    }

    @Test func aBillionParticlesAreRefusedAtTheEmitterBeforeAnyIsMade() throws {
        let layer = try emitter(birthRate: 1e9, lifetime: 1)
        let root = CALayer()
        root.addSublayer(CALayer())
        root.addSublayer(layer)
        do {
            _ = try RenderLayer(snapshotOf: root, options: SnapshotOptions(time: 10))
            Issue.record("expected a refusal")
        } catch {
            #expect(error.layer == LayerPath([.sublayer(1)]))
            #expect(error.message.contains("particles"), "\(error.message)")
        }
        // Nested cells multiply: 1,000 a second, each emitting 1,000 a second.
        let nested = try emitter(birthRate: 1000, lifetime: 10) { cell in
            let child = CAEmitterCell()
            child.birthRate = 1000; child.lifetime = 10
            cell.emitterCells = [child]
        }
        #expect(throws: RenderRefusal.self) { try particles(nested, at: 10) }
        // The layers drawn count too.
        var budget = RenderBudget.default
        budget.layers = 5
        #expect(throws: RenderRefusal.self) { try particles(try emitter(birthRate: 10, lifetime: 1), at: 5, budget: budget) }
    }

    // MARK: Behaviours and sprite sheets

    private func oneParticle(_ behaviors: [CAEmitterBehavior], configure: (CAEmitterCell) -> Void = { _ in }) throws -> CAEmitterLayer {
        let layer = try emitter(birthRate: 1, lifetime: 10) { cell in
            cell.velocity = 40
            configure(cell)
        }
        layer.emitterBehaviors = behaviors
        return layer
    }

    private func centre(_ particle: RenderLayer) -> CGPoint {
        particle.transformToSuperlayer.apply(to: CGPoint(x: 2, y: 1))
    }

    @Test func dragSlowsParticlesAsTheFormulaSays() throws {
        let drag = CAEmitterBehavior(type: .drag)
        drag.setValue(0.5, forKey: "drag")
        let p = try #require(try particles(try oneParticle([drag]), at: 2).first)
        // dv/dt = -k v: x = v0 (1 - e^(-k t)) / k = 80 (1 - e^-1) = 50.57 (integrated at 1/60 s).
        #expect(abs(centre(p).x - 80 * (1 - exp(-1))) < 0.5, "\(centre(p))")
    }

    @Test func anAttractorPullsAndAWaveShakes() throws {
        let attractor = CAEmitterBehavior(type: .attractor)
        attractor.setValue([0.0, 100.0], forKey: "position")
        attractor.setValue(2.0, forKey: "stiffness")
        let pulled = try #require(try particles(try oneParticle([attractor]), at: 1).first)
        #expect(centre(pulled).y > 40, "towards the attractor below: \(centre(pulled))")
        let wave = CAEmitterBehavior(type: .wave)
        wave.setValue([0.0, 50.0, 0.0], forKey: "force")
        wave.setValue(0.5, forKey: "frequency")
        let shaken = try #require(try particles(try oneParticle([wave]), at: 1).first)
        // a = 50 sin(π t): y = 50 (t/π - sin(π t)/π²) = 15.9 at t = 1.
        #expect(abs(centre(shaken).y - 50 * (1 / Double.pi)) < 0.5, "\(centre(shaken))")
    }

    @Test func particlesAlignToTheirMotion() throws {
        let align = CAEmitterBehavior(type: .alignToMotion)
        let p = try #require(try particles(try oneParticle([align]) { $0.yAcceleration = 40 }, at: 1).first)
        // Velocity (40, 40) at 1 s: facing 45°.
        let m = p.transformToSuperlayer
        #expect(abs(atan2(Double(m.m12), Double(m.m11)) - .pi / 4) < 1e-3)
    }

    @Test func valuesAndColoursChangeOverLife() throws {
        let fade = CAEmitterBehavior(type: .valueOverLife)
        fade.setValue("color.alpha", forKey: "keyPath")
        fade.setValue([1.0, 0.0], forKey: "values")
        let grow = CAEmitterBehavior(type: .valueOverLife)
        grow.setValue("scale", forKey: "keyPath")
        grow.setValue([1.0, 3.0], forKey: "values")
        let redden = CAEmitterBehavior(type: .colorOverLife)
        redden.setValue([CGColor(red: 1, green: 1, blue: 1, alpha: 1), CGColor(red: 1, green: 0, blue: 0, alpha: 1)], forKey: "colors")
        let p = try #require(try particles(try oneParticle([fade, grow, redden]), at: 5).first)  // half its life
        let tint = try #require(p.tint)
        #expect(abs(tint.alpha - 0.5) < 1e-9 && abs(tint.green - 0.5) < 1e-9 && tint.red == 1)
        #expect(abs(hypot(Double(p.transformToSuperlayer.m11), Double(p.transformToSuperlayer.m12)) - 2) < 1e-9)
    }

    @Test func spriteSheetsStepThroughTheirFrames() throws {
        let layer = try oneParticle([]) { cell in
            cell.contentsFrameCount = 4
            cell.contentsFramesPerSecond = 2
            cell.contentsFrameMode = "loop"
        }
        func rect(at t: Double) throws -> CGRect {
            guard case .image(let c)? = try #require(try particles(layer, at: t).first).content.first else { return .null }
            return c.contentsRect
        }
        #expect(try rect(at: 0.2) == CGRect(x: 0, y: 0, width: 0.25, height: 1))
        #expect(try rect(at: 1.2) == CGRect(x: 0.5, y: 0, width: 0.25, height: 1))   // frame 2
        #expect(try rect(at: 2.2) == CGRect(x: 0, y: 0, width: 0.25, height: 1))     // round again
        // A frame is a quarter of the picture: the particle is a quarter as wide.
        #expect(try particles(layer, at: 0.2).first?.bounds.width == 1)
    }

    @Test func planeParticlesAreSeenTurnedAndRotationTurnsThemAtBirth() throws {
        let plane = try oneParticle([]) { cell in
            cell.particleType = "plane"
            cell.orientationLatitude = .pi / 3   // the normal 60° from the viewer, towards x
        }
        let p = try #require(try particles(plane, at: 1).first)
        let m = p.transformToSuperlayer
        // Its width is foreshortened by cos 60°, its height is not; it stays in the emitter's plane.
        #expect(abs(Double(m.m11) - 0.5) < 1e-9 && abs(Double(m.m22) - 1) < 1e-9, "\(m)")
        #expect(m.m13 == 0 && m.m23 == 0 && m.m43 == 0)
        let turned = try oneParticle([]) { $0.rotation = .pi / 2 }
        let q = try #require(try particles(turned, at: 1).first).transformToSuperlayer
        #expect(abs(atan2(Double(q.m12), Double(q.m11)) - .pi / 2) < 1e-9)
    }
}
