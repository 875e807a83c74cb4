#version 300 es
// Copies a picture's texels one for one into a multisample tile standing for
// part of it (`GLPainter.drawMultisampled`): every sample of a pixel gets the
// pixel's value, so resolving the tile gives the picture back exactly.
precision highp float;

uniform sampler2D u_source;
uniform vec2 u_origin; // the tile's first pixel in the picture

out vec4 o_color;

void main() {
    o_color = texelFetch(u_source, ivec2(gl_FragCoord.xy + u_origin), 0);
}
