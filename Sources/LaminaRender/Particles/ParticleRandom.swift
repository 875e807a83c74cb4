/// The randomness of particles, as a pure function: the value a particle
/// draws for one attribute comes from the emitter's `seed`, the particle's
/// identity (its cell, its parents, its birth number) and the attribute, by
/// hashing them together (SplitMix64's finaliser), never from a generator's
/// running state. So a particle is the same whenever it is worked out, and
/// frames need not be drawn in order.
struct ParticleRandom {
    /// The particle's identity, mixed with the seed.
    let key: UInt64

    /// The stream of the emitter with `seed`.
    init(seed: UInt32) { key = Self.mix(UInt64(seed) &+ 0x9E37_79B9_7F4A_7C15) }

    private init(key: UInt64) { self.key = key }

    /// The stream of a child: cell `index` of this stream's cells, or particle `index` of this cell.
    func child(_ index: Int) -> ParticleRandom {
        ParticleRandom(key: Self.mix(key ^ Self.mix(UInt64(bitPattern: Int64(index)) &+ 0xD1B5_4A32_D192_ED03)))
    }

    /// A number uniformly in 0..<1 for `attribute`.
    func unit(_ attribute: Attribute) -> Double {
        let bits = Self.mix(key &+ UInt64(attribute.rawValue) &* 0x9E37_79B9_7F4A_7C15)
        return Double(bits >> 11) * 0x1p-53
    }

    /// A value uniformly in `mean - range/2 ... mean + range/2`, as Core
    /// Animation's header defines a mean and a range.
    func value(_ mean: Double, range: Double, _ attribute: Attribute) -> Double {
        range == 0 ? mean : mean + range * (unit(attribute) - 0.5)
    }

    /// What a particle draws a random number for: one stream each.
    enum Attribute: UInt64 {
        case lifetime = 1, positionX, positionY, positionZ, face
        case directionAngle, directionCosine, velocity, scale, spin
        case red, green, blue, alpha, frame, rotation, orientationAngle, orientationCosine
    }

    private static func mix(_ x: UInt64) -> UInt64 {
        var z = x
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
