import Foundation

// The plane geometry of Core Animation's flattening: the near plane, the
// flattening matrix, and how far a projective map stretches a local unit.

/// The matrix that flattens a 3D scene into its layer's plane: it keeps x, y
/// and w and sets z to 0 (the third column is zero).
package let flatteningMatrix: CATransform3D = {
    var f = CATransform3D.identity
    f.m33 = 0
    return f
}()

extension CATransform3D {
    /// This matrix followed by `flatteningMatrix`, without the product: its
    /// third column set to zero (for finite entries the product's values,
    /// up to the sign of a zero). Asked of every sublayer a plan places.
    package var flattened: CATransform3D {
        var f = self
        f.m13 = 0; f.m23 = 0; f.m33 = 0; f.m43 = 0
        return f
    }

    /// The local points whose image has `w` at least `nearPlaneW`: what lies
    /// in front of the eye. Geometry is cut here, never mirrored.
    package var nearPlane: HalfPlane { HalfPlane(a: Double(m14), b: Double(m24), c: Double(m44) - nearPlaneW) }
}

extension CGRect {
    /// The corners in order minX-minY, maxX-minY, maxX-maxY, minX-maxY.
    package var cornerPolygon: [CGPoint] {
        [CGPoint(x: minX, y: minY), CGPoint(x: maxX, y: minY), CGPoint(x: maxX, y: maxY), CGPoint(x: minX, y: maxY)]
    }
}

/// The smallest `w` the plan lets through, relative to the layer's own `w`
/// scale: geometry closer to the eye than this is cut off, never mirrored.
package let nearPlaneW = 1e-4

extension CATransform3D {
    /// The largest stretch of a local unit at `p` in the target (pixels per
    /// local unit), from the Jacobian of the projective map.
    package func pixelScale(at p: CGPoint) -> Double {
        let h = apply(x: p.x, y: p.y)
        let w = Double(h.w)
        guard w > 0 else { return 0 }
        let x = Double(h.x) / w, y = Double(h.y) / w
        // d(X/W)/dx = (m11 - x*m14)/W, and likewise.
        let dxdx = (Double(m11) - x * Double(m14)) / w, dydx = (Double(m12) - y * Double(m14)) / w
        let dxdy = (Double(m21) - x * Double(m24)) / w, dydy = (Double(m22) - y * Double(m24)) / w
        return max((dxdx * dxdx + dydx * dydx).squareRoot(), (dxdy * dxdy + dydy * dydy).squareRoot())
    }

    /// The bounding box, in the target, of the part of `rect` in front of
    /// the eye; nil when none of it is, or when it maps beyond finite
    /// numbers (`CGRect.bounding`).
    package func projectedBounds(of rect: CGRect) -> CGRect? {
        let near = nearPlane
        if near.holds(rect) {
            // Wholly in front (the usual case): its four corners, with no
            // list made of them.
            return CGRect.bounding(apply(to: CGPoint(x: rect.minX, y: rect.minY)), apply(to: CGPoint(x: rect.maxX, y: rect.minY)),
                                   apply(to: CGPoint(x: rect.maxX, y: rect.maxY)), apply(to: CGPoint(x: rect.minX, y: rect.maxY)))
        }
        return CGRect.bounding(PolygonClipper.clip(rect.cornerPolygon, to: near).map { apply(to: $0) })
    }

    /// The largest pixel scale over the part of a rect that lies in front of
    /// the eye, sampled at its corners and centre.
    package func maxPixelScale(over rect: CGRect) -> Double {
        if m14 == 0, m24 == 0, m44 > 0, rect.minX.isFinite, rect.minY.isFinite, rect.maxX.isFinite, rect.maxY.isFinite {
            // An affine map stretches every point alike, and all of the rect
            // is in front: every sample below would give this one.
            return pixelScale(at: CGPoint(x: rect.midX, y: rect.midY))
        }
        // The first of the largest, as `Sequence.max()` would pick.
        var largest = pixelScale(at: CGPoint(x: rect.minX, y: rect.minY))
        func sample(_ p: CGPoint) {
            let scale = pixelScale(at: p)
            if largest < scale { largest = scale }
        }
        sample(CGPoint(x: rect.maxX, y: rect.minY))
        sample(CGPoint(x: rect.maxX, y: rect.maxY))
        sample(CGPoint(x: rect.minX, y: rect.maxY))
        sample(CGPoint(x: rect.midX, y: rect.midY))
        // Where the near plane cuts the rect, where it does also counts (a
        // rect wholly in front is its own visible part: no list to make).
        let near = nearPlane
        if !near.holds(rect) {
            for p in PolygonClipper.clip(rect.cornerPolygon, to: near) { sample(p) }
        }
        return largest
    }
}
