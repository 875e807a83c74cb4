import Foundation

/// A gradient: axial, radial or conic, between colour stops, interpolated
/// premultiplied (so a fade to transparent does not darken).
///
/// Geometry is in local units (a layer's points). A draw reads it at each
/// pixel's local point through a `GradientRamp`; `pixels` makes a picture
/// of it, each pixel the colour at its centre, `(i + 0.5) / pixelsPerPoint`
/// points across:
///
/// ```swift
/// let fill = GradientFill(shape: .axial, stops: [(0, (1, 0, 0, 1)), (1, (0, 0, 1, 1))],
///                         start: (0, 0), end: (100, 0))
/// let rgba = fill.pixels(width: 200, height: 1, pixelsPerPoint: 2)   // red to blue, 200 pixels
/// ```
package struct GradientFill: Equatable, Sendable {
    package enum Shape: Sendable { case axial, radial, conic }

    /// Axial: along the line from `start` to `end`; radial: over the ellipse
    /// centred on `start` whose radii reach `end`; conic: the angle around
    /// `start`, from the direction of `end`.
    package var shape: Shape
    /// Locations (in order) and premultiplied colours, channels 0...1.
    package var stops: [(location: Double, color: (Double, Double, Double, Double))]
    package var start: (x: Double, y: Double)
    package var end: (x: Double, y: Double)

    package init(shape: Shape, stops: [(location: Double, color: (Double, Double, Double, Double))],
                 start: (x: Double, y: Double), end: (x: Double, y: Double)) {
        self.shape = shape; self.stops = stops; self.start = start; self.end = end
    }

    /// The same shape, stops and points.
    package static func == (a: GradientFill, b: GradientFill) -> Bool {
        a.shape == b.shape && a.start == b.start && a.end == b.end
            && a.stops.elementsEqual(b.stops) { $0.location == $1.location && $0.color == $1.color }
    }

    /// Where local point (x, y) falls in the gradient: 0 at the start, 1 at
    /// the end (the ellipse, the full turn).
    @inline(__always)
    package func parameter(x: Double, y: Double) -> Double {
        let sx = start.x, sy = start.y
        let dx = end.x - sx, dy = end.y - sy
        switch shape {
        case .radial:
            let rx = abs(dx), ry = abs(dy)
            let u = rx > 0 ? (x - sx) / rx : 0, v = ry > 0 ? (y - sy) / ry : 0
            return (rx > 0 || ry > 0) ? (u * u + v * v).squareRoot() : 1
        case .conic:
            var a = atan2(y - sy, x - sx) - atan2(dy, dx)
            a = a.truncatingRemainder(dividingBy: 2 * .pi)
            if a < 0 { a += 2 * .pi }
            return a / (2 * .pi)
        case .axial:
            let lengthSquared = dx * dx + dy * dy
            return lengthSquared > 0 ? ((x - sx) * dx + (y - sy) * dy) / lengthSquared : 0
        }
    }

    /// Premultiplied RGBA8, `width` x `height`, top row first, at
    /// `pixelsPerPoint` pixels per local unit.
    package func pixels(width w: Int, height h: Int, pixelsPerPoint: Double) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: w * h * 4)
        bytes.withUnsafeMutableBufferPointer { pixels in
            for j in 0..<h {
                let y = (Double(j) + 0.5) / pixelsPerPoint
                for i in 0..<w {
                    let x = (Double(i) + 0.5) / pixelsPerPoint
                    let c = color(at: parameter(x: x, y: y))
                    let o = (j * w + i) * 4
                    pixels[o] = Self.byte(c.0); pixels[o + 1] = Self.byte(c.1)
                    pixels[o + 2] = Self.byte(c.2); pixels[o + 3] = Self.byte(c.3)
                }
            }
        }
        return bytes
    }

    /// The premultiplied colour at parameter `t`: the first stop's before
    /// it, the last's after it, mixed linearly between two stops.
    package func color(at t: Double) -> (Double, Double, Double, Double) {
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

/// A gradient's colours as a table of premultiplied pixel words over its
/// parameter, for reading at every pixel of a draw: `GradientRamp.entries`
/// evenly spaced colours from the lower to the upper end of the stops (0
/// and 1 at least), a pixel taking the nearest. Between two neighbouring
/// entries a channel changes by at most 255 / (entries − 1) of its stops'
/// difference, a quarter of a level for a full-range ramp.
///
/// The table depends on the stops alone (`Table`), so draws of gradients
/// with the same stops may share one (the CPU renderer keeps them from
/// frame to frame).
package struct GradientRamp: Sendable {
    /// How many colours the table holds.
    package static let entries = 1024
    package let fill: GradientFill
    /// The colours of `fill`'s stops.
    package let table: Table
    package var words: [UInt32] { table.words }
    package var lower: Double { table.lower }
    package var scale: Double { table.scale }

    /// The colours of a gradient's stops, whatever its geometry.
    package struct Table: Sendable {
        package let words: [UInt32]
        /// The parameter of the first entry, and entries per unit of parameter.
        package let lower: Double
        package let scale: Double

        /// The table of `fill`'s stops.
        package init(_ fill: GradientFill) {
            let lower = min(0, fill.stops.first?.location ?? 0), upper = max(1, fill.stops.last?.location ?? 1)
            let last = Double(GradientRamp.entries - 1)
            words = (0..<GradientRamp.entries).map { i in
                let c = fill.color(at: lower + (upper - lower) * Double(i) / last)
                return pixelWord(UInt32(GradientFill.byte(c.0)), UInt32(GradientFill.byte(c.1)),
                                 UInt32(GradientFill.byte(c.2)), UInt32(GradientFill.byte(c.3)))
            }
            self.lower = lower
            scale = last / (upper - lower)
        }
    }

    /// `fill` read through `table`, which must be the table of its stops.
    package init(_ fill: GradientFill, table: Table) {
        self.fill = fill
        self.table = table
    }

    /// `fill` read through a table made for it.
    package init(_ fill: GradientFill) { self.init(fill, table: Table(fill)) }

    /// The premultiplied pixel word at local point (x, y).
    @inline(__always)
    package func word(_ table: UnsafePointer<UInt32>, x: Double, y: Double) -> UInt32 {
        Self.word(table, at: (fill.parameter(x: x, y: y) - lower) * scale + 0.5)
    }

    /// The word of the entry at `position` (an entry index plus a half),
    /// clamped to the table. Compared in floating point first, so NaN and
    /// far values never reach Int().
    @inline(__always)
    package static func word(_ table: UnsafePointer<UInt32>, at position: Double) -> UInt32 {
        table[position > 0 ? (position < Double(entries - 1) ? Int(position) : entries - 1) : 0]
    }

    /// `word(_:at:)` of four positions, the same entries, worked out side
    /// by side without a branch or a checked conversion: each position
    /// clamped to the table (NaN and below 0 to the first entry), its
    /// floor found as a whole number plus 2^52, whose low bits are then
    /// the index. A gradient paints most pixels four at a time
    /// (`PolygonPainting`); built for x86-64-v3 this is a few vector
    /// instructions (gradient_1's frames took 36% less time than with four
    /// `word(_:at:)`s, each a branch and a range-checked conversion). For
    /// any x86-64 the floor is a call (no SSE4.1): that build looks the
    /// four up one by one.
    @inline(__always)
    package static func words(_ table: UnsafePointer<UInt32>, at positions: SIMD4<Double>) -> SIMD4<UInt32> {
        #if arch(x86_64) && !LAMINA_X86_64_V3
        return SIMD4(word(table, at: positions[0]), word(table, at: positions[1]),
                     word(table, at: positions[2]), word(table, at: positions[3]))
        #else
        let last = Double(entries - 1)
        var p = positions.replacing(with: 0, where: .!(positions .> 0))
        p = p.replacing(with: last, where: p .> last)
        // Whole numbers below 2^52 are exact after adding it: the sum's
        // mantissa is the number.
        let floors = p.rounded(.down) + 0x1p52
        let bits = unsafeBitCast(floors, to: SIMD4<UInt64>.self) & 0xFFFF
        return SIMD4(table[Int(truncatingIfNeeded: bits[0])], table[Int(truncatingIfNeeded: bits[1])],
                     table[Int(truncatingIfNeeded: bits[2])], table[Int(truncatingIfNeeded: bits[3])])
        #endif
    }
}
