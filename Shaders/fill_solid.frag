#version 300 es
#include "blend_support.glsl"
// Solid fill: a premultiplied colour (opacity already folded in) times the
// coverage of the optional rounded rect, inside the clip half-planes.
precision highp float;

#include "coverage.glsl"

uniform vec4 u_color;

in vec2 v_local;
out vec4 o_color;

void main() {
    o_color = u_color * laminaCoverage(v_local);
}
