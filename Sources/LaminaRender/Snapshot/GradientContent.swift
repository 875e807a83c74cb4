import Foundation
import LaminaCore
import LaminaRaster
import Synchronization

// A `CAGradientLayer`'s gradient is content in the layer's own points (a
// `GradientFill`), not a picture: the CPU backend reads it at each pixel's
// local point, wherever the layer is drawn and at whatever scale, and the GL
// backend draws a picture of it made at the density it is seen at
// (`GradientFill.image`).
//
// Axial gradients vary along the line from `startPoint` to `endPoint` (unit
// coordinates of the bounds, measured in points so that the lines of equal
// colour are perpendicular on screen); radial ones over the ellipse centred on
// `startPoint` whose radii reach `endPoint`; conic ones with the angle around
// `startPoint`, starting towards `endPoint`. Colours are interpolated
// premultiplied, so a fade to `clear` does not darken.
extension GradientFill {
    /// `layer`'s gradient over its bounds, in its points; nil when it has no
    /// colours or no area.
    init?(_ layer: CAGradientLayer, bounds: CGRect) {
        let colors = (layer.colors ?? []).compactMap { $0 as? CGColor }.map { RGBA($0).premultiplied }
        guard !colors.isEmpty, bounds.width > 0, bounds.height > 0 else { return nil }
        let given = (layer.locations ?? []).map { $0.doubleValue }
        var stops: [(location: Double, color: (Double, Double, Double, Double))] = []
        for (i, color) in colors.enumerated() {
            let location = given.count == colors.count ? given[i] : (colors.count > 1 ? Double(i) / Double(colors.count - 1) : 0)
            guard location.isFinite else { return nil }
            stops.append((location, color))
        }
        func local(_ p: CGPoint) -> (x: Double, y: Double) {
            (Double(bounds.minX + p.x * bounds.width), Double(bounds.minY + p.y * bounds.height))
        }
        let shape: Shape = layer.type == .radial ? .radial : layer.type == .conic ? .conic : .axial
        self.init(shape: shape, stops: stops.sorted { $0.location < $1.location },
                  start: local(layer.startPoint), end: local(layer.endPoint))
    }

    /// The largest side of a picture of a gradient, in pixels.
    static let maximumImageSide = 4096

    /// A picture of the gradient over `rect` (local units) at about
    /// `pixelsPerUnit` pixels per unit (fewer where a side would pass
    /// `maximumImageSide`), to be stretched over `rect`: made once for each
    /// distinct gradient and size, so that the frames of an animation and a
    /// server drawing the same card again reuse it.
    package func image(over rect: CGRect, pixelsPerUnit: Double) -> CGImage? {
        let longest = Double(max(rect.width, rect.height))
        guard !stops.isEmpty, rect.width > 0, rect.height > 0, longest.isFinite, pixelsPerUnit > 0, pixelsPerUnit.isFinite
        else { return nil }
        let density = min(pixelsPerUnit, Double(Self.maximumImageSide) / longest)
        let w = max(1, Int((Double(rect.width) * density).rounded(.up)))
        let h = max(1, Int((Double(rect.height) * density).rounded(.up)))
        let key = GradientImageKey(self, rect: rect, width: w, height: h)
        if let cached = GradientImageCache.shared.image(for: key) { return cached }
        // Pixel (i, j)'s centre at its place in `rect`, whose size the w x h
        // pixels span exactly.
        var moved = self
        moved.start = (Double(start.x - rect.minX) * Double(w) / Double(rect.width), Double(start.y - rect.minY) * Double(h) / Double(rect.height))
        moved.end = (Double(end.x - rect.minX) * Double(w) / Double(rect.width), Double(end.y - rect.minY) * Double(h) / Double(rect.height))
        guard let made = try? CGImage(width: w, height: h, premultipliedRGBA: moved.pixels(width: w, height: h, pixelsPerPoint: 1))
        else { return nil }
        GradientImageCache.shared.insert(made, for: key)
        return made
    }
}

/// What a picture of a gradient depends on.
private struct GradientImageKey: Hashable {
    var numbers: [Double]
    var shape: Int
    var width: Int
    var height: Int

    init(_ fill: GradientFill, rect: CGRect, width: Int, height: Int) {
        numbers = fill.stops.flatMap { [$0.location, $0.color.0, $0.color.1, $0.color.2, $0.color.3] }
            + [fill.start.x, fill.start.y, fill.end.x, fill.end.y]
            + [Double(rect.minX), Double(rect.minY), Double(rect.width), Double(rect.height)]
        shape = fill.shape == .axial ? 0 : fill.shape == .radial ? 1 : 2
        self.width = width
        self.height = height
    }
}

/// A small, thread-safe store of gradient pictures. Bounded, in pictures
/// and in bytes: when full it starts again, which keeps the common case
/// (the same few gradients every frame) fast and memory flat whatever a
/// long-running server is sent. A picture larger than the whole store is
/// not kept.
private final class GradientImageCache: Sendable {
    static let shared = GradientImageCache()
    static let capacity = 32
    static let capacityBytes = 64 << 20
    private let entries = Mutex<(images: [GradientImageKey: CGImage], bytes: Int)>(([:], 0))

    func image(for key: GradientImageKey) -> CGImage? { entries.withLock { $0.images[key] } }

    func insert(_ image: CGImage, for key: GradientImageKey) {
        let bytes = image.width * image.height * 4
        guard bytes <= Self.capacityBytes else { return }
        entries.withLock {
            if $0.images.count >= Self.capacity || $0.bytes + bytes > Self.capacityBytes { $0 = ([:], 0) }
            $0.images[key] = image
            $0.bytes += bytes
        }
    }
}

extension GradientFill {
    /// The gradient with every stop's colour multiplied by `tint`
    /// (premultiplied: its colour channels by its alpha too).
    func multiplied(by tint: RGBA) -> GradientFill {
        var g = self
        let r = tint.red * tint.alpha, gr = tint.green * tint.alpha, b = tint.blue * tint.alpha, a = tint.alpha
        g.stops = stops.map { ($0.location, ($0.color.0 * r, $0.color.1 * gr, $0.color.2 * b, $0.color.3 * a)) }
        return g
    }

    /// Every location, colour and point finite.
    var isFinite: Bool {
        start.x.isFinite && start.y.isFinite && end.x.isFinite && end.y.isFinite
            && stops.allSatisfy { $0.location.isFinite && $0.color.0.isFinite && $0.color.1.isFinite && $0.color.2.isFinite && $0.color.3.isFinite }
    }

    /// Every stop's alpha within 0...1 and its colour channels within 0...alpha.
    var clamped: GradientFill {
        var g = self
        g.stops = stops.map { stop in
            let a = min(1, max(0, stop.color.3))
            return (stop.location, (min(a, max(0, stop.color.0)), min(a, max(0, stop.color.1)), min(a, max(0, stop.color.2)), a))
        }
        return g
    }
}
