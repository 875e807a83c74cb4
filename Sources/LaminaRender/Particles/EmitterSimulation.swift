import Foundation
import LaminaCore
import LaminaRaster

/// The particles of one `CAEmitterLayer` at one time, worked out in closed
/// form from the emitter and that time alone.
///
/// Every cell emits its `k`th particle at a fixed time (`k / birthRate`
/// seconds after the cell begins), with attributes drawn from
/// `ParticleRandom` by the particle's identity; a particle then moves under
/// constant acceleration, spins, grows and changes colour at constant rates,
/// so where it is at any age is a formula, not the end of a walk. A frame
/// therefore depends on nothing but the scene and its time: frames drawn
/// alone, in order or in parallel are the same, and no frame costs more
/// than the particles it could show (`birthBound(at:)`, checked against the
/// budget before any particle is made).
struct EmitterSimulation {
    /// One particle as drawn.
    struct Particle {
        /// Where its centre is, in the emitter layer's coordinates.
        var position: SIMD3<Double>
        /// Its turn about z, in radians.
        var angle: Double
        /// Its size relative to its picture.
        var scale: Double
        /// The colour multiplying its picture, straight alpha, clamped to 0...1.
        var color: RGBA
        /// When it was born, in the emitter's time (the oldest first).
        var birth: Double
        /// Its picture: an index into `sprites`.
        var sprite: Int
        /// The frame of the picture's sprite sheet it shows.
        var frame = 0
        /// A plane particle's normal (nil: a sprite, facing the viewer).
        var normal: SIMD3<Double>?

        var isFinite: Bool {
            position.x.isFinite && position.y.isFinite && position.z.isFinite && angle.isFinite && scale.isFinite
        }
    }

    /// A cell's picture and how it is shown.
    struct Sprite {
        var image: CGImage
        var contentsRect: CGRect
        var contentsScale: Double
        var minificationFilter: CALayerContentsFilter
        var magnificationFilter: CALayerContentsFilter
        /// Frames side by side in `contentsRect`, how fast and how a particle steps through them.
        var frameCount = 1
        var framesPerSecond = 0.0
        var frameMode = "single"
        /// One frame's size at scale 1, in points.
        var size: CGSize {
            let s = contentsScale > 0 && contentsScale.isFinite ? contentsScale : 1
            return CGSize(width: Double(image.width) * Double(abs(contentsRect.width)) / Double(frameCount) / s,
                          height: Double(image.height) * Double(abs(contentsRect.height)) / s)
        }
        /// The part of the picture frame `k` shows.
        func rect(ofFrame k: Int) -> CGRect {
            guard frameCount > 1 else { return contentsRect }
            let w = contentsRect.width / CGFloat(frameCount)
            return CGRect(x: contentsRect.minX + w * CGFloat(k), y: contentsRect.minY, width: w, height: contentsRect.height)
        }
        /// The frame a particle shows at `age`, `start` (0..<1) drawn at its birth.
        func frame(at age: Double, start: Double) -> Int {
            guard frameCount > 1 else { return 0 }
            let stepped = framesPerSecond > 0 && age.isFinite ? Int(min(age * framesPerSecond, 1e15)) : 0
            switch frameMode {
            case "loop": return stepped % frameCount
            case "random": return (Int(start * Double(frameCount)) + stepped) % frameCount
            default: return min(stepped, frameCount - 1)
            }
        }
    }

    /// A cell's values as the simulation reads them: the layer's multipliers
    /// applied, its timing turned into a window of its parent's time.
    struct Cell {
        /// Births a second of the parent's time.
        var rate: Double
        /// The window of the parent's time in which it emits (a top-level
        /// cell's parent is the emitter; a sub-cell's, its particle's age).
        var start: Double, end: Double
        var lifetime: Double, lifetimeRange: Double
        var longitude: Double, latitude: Double, range: Double
        var velocity: Double, velocityRange: Double
        var acceleration: SIMD3<Double>
        var scale: Double, scaleRange: Double, scaleSpeed: Double
        var spin: Double, spinRange: Double
        var rotation: Double, rotationRange: Double
        /// Plane particles: their normals' direction and cone; nil for sprites.
        var orientation: (longitude: Double, latitude: Double, range: Double)?
        var color: RGBA, colorRange: RGBA, colorSpeed: RGBA
        /// Its picture in `sprites`, or nil: its particles draw nothing (they may still emit).
        var sprite: Int?
        var children: [Cell]

        /// The longest a particle of the cell lives.
        var longestLife: Double { max(0, lifetime + lifetimeRange / 2) }
        /// How long after its birth a particle of the cell, or one of its
        /// descendants, may still be alive.
        var reach: Double { longestLife + (children.map(\.reach).max() ?? 0) }
    }

    let cells: [Cell]
    let sprites: [Sprite]
    let shape: CAEmitterLayerEmitterShape
    let mode: CAEmitterLayerEmitterMode
    let center: SIMD3<Double>
    let size: SIMD3<Double>
    let random: ParticleRandom
    let behaviors: ParticleBehaviors
    /// Integration steps the particles of one frame may take in all, when
    /// forces move them: each gets its share of these.
    static let stepBudget = 4_000_000

    /// The simulation of `layer` as it is now (its presentation values).
    init(_ layer: CAEmitterLayer) {
        var sprites: [Sprite] = []
        let multipliers = (birth: Double(layer.birthRate), life: Double(layer.lifetime), velocity: Double(layer.velocity),
                           scale: Double(layer.scale), spin: Double(layer.spin))
        func freeze(_ cell: CAEmitterCell) -> Cell? {
            guard cell.isEnabled else { return nil }
            let speed = Double(cell.speed)
            let rate = Double(cell.birthRate) * multipliers.birth * speed
            let window = Self.activeWindow(of: cell)
            var sprite: Int?
            if let image = cell.contents as? CGImage {
                sprite = sprites.count
                sprites.append(Sprite(image: image, contentsRect: cell.contentsRect, contentsScale: Double(cell.contentsScale),
                                      minificationFilter: cell.minificationFilter, magnificationFilter: cell.magnificationFilter,
                                      frameCount: max(1, cell.contentsFrameCount), framesPerSecond: max(0, cell.contentsFramesPerSecond),
                                      frameMode: cell.contentsFrameMode))
            }
            let base = cell.color.map(RGBA.init) ?? RGBA(red: 0, green: 0, blue: 0, alpha: 0)
            return Cell(
                rate: rate.isFinite && rate > 0 ? rate : 0, start: window.start, end: window.end,
                lifetime: Double(cell.lifetime) * multipliers.life, lifetimeRange: Double(cell.lifetimeRange) * multipliers.life,
                longitude: Double(cell.emissionLongitude), latitude: Double(cell.emissionLatitude), range: Double(cell.emissionRange),
                velocity: Double(cell.velocity) * multipliers.velocity, velocityRange: Double(cell.velocityRange) * multipliers.velocity,
                acceleration: SIMD3(Double(cell.xAcceleration), Double(cell.yAcceleration), Double(cell.zAcceleration)),
                scale: Double(cell.scale) * multipliers.scale, scaleRange: Double(cell.scaleRange) * multipliers.scale,
                scaleSpeed: Double(cell.scaleSpeed) * multipliers.scale,
                spin: Double(cell.spin) * multipliers.spin, spinRange: Double(cell.spinRange) * multipliers.spin,
                rotation: Double(cell.rotation), rotationRange: Double(cell.rotationRange),
                orientation: cell.particleType == "plane"
                    ? (Double(cell.orientationLongitude), Double(cell.orientationLatitude), Double(cell.orientationRange)) : nil,
                color: base,
                colorRange: RGBA(red: Double(cell.redRange), green: Double(cell.greenRange), blue: Double(cell.blueRange), alpha: Double(cell.alphaRange)),
                colorSpeed: RGBA(red: Double(cell.redSpeed), green: Double(cell.greenSpeed), blue: Double(cell.blueSpeed), alpha: Double(cell.alphaSpeed)),
                sprite: sprite,
                children: (cell.emitterCells ?? []).compactMap(freeze))
        }
        cells = (layer.emitterCells ?? []).compactMap(freeze)
        self.sprites = sprites
        shape = layer.emitterShape
        mode = layer.emitterMode
        center = SIMD3(Double(layer.emitterPosition.x), Double(layer.emitterPosition.y), Double(layer.emitterZPosition))
        size = SIMD3(Double(layer.emitterSize.width), Double(layer.emitterSize.height), Double(layer.emitterDepth))
        random = ParticleRandom(seed: layer.seed)
        behaviors = ParticleBehaviors(layer.emitterBehaviors ?? [])
    }

    /// The window of its parent's time in which `cell` emits: from where its
    /// local time (`(t - beginTime) * speed + timeOffset`) is 0 to the end of
    /// its active duration (for ever when `duration` is 0). A cell whose time
    /// stands still or runs backwards emits nothing.
    static func activeWindow(of cell: CAEmitterCell) -> (start: Double, end: Double) {
        let speed = Double(cell.speed)
        guard speed > 0, speed.isFinite else { return (0, 0) }
        let start = cell.beginTime - cell.timeOffset / speed
        var active = Double.infinity
        if cell.repeatDuration > 0 {
            active = cell.repeatDuration
        } else if cell.duration > 0 {
            active = cell.duration * Double(max(1, cell.repeatCount)) * (cell.autoreverses ? 2 : 1)
        }
        return (start, start + active / speed)
    }

    // MARK: Counting

    /// An upper bound on the particles `particles(at:)` works out at `time`
    /// (the living and the dead whose descendants may live): what the
    /// budget is checked against before any is made. Infinite or NaN when
    /// the emitter asks for no finite number.
    func birthBound(at time: Double) -> Double {
        // `elapsed`: how long the emitter has run, which no window outlasts.
        func births(_ cell: Cell, window: Double, elapsed: Double) -> Double {
            guard cell.rate > 0, elapsed >= 0 else { return 0 }
            let own = cell.rate * max(0, window) + 1
            let life = cell.longestLife
            return own + own * cell.children.reduce(0) {
                $0 + births($1, window: min(life, $1.end - $1.start, elapsed), elapsed: elapsed)
            }
        }
        return cells.reduce(0) { total, cell in
            total + births(cell, window: min(cell.reach, time - cell.start, cell.end - cell.start), elapsed: time - cell.start)
        }
    }

    // MARK: Particles

    /// The particles alive at `time`, in drawing order for `renderMode`.
    /// The caller has checked `birthBound(at:)` against its budget.
    func particles(at time: Double, order: CAEmitterLayerRenderMode) -> [Particle] {
        var out: [Particle] = []
        // Under forces, each particle worked out gets an equal share of the steps.
        let steps = max(8, Int(Double(Self.stepBudget) / max(1, birthBound(at: time))))
        for (i, cell) in cells.enumerated() {
            emit(cell, random: random.child(i), origin: nil, window: (cell.start, cell.end), until: time, steps: steps, into: &out)
        }
        switch order {
        case .oldestLast: out.sort { $0.birth > $1.birth }
        case .backToFront: out.sort { ($0.position.z, $0.birth) < ($1.position.z, $1.birth) }
        default: out.sort { $0.birth < $1.birth }
        }
        return out
    }

    /// Where a sub-cell's particles come from: the parent particle's state.
    private struct Origin {
        var birth: Double
        var life: Double
        var state: ParticleState
        var random: ParticleRandom
    }

    /// A particle from its birth: position and velocity at birth, and its
    /// constant rates; under forces, its integrated path.
    private struct ParticleState {
        var position: SIMD3<Double>
        var velocity: SIMD3<Double>
        var acceleration: SIMD3<Double>
        var scale: Double, scaleSpeed: Double
        var spin: Double
        var color: RGBA, colorSpeed: RGBA
        var trajectory: ParticleTrajectory?

        func position(at age: Double) -> SIMD3<Double> {
            if let trajectory { return trajectory.state(at: age).position }
            return position + velocity * age + acceleration * (0.5 * age * age)
        }
        func velocity(at age: Double) -> SIMD3<Double> {
            if let trajectory { return trajectory.state(at: age).velocity }
            return velocity + acceleration * age
        }
        func scale(at age: Double) -> Double { max(0, scale + scaleSpeed * age) }
        func color(at age: Double) -> RGBA {
            func c(_ v: Double) -> Double { min(1, max(0, v)) }
            return RGBA(red: c(color.red + colorSpeed.red * age), green: c(color.green + colorSpeed.green * age),
                        blue: c(color.blue + colorSpeed.blue * age), alpha: c(color.alpha + colorSpeed.alpha * age))
        }
    }

    /// Appends the particles of `cell` alive at `time`, and those of its
    /// sub-cells. Births are at `window.start + k / rate` (in the emitter's
    /// time for a top-level cell, the parent's age for a sub-cell) while the
    /// window is open; only births recent enough to matter are visited.
    private func emit(_ cell: Cell, random: ParticleRandom, origin: Origin?, window: (start: Double, end: Double),
                      until time: Double, steps: Int, into out: inout [Particle]) {
        guard cell.rate > 0 else { return }
        let zero = origin?.birth ?? 0
        // The parent's clock: the emitter's time, or the parent particle's age (it emits while alive).
        let now = time - zero
        let end = min(window.end, origin?.life ?? .infinity)
        let first = max(0, ((now - cell.reach - window.start) * cell.rate).rounded(.up))
        let last = ((min(now, end) - window.start) * cell.rate).rounded(.down)
        guard first <= last, last.isFinite, last < 0x1p53 else { return }
        var k = first
        while k <= last {
            defer { k += 1 }
            let bornAt = window.start + k / cell.rate
            guard bornAt < end, bornAt <= now else { continue }
            let r = random.child(Int(k))
            let life = max(0, r.value(cell.lifetime, range: cell.lifetimeRange, .lifetime))
            var state = birthState(cell, random: r, origin: origin, parentAge: bornAt)
            let birth = zero + bornAt
            let age = time - birth
            if behaviors.hasForces {
                state.trajectory = ParticleTrajectory(position: state.position, velocity: state.velocity, acceleration: state.acceleration,
                                                      behaviors: behaviors, duration: min(life, age), maxSteps: steps)
            }
            if age < life, let sprite = cell.sprite {
                var angle = r.value(cell.rotation, range: cell.rotationRange, .rotation) + state.spin * age
                if let alignment = behaviors.alignment {
                    let v = state.velocity(at: age)
                    angle = (v.x != 0 || v.y != 0 ? atan2(v.y, v.x) : 0) + alignment
                }
                var scale = state.scale(at: age), color = state.color(at: age)
                if behaviors.changesOverLife {
                    let change = behaviors.overLife(life > 0 ? age / life : 0)
                    scale *= change.scale
                    color = color.multiplied(by: change.color)
                }
                let particle = Particle(position: state.position(at: age), angle: angle, scale: scale,
                                        color: color, birth: birth, sprite: sprite,
                                        frame: sprites[sprite].frame(at: age, start: r.unit(.frame)),
                                        normal: cell.orientation.map { Self.normal($0, r) })
                // One thrown to infinity (absurd speeds) is nowhere to be drawn.
                if particle.isFinite { out.append(particle) }
            }
            for (j, child) in cell.children.enumerated() {
                emit(child, random: r.child(-1 - j), origin: Origin(birth: birth, life: life, state: state, random: r),
                     window: (child.start, child.end), until: time, steps: steps, into: &out)
            }
        }
    }

    /// A particle's state at its birth: where the shape (or its parent)
    /// puts it, its direction from the cell's angles and cone, its speed,
    /// scale, spin and colour drawn about their means.
    private func birthState(_ cell: Cell, random r: ParticleRandom, origin: Origin?, parentAge: Double) -> ParticleState {
        var longitude = cell.longitude
        var scale = r.value(cell.scale, range: cell.scaleRange, .scale)
        var color = RGBA(red: r.value(cell.color.red, range: cell.colorRange.red, .red),
                         green: r.value(cell.color.green, range: cell.colorRange.green, .green),
                         blue: r.value(cell.color.blue, range: cell.colorRange.blue, .blue),
                         alpha: r.value(cell.color.alpha, range: cell.colorRange.alpha, .alpha))
        let position: SIMD3<Double>
        if let origin {
            // From where the parent is, relative to where it is heading,
            // with its scale and colour (Core Animation's header and guide).
            position = origin.state.position(at: parentAge)
            let heading = origin.state.velocity(at: parentAge)
            if heading.x != 0 || heading.y != 0 { longitude += atan2(heading.y, heading.x) }
            scale *= origin.state.scale(at: parentAge)
            let parentColor = origin.state.color(at: parentAge)
            color = RGBA(red: color.red * parentColor.red, green: color.green * parentColor.green,
                         blue: color.blue * parentColor.blue, alpha: color.alpha * parentColor.alpha)
        } else {
            position = center + emissionOffset(r)
        }
        let direction = Self.direction(longitude: longitude, latitude: cell.latitude, cone: cell.range, r)
        let speed = r.value(cell.velocity, range: cell.velocityRange, .velocity)
        return ParticleState(
            position: position, velocity: direction * speed, acceleration: cell.acceleration,
            scale: scale, scaleSpeed: cell.scaleSpeed,
            spin: r.value(cell.spin, range: cell.spinRange, .spin),
            color: color, colorSpeed: cell.colorSpeed)
    }

    /// A direction drawn uniformly from the cone of angle `cone` (its
    /// half-angle `cone / 2`; 2π or more: every direction) about the
    /// direction at `longitude` in the xy-plane from x, turned `latitude`
    /// out of the plane towards z.
    static func direction(longitude: Double, latitude: Double, cone: Double, _ r: ParticleRandom) -> SIMD3<Double> {
        let axis = SIMD3(cos(latitude) * cos(longitude), cos(latitude) * sin(longitude), sin(latitude))
        return inCone(about: axis, angle: cone, r, cosine: .directionCosine, turn: .directionAngle)
    }

    /// A plane particle's normal: drawn uniformly from the cone of angle
    /// `range` about the direction at `longitude` from x in the xy-plane and
    /// `latitude` from the z-axis (0: facing the viewer).
    static func normal(_ o: (longitude: Double, latitude: Double, range: Double), _ r: ParticleRandom) -> SIMD3<Double> {
        let axis = SIMD3(sin(o.latitude) * cos(o.longitude), sin(o.latitude) * sin(o.longitude), cos(o.latitude))
        return inCone(about: axis, angle: o.range, r, cosine: .orientationCosine, turn: .orientationAngle)
    }

    /// A unit vector drawn uniformly from the cone of angle `angle` (its
    /// half-angle `angle / 2`, at most π: every direction) about the unit
    /// vector `axis`, from the streams `cosine` and `turn` of `r`.
    private static func inCone(about axis: SIMD3<Double>, angle: Double, _ r: ParticleRandom,
                               cosine: ParticleRandom.Attribute, turn: ParticleRandom.Attribute) -> SIMD3<Double> {
        let half = min(abs(angle) / 2, .pi)
        guard half > 0 else { return axis }
        // Uniform on the spherical cap: cos θ uniform in cos(half)...1.
        let cosTheta = 1 - r.unit(cosine) * (1 - cos(half))
        let sinTheta = (max(0, 1 - cosTheta * cosTheta)).squareRoot()
        let phi = 2 * Double.pi * r.unit(turn)
        // Two unit vectors perpendicular to the axis and to each other.
        let helper: SIMD3<Double> = abs(axis.z) < 0.9 ? SIMD3(0, 0, 1) : SIMD3(1, 0, 0)
        let e1 = normalize(cross(axis, helper))
        let e2 = cross(axis, e1)
        return axis * cosTheta + (e1 * cos(phi) + e2 * sin(phi)) * sinTheta
    }

    /// Where on the emission shape a particle starts, from the shape's centre.
    private func emissionOffset(_ r: ParticleRandom) -> SIMD3<Double> {
        let u = SIMD3(r.unit(.positionX), r.unit(.positionY), r.unit(.positionZ))
        let face = r.unit(.face)
        let half = size / 2
        switch shape {
        case .line:
            if mode == .points { return SIMD3(face < 0.5 ? -half.x : half.x, 0, 0) }
            return SIMD3((u.x - 0.5) * size.x, 0, 0)
        case .rectangle:
            switch mode {
            case .points:
                return SIMD3(face < 0.5 ? -half.x : half.x, u.y < 0.5 ? -half.y : half.y, 0)
            case .outline:
                return Self.onPerimeter(width: size.x, height: size.y, face)
            default:
                return SIMD3((u.x - 0.5) * size.x, (u.y - 0.5) * size.y, 0)
            }
        case .cuboid:
            switch mode {
            case .points:
                return SIMD3(u.x < 0.5 ? -half.x : half.x, u.y < 0.5 ? -half.y : half.y, u.z < 0.5 ? -half.z : half.z)
            case .outline, .surface:
                // A face, chosen by its area; then a point on it (outline: on its perimeter).
                let areas = [size.y * size.z, size.y * size.z, size.x * size.z, size.x * size.z, size.x * size.y, size.x * size.y]
                let total = areas.reduce(0, +)
                var pick = face * total, index = 5
                for (i, a) in areas.enumerated() {
                    if pick < a { index = i; break }
                    pick -= a
                }
                var p = (u - 0.5) * size
                let axis = index / 2
                p[axis] = index % 2 == 0 ? -half[axis] : half[axis]
                if mode == .outline {
                    let (a, b) = axis == 0 ? (1, 2) : axis == 1 ? (0, 2) : (0, 1)
                    let edge = Self.onPerimeter(width: size[a], height: size[b], u.x)
                    p[a] = edge.x; p[b] = edge.y
                }
                return p
            default:
                return (u - 0.5) * size
            }
        case .circle:
            let radius = size.x, angle = 2 * Double.pi * u.x
            switch mode {
            case .points: return .zero
            case .outline: return SIMD3(cos(angle), sin(angle), 0) * radius
            default: return SIMD3(cos(angle), sin(angle), 0) * (radius * u.y.squareRoot())
            }
        case .sphere:
            let radius = size.x
            let z = 2 * u.y - 1, angle = 2 * Double.pi * u.x
            let onSurface = SIMD3((1 - z * z).squareRoot() * cos(angle), (1 - z * z).squareRoot() * sin(angle), z)
            switch mode {
            case .points: return .zero
            case .outline, .surface: return onSurface * radius
            default: return onSurface * (radius * cbrt(u.z))
            }
        default:
            return .zero
        }
    }

    /// A point on the perimeter of a `width` x `height` rectangle about the
    /// origin, `t` (0..<1) of the way round.
    private static func onPerimeter(width: Double, height: Double, _ t: Double) -> SIMD3<Double> {
        let w = abs(width), h = abs(height), total = 2 * (w + h)
        guard total > 0 else { return .zero }
        var d = t * total
        if d < w { return SIMD3(d - w / 2, -h / 2, 0) }
        d -= w
        if d < h { return SIMD3(w / 2, d - h / 2, 0) }
        d -= h
        if d < w { return SIMD3(w / 2 - d, h / 2, 0) }
        d -= w
        return SIMD3(-w / 2, h / 2 - d, 0)
    }
}

private func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}

private func normalize(_ v: SIMD3<Double>) -> SIMD3<Double> {
    let length = (v * v).sum().squareRoot()
    return length > 0 ? v / length : v
}
