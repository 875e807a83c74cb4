import Foundation
import LaminaGeometry

// How a texture is read between texel centres is the plan's `TextureFilter`:
// `nearest` the texel the point falls in, `linear` a weighted mean of the four
// nearest texel centres, `smoothLinear` the same with eased weights,
// `trilinear` that mean on the two mipmap levels whose texels are nearest a
// pixel's footprint, mixed (when minifying; magnifying, it is `linear`), as
// GL's LINEAR_MIPMAP_LINEAR reads them.

/// A picture mapped onto a polygon: local point → uv → texel.
///
/// `localRect` (in the polygon's local coordinates) is stretched onto
/// `uvRect` (in unit texture coordinates: (0, 0) the texture's top-left
/// corner, (1, 1) its bottom-right one), as `contents` and `contentsRect` map a
/// layer's bounds. Points outside the texture read its nearest edge texel.
package struct MappedTexture: Sendable {
    package var pixmap: Pixmap
    package var localRect: CGRect
    package var uvRect: CGRect
    package var filter: TextureFilter
    /// The picture's mipmap levels 1... (`TextureSampler.mipmaps(of:)`),
    /// when the caller keeps them; nil: a trilinear read makes them.
    package var mipmaps: [Pixmap]?

    package init(
        pixmap: Pixmap, localRect: CGRect, uvRect: CGRect = CGRect(x: 0, y: 0, width: 1, height: 1),
        filter: TextureFilter = .linear, mipmaps: [Pixmap]? = nil
    ) {
        self.pixmap = pixmap
        self.localRect = localRect
        self.uvRect = uvRect
        self.filter = filter
        self.mipmaps = mipmaps
    }
}

/// What a polygon is painted with.
package enum PaintSource: Sendable {
    /// One premultiplied colour everywhere.
    case solid(PremultipliedColor)
    /// A picture, mapped from local coordinates.
    case texture(MappedTexture)
    /// A gradient, evaluated at each pixel's local point.
    case gradient(GradientFill)
}

/// Reads a `MappedTexture` at local points: the local → texel map folded into
/// one scale and offset per axis, then edge-clamped sampling.
package struct TextureSampler {
    package let width: Int
    package let height: Int
    package let scaleX: Double, offsetX: Double
    package let scaleY: Double, offsetY: Double
    package let filter: TextureFilter
    /// For `trilinear`: levels 1, 2... of the mipmap (level 0 is the texture).
    package let mipmaps: [Pixmap]

    package init(_ source: MappedTexture) throws {
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
            throw RasterError.invalidArgument(what: "texture localRect", reason: "has zero width or height")
        }
        guard source.pixmap.width > 0, source.pixmap.height > 0 else {
            throw RasterError.invalidArgument(what: "texture", reason: "pixmap is empty")
        }
        width = source.pixmap.width
        height = source.pixmap.height
        filter = source.filter
        mipmaps = source.filter == .trilinear ? source.mipmaps ?? Self.mipmaps(of: source.pixmap) : []
        // texel = ((local − local.min) / local.size · uv.size + uv.min) · texture size
        let tw = Double(width), th = Double(height)
        scaleX = Double(uv.size.width) / Double(local.size.width) * tw
        scaleY = Double(uv.size.height) / Double(local.size.height) * th
        offsetX = Double(uv.origin.x) * tw - Double(local.origin.x) * scaleX
        offsetY = Double(uv.origin.y) * th - Double(local.origin.y) * scaleY
        guard scaleX.isFinite, scaleY.isFinite, offsetX.isFinite, offsetY.isFinite else {
            throw RasterError.invalidArgument(
                what: "texture mapping", reason: "localRect \(local) → uvRect \(uv) overflows")
        }
    }

    /// The premultiplied texel value at local point (x, y), channels 0...255.
    /// `footprint` (the local change across one pixel) chooses the mipmap
    /// levels of a trilinear read; the other filters ignore it.
    @inline(__always)
    package func sample(_ texels: UnsafePointer<UInt8>, x: Double, y: Double, footprint: LocalFootprint? = nil) -> (UInt32, UInt32, UInt32, UInt32) {
        let tx = x * scaleX + offsetX, ty = y * scaleY + offsetY
        switch filter {
        case .nearest:
            return Self.texel(texels, width: width, height: height, tx: tx, ty: ty)
        case .linear:
            return Self.bilinear(texels, width: width, height: height, tx: tx, ty: ty)
        case .smoothLinear:
            return Self.bilinear(texels, width: width, height: height, tx: tx, ty: ty, eased: true)
        case .trilinear:
            guard let fp = footprint, !mipmaps.isEmpty else {
                return Self.bilinear(texels, width: width, height: height, tx: tx, ty: ty)
            }
            let (lower, k) = trilinearLevels(at: fp)
            let a = level(lower, texels, tx: tx, ty: ty)
            guard k > 0 else { return a }
            return Self.mix(a, level(lower + 1, texels, tx: tx, ty: ty), k)
        }
    }

    /// The mipmap levels a trilinear read takes for a pixel of `footprint`:
    /// the `lower` level (0 is the texture itself) and the weight `k`, out
    /// of 256, of the level above it mixed in (0: the lower level alone).
    /// Level 0 alone where a pixel spans at most one texel (magnifying).
    /// Needs `mipmaps`.
    @inline(__always)
    package func trilinearLevels(at fp: LocalFootprint) -> (lower: Int, k: UInt32) {
        // Texels per pixel along the pixel's two axes; the longer decides
        // the level, as GL's λ = log2 ρ does.
        let dxPx = fp.xPerPx * scaleX, dyPx = fp.yPerPx * scaleY
        let dxPy = fp.xPerPy * scaleX, dyPy = fp.yPerPy * scaleY
        let rho = max((dxPx * dxPx + dyPx * dyPx).squareRoot(), (dxPy * dxPy + dyPy * dyPy).squareRoot())
        guard rho > 1, rho.isFinite else { return (0, 0) }
        let lambda = min(log2(rho), Double(mipmaps.count))
        let lower = Int(lambda), t = lambda - Double(lower)
        // (A weight that rounds to 0 mixes in nothing: the lower level's
        // texel, to the bit.)
        guard t > 0, lower < mipmaps.count else { return (lower, 0) }
        return (lower, UInt32(t * 256 + 0.5))
    }

    /// Two texel values mixed, `k` (out of 256) of `b`.
    @inline(__always)
    private static func mix(_ a: (UInt32, UInt32, UInt32, UInt32), _ b: (UInt32, UInt32, UInt32, UInt32), _ k: UInt32)
        -> (UInt32, UInt32, UInt32, UInt32)
    {
        // (At most 255 · 256 + 128: wrapping arithmetic cannot wrap.)
        @inline(__always) func mix(_ p: UInt32, _ q: UInt32) -> UInt32 { (p &* (256 &- k) &+ q &* k &+ 128) >> 8 }
        return (mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2), mix(a.3, b.3))
    }

    /// A mipmap level's texels, bound for a draw's loop over its pixels:
    /// `withLevel` makes it, `sample(lower:upper:k:x:y:)` reads it.
    package struct BoundLevel {
        fileprivate let texels: UnsafePointer<UInt8>
        fileprivate let width: Int, height: Int
        /// Level 0: read at the texel coordinates as they are.
        fileprivate let isBase: Bool
    }

    /// Calls `body` with level `n` of the mipmap bound (0: `texels`, the
    /// texture itself).
    package func withLevel<R>(_ n: Int, texels: UnsafePointer<UInt8>, _ body: (BoundLevel) -> R) -> R {
        guard n > 0 else { return body(BoundLevel(texels: texels, width: width, height: height, isBase: true)) }
        let m = mipmaps[n - 1]
        return m.data.withUnsafeBufferPointer { p in
            body(BoundLevel(texels: p.baseAddress!, width: m.width, height: m.height, isBase: false))
        }
    }

    /// A trilinear read at local point (x, y) from levels chosen once for
    /// every pixel (`trilinearLevels`, where the footprint is the same
    /// everywhere: an affine map): the `lower` level, mixed with `k` of
    /// `upper` (unread when `k` is 0). The bytes `sample` gives there.
    @inline(__always)
    package func sample(lower: BoundLevel, upper: BoundLevel?, k: UInt32, x: Double, y: Double) -> (UInt32, UInt32, UInt32, UInt32) {
        let tx = x * scaleX + offsetX, ty = y * scaleY + offsetY
        let a = read(lower, tx: tx, ty: ty)
        guard k > 0, let upper else { return a }
        return Self.mix(a, read(upper, tx: tx, ty: ty), k)
    }

    /// `level`'s bilinear read of a bound level.
    @inline(__always)
    private func read(_ level: BoundLevel, tx: Double, ty: Double) -> (UInt32, UInt32, UInt32, UInt32) {
        guard !level.isBase else { return Self.bilinear(level.texels, width: width, height: height, tx: tx, ty: ty) }
        return Self.bilinear(level.texels, width: level.width, height: level.height,
                             tx: tx * Double(level.width) / Double(width), ty: ty * Double(level.height) / Double(height))
    }

    /// The texel local point (x, y) lies in, whatever `filter` says:
    /// `sample` for a `nearest` sampler.
    @inline(__always)
    package func sampleNearest(_ texels: UnsafePointer<UInt8>, x: Double, y: Double) -> (UInt32, UInt32, UInt32, UInt32) {
        Self.texel(texels, width: width, height: height, tx: x * scaleX + offsetX, ty: y * scaleY + offsetY)
    }

    /// Whether, under the affine map `inverse` from pixels to local points,
    /// every pixel of `area` has its centre on a texel's centre (within a
    /// ten-thousandth of a texel), one texel a pixel, unturned: a picture
    /// landing texel for pixel, however its draw is cut. There every
    /// filter reads exactly the texel the centre lies in (a linear read's
    /// weights round to nothing, a trilinear one's level to the texture),
    /// which `sampleNearest` reads without weighing four.
    package func landsTexelForPixel(under inverse: PlaneHomography, over area: PixelRect) -> Bool {
        let (i00, i01, i02, i10, i11, i12, i20, i21, i22) = inverse.h
        guard i01 == 0, i02 == 0, i10 == 0, i12 == 0, i22 > 0, !area.isEmpty,
              abs(i00 / i22 * scaleX - 1) < 1e-9, abs(i11 / i22 * scaleY - 1) < 1e-9
        else { return false }
        // The texel coordinate of a pixel centre, as the paint loop works it
        // out, is within a ten-thousandth of a texel's centre at the first
        // and the last pixel of each axis, and moves by one texel a pixel
        // between: so at every pixel between (the weights round to zero
        // below 1/512 of a texel).
        let invW = 1 / i22
        func onCentre(_ t: Double) -> Bool { t.isFinite && abs(t - t.rounded(.down) - 0.5) < 1e-4 }
        func tx(_ px: Int) -> Double { (Double(px) + 0.5) * i00 * invW * scaleX + i20 * invW * scaleX + offsetX }
        func ty(_ py: Int) -> Double { (Double(py) + 0.5) * i11 * invW * scaleY + i21 * invW * scaleY + offsetY }
        return onCentre(tx(area.minX)) && onCentre(tx(area.maxX - 1)) && onCentre(ty(area.minY)) && onCentre(ty(area.maxY - 1))
    }

    /// The premultiplied texel value at local point (x, y) read between the
    /// four nearest texels, whatever `filter` says: `sample` for a `linear`
    /// sampler (a `smoothLinear` one when `eased`), without the per-pixel
    /// choice of filter.
    @inline(__always)
    package func sampleLinear(_ texels: UnsafePointer<UInt8>, x: Double, y: Double, eased: Bool = false)
        -> (UInt32, UInt32, UInt32, UInt32)
    {
        Self.bilinear(texels, width: width, height: height, tx: x * scaleX + offsetX, ty: y * scaleY + offsetY, eased: eased)
    }

    /// The texel that texel coordinate (tx, ty) lies in, the nearest edge
    /// texel outside.
    @inline(__always)
    private static func texel(_ texels: UnsafePointer<UInt8>, width: Int, height: Int, tx: Double, ty: Double)
        -> (UInt32, UInt32, UInt32, UInt32)
    {
        let ix = clampIndex(tx, width), iy = clampIndex(ty, height)
        let p = texels + (iy * width + ix) * 4
        return (UInt32(p[0]), UInt32(p[1]), UInt32(p[2]), UInt32(p[3]))
    }

    /// A bilinear read of mipmap level `n` at level-0 texel coordinates.
    @inline(__always)
    private func level(_ n: Int, _ texels: UnsafePointer<UInt8>, tx: Double, ty: Double) -> (UInt32, UInt32, UInt32, UInt32) {
        guard n > 0 else { return Self.bilinear(texels, width: width, height: height, tx: tx, ty: ty) }
        let m = mipmaps[n - 1]
        return m.data.withUnsafeBufferPointer { p in
            Self.bilinear(p.baseAddress!, width: m.width, height: m.height,
                          tx: tx * Double(m.width) / Double(width), ty: ty * Double(m.height) / Double(height))
        }
    }

    /// The four texel centres around texel coordinate (tx, ty), weighted by
    /// distance along each axis: linearly, or `eased` by smoothstep
    /// (`smoothLinear`).
    @inline(__always)
    private static func bilinear(
        _ texels: UnsafePointer<UInt8>, width: Int, height: Int, tx: Double, ty: Double, eased: Bool = false
    ) -> (UInt32, UInt32, UInt32, UInt32) {
        // Texel centres sit at half-integers; clamp to the outermost ones.
        let fx = Self.clamp(tx - 0.5, Double(width - 1))
        let fy = Self.clamp(ty - 0.5, Double(height - 1))
        let x0 = Int(fx), y0 = Int(fy)
        let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
        var ex = fx - Double(x0), ey = fy - Double(y0)
        if eased {
            ex = ex * ex * (3 - 2 * ex)
            ey = ey * ey * (3 - 2 * ey)
        }
        // 8-bit weights: the four products sum to 65536 exactly, so a
        // constant texture stays exact and premultiplication is preserved.
        let wx = UInt32(ex * 256 + 0.5), wy = UInt32(ey * 256 + 0.5)
        let w00 = (256 &- wx) &* (256 &- wy), w10 = wx &* (256 &- wy)
        let w01 = (256 &- wx) &* wy, w11 = wx &* wy
        let p00 = texels + (y0 * width + x0) * 4, p10 = texels + (y0 * width + x1) * 4
        let p01 = texels + (y1 * width + x0) * 4, p11 = texels + (y1 * width + x1) * 4
        // Wrapping arithmetic: the sum is at most 255 · 65536 + 32768, far
        // below 2³², and overflow checks were a fifth of a texture draw.
        @inline(__always) func mix(_ c: Int) -> UInt32 {
            (UInt32(p00[c]) &* w00 &+ UInt32(p10[c]) &* w10 &+ UInt32(p01[c]) &* w01 &+ UInt32(p11[c]) &* w11
                &+ 32768) >> 16
        }
        return (mix(0), mix(1), mix(2), mix(3))
    }

    /// Levels 1... of the texture's mipmap, down to 1x1: each level half the
    /// one above (rounded down, at least 1), each texel the mean of the 2x2
    /// texels it covers (edge-clamped on odd sizes), as GL's generated
    /// mipmaps are.
    package static func mipmaps(of pixmap: Pixmap) -> [Pixmap] {
        var levels: [Pixmap] = []
        var current = pixmap
        while current.width > 1 || current.height > 1 {
            let w = max(1, current.width / 2), h = max(1, current.height / 2)
            var data = [UInt8](repeating: 0, count: w * h * 4)
            let cw = current.width, ch = current.height
            current.data.withUnsafeBufferPointer { src in
                for y in 0..<h {
                    let y0 = min(2 * y, ch - 1), y1 = min(2 * y + 1, ch - 1)
                    for x in 0..<w {
                        let x0 = min(2 * x, cw - 1), x1 = min(2 * x + 1, cw - 1)
                        for c in 0..<4 {
                            let sum = Int(src[(y0 * cw + x0) * 4 + c]) + Int(src[(y0 * cw + x1) * 4 + c])
                                + Int(src[(y1 * cw + x0) * 4 + c]) + Int(src[(y1 * cw + x1) * 4 + c])
                            data[(y * w + x) * 4 + c] = UInt8((sum + 2) / 4)
                        }
                    }
                }
            }
            current = Pixmap(uncheckedWidth: w, height: h, data: data)
            levels.append(current)
        }
        return levels
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
