#version 300 es
// A layer's colour filters, joined into one 4x5 matrix (`ColorMatrix`): each
// texel's straight colour through it, clamped, premultiplied again. The
// CPU's `SurfaceFilters.transformed` does the same in doubles.
precision highp float;

uniform sampler2D u_source;
uniform mat4 u_matrix;  // the matrix's first four columns, so that out = u_matrix * in + u_offset
uniform vec4 u_offset;  // its fifth column

in vec2 v_uv;
out vec4 o_color;

void main() {
    vec4 texel = texture(u_source, v_uv);  // the same size as the target, sampled at texel centres
    vec4 straight = texel.a > 0.0 ? vec4(texel.rgb / texel.a, texel.a) : vec4(0.0);
    vec4 result = clamp(u_matrix * straight + u_offset, 0.0, 1.0);
    o_color = vec4(result.rgb * result.a, result.a);
}
