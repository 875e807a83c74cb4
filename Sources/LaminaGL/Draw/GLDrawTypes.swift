import LaminaRaster
import Foundation

import LaminaRender

extension RoundedRectCoverage {
    /// A painter's own check of what it is given (the plan's coverages
    /// always pass it).
    func validate() throws {
        let r = radii.clockwise
        let values = [rect.minX, rect.minY, rect.maxX, rect.maxY] + r + [borderWidth ?? 0]
        guard values.allSatisfy({ $0.isFinite }) else {
            throw GLError.invalidArgument("a rounded-rect coverage has a value that is not finite: \(self)")
        }
        guard (r + [borderWidth ?? 0]).allSatisfy({ $0 >= 0 }) else {
            throw GLError.invalidArgument("a rounded-rect coverage has a negative radius or border width: \(self)")
        }
    }
}

/// How local coordinates address a texture: the local rect `localRect` shows
/// the part `uvRect` of the texture, in normalized coordinates with (0, 0) at
/// the texture's top-left and (1, 1) at its bottom-right. The mapping is
/// affine (scale and offset per axis) and extends past the rect.
struct GLTextureMapping: Sendable, Hashable {
    var localRect: CGRect
    var uvRect: CGRect

    init(localRect: CGRect, uvRect: CGRect = CGRect(x: 0, y: 0, width: 1, height: 1)) {
        self.localRect = localRect
        self.uvRect = uvRect
    }

    /// (scaleX, scaleY, offsetX, offsetY) with uv = local * scale + offset.
    func uvFromLocal() throws -> (Float, Float, Float, Float) {
        // The raw origin and size, not CGRect's standardised accessors: a
        // negative uv height shows the texture bottom row first.
        let local = (x: localRect.origin.x, y: localRect.origin.y, w: localRect.size.width, h: localRect.size.height)
        let uv = (x: uvRect.origin.x, y: uvRect.origin.y, w: uvRect.size.width, h: uvRect.size.height)
        let values = [local.x, local.y, local.w, local.h, uv.x, uv.y, uv.w, uv.h]
        guard values.allSatisfy({ $0.isFinite }), local.w != 0, local.h != 0 else {
            throw GLError.invalidArgument(
                "a texture mapping needs a finite local rect of non-zero size, got \(localRect) -> \(uvRect)")
        }
        let scaleX = uv.w / local.w
        let scaleY = uv.h / local.h
        return (Float(scaleX), Float(scaleY), Float(uv.x - local.x * scaleX), Float(uv.y - local.y * scaleY))
    }
}

/// One texture read of a paint: which texture, how local points address it,
/// how it is filtered.
struct GLTextureInput {
    var source: any GLTextureSource
    var mapping: GLTextureMapping
    var sampling: GLSampling

    init(_ source: any GLTextureSource, mapping: GLTextureMapping, sampling: GLSampling = .linear) {
        self.source = source
        self.mapping = mapping
        self.sampling = sampling
    }
}

/// What fills a polygon or a mesh.
enum GLPaint {
    /// A premultiplied colour.
    case color(RGBA)
    /// A premultiplied texture (an image or a render target).
    case texture(GLTextureInput)
    /// A texture multiplied by a premultiplied colour (each channel).
    case tintedTexture(GLTextureInput, tint: RGBA)
    /// `color` times the texture's alpha: a shadow from a blurred silhouette.
    case alphaTint(GLTextureInput, color: RGBA)
    /// The texture times the alpha of `mask`: a layer's content under its mask.
    case masked(GLTextureInput, mask: GLTextureInput, inverted: Bool)
}

/// What a draw may add to its paint: an overall opacity, a rounded-rect
/// coverage, and up to four clip half-planes.
struct GLDrawOptions {
    /// Multiplies the paint (0...1).
    var opacity: Double
    /// Restricts the draw to a rounded rect or a ring.
    var coverage: RoundedRectCoverage?
    /// Up to `GLDrawOptions.maximumClipPlanes` half-planes the draw is kept inside.
    var clipPlanes: [HalfPlane]
    /// How the draw meets the target's pixels: source-over, or a blend mode.
    var blend: BlendMode

    /// The most clip half-planes one draw takes.
    static let maximumClipPlanes = 4

    init(opacity: Double = 1, coverage: RoundedRectCoverage? = nil, clipPlanes: [HalfPlane] = [], blend: BlendMode = .normal) {
        self.opacity = opacity
        self.coverage = coverage
        self.clipPlanes = clipPlanes
        self.blend = blend
    }

    func validate() throws {
        guard opacity.isFinite, (0...1).contains(opacity) else {
            throw GLError.invalidArgument("opacity must be in 0...1, got \(opacity)")
        }
        guard clipPlanes.count <= Self.maximumClipPlanes else {
            throw GLError.invalidArgument(
                "a draw takes at most \(Self.maximumClipPlanes) clip half-planes, got \(clipPlanes.count)")
        }
        for plane in clipPlanes where !(plane.a.isFinite && plane.b.isFinite && plane.c.isFinite) {
            throw GLError.invalidArgument("a clip half-plane has a value that is not finite: \(plane)")
        }
        try coverage?.validate()
    }
}
