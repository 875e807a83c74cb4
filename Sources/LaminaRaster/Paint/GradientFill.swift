import Foundation

/// The pixels of a gradient: axial, radial or conic, between colour stops,
/// interpolated premultiplied (so a fade to transparent does not darken).
///
/// Geometry is in points; each pixel's colour is the gradient's at the
/// pixel's centre, `(i + 0.5) / pixelsPerPoint` points across:
///
/// ```swift
/// let fill = GradientFill(shape: .axial, stops: [(0, (1, 0, 0, 1)), (1, (0, 0, 1, 1))],
///                         start: (0, 0), end: (100, 0), pixelsPerPoint: 2)
/// let rgba = fill.pixels(width: 200, height: 1)   // red to blue, 200 pixels
/// ```
package struct GradientFill {
    package enum Shape { case axial, radial, conic }

    /// Axial: along the line from `start` to `end`; radial: over the ellipse
    /// centred on `start` whose radii reach `end`; conic: the angle around
    /// `start`, from the direction of `end`.
    package var shape: Shape
    /// Locations (0...1, in order) and premultiplied colours.
    package var stops: [(location: Double, color: (Double, Double, Double, Double))]
    package var start: (x: Double, y: Double)
    package var end: (x: Double, y: Double)
    package var pixelsPerPoint: Double

    package init(shape: Shape, stops: [(location: Double, color: (Double, Double, Double, Double))],
                 start: (x: Double, y: Double), end: (x: Double, y: Double), pixelsPerPoint: Double) {
        self.shape = shape; self.stops = stops; self.start = start; self.end = end; self.pixelsPerPoint = pixelsPerPoint
    }

    /// Premultiplied RGBA8, `width` x `height`, top row first.
    package func pixels(width w: Int, height h: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: w * h * 4)
        let sx = start.x, sy = start.y
        let dx = end.x - sx, dy = end.y - sy
        let lengthSquared = dx * dx + dy * dy
        let rx = abs(dx), ry = abs(dy)
        let baseAngle = atan2(dy, dx)
        bytes.withUnsafeMutableBufferPointer { pixels in
            for j in 0..<h {
                let y = (Double(j) + 0.5) / pixelsPerPoint
                for i in 0..<w {
                    let x = (Double(i) + 0.5) / pixelsPerPoint
                    let t: Double
                    switch shape {
                    case .radial:
                        let u = rx > 0 ? (x - sx) / rx : 0, v = ry > 0 ? (y - sy) / ry : 0
                        t = (rx > 0 || ry > 0) ? (u * u + v * v).squareRoot() : 1
                    case .conic:
                        var a = atan2(y - sy, x - sx) - baseAngle
                        a = a.truncatingRemainder(dividingBy: 2 * .pi)
                        if a < 0 { a += 2 * .pi }
                        t = a / (2 * .pi)
                    case .axial:
                        t = lengthSquared > 0 ? ((x - sx) * dx + (y - sy) * dy) / lengthSquared : 0
                    }
                    let c = color(at: t)
                    let o = (j * w + i) * 4
                    pixels[o] = Self.byte(c.0); pixels[o + 1] = Self.byte(c.1)
                    pixels[o + 2] = Self.byte(c.2); pixels[o + 3] = Self.byte(c.3)
                }
            }
        }
        return bytes
    }

    private func color(at t: Double) -> (Double, Double, Double, Double) {
        guard let first = stops.first, let last = stops.last else { return (0, 0, 0, 0) }
        if t <= first.location { return first.color }
        if t >= last.location { return last.color }
        for k in 1..<stops.count where t <= stops[k].location {
            let a = stops[k - 1], b = stops[k]
            let span = b.location - a.location
            let f = span > 0 ? (t - a.location) / span : 1
            return (a.color.0 + (b.color.0 - a.color.0) * f, a.color.1 + (b.color.1 - a.color.1) * f,
                    a.color.2 + (b.color.2 - a.color.2) * f, a.color.3 + (b.color.3 - a.color.3) * f)
        }
        return last.color
    }

    /// `v` (0...1) as a byte, rounded to nearest with halves away from zero,
    /// exactly as `(v * 255).rounded()` clamped to 0...255, without libm's
    /// `round` (a call per channel per pixel was most of a gradient's cost):
    /// clamping first gives the same result since 0 and 255 are whole, and
    /// truncation is the floor of a non-negative number.
    @inline(__always)
    package static func byte(_ v: Double) -> UInt8 {
        let x = max(0, min(255, v * 255))
        let whole = Int(x)
        return UInt8(x - Double(whole) >= 0.5 ? whole + 1 : whole)
    }
}
