import LaminaRender

/// The render plan's half-plane `a·x + b·y + c ≥ 0`, as the painter clips a
/// polygon draw with it.
///
/// Its boundary is anti-aliased so that two draws clipped by opposite half
/// planes seam without a gap or a double edge: their coverages add to one.
extension HalfPlane {
    func validated(_ index: Int) throws -> HalfPlane {
        try requireFinite(a, "clip plane \(index) a")
        try requireFinite(b, "clip plane \(index) b")
        try requireFinite(c, "clip plane \(index) c")
        return self
    }

    /// The anti-aliased coverage of the pixel whose centre maps to (x, y).
    @inline(__always)
    func coverage(x: Double, y: Double, footprint: LocalFootprint) -> Double {
        // Outside is where the value is negative: distance = −value, gradient −(a, b).
        footprint.coverage(distance: -(a * x + b * y + c), gradientX: -a, gradientY: -b)
    }
}
