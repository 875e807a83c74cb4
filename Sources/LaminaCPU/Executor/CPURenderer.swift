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
    func endFrame() {
        preparedPaths = []; preparedPolygons = []
        nextPath = 0; nextPolygon = 0
    }
    func image(of output: Pixmap) throws -> CGImage {
        try CGImage(width: output.width, height: output.height, premultipliedRGBA: output.data)
    }

    func drawPolygon(_ draw: PolygonDraw, textures: TextureTable<Pixmap>, into target: inout Pixmap) throws {
        let prepared = nextPolygon < preparedPolygons.count ? preparedPolygons[nextPolygon] : nil
        nextPolygon += 1
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
               let placed = Self.pixelAlignedPlacement(of: mapped, polygon: draw.polygon, matrix: draw.matrix) {
                // A shadow landing texel for pixel: its colour through the mask, no tinted copy.
                try target.compositeTinted(PremultipliedColor(color), through: mask, atX: placed.x, y: placed.y,
                                           alpha: draw.opacity, within: placed.area)
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
           let placed = Self.pixelAlignedPlacement(of: texture, polygon: draw.polygon, matrix: draw.matrix) {
            // The common case of flat interfaces: a surface or image landing
            // texel for pixel. Blending rows costs a fraction of resampling.
            try target.composite(texture.pixmap, atX: placed.x, y: placed.y, alpha: alpha, within: placed.area)
            return
        }
        try target.draw(PolygonPaint(
            polygon: draw.polygon, transform: draw.matrix, source: source,
            roundedRect: draw.coverage, cuts: draw.cuts, alpha: alpha), covering: prepared)
    }

    /// Coverage rasterized ahead, on idle cores, for the pass being drawn:
    /// one entry per path command and per polygon command, in order, nil
    /// where it was not made ahead (then the draw makes it). Only this
    /// painter's thread reads them.
    private var preparedPaths: [Result<CoverageMask?, Error>?] = []
    private var preparedPolygons: [Result<PolygonCoverage?, Error>?] = []
    private var nextPath = 0, nextPolygon = 0

    /// Rasterizes the pass's coverage in parallel when cores are idle: the
    /// masks of path fills and of solid polygons depend on the command and
    /// the target's size, not on its pixels, and are painted in order, so the
    /// picture is the same bytes. At most `preparedPixels` of masks are made
    /// ahead at once; the rest are made as they are drawn.
    func beginPass(_ commands: [DrawCommand], width: Int, height: Int) {
        preparedPaths = []; preparedPolygons = []
        nextPath = 0; nextPolygon = 0
        guard commands.count >= 2, RowBands.idleThreads > 1 else { return }
        enum Job { case path(Int, PathFillDraw), polygon(Int, PolygonPaint) }
        var jobs: [Job] = []
        var budget = Self.preparedPixels
        var paths = 0, polygons = 0
        let bounds = PixelRect(width: width, height: height)
        for command in commands {
            switch command {
            case .path(let draw):
                let box = Self.maskPixels(of: draw.contours, matrix: draw.matrix, width: width, height: height)
                if budget >= box { budget -= box; jobs.append(.path(paths, draw)) }
                paths += 1
            case .polygon(let draw):
                if case .color = draw.fill {
                    let box = Self.maskPixels(of: [draw.polygon], matrix: draw.matrix, width: width, height: height)
                    if budget >= box {
                        budget -= box
                        jobs.append(.polygon(polygons, PolygonPaint(
                            polygon: draw.polygon, transform: draw.matrix, source: .solid(.clear),
                            roundedRect: draw.coverage, cuts: draw.cuts)))
                    }
                }
                polygons += 1
            case .blurMask:
                continue
            }
        }
        guard jobs.count >= 2 else { return }
        var pathResults = [Result<CoverageMask?, Error>?](repeating: nil, count: paths)
        var polygonResults = [Result<PolygonCoverage?, Error>?](repeating: nil, count: polygons)
        pathResults.withUnsafeMutableBufferPointer { pathSlots in
            polygonResults.withUnsafeMutableBufferPointer { polygonSlots in
                // Each job writes its own slot.
                nonisolated(unsafe) let (pathOut, polygonOut) = (pathSlots, polygonSlots)
                // Jobs, not rows, split here: each band rasterizes its share.
                RowBands.forEach(rows: 0..<jobs.count, pixels: Int.max) { band in
                    for job in jobs[band] {
                        switch job {
                        case .path(let i, let draw):
                            pathOut[i] = Result { try Self.coverage(of: draw, width: width, height: height) }
                        case .polygon(let i, let paint):
                            polygonOut[i] = Result { try Pixmap.coverage(of: paint, within: bounds) }
                        }
                    }
                }
            }
        }
        preparedPaths = pathResults
        preparedPolygons = polygonResults
    }

    /// The most mask pixels made ahead for one pass (64 MB of masks).
    static let preparedPixels = 64 << 20

    /// At most how many pixels a mask of `contours` has: their projected
    /// bounding box within the target (the whole target when a point does
    /// not project).
    private static func maskPixels(of contours: [[CGPoint]], matrix: CATransform3D, width: Int, height: Int) -> Int {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for contour in contours {
            for point in contour {
                let h = matrix.apply(x: point.x, y: point.y)
                guard h.w > 0 else { return width * height }
                let x = Double(h.x / h.w), y = Double(h.y / h.w)
                minX = min(minX, x); maxX = max(maxX, x)
                minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite else { return width * height }
        let w = min(Double(width), max(0, maxX.rounded(.up))) - max(0, min(Double(width), minX.rounded(.down)))
        let h = min(Double(height), max(0, maxY.rounded(.up))) - max(0, min(Double(height), minY.rounded(.down)))
        return Int(max(0, w) * max(0, h))
    }

    func fillPath(_ draw: PathFillDraw, into target: inout Pixmap) throws {
        let prepared = nextPath < preparedPaths.count ? preparedPaths[nextPath] : nil
        nextPath += 1
        let mask = try prepared?.get() ?? Self.coverage(of: draw, width: target.width, height: target.height)
        guard let mask else { return }
        try target.fill(mask, with: PremultipliedColor(draw.color))
    }

    /// What `draw` covers of a `width` x `height` target (its cuts applied),
    /// or nil when it covers nothing.
    private static func coverage(of draw: PathFillDraw, width: Int, height: Int) throws -> CoverageMask? {
        let m = draw.matrix
        var projected: [[CGPoint]] = []
        for contour in draw.clippedContours {
            projected.append(contour.map { m.apply(to: $0) })
        }
        guard !projected.isEmpty else { return nil }
        var mask = try CoverageRasterizer(width: width, height: height)
            .rasterize(contours: projected, fillRule: draw.evenOdd ? .evenOdd : .nonZero)
        if !draw.cuts.isEmpty {
            guard let inverse = m.planeHomography.inverted() else { return nil }
            mask = mask.owned(by: draw.cuts.map { $0.inPixels(through: inverse) })
        }
        return mask
    }

    /// `source`'s alpha blurred, in white (see `DrawCommand.blurMask`): one
    /// channel blurred instead of four.
    func blurMask(_ source: Pixmap, blur: BlurMethod, into target: inout Pixmap) throws {
        target = try MaskBlur.apply(blur, to: source)
    }

    /// Where a textured polygon's texture lands when the draw is a plain
    /// copy: the matrix moves the texture by whole pixels without scaling,
    /// rotating or projecting, one texel covers one pixel, and the polygon is
    /// a rectangle of the texture (the whole, or the part the plan kept)
    /// whose edges fall on pixel edges. Then every pixel it touches is one
    /// texel, wholly covered, and sampling at its centre reads that texel
    /// exactly: a copy gives the same bytes. `area` is the polygon's pixels;
    /// nil when any of that is not so.
    private static func pixelAlignedPlacement(
        of texture: MappedTexture, polygon: [CGPoint], matrix m: CATransform3D
    ) -> (x: Int, y: Int, area: PixelRect)? {
        let local = texture.localRect, uv = texture.uvRect
        guard uv == CGRect(x: 0, y: 0, width: 1, height: 1),
              m.m12 == 0, m.m21 == 0, m.m14 == 0, m.m24 == 0, m.m44 == 1, m.m11 > 0, m.m22 > 0,
              polygon.count == 4,
              abs(Double(m.m11) * Double(local.size.width) - Double(texture.pixmap.width)) < 1e-6,
              abs(Double(m.m22) * Double(local.size.height) - Double(texture.pixmap.height)) < 1e-6
        else { return nil }
        // The polygon: an axis-aligned rectangle inside the texture's rectangle.
        let xs = Set(polygon.map(\.x)), ys = Set(polygon.map(\.y))
        guard xs.count == 2, ys.count == 2, Set(polygon.map { [$0.x, $0.y] }).count == 4,
              let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max(),
              minX >= local.minX, maxX <= local.maxX, minY >= local.minY, maxY <= local.maxY
        else { return nil }
        /// `v` as a whole number of pixels, or nil.
        func whole(_ v: Double) -> Int? {
            guard abs(v - v.rounded()) < 1e-6, abs(v) < 1e9 else { return nil }
            return Int(v.rounded())
        }
        func pixelX(_ x: CGFloat) -> Int? { whole(Double(x * m.m11 + m.m41)) }
        func pixelY(_ y: CGFloat) -> Int? { whole(Double(y * m.m22 + m.m42)) }
        guard let x = pixelX(local.minX), let y = pixelY(local.minY),
              let left = pixelX(minX), let right = pixelX(maxX), let top = pixelY(minY), let bottom = pixelY(maxY)
        else { return nil }
        return (x, y, PixelRect(x: left, y: top, width: right - left, height: bottom - top))
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
