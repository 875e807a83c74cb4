#version 300 es
// Vertex shader of a path fill's winding pass (GLPainter.fillPath): one quad
// per edge of the path, from the edge's left to its contour's right, in the
// picture's pixels, each vertex carrying the whole edge for the fragment.
//
// The quads land on a float buffer standing for u_region of the picture
// (x, y, width, height in pixels): picture pixel (x, y) on the buffer's
// texel (x - region.x, y - region.y), row 0 first, as every LaminaGL target.

layout(location = 0) in vec2 a_pixel;
layout(location = 1) in vec4 a_edge;

uniform vec4 u_region;

flat out vec4 v_edge;

void main() {
    v_edge = a_edge;
    gl_Position = vec4(2.0 * (a_pixel - u_region.xy) / u_region.zw - 1.0, 0.0, 1.0);
}
