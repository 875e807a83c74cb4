#version 300 es
// A path fill's colour pass: a premultiplied colour times the coverage its
// winding pass left (GLPainter.fillPaths), under the path's fill rule as the
// CPU backend applies it: nonzero takes min(|w|, 1), even-odd folds |w|
// into a triangle wave of period 2.
precision highp float;

#include "coverage.glsl"

uniform vec4 u_color;
uniform sampler2D u_winding;
uniform vec2 u_windingOrigin;  // the picture pixel of the winding buffer's texel (0, 0) for this path
uniform bool u_evenOdd;

in vec2 v_local;  // picture pixels: this pass draws in them
out vec4 o_color;

void main() {
    float shape = laminaCoverage(v_local);
    float w = abs(texelFetch(u_winding, ivec2(floor(v_local - u_windingOrigin)), 0).r);
    float folded = w - 2.0 * floor(0.5 * w);
    float coverage = u_evenOdd ? min(folded > 1.0 ? 2.0 - folded : folded, 1.0) : min(w, 1.0);
    o_color = u_color * (shape * coverage);
}
