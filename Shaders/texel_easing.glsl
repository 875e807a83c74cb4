// Eased texture reads, shared by every shader that samples a picture
// (included; LaminaGL's loader expands #include).
//
// A picture magnified with a linear filter is read between its four
// nearest texels with weights eased by smoothstep (3t² − 2t³), as Core
// Animation magnifies it (TextureFilter.smoothLinear, the CPU backend's
// TextureSampler): the uv is moved between the same two texel centres per
// axis so that the hardware's linear weights come out as smoothstep's.
// `texels` is the texture's size in texels where reads are eased, else zero.
//
// Computed whole and then chosen, with no early return and no division by
// zero where reads are not eased: llvmpipe sampled the plain uv differently
// through a branch that returned early (a masked card in perspective,
// LayerRendererTests).
vec2 laminaEasedUV(vec2 uv, vec2 texels) {
    vec2 size = max(texels, vec2(1.0));
    vec2 p = uv * size - 0.5;
    vec2 base = floor(p);
    vec2 t = p - base;
    vec2 eased = (base + t * t * (3.0 - 2.0 * t) + 0.5) / size;
    return texels.x > 0.0 ? eased : uv;
}
