/// The local points with `a·x + b·y + c ≥ 0`, used to clip a polygon draw.
///
/// Its boundary is anti-aliased so that two draws clipped by opposite half
/// planes seam without a gap or a double edge: their coverages add to one.
public struct HalfPlane: Hashable, Sendable {
    public var a: Double
    public var b: Double
    public var c: Double

    public init(a: Double, b: Double, c: Double) {
        self.a = a; self.b = b; self.c = c
    }

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
