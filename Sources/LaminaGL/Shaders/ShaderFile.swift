/// The GLSL ES 3.00 files LaminaGL loads from the `Shaders` folder: one small
/// file per job, plus `coverage.glsl`, `texel_easing.glsl` and `blend_support.glsl`, which the
/// fragment shaders include.
enum ShaderFile: String, Sendable, CaseIterable {
    /// Local 2D vertices through a 4x4 matrix into clip space.
    case localVertex = "local.vert"
    /// A viewport-covering triangle with uv coordinates.
    case fullscreenVertex = "fullscreen.vert"
    /// Clip half-planes and rounded-rect coverage (included).
    case coverage = "coverage.glsl"
    /// The qualifier that lets a fill use the advanced blend equations (included).
    case blendSupport = "blend_support.glsl"
    /// Texture reads eased between texels, as a magnified picture is (included).
    case texelEasing = "texel_easing.glsl"
    /// Solid premultiplied colour.
    case fillSolid = "fill_solid.frag"
    /// Premultiplied texture times opacity.
    case fillTexture = "fill_texture.frag"
    /// Colour times a texture's alpha (shadows).
    case tintAlpha = "tint_alpha.frag"
    /// Texture times another texture's alpha (masks).
    case mask = "mask.frag"
    /// One direction of a separable Gaussian blur.
    case blur = "blur.frag"
    /// Texels one for one into a multisample tile.
    case copy = "copy.frag"
    /// A layer's colour filters: one 4x5 matrix on straight colour.
    case colorMatrix = "color_matrix.frag"
    /// A path's edges, one quad each, onto its winding buffer.
    case pathWindingVertex = "path_winding.vert"
    /// What an edge adds to each pixel's area-weighted winding number.
    case pathWinding = "path_winding.frag"
    /// A colour times a path's coverage under its fill rule.
    case fillPath = "fill_path.frag"
}
