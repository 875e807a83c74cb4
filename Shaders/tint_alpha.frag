#version 300 es
#include "blend_support.glsl"
// Alpha tint: a premultiplied colour (opacity folded in) times the alpha of a
// texture, e.g. a blurred layer silhouette drawn in the shadow colour.
precision highp float;

#include "coverage.glsl"
#include "texel_easing.glsl"

uniform sampler2D u_texture;
uniform vec4 u_uvFromLocal; // xy: scale, zw: offset
uniform vec2 u_easedTexels; // see texel_easing.glsl
uniform vec4 u_color;

in vec2 v_local;
out vec4 o_color;

void main() {
    float alpha = texture(u_texture, laminaEasedUV(v_local * u_uvFromLocal.xy + u_uvFromLocal.zw, u_easedTexels)).a;
    o_color = u_color * (alpha * laminaCoverage(v_local));
}
