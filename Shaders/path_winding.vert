#version 300 es
// Vertex shader of path fills' winding pass (GLPainter.fillPaths): one quad
// per edge of each path, from the edge's left to its contour's right, each
// vertex carrying the whole edge for the fragment; all in the pixels of the
// float buffer the pass sums into (each path in its own part of it), whose
// u_size pixels the viewport covers, row 0 first as every LaminaGL target.

layout(location = 0) in vec2 a_pixel;
layout(location = 1) in vec4 a_edge;

uniform vec2 u_size;

flat out vec4 v_edge;

void main() {
    v_edge = a_edge;
    gl_Position = vec4(2.0 * a_pixel / u_size - 1.0, 0.0, 1.0);
}
