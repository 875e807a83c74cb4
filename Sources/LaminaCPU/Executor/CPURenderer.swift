import Foundation
import LaminaRaster
import LaminaRender

/// The software backend: executes a `RenderPlan` with the pure-Swift
/// rasterizer and pixel pipeline of this module.
///
/// Runs anywhere, needs no EGL; the same plan gives the same picture as the
/// GL backend (the conformance check holds both to the same references).
public final class CPURenderer: Renderer {
    /// "cpu", in messages and benchmarks.
    public let name = "cpu"
    private let painter = CPUPainter()

    /// A renderer; it keeps nothing between frames.
    public init() {}

    /// Walks the plan with `PlanWalker` on this module's painter.
    /// Large loops use the cores no other frame is drawing on (`RowBands`).
    public func render(_ plan: RenderPlan, deadline: RenderDeadline?) throws -> CGImage {
        try RowBands.drawingFrame {
            try PlanWalker.render(plan, with: painter, deadline: deadline)
        }
    }
}

/// The plan's primitives on pixmaps, for `PlanWalker`.
final class CPUPainter: SurfacePainter {

    func makeSurface(width: Int, height: Int) throws -> Pixmap { try Pixmap(width: width, height: height) }
    func texture(of surface: Pixmap) -> Pixmap { surface }
    func texture(of image: CGImage) throws -> Pixmap {
        try Pixmap(width: image.width, height: image.height, premultipliedRGBA: image.pixelBytes)
    }
    func release(_ surface: Pixmap) {}
    func endFrame() {}
    func image(of output: Pixmap) throws -> CGImage {
        try CGImage(width: output.width, height: output.height, premultipliedRGBA: output.data)
    }

    func drawPolygon(_ draw: PolygonDraw, textures: TextureTable<Pixmap>, into target: inout Pixmap) throws {
        let source: PaintSource
        switch draw.fill {
        case .color(let c):
            source = .solid(PremultipliedColor(c))
        case .texture(let texture, let localRect, let uvRect, let filter, let tint):
            var pixels = try textures[texture]
            if tint != .white { pixels = multiplied(pixels, by: tint) }
            source = .texture(MappedTexture(pixmap: pixels, localRect: localRect, uvRect: uvRect, filter: filter))
        case .alphaTint(let texture, let localRect, let color):
            let mask = try textures[texture]
            let mapped = MappedTexture(pixmap: mask, localRect: localRect)
            if draw.coverage == nil, draw.cuts.isEmpty,
               let origin = Self.pixelAlignedOrigin(of: mapped, polygon: draw.polygon, matrix: draw.matrix) {
                // A shadow landing texel for pixel: its colour through the mask, no tinted copy.
                try target.compositeTinted(PremultipliedColor(color), through: mask, atX: origin.x, y: origin.y,
                                           alpha: draw.opacity)
                return
            }
            let tinted = mask.tinted(with: PremultipliedColor(color))
            source = .texture(MappedTexture(pixmap: tinted, localRect: localRect))
        case .masked(let texture, let mask, let localRect):
            var pixels = try textures[texture]
            pixels.multiplyAlpha(by: try textures[mask], atX: 0, y: 0)
            source = .texture(MappedTexture(pixmap: pixels, localRect: localRect))
        }
        let alpha = draw.opacity
        if case .texture(let texture) = source, draw.coverage == nil, draw.cuts.isEmpty,
           let origin = Self.pixelAlignedOrigin(of: texture, polygon: draw.polygon, matrix: draw.matrix) {
            // The common case of flat interfaces: a surface or image landing
            // texel for pixel. Blending rows costs a fraction of resampling.
            try target.composite(texture.pixmap, atX: origin.x, y: origin.y, alpha: alpha)
            return
        }
        try target.draw(PolygonPaint(
            polygon: draw.polygon, transform: draw.matrix, source: source,
            roundedRect: draw.coverage, cuts: draw.cuts, alpha: alpha))
    }

    func fillPath(_ draw: PathFillDraw, into target: inout Pixmap) throws {
        let m = draw.matrix
        var projected: [[CGPoint]] = []
        for contour in draw.clippedContours {
            projected.append(contour.map { m.apply(to: $0) })
        }
        guard !projected.isEmpty else { return }
        var mask = try CoverageRasterizer(width: target.width, height: target.height)
            .rasterize(contours: projected, fillRule: draw.evenOdd ? .evenOdd : .nonZero)
        if !draw.cuts.isEmpty {
            guard let inverse = m.planeHomography.inverted() else { return }
            mask = mask.owned(by: draw.cuts.map { $0.inPixels(through: inverse) })
        }
        try target.fill(mask, with: PremultipliedColor(draw.color))
    }

    /// `source`'s alpha blurred, in white (see `DrawCommand.blurMask`): one
    /// channel blurred instead of four.
    func blurMask(_ source: Pixmap, blur: BlurMethod, into target: inout Pixmap) throws {
        target = try MaskBlur.apply(blur, to: source)
    }

    /// Where a textured polygon's texture lands when the draw is a plain
    /// copy: the polygon is the whole texture rect, the matrix moves it by
    /// whole pixels without scaling, rotating or projecting, and one texel
    /// covers one pixel. Nil when any of that is not so.
    private static func pixelAlignedOrigin(of texture: MappedTexture, polygon: [CGPoint], matrix m: CATransform3D) -> (x: Int, y: Int)? {
        let local = texture.localRect, uv = texture.uvRect
        guard uv == CGRect(x: 0, y: 0, width: 1, height: 1),
              m.m12 == 0, m.m21 == 0, m.m14 == 0, m.m24 == 0, m.m44 == 1,
              polygon.count == 4, polygon.allSatisfy({ ($0.x == local.minX || $0.x == local.maxX) && ($0.y == local.minY || $0.y == local.maxY) }),
              Set(polygon.map { [$0.x, $0.y] }).count == 4,
              abs(Double(m.m11) * Double(local.size.width) - Double(texture.pixmap.width)) < 1e-6,
              abs(Double(m.m22) * Double(local.size.height) - Double(texture.pixmap.height)) < 1e-6
        else { return nil }
        let x = Double(local.origin.x * m.m11 + m.m41), y = Double(local.origin.y * m.m22 + m.m42)
        guard abs(x - x.rounded()) < 1e-6, abs(y - y.rounded()) < 1e-6,
              abs(x) < 1e9, abs(y) < 1e9 else { return nil }
        return (Int(x.rounded()), Int(y.rounded()))
    }
}

/// A pixmap with every premultiplied channel multiplied by a colour.
private func multiplied(_ pixmap: Pixmap, by tint: RGBA) -> Pixmap {
    var copy = pixmap
    let k = [tint.red * tint.alpha, tint.green * tint.alpha, tint.blue * tint.alpha, tint.alpha]
    copy.data.withUnsafeMutableBufferPointer { pixels in
        for i in pixels.indices {
            pixels[i] = UInt8((Double(pixels[i]) * k[i & 3]).rounded())
        }
    }
    return copy
}

private func byte(_ v: Double) -> UInt8 { UInt8(max(0, min(255, (v * 255).rounded()))) }

extension PremultipliedColor {
    /// A plan colour, premultiplied and rounded to bytes.
    fileprivate init(_ color: RGBA) {
        let (r, g, b, a) = color.premultiplied
        self.init(r: byte(r), g: byte(g), b: byte(b), a: byte(a))
    }
}
