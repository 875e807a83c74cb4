import Foundation
import LaminaCore
import LaminaRaster

extension LayerSnapshotter {
    /// An emitter's particles at the snapshot's time, each a layer showing
    /// its cell's picture, centred where the particle is, turned, scaled and
    /// tinted by its colour, in the order its `renderMode` draws them (added
    /// onto what lies under them where it is `additive`). The
    /// particles the frame would work out are counted against the budget
    /// first, and those drawn count as layers.
    func particles(of emitter: CAEmitterLayer, at path: LayerPath) throws(RenderRefusal) -> [RenderLayer] {
        guard let cells = emitter.emitterCells, !cells.isEmpty, emitter.birthRate > 0 else { return [] }
        let simulation = EmitterSimulation(emitter)
        let bound = simulation.birthBound(at: options.time)
        guard bound <= Double(options.budget.particles) else {
            let asked = bound.isFinite ? "up to \(Quoted.number(bound.rounded(.up))) particles" : "an unbounded number of particles"
            throw RenderRefusal(at: path, "the emitter's cells would work out \(asked) for this frame, over the budget of \(options.budget.particles) particles")
        }
        let particles = simulation.particles(at: options.time, order: emitter.renderMode)
        try countLayers(particles.count, at: path)
        // Additive: each particle adds its light to what lies under it (one box for them all).
        var additive = RenderEffects()
        additive.blendMode = .plusLighter
        let effects = emitter.renderMode == .additive ? Indirect(additive) : nil
        return particles.map { particle in
            let sprite = simulation.sprites[particle.sprite]
            let size = sprite.size
            var layer = RenderLayer()
            layer.path = path
            layer.bounds = CGRect(origin: .zero, size: size)
            // Centre on the particle, scaled and turned about its centre.
            let s = particle.scale, c = cos(particle.angle), n = sin(particle.angle)
            let (a, b, cc, d) = (s * c, s * n, -s * n, s * c)
            let w = Double(size.width) / 2, h = Double(size.height) / 2
            if let n = particle.normal, abs(n.z) < 1 - 1e-12 {
                // A plane particle: scaled and turned in its plane, then turned
                // from facing the viewer to facing its normal, then placed; the
                // emitter flattens it, so it is seen foreshortened.
                let tilt = acos(min(1, max(-1, n.z)))
                let spinInPlane = CATransform3D(translationX: -w, y: -h, z: 0)
                    .concatenating(CATransform3D(scaleX: s, y: s, z: s))
                    .concatenating(CATransform3D(rotationAngle: particle.angle, x: 0, y: 0, z: 1))
                var m = spinInPlane
                    .concatenating(CATransform3D(rotationAngle: tilt, x: -n.y, y: n.x, z: 0))
                    .concatenating(CATransform3D(translationX: particle.position.x, y: particle.position.y, z: 0))
                // Flattened here, as the emitter flattens it (its z dropped):
                // particles stay in the emitter's plane, drawn in their order, not depth-sorted.
                m.m13 = 0; m.m23 = 0; m.m43 = 0
                layer.transformToSuperlayer = m
            } else {
                layer.transformToSuperlayer = CATransform3D(CGAffineTransform(
                    a: a, b: b, c: cc, d: d,
                    tx: particle.position.x - (a * w + cc * h), ty: particle.position.y - (b * w + d * h)))
            }
            var content = ImageContent(image: sprite.image, gravity: .resize)
            content.contentsRect = sprite.rect(ofFrame: particle.frame)
            content.contentsScale = sprite.contentsScale
            content.isFlipped = options.contentsFlipped
            content.minificationFilter = TextureFilter(layerFilterNamed: sprite.minificationFilter.rawValue) ?? .linear
            content.magnificationFilter = TextureFilter(layerFilterNamed: sprite.magnificationFilter.rawValue) ?? .linear
            layer.content = [.image(content)]
            if particle.color != .white { layer.tint = particle.color }
            layer.effects = effects
            return layer
        }
    }
}
