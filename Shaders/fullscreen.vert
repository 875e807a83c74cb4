#version 300 es
// One triangle covering the whole viewport, for passes that map a texture
// onto a whole target (blur). v_uv runs 0..1 across the target with v = 0 at
// framebuffer row 0, the same orientation as every LaminaGL texture.

out vec2 v_uv;

void main() {
    vec2 corner = vec2(float((gl_VertexID & 1) << 2), float((gl_VertexID & 2) << 1)) - 1.0;
    v_uv = corner * 0.5 + 0.5;
    gl_Position = vec4(corner, 0.0, 1.0);
}
