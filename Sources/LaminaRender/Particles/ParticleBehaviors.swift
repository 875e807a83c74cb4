import Foundation
import LaminaCore
import LaminaRaster

/// An emitter's enabled behaviours, read once for a frame: the forces that
/// move particles beyond their cells' constant acceleration, and the values
/// that change over a particle's life (see `CAEmitterBehavior`).
struct ParticleBehaviors {
    struct Wave { var force: SIMD3<Double>; var frequency: Double }
    struct Attractor {
        enum Shape { case radial, axial, planar }
        var shape: Shape
        var position: SIMD3<Double>
        /// The axis (axial) or the plane's normal (planar).
        var direction: SIMD3<Double>
        var radius, stiffness, falloff, falloffDistance: Double
    }
    /// A value over a particle's life: `values` at `locations` (0...1).
    struct Curve<Value> {
        var values: [Value]
        var locations: [Double]
    }

    var waves: [Wave] = []
    /// The sum of the drags: velocity lost a second, relative.
    var drag = 0.0
    var attractors: [Attractor] = []
    /// The turn added to the direction of motion, when particles align to it.
    var alignment: Double?
    var scaleOverLife: [Curve<Double>] = []
    /// Per channel (red, green, blue, alpha): curves multiplying it.
    var channelOverLife: [(channel: Int, curve: Curve<Double>)] = []
    var colorOverLife: [Curve<RGBA>] = []

    /// Whether anything but the cells' constant acceleration moves particles.
    var hasForces: Bool { !waves.isEmpty || drag != 0 || !attractors.isEmpty }

    init(_ behaviors: [CAEmitterBehavior]) {
        for b in behaviors where b.isEnabled {
            switch b.type {
            case .wave:
                let f = b.numbers("force") ?? []
                waves.append(Wave(force: SIMD3(f.count > 0 ? f[0] : 0, f.count > 1 ? f[1] : 0, f.count > 2 ? f[2] : 0),
                                  frequency: b.number("frequency") ?? 0))
            case .drag:
                drag += max(0, b.number("drag") ?? 0)
            case .attractor:
                let p = b.numbers("position") ?? []
                let shape: Attractor.Shape = switch b.value(forKey: "attractorType") as? String {
                case "axial": .axial
                case "planar": .planar
                default: .radial
                }
                let lon = b.number("orientationLongitude") ?? 0, lat = b.number("orientationLatitude") ?? 0
                attractors.append(Attractor(
                    shape: shape,
                    position: SIMD3(p.count > 0 ? p[0] : 0, p.count > 1 ? p[1] : 0, b.number("zPosition") ?? 0),
                    direction: SIMD3(cos(lat) * cos(lon), cos(lat) * sin(lon), sin(lat)),
                    radius: max(0, b.number("radius") ?? 0), stiffness: b.number("stiffness") ?? 0,
                    falloff: b.number("falloff") ?? .infinity, falloffDistance: b.number("falloffDistance") ?? 0))
            case .alignToMotion:
                alignment = (alignment ?? 0) + (b.number("rotation") ?? 0)
            case .valueOverLife:
                guard let values = b.numbers("values"), !values.isEmpty else { continue }
                let curve = Curve(values: values, locations: Self.locations(b.numbers("locations"), count: values.count))
                switch b.value(forKey: "keyPath") as? String {
                case "scale": scaleOverLife.append(curve)
                case "color.red": channelOverLife.append((0, curve))
                case "color.green": channelOverLife.append((1, curve))
                case "color.blue": channelOverLife.append((2, curve))
                case "color.alpha": channelOverLife.append((3, curve))
                default: continue
                }
            case .colorOverLife:
                let colors = (b.value(forKey: "colors") as? [Any] ?? []).compactMap { ($0 as? CGColor).map(RGBA.init) }
                guard !colors.isEmpty else { continue }
                colorOverLife.append(Curve(values: colors, locations: Self.locations(b.numbers("locations"), count: colors.count)))
            default:
                continue
            }
        }
    }

    /// `given` when it has one location per value, else the values spread evenly over 0...1.
    private static func locations(_ given: [Double]?, count: Int) -> [Double] {
        if let given, given.count == count { return given }
        return count == 1 ? [0] : (0..<count).map { Double($0) / Double(count - 1) }
    }

    /// The acceleration the forces give a particle at `position` with
    /// `velocity`, `age` seconds old.
    func acceleration(position p: SIMD3<Double>, velocity v: SIMD3<Double>, age: Double) -> SIMD3<Double> {
        var a = SIMD3<Double>(repeating: 0)
        for wave in waves { a += wave.force * sin(2 * .pi * wave.frequency * age) }
        a -= v * drag
        for attractor in attractors {
            var offset = attractor.position - p
            switch attractor.shape {
            case .radial: break
            case .axial: offset -= attractor.direction * (offset * attractor.direction).sum()
            case .planar: offset = attractor.direction * (offset * attractor.direction).sum()
            }
            let distance = (offset * offset).sum().squareRoot()
            guard distance > attractor.radius, distance > 0 else { continue }
            var strength = attractor.stiffness
            if distance > attractor.falloffDistance, attractor.falloff.isFinite, attractor.falloff > 0 {
                strength *= exp(-(distance - attractor.falloffDistance) / attractor.falloff)
            }
            a += offset * strength
        }
        return a
    }

    /// The factor the life curves give scale, and the colour they multiply,
    /// at `fraction` (0...1) of a particle's life.
    func overLife(_ fraction: Double) -> (scale: Double, color: RGBA) {
        var scale = 1.0
        for curve in scaleOverLife { scale *= Self.sample(curve, fraction) }
        var c = [1.0, 1.0, 1.0, 1.0]
        for (channel, curve) in channelOverLife { c[channel] *= Self.sample(curve, fraction) }
        for curve in colorOverLife {
            let k = Self.sampleColor(curve, fraction)
            c[0] *= k.red; c[1] *= k.green; c[2] *= k.blue; c[3] *= k.alpha
        }
        return (scale, RGBA(red: c[0], green: c[1], blue: c[2], alpha: c[3]))
    }

    var changesOverLife: Bool { !scaleOverLife.isEmpty || !channelOverLife.isEmpty || !colorOverLife.isEmpty }

    /// Where `fraction` falls among `locations`: the segment and how far along it.
    private static func segment(_ locations: [Double], _ fraction: Double) -> (Int, Double) {
        guard let first = locations.first, fraction > first else { return (0, 0) }
        for i in 1..<locations.count where fraction <= locations[i] {
            let span = locations[i] - locations[i - 1]
            return (i - 1, span > 0 ? (fraction - locations[i - 1]) / span : 1)
        }
        return (locations.count - 1, 0)
    }

    private static func sample(_ curve: Curve<Double>, _ fraction: Double) -> Double {
        let (i, t) = segment(curve.locations, fraction)
        guard i + 1 < curve.values.count else { return curve.values[min(i, curve.values.count - 1)] }
        return curve.values[i] + (curve.values[i + 1] - curve.values[i]) * t
    }

    private static func sampleColor(_ curve: Curve<RGBA>, _ fraction: Double) -> RGBA {
        let (i, t) = segment(curve.locations, fraction)
        guard i + 1 < curve.values.count else { return curve.values[min(i, curve.values.count - 1)] }
        let a = curve.values[i], b = curve.values[i + 1]
        return RGBA(red: a.red + (b.red - a.red) * t, green: a.green + (b.green - a.green) * t,
                    blue: a.blue + (b.blue - a.blue) * t, alpha: a.alpha + (b.alpha - a.alpha) * t)
    }
}

/// A particle's path under forces that depend on where it is and how it
/// moves, integrated from its birth at a fixed step (semi-implicit Euler), so
/// the same particle always follows the same path whatever the frame.
final class ParticleTrajectory {
    /// The step, seconds.
    let step: Double
    private var positions: [SIMD3<Double>] = []
    private var velocities: [SIMD3<Double>] = []

    /// The path from `position` and `velocity` for `duration` seconds, under
    /// the cell's constant `acceleration` and `behaviors`' forces, in at most
    /// `maxSteps` steps of at most 1/60 s.
    init(position: SIMD3<Double>, velocity: SIMD3<Double>, acceleration: SIMD3<Double>, behaviors: ParticleBehaviors,
         duration: Double, maxSteps: Int) {
        let steps = max(1, min(maxSteps, Int((max(0, duration) * 60).rounded(.up))))
        step = max(duration, 0) / Double(steps)
        positions.reserveCapacity(steps + 1)
        velocities.reserveCapacity(steps + 1)
        var p = position, v = velocity
        positions.append(p); velocities.append(v)
        for k in 0..<steps {
            let a = acceleration + behaviors.acceleration(position: p, velocity: v, age: Double(k) * step)
            v += a * step
            p += v * step
            positions.append(p); velocities.append(v)
        }
    }

    /// Position and velocity `age` seconds after the start (linear between steps).
    func state(at age: Double) -> (position: SIMD3<Double>, velocity: SIMD3<Double>) {
        guard step > 0, age > 0 else { return (positions[0], velocities[0]) }
        let x = age / step
        let i = min(Int(x), positions.count - 1)
        guard i + 1 < positions.count else { return (positions[i], velocities[i]) }
        let t = x - Double(i)
        return (positions[i] + (positions[i + 1] - positions[i]) * t, velocities[i] + (velocities[i + 1] - velocities[i]) * t)
    }
}
