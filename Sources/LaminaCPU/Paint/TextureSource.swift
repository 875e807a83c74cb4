import Foundation

/// How a texture is read between texel centres.
enum TextureFilter: Sendable, Hashable {
    /// The texel the point falls in (Core Animation's `kCAFilterNearest`).
    case nearest
    /// A weighted mean of the four nearest texel centres (`kCAFilterLinear`).
    case bilinear
}

/// A picture mapped onto a polygon: local point → uv → texel.
///
/// `localRect` (in the polygon's local coordinates) is stretched onto
/// `uvRect` (in unit texture coordinates: (0, 0) the texture's top-left
/// corner, (1, 1) its bottom-right one), as `contents` and `contentsRect` map a
/// layer's bounds. Points outside the texture read its nearest edge texel.
struct TextureSource: Sendable {
    var pixmap: Pixmap
    var localRect: CGRect
    var uvRect: CGRect
    var filter: TextureFilter

    init(
        pixmap: Pixmap, localRect: CGRect, uvRect: CGRect = CGRect(x: 0, y: 0, width: 1, height: 1),
        filter: TextureFilter = .bilinear
    ) {
        self.pixmap = pixmap
        self.localRect = localRect
        self.uvRect = uvRect
        self.filter = filter
    }
}

/// What a polygon is painted with.
enum PaintSource: Sendable {
    /// One premultiplied colour everywhere.
    case solid(PremultipliedColor)
    /// A picture, mapped from local coordinates.
    case texture(TextureSource)
}

/// Reads a `TextureSource` at local points: the local → texel map folded into
/// one scale and offset per axis, then edge-clamped sampling.
struct TextureSampler {
    let width: Int
    let height: Int
    let scaleX: Double, offsetX: Double
    let scaleY: Double, offsetY: Double
    let filter: TextureFilter

    init(_ source: TextureSource) throws {
        let local = source.localRect, uv = source.uvRect
        for (name, v) in [
            ("localRect.x", local.origin.x), ("localRect.y", local.origin.y),
            ("localRect.width", local.size.width), ("localRect.height", local.size.height),
            ("uvRect.x", uv.origin.x), ("uvRect.y", uv.origin.y),
            ("uvRect.width", uv.size.width), ("uvRect.height", uv.size.height),
        ] {
            try requireFinite(Double(v), "texture \(name)")
        }
        guard local.size.width != 0, local.size.height != 0 else {
            throw CPURenderError.invalidArgument(what: "texture localRect", reason: "has zero width or height")
        }
        guard source.pixmap.width > 0, source.pixmap.height > 0 else {
            throw CPURenderError.invalidArgument(what: "texture", reason: "pixmap is empty")
        }
        width = source.pixmap.width
        height = source.pixmap.height
        filter = source.filter
        // texel = ((local − local.min) / local.size · uv.size + uv.min) · texture size
        let tw = Double(width), th = Double(height)
        scaleX = Double(uv.size.width) / Double(local.size.width) * tw
        scaleY = Double(uv.size.height) / Double(local.size.height) * th
        offsetX = Double(uv.origin.x) * tw - Double(local.origin.x) * scaleX
        offsetY = Double(uv.origin.y) * th - Double(local.origin.y) * scaleY
        guard scaleX.isFinite, scaleY.isFinite, offsetX.isFinite, offsetY.isFinite else {
            throw CPURenderError.invalidArgument(
                what: "texture mapping", reason: "localRect \(local) → uvRect \(uv) overflows")
        }
    }

    /// The premultiplied texel value at local point (x, y), channels 0...255.
    @inline(__always)
    func sample(_ texels: UnsafePointer<UInt8>, x: Double, y: Double) -> (UInt32, UInt32, UInt32, UInt32) {
        let tx = x * scaleX + offsetX, ty = y * scaleY + offsetY
        switch filter {
        case .nearest:
            let ix = Self.clampIndex(tx, width), iy = Self.clampIndex(ty, height)
            let p = texels + (iy * width + ix) * 4
            return (UInt32(p[0]), UInt32(p[1]), UInt32(p[2]), UInt32(p[3]))
        case .bilinear:
            // Texel centres sit at half-integers; clamp to the outermost ones.
            let fx = Self.clamp(tx - 0.5, Double(width - 1))
            let fy = Self.clamp(ty - 0.5, Double(height - 1))
            let x0 = Int(fx), y0 = Int(fy)
            let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
            // 8-bit weights: the four products sum to 65536 exactly, so a
            // constant texture stays exact and premultiplication is preserved.
            let wx = UInt32((fx - Double(x0)) * 256 + 0.5), wy = UInt32((fy - Double(y0)) * 256 + 0.5)
            let w00 = (256 - wx) * (256 - wy), w10 = wx * (256 - wy)
            let w01 = (256 - wx) * wy, w11 = wx * wy
            let p00 = texels + (y0 * width + x0) * 4, p10 = texels + (y0 * width + x1) * 4
            let p01 = texels + (y1 * width + x0) * 4, p11 = texels + (y1 * width + x1) * 4
            @inline(__always) func mix(_ c: Int) -> UInt32 {
                (UInt32(p00[c]) * w00 + UInt32(p10[c]) * w10 + UInt32(p01[c]) * w01 + UInt32(p11[c]) * w11
                    + 32768) >> 16
            }
            return (mix(0), mix(1), mix(2), mix(3))
        }
    }

    /// The texel index containing coordinate `t`, edge-clamped. Compared in
    /// floating point first so that a far-away (or NaN) t never reaches Int().
    @inline(__always)
    private static func clampIndex(_ t: Double, _ size: Int) -> Int {
        t >= 1 ? (t < Double(size - 1) ? Int(t) : size - 1) : 0
    }

    /// `t` limited to 0...upper, NaN reading as 0.
    @inline(__always)
    private static func clamp(_ t: Double, _ upper: Double) -> Double {
        t > 0 ? (t < upper ? t : upper) : 0
    }
}
