import Foundation
import LaminaRender

/// The software backend: executes a `RenderPlan` with the pure-Swift
/// rasterizer and pixel pipeline of this module.
///
/// Runs anywhere, needs no EGL; the same plan gives the same picture as the
/// GL backend (the conformance check holds both to the same references).
public final class CPURenderer: Renderer {
    public let name = "cpu"

    public init() {}

    public func render(_ plan: RenderPlan, deadline: RenderDeadline?) throws -> CGImage {
        var execution = PlanExecution(plan: plan)
        for pass in plan.passes {
            try deadline?.check()
            try execution.run(pass, deadline: deadline)
            // Surfaces no later pass samples are freed now: a frame holds
            // only what it still needs (the plan's budget counts the same).
            for i in pass.releasedSurfaces { execution.surfaces[i] = nil }
        }
        guard let output = execution.output else {
            throw CPURenderError.invalidArgument(what: "render plan", reason: "has no pass that targets the output")
        }
        return try CGImage(width: output.width, height: output.height, premultipliedRGBA: output.data)
    }
}

/// The state of one plan's execution: the pixmaps of finished surfaces and
/// the plan's images as pixmaps.
private struct PlanExecution {
    let plan: RenderPlan
    var surfaces: [Int: Pixmap] = [:]
    var images: [Int: Pixmap] = [:]
    var output: Pixmap?

    init(plan: RenderPlan) { self.plan = plan }

    mutating func run(_ pass: RenderPass, deadline: RenderDeadline?) throws {
        let size: (Int, Int)
        switch pass.target {
        case .output: size = (plan.width, plan.height)
        case .offscreen(let i):
            guard plan.surfaces.indices.contains(i) else {
                throw CPURenderError.invalidArgument(what: "render pass", reason: "targets unknown surface \(i)")
            }
            size = (plan.surfaces[i].width, plan.surfaces[i].height)
        }
        var target = try Pixmap(width: size.0, height: size.1)
        for command in pass.commands {
            try deadline?.check()
            switch command {
            case .polygon(let draw): try drawPolygon(draw, into: &target)
            case .path(let draw): try fillPath(draw, into: &target)
            case .blurMask(let source, let sigma): target = try blurredMask(try pixmap(for: .surface(source)), sigma: sigma, size: size)
            }
        }
        switch pass.target {
        case .output: output = target
        case .offscreen(let i): surfaces[i] = target
        }
    }

    private mutating func drawPolygon(_ draw: LaminaRender.PolygonDraw, into target: inout Pixmap) throws {
        let source: PaintSource
        switch draw.fill {
        case .color(let c):
            source = .solid(PremultipliedColor(c))
        case .texture(let texture, let localRect, let uvRect, let filter, let tint):
            var pixels = try pixmap(for: texture)
            if tint != .white { pixels = multiplied(pixels, by: tint) }
            source = .texture(TextureSource(pixmap: pixels, localRect: localRect, uvRect: uvRect, filter: filter == .nearest ? .nearest : .bilinear))
        case .alphaTint(let texture, let localRect, let color):
            let tinted = try pixmap(for: texture).tinted(with: PremultipliedColor(color))
            source = .texture(TextureSource(pixmap: tinted, localRect: localRect))
        case .masked(let texture, let mask, let localRect):
            var pixels = try pixmap(for: texture)
            pixels.multiplyAlpha(by: try pixmap(for: mask), atX: 0, y: 0)
            source = .texture(TextureSource(pixmap: pixels, localRect: localRect))
        }
        let alpha = min(1, max(0, draw.opacity))
        if case .texture(let texture) = source, draw.coverage == nil,
           let origin = Self.pixelAlignedOrigin(of: texture, polygon: draw.polygon, matrix: draw.matrix) {
            // The common case of flat interfaces: a surface or image landing
            // texel for pixel. Blending rows costs a fraction of resampling.
            try target.composite(texture.pixmap, atX: origin.x, y: origin.y, alpha: alpha)
            return
        }
        let rounded = draw.coverage.map { c in
            RoundedRectShape(
                rect: c.rect,
                radii: CornerRadii(minXMinY: c.radii[0], maxXMinY: c.radii[1], minXMaxY: c.radii[3], maxXMaxY: c.radii[2]),
                ringWidth: c.borderWidth)
        }
        try target.draw(PolygonDraw(
            polygon: draw.polygon, transform: Matrix4x4(draw.matrix), source: source,
            roundedRect: rounded, alpha: alpha))
    }

    /// Where a textured polygon's texture lands when the draw is a plain
    /// copy: the polygon is the whole texture rect, the matrix moves it by
    /// whole pixels without scaling, rotating or projecting, and one texel
    /// covers one pixel. Nil when any of that is not so.
    private static func pixelAlignedOrigin(of texture: TextureSource, polygon: [CGPoint], matrix m: CATransform3D) -> (x: Int, y: Int)? {
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

    private func fillPath(_ draw: PathFillDraw, into target: inout Pixmap) throws {
        let m = draw.matrix
        var projected: [[CGPoint]] = []
        for contour in draw.clippedContours {
            projected.append(contour.map { m.apply(to: $0) })
        }
        guard !projected.isEmpty else { return }
        let mask = try CoverageRasterizer(width: target.width, height: target.height)
            .rasterize(contours: projected, fillRule: draw.evenOdd ? .evenOdd : .nonZero)
        try target.fill(mask, with: PremultipliedColor(draw.color))
    }

    /// `source`'s alpha blurred, in white (see `DrawCommand.blurMask`): one
    /// channel blurred instead of four.
    private func blurredMask(_ source: Pixmap, sigma: Double, size: (Int, Int)) throws -> Pixmap {
        let blur = try GaussianBlur(sigma: max(0, sigma))
        let grown = try blur.apply(to: source, channels: .alphaAsWhite)
        // The blur grows the picture by its radius on every side; the plan
        // already padded the surface, so keep the middle.
        return try grown.cropped(to: PixelRect(x: blur.radius, y: blur.radius, width: size.0, height: size.1))
    }

    private mutating func pixmap(for source: LaminaRender.TextureSource) throws -> Pixmap {
        switch source {
        case .surface(.output):
            throw CPURenderError.invalidArgument(what: "render plan", reason: "samples the output while drawing it")
        case .surface(.offscreen(let i)):
            guard let p = surfaces[i] else {
                throw CPURenderError.invalidArgument(what: "render plan", reason: "samples surface \(i) before its pass")
            }
            return p
        case .image(let id):
            if let p = images[id.index] { return p }
            guard plan.images.indices.contains(id.index) else {
                throw CPURenderError.invalidArgument(what: "render plan", reason: "names unknown image \(id.index)")
            }
            let image = plan.images[id.index]
            let p = try Pixmap(width: image.width, height: image.height, premultipliedRGBA: image.pixelBytes)
            images[id.index] = p
            return p
        }
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

extension Matrix4x4 {
    /// The same matrix as a Core Animation transform, field for field.
    init(_ t: CATransform3D) {
        self.init(
            m11: Double(t.m11), m12: Double(t.m12), m13: Double(t.m13), m14: Double(t.m14),
            m21: Double(t.m21), m22: Double(t.m22), m23: Double(t.m23), m24: Double(t.m24),
            m31: Double(t.m31), m32: Double(t.m32), m33: Double(t.m33), m34: Double(t.m34),
            m41: Double(t.m41), m42: Double(t.m42), m43: Double(t.m43), m44: Double(t.m44))
    }
}
