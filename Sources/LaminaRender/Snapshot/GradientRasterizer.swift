import Foundation
import LaminaCore
import LaminaRaster
import Synchronization

/// A `CAGradientLayer`'s gradient as an image of the layer's bounds, at the
/// pixel density it will be seen at (its pixels are LaminaRaster's
/// `GradientFill`), kept for the next frames that draw the same gradient.
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
        let shape: GradientFill.Shape = type == .radial ? .radial : type == .conic ? .conic : .axial
        let fill = GradientFill(
            shape: shape, stops: stops,
            start: (Double(start.x * size.width), Double(start.y * size.height)),
            end: (Double(end.x * size.width), Double(end.y * size.height)), pixelsPerPoint: pixelsPerPoint)
        return try? CGImage(width: w, height: h, premultipliedRGBA: fill.pixels(width: w, height: h))
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
