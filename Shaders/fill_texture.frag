#version 300 es
#include "blend_support.glsl"
// Textured fill: a premultiplied texture, addressed through a local-to-uv
// mapping (uv = local * scale + offset), times a premultiplied tint (white
// for none; replicator instance colours), opacity and coverage.
precision highp float;

#include "coverage.glsl"

uniform sampler2D u_texture;
uniform vec4 u_uvFromLocal; // xy: scale, zw: offset
// The texture's size in texels when reads are eased (a magnified picture,
// TextureFilter.smoothLinear), else zero.
uniform vec2 u_easedTexels;
uniform vec4 u_tint;
uniform float u_opacity;

in vec2 v_local;
out vec4 o_color;

void main() {
    // Sample before any discard so implicit derivatives (mipmaps) are defined.
    vec2 uv = v_local * u_uvFromLocal.xy + u_uvFromLocal.zw;
    if (u_easedTexels.x > 0.0) {
        // Between the same two texel centres per axis, moved so that the
        // hardware's linear weights come out as smoothstep's: 3t² − 2t³.
        vec2 p = uv * u_easedTexels - 0.5;
        vec2 base = floor(p);
        vec2 t = p - base;
        uv = (base + t * t * (3.0 - 2.0 * t) + 0.5) / u_easedTexels;
    }
    vec4 texel = texture(u_texture, uv);
    o_color = texel * u_tint * (u_opacity * laminaCoverage(v_local));
}
