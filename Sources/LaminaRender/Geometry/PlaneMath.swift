import Foundation
import LaminaCore

/// The matrix that flattens a 3D scene into its layer's plane: it keeps x, y
/// and w and sets z to 0 (the third column is zero).
let flatteningMatrix: CATransform3D = {
    var f = CATransform3D.identity
    f.m33 = 0
    return f
}()

extension CATransform3D {
    /// The map of the plane z = 0 of the source to homogeneous 2D points
    /// `(X, Y, W)` of the destination, ignoring z: rows and columns 1, 2, 4.
    var planeHomography: Homography {
        Homography(m: [
            Double(m11), Double(m12), Double(m14),
            Double(m21), Double(m22), Double(m24),
            Double(m41), Double(m42), Double(m44),
        ])
    }

    /// The local points whose image has `w` at least `nearPlaneW`: what lies
    /// in front of the eye. Geometry is cut here, never mirrored.
    var nearPlane: HalfPlane { HalfPlane(a: Double(m14), b: Double(m24), c: Double(m44) - nearPlaneW) }
}

/// A 3x3 projective map of the plane in the row-vector convention:
/// `[X Y W] = [x y 1] * m`.
struct Homography {
    /// Row-major.
    var m: [Double]

    var determinant: Double {
        m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6])
    }

    /// Pulls a half-plane on the destination (in homogeneous coordinates:
    /// `a X + b Y + c W >= 0`) back to the source: `m * (a, b, c)ᵀ`. Exact
    /// wherever W > 0.
    func pullBack(_ h: HalfPlane) -> HalfPlane {
        HalfPlane(
            a: m[0] * h.a + m[1] * h.b + m[2] * h.c,
            b: m[3] * h.a + m[4] * h.b + m[5] * h.c,
            c: m[6] * h.a + m[7] * h.b + m[8] * h.c)
    }
}

enum PolygonClipper {
    /// The part of a convex polygon where `plane >= 0` (Sutherland–Hodgman
    /// against one half-plane).
    static func clip(_ polygon: [CGPoint], to plane: HalfPlane) -> [CGPoint] {
        guard polygon.count >= 3 else { return [] }
        var out: [CGPoint] = []
        out.reserveCapacity(polygon.count + 1)
        var previous = polygon[polygon.count - 1]
        var previousValue = plane.value(at: previous)
        for current in polygon {
            let value = plane.value(at: current)
            if value >= 0 {
                if previousValue < 0 { out.append(intersection(previous, previousValue, current, value)) }
                out.append(current)
            } else if previousValue >= 0 {
                out.append(intersection(previous, previousValue, current, value))
            }
            previous = current
            previousValue = value
        }
        return out.count >= 3 ? out : []
    }

    static func clip(_ polygon: [CGPoint], to planes: [HalfPlane]) -> [CGPoint] {
        var p = polygon
        for plane in planes where !p.isEmpty { p = clip(p, to: plane) }
        return p
    }

    private static func intersection(_ a: CGPoint, _ va: Double, _ b: CGPoint, _ vb: Double) -> CGPoint {
        let t = va / (va - vb)
        return CGPoint(x: Double(a.x) + (Double(b.x) - Double(a.x)) * t, y: Double(a.y) + (Double(b.y) - Double(a.y)) * t)
    }
}

extension CGRect {
    /// The corners in order minX-minY, maxX-minY, maxX-maxY, minX-maxY.
    var cornerPolygon: [CGPoint] {
        [CGPoint(x: minX, y: minY), CGPoint(x: maxX, y: minY), CGPoint(x: maxX, y: maxY), CGPoint(x: minX, y: maxY)]
    }

    /// The smallest rect containing the points, or nil for none.
    static func bounding(_ points: [CGPoint]) -> CGRect? {
        guard let first = points.first else { return nil }
        var x0 = first.x, x1 = first.x, y0 = first.y, y1 = first.y
        for p in points.dropFirst() {
            x0 = min(x0, p.x); x1 = max(x1, p.x); y0 = min(y0, p.y); y1 = max(y1, p.y)
        }
        return CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

/// The smallest `w` the plan lets through, relative to the layer's own `w`
/// scale: geometry closer to the eye than this is cut off, never mirrored.
let nearPlaneW = 1e-4

extension CATransform3D {
    /// The largest stretch of a local unit at `p` in the target (pixels per
    /// local unit), from the Jacobian of the projective map.
    func pixelScale(at p: CGPoint) -> Double {
        let h = apply(x: p.x, y: p.y)
        let w = Double(h.w)
        guard w > 0 else { return 0 }
        let x = Double(h.x) / w, y = Double(h.y) / w
        // d(X/W)/dx = (m11 - x*m14)/W, and likewise.
        let dxdx = (Double(m11) - x * Double(m14)) / w, dydx = (Double(m12) - y * Double(m14)) / w
        let dxdy = (Double(m21) - x * Double(m24)) / w, dydy = (Double(m22) - y * Double(m24)) / w
        return max((dxdx * dxdx + dydx * dydx).squareRoot(), (dxdy * dxdy + dydy * dydy).squareRoot())
    }

    /// The largest pixel scale over the part of a rect that lies in front of
    /// the eye, sampled at its corners and centre.
    func maxPixelScale(over rect: CGRect) -> Double {
        var points = rect.cornerPolygon
        points.append(CGPoint(x: rect.midX, y: rect.midY))
        let visible = PolygonClipper.clip(rect.cornerPolygon, to: nearPlane)
        points.append(contentsOf: visible)
        return points.map { pixelScale(at: $0) }.max() ?? 0
    }
}
