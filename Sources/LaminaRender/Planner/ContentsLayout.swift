import Foundation

/// Where `contents` lands in a layer: the picture's rect (placed by
/// `contentsGravity`) and one quad, or nine for a `contentsCenter`, each a
/// local rect, the part of the image (unit coordinates) it shows, and the
/// cuts that keep its cell of the rect.
struct ContentsLayout {
    struct Quad: Equatable {
        var local: CGRect
        var uv: CGRect
        /// Half-planes that keep this quad's cell of `rect`, one for each
        /// side it shares with another quad (the two sides of a shared edge
        /// are exact negations, so cells own every pixel once).
        var cuts: [HalfPlane] = []
    }

    /// The picture's rect in the layer, every quad inside it.
    var rect: CGRect
    var quads: [Quad]

    init(_ content: ImageContent, in bounds: CGRect) {
        let crop = content.contentsRect
        let scale = content.contentsScale > 0 ? content.contentsScale : 1
        let size = CGSize(
            width: Double(content.image.width) * Double(crop.width) / scale,
            height: Double(content.image.height) * Double(crop.height) / scale)
        rect = Self.placement(of: size, gravity: content.gravity, in: bounds)
        guard rect.width > 0, rect.height > 0 else { quads = []; return }
        let center = content.contentsCenter
        let quads = center == CGRect(x: 0, y: 0, width: 1, height: 1)
            ? [Quad(local: rect, uv: crop)]
            : Self.nineParts(rect: rect, imageSize: size, crop: crop, center: center)
        self.quads = content.isFlipped ? quads.map { [rect] in Self.flip($0, within: rect) } : quads
    }

    /// A quad mirrored about the middle of the picture's rect, showing its
    /// texels bottom row first (a negative uv height).
    private static func flip(_ q: Quad, within rect: CGRect) -> Quad {
        let sum = Double(rect.minY) + Double(rect.maxY)
        let local = CGRect(x: q.local.minX, y: sum - q.local.maxY, width: q.local.width, height: q.local.height)
        // y ↦ sum − y: b·y + c becomes −b·y + (b·sum + c).
        let cuts = q.cuts.map { HalfPlane(a: $0.a, b: -$0.b, c: $0.b * sum + $0.c) }
        return Quad(local: local, uv: CGRect(x: q.uv.minX, y: q.uv.maxY, width: q.uv.width, height: -q.uv.height), cuts: cuts)
    }

    /// The rect of an image of `size` points placed by gravity. `top` is the
    /// max-Y edge, as in Core Animation.
    static func placement(of size: CGSize, gravity: CALayerContentsGravity, in b: CGRect) -> CGRect {
        let w = Double(size.width), h = Double(size.height)
        func at(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> CGRect { CGRect(x: x, y: y, width: w, height: h) }
        let cx = Double(b.midX) - w / 2, cy = Double(b.midY) - h / 2
        let minX = Double(b.minX), minY = Double(b.minY), maxX = Double(b.maxX) - w, maxY = Double(b.maxY) - h
        switch gravity {
        case .resize: return b
        case .resizeAspect, .resizeAspectFill:
            guard w > 0, h > 0 else { return .zero }
            let sx = Double(b.width) / w, sy = Double(b.height) / h
            let s = gravity == .resizeAspect ? min(sx, sy) : max(sx, sy)
            return at(Double(b.midX) - w * s / 2, Double(b.midY) - h * s / 2, w * s, h * s)
        case .center: return at(cx, cy, w, h)
        case .top: return at(cx, maxY, w, h)
        case .bottom: return at(cx, minY, w, h)
        case .left: return at(minX, cy, w, h)
        case .right: return at(maxX, cy, w, h)
        case .topLeft: return at(minX, maxY, w, h)
        case .topRight: return at(maxX, maxY, w, h)
        case .bottomLeft: return at(minX, minY, w, h)
        case .bottomRight: return at(maxX, minY, w, h)
        default: return b  // not reached: the snapshot admits `CALayerContentsGravity.all` only
        }
    }

    /// Nine-part stretching: the image's edges outside `center` keep their
    /// size in points (shrunk evenly when the rect is too small), the middle
    /// stretches.
    private static func nineParts(rect: CGRect, imageSize: CGSize, crop: CGRect, center: CGRect) -> [Quad] {
        let c = center.standardized
        let u = [0, Double(c.minX), Double(c.maxX), 1].map { min(1, max(0, $0)) }
        let v = [0, Double(c.minY), Double(c.maxY), 1].map { min(1, max(0, $0)) }
        func edges(_ f: [Double], _ image: Double, _ origin: Double, _ length: Double) -> [Double] {
            var lead = f[1] * image, trail = (1 - f[2]) * image
            if lead + trail > length, lead + trail > 0 {
                let k = length / (lead + trail)
                lead *= k; trail *= k
            }
            return [origin, origin + lead, origin + length - trail, origin + length]
        }
        let xs = edges(u, Double(imageSize.width), Double(rect.minX), Double(rect.width))
        let ys = edges(v, Double(imageSize.height), Double(rect.minY), Double(rect.height))
        var quads: [Quad] = []
        for j in 0..<3 {
            for i in 0..<3 {
                let local = CGRect(x: xs[i], y: ys[j], width: xs[i + 1] - xs[i], height: ys[j + 1] - ys[j])
                let uv = CGRect(
                    x: Double(crop.minX) + u[i] * Double(crop.width), y: Double(crop.minY) + v[j] * Double(crop.height),
                    width: (u[i + 1] - u[i]) * Double(crop.width), height: (v[j + 1] - v[j]) * Double(crop.height))
                guard local.width > 0, local.height > 0, uv.width > 0, uv.height > 0 else { continue }
                // A cell's inner sides are shared: x >= xs[i] on one side is
                // exactly the negation of x < xs[i] on the other.
                var cuts: [HalfPlane] = []
                if i > 0 { cuts.append(HalfPlane(a: 1, b: 0, c: -xs[i])) }
                if i < 2 { cuts.append(HalfPlane(a: -1, b: 0, c: xs[i + 1])) }
                if j > 0 { cuts.append(HalfPlane(a: 0, b: 1, c: -ys[j])) }
                if j < 2 { cuts.append(HalfPlane(a: 0, b: -1, c: ys[j + 1])) }
                quads.append(Quad(local: local, uv: uv, cuts: cuts))
            }
        }
        return quads
    }
}
