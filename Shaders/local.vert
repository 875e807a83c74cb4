#version 300 es
// Vertex shader of every polygon and mesh draw.
//
// Vertices come in the draw's local 2D space. u_clipFromLocal is the caller's
// local-to-pixel matrix (Core Animation's row-vector convention, uploaded as
// is, which makes it the column-major transpose GLSL expects) already
// multiplied on the CPU by the pixel-to-clip step
//     clip = (2X/width - W, 2Y/height - W, 0, W).
// Staying homogeneous keeps W in gl_Position, so that v_local is interpolated
// perspective-correctly. Pixel row 0 (the top) lands on framebuffer row 0, so
// every texture in LaminaGL stores its top row first.

layout(location = 0) in vec2 a_local;

uniform mat4 u_clipFromLocal;

out vec2 v_local;

void main() {
    v_local = a_local;
    gl_Position = u_clipFromLocal * vec4(a_local, 0.0, 1.0);
}
