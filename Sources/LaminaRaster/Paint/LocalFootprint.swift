/// How local coordinates change across one pixel at a given pixel: the
/// Jacobian of the pixel → local map. It converts a local signed distance into
/// a distance in pixels, which is what anti-aliasing needs, correctly under
/// scaling, rotation and perspective alike (the analytic counterpart of a
/// shader's `fwidth`).
package struct LocalFootprint {
    /// ∂x/∂px, ∂y/∂px, ∂x/∂py, ∂y/∂py.
    package var xPerPx, yPerPx, xPerPy, yPerPy: Double

    /// The coverage, 0...1, of a pixel by the region `distance ≤ 0`, where
    /// `distance` is a local signed distance whose local gradient is (gx, gy).
    @inline(__always)
    package func coverage(distance: Double, gradientX gx: Double, gradientY gy: Double) -> Double {
        let dPx = gx * xPerPx + gy * yPerPx, dPy = gx * xPerPy + gy * yPerPy
        let rate = (dPx * dPx + dPy * dPy).squareRoot()
        guard rate > 0, rate.isFinite else { return distance <= 0 ? 1 : 0 }
        // A straight edge at `distance / rate` pixels from the pixel centre
        // covers 0.5 − that of a unit pixel (exact for axis-aligned edges).
        return min(max(0.5 - distance / rate, 0), 1)
    }
}
