#version 300 es
// One direction of a separable Gaussian blur. Each tap reads between two
// texels with linear filtering, so one tap weighs a pair of kernel entries
// (offsets and weights are computed on the CPU). Outside the source texture
// counts as transparent, which is what a shadow expects.
precision highp float;

const int MAX_TAPS = 128;

uniform sampler2D u_source;
uniform vec2 u_uvScale;        // target uv to source uv (1 unless resampling by an exact factor)
uniform vec2 u_texelStep;      // one source texel along the blur direction, in uv
uniform int u_tapCount;
uniform vec2 u_taps[MAX_TAPS]; // x: offset in texels, y: weight

in vec2 v_uv;
out vec4 o_color;

void main() {
    vec4 sum = vec4(0.0);
    for (int i = 0; i < u_tapCount; i++) {
        vec2 uv = v_uv * u_uvScale + u_texelStep * u_taps[i].x;
        bool inside = all(greaterThanEqual(uv, vec2(0.0))) && all(lessThanEqual(uv, vec2(1.0)));
        if (inside) {
            sum += textureLod(u_source, uv, 0.0) * u_taps[i].y;
        }
    }
    o_color = sum;
}
