#version 300 es
#include "blend_support.glsl"
// Mask: texture A (premultiplied) times the alpha of texture B (or one minus
// it, u_maskInverted), each addressed through its own local-to-uv mapping,
// times opacity and coverage (a layer's content under its mask layer).
precision highp float;

#include "coverage.glsl"
#include "texel_easing.glsl"

uniform sampler2D u_texture;
uniform vec4 u_uvFromLocal; // xy: scale, zw: offset
uniform vec2 u_easedTexels; // see texel_easing.glsl
uniform sampler2D u_mask;
uniform vec4 u_maskUVFromLocal;
uniform vec2 u_maskEasedTexels;
uniform float u_opacity;
uniform bool u_maskInverted;

in vec2 v_local;
out vec4 o_color;

void main() {
    vec4 content = texture(u_texture, laminaEasedUV(v_local * u_uvFromLocal.xy + u_uvFromLocal.zw, u_easedTexels));
    float maskAlpha = texture(u_mask, laminaEasedUV(v_local * u_maskUVFromLocal.xy + u_maskUVFromLocal.zw,
                                                    u_maskEasedTexels)).a;
    if (u_maskInverted) maskAlpha = 1.0 - maskAlpha;
    o_color = content * (maskAlpha * u_opacity * laminaCoverage(v_local));
}
