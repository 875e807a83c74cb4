import Foundation
import LaminaCore
import LaminaRaster

extension LayerSnapshotter {
    /// An emitter's particles at the snapshot's time, each a layer showing
    /// its cell's picture, centred where the particle is, turned, scaled and
    /// tinted by its colour, in the order its `renderMode` draws them. The
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
            layer.transformToSuperlayer = CATransform3D(CGAffineTransform(
                a: a, b: b, c: cc, d: d,
                tx: particle.position.x - (a * w + cc * h), ty: particle.position.y - (b * w + d * h)))
            var content = ImageContent(image: sprite.image, gravity: .resize)
            content.contentsRect = sprite.rect(ofFrame: particle.frame)
            content.contentsScale = sprite.contentsScale
            content.isFlipped = options.contentsFlipped
            content.minificationFilter = TextureFilter(rawValue: sprite.minificationFilter.rawValue) ?? .linear
            content.magnificationFilter = TextureFilter(rawValue: sprite.magnificationFilter.rawValue) ?? .linear
            layer.content = [.image(content)]
            if particle.color != .white { layer.tint = particle.color }
            return layer
        }
    }
}
