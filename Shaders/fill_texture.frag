#version 300 es
#include "blend_support.glsl"
// Textured fill: a premultiplied texture, addressed through a local-to-uv
// mapping (uv = local * scale + offset), times a premultiplied tint (white
// for none; replicator instance colours), opacity and coverage.
precision highp float;

#include "coverage.glsl"
#include "texel_easing.glsl"

uniform sampler2D u_texture;
uniform vec4 u_uvFromLocal; // xy: scale, zw: offset
uniform vec2 u_easedTexels; // see texel_easing.glsl
uniform vec4 u_tint;
uniform float u_opacity;

in vec2 v_local;
out vec4 o_color;

void main() {
    // Sample before any discard so implicit derivatives (mipmaps) are defined.
    vec2 uv = laminaEasedUV(v_local * u_uvFromLocal.xy + u_uvFromLocal.zw, u_easedTexels);
    vec4 texel = texture(u_texture, uv);
    o_color = texel * u_tint * (u_opacity * laminaCoverage(v_local));
}
