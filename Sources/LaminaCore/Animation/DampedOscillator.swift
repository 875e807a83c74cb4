import Foundation

/// The motion of a mass on a damped spring, released at distance 1 from its
/// rest point: `m·x'' + c·x' + k·x = 0` with `x(0) = 1` and
/// `x'(0) = -v0`, solved in closed form.
///
/// `progress(at:)` is `1 - x(t)`, the fraction of the way to the rest point:
/// 0 at the start, 1 at rest, above 1 while overshooting. With the damping
/// ratio `ζ = c / (2·sqrt(k·m))` and natural frequency `ω0 = sqrt(k / m)`:
///
/// - under-damped (ζ < 1): `x = e^(-ζω0t)·(cos(ωd·t) + B·sin(ωd·t))`,
///   `ωd = ω0·sqrt(1 - ζ²)`, `B = (ζω0 - v0) / ωd`;
/// - critically damped (ζ = 1): `x = e^(-ω0t)·(1 + (ω0 - v0)·t)`;
/// - over-damped (ζ > 1): `x = C1·e^(r1·t) + C2·e^(r2·t)` with the two real
///   roots `r = -ω0·(ζ ∓ sqrt(ζ² - 1))`.
struct DampedOscillator: Hashable, Sendable {
    let mass: Double
    let stiffness: Double
    let damping: Double
    /// Towards the rest point, in distances per second.
    let initialVelocity: Double

    /// Nil unless mass and stiffness are positive and damping is not negative
    /// (all finite).
    init?(mass: Double, stiffness: Double, damping: Double, initialVelocity: Double) {
        guard mass > 0, stiffness > 0, damping >= 0,
              mass.isFinite, stiffness.isFinite, damping.isFinite, initialVelocity.isFinite
        else { return nil }
        self.mass = mass
        self.stiffness = stiffness
        self.damping = damping
        self.initialVelocity = initialVelocity
    }

    var naturalFrequency: Double { (stiffness / mass).squareRoot() }
    var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }

    /// Damping ratios this close to 1 use the critical solution: the other
    /// two divide by a frequency that vanishes there.
    private static let criticalBand = 1e-9

    private enum Regime {
        case under(decay: Double, frequency: Double, b: Double)
        case critical(decay: Double, b: Double)
        case over(r1: Double, r2: Double, c1: Double, c2: Double)
    }

    private var regime: Regime {
        let w0 = naturalFrequency, zeta = dampingRatio, v0 = initialVelocity
        if abs(zeta - 1) <= Self.criticalBand {
            return .critical(decay: w0, b: w0 - v0)
        }
        if zeta < 1 {
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            return .under(decay: zeta * w0, frequency: wd, b: (zeta * w0 - v0) / wd)
        }
        let root = (zeta * zeta - 1).squareRoot()
        let r1 = -w0 * (zeta - root), r2 = -w0 * (zeta + root)
        // C1 + C2 = 1 and r1·C1 + r2·C2 = -v0.
        let c2 = (-v0 - r1) / (r2 - r1)
        return .over(r1: r1, r2: r2, c1: 1 - c2, c2: c2)
    }

    /// The distance still to go at time `t` (seconds), 1 at `t = 0`.
    func displacement(at t: Double) -> Double {
        switch regime {
        case let .under(decay, frequency, b):
            return exp(-decay * t) * (cos(frequency * t) + b * sin(frequency * t))
        case let .critical(decay, b):
            return exp(-decay * t) * (1 + b * t)
        case let .over(r1, r2, c1, c2):
            return c1 * exp(r1 * t) + c2 * exp(r2 * t)
        }
    }

    /// The fraction of the way to the rest point at time `t`.
    func progress(at t: Double) -> Double { 1 - displacement(at: t) }

    /// A bound on |displacement| from `t` on that never increases once past
    /// its peak: the decay envelope.
    private func envelope(at t: Double) -> Double {
        switch regime {
        case let .under(decay, _, b): return exp(-decay * t) * (1 + b * b).squareRoot()
        case let .critical(decay, b): return exp(-decay * t) * (1 + abs(b) * t)
        case let .over(r1, r2, c1, c2): return abs(c1) * exp(r1 * t) + abs(c2) * exp(r2 * t)
        }
    }

    /// When the envelope falls to `epsilon` for good (infinite without damping).
    func settlingTime(epsilon: Double) -> Double {
        guard damping > 0 else { return .infinity }
        // The critical envelope rises until t = 1/ω0 - 1/|b|; the others
        // only fall. Search from the peak, doubling, then bisect.
        var lo = 0.0
        if case let .critical(decay, b) = regime, b != 0 {
            lo = max(0, 1 / decay - 1 / abs(b))
        }
        if envelope(at: lo) <= epsilon { return lo }
        var step = 1 / naturalFrequency, hi = lo + step
        while envelope(at: hi) > epsilon {
            lo = hi
            step *= 2
            hi += step
            if !hi.isFinite { return .infinity }
        }
        for _ in 0..<100 where hi - lo > 1e-9 {
            let mid = 0.5 * (lo + hi)
            if envelope(at: mid) > epsilon { lo = mid } else { hi = mid }
        }
        return hi
    }
}
