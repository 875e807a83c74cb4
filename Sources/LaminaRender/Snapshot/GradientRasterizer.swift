import Foundation
import LaminaCore
import LaminaRaster
import Synchronization

/// Draws a `CAGradientLayer`'s gradient into an image of the layer's bounds,
/// at the pixel density it will be seen at.
///
/// Axial gradients vary along the line from `startPoint` to `endPoint`
/// (unit coordinates of the bounds, measured in points so that the lines of
/// equal colour are perpendicular on screen); radial ones over the ellipse
/// centred on `startPoint` whose radii reach `endPoint`; conic ones with the
/// angle around `startPoint`, starting towards `endPoint`. Colours are
/// interpolated premultiplied, so a fade to `clear` does not darken.
struct GradientRasterizer {
    /// The largest side of a generated image, in pixels.
    static let maximumSide = 4096

    let stops: [(location: Double, color: (Double, Double, Double, Double))]
    let type: CAGradientLayerType
    let start: CGPoint
    let end: CGPoint
    let size: CGSize
    let pixelsPerPoint: Double

    init(_ layer: CAGradientLayer, pixelsPerPoint: Double) {
        let colors = (layer.colors ?? []).compactMap { $0 as? CGColor }.map { RGBA($0).premultiplied }
        let given = (layer.locations ?? []).map { $0.doubleValue }
        var stops: [(Double, (Double, Double, Double, Double))] = []
        for (i, color) in colors.enumerated() {
            let location = given.count == colors.count ? given[i] : (colors.count > 1 ? Double(i) / Double(colors.count - 1) : 0)
            stops.append((location, color))
        }
        self.stops = stops.sorted { $0.0 < $1.0 }
        type = layer.type
        start = layer.startPoint
        end = layer.endPoint
        size = layer.bounds.size
        let longest = Double(max(size.width, size.height))
        self.pixelsPerPoint = longest * pixelsPerPoint > Double(Self.maximumSide) ? Double(Self.maximumSide) / longest : pixelsPerPoint
    }

    /// The gradient's picture, made once for each distinct gradient and size:
    /// a server drawing the same card again reuses it.
    func image() -> CGImage? {
        guard !stops.isEmpty, size.width > 0, size.height > 0, pixelsPerPoint > 0 else { return nil }
        let w = max(1, Int((Double(size.width) * pixelsPerPoint).rounded(.up)))
        let h = max(1, Int((Double(size.height) * pixelsPerPoint).rounded(.up)))
        let key = GradientKey(
            stops: stops.flatMap { [$0.location, $0.color.0, $0.color.1, $0.color.2, $0.color.3] },
            type: type.rawValue, start: start, end: end, size: size, width: w, height: h)
        if let cached = Self.cache.image(for: key) { return cached }
        guard let made = draw(width: w, height: h) else { return nil }
        Self.cache.insert(made, for: key)
        return made
    }

    private static let cache = GradientImageCache()

    private func draw(width w: Int, height h: Int) -> CGImage? {
        var bytes = [UInt8](repeating: 0, count: w * h * 4)
        let sx = Double(start.x * size.width), sy = Double(start.y * size.height)
        let ex = Double(end.x * size.width), ey = Double(end.y * size.height)
        let dx = ex - sx, dy = ey - sy
        let lengthSquared = dx * dx + dy * dy
        let rx = abs(dx), ry = abs(dy)
        let baseAngle = atan2(dy, dx)
        // Decided once: the type is a string underneath, and comparing it
        // for every pixel showed in profiles.
        enum Shape { case axial, radial, conic }
        let shape: Shape = type == .radial ? .radial : type == .conic ? .conic : .axial
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
        return try? CGImage(width: w, height: h, premultipliedRGBA: bytes)
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
    static func byte(_ v: Double) -> UInt8 {
        let x = max(0, min(255, v * 255))
        let whole = Int(x)
        return UInt8(x - Double(whole) >= 0.5 ? whole + 1 : whole)
    }
}

/// What a gradient picture depends on.
private struct GradientKey: Hashable {
    var stops: [Double]
    var type: String
    var start: CGPoint
    var end: CGPoint
    var size: CGSize
    var width: Int
    var height: Int
}

/// A small, thread-safe store of gradient pictures. Bounded: when full it
/// starts again, which keeps the common case (the same few gradients every
/// frame) fast and memory flat whatever a long-running server is sent.
private final class GradientImageCache: Sendable {
    static let capacity = 32
    private let entries = Mutex<[GradientKey: CGImage]>([:])

    func image(for key: GradientKey) -> CGImage? { entries.withLock { $0[key] } }

    func insert(_ image: CGImage, for key: GradientKey) {
        entries.withLock {
            if $0.count >= Self.capacity { $0.removeAll() }
            $0[key] = image
        }
    }
}
