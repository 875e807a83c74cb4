#version 300 es
// A path fill's winding pass: what one edge adds to one pixel's
// area-weighted winding number, summed over every edge by additive blending
// into a float buffer (GLPainter.fillPaths).
//
// As the CPU backend's rasterizer (CoverageAccumulator) counts it: the edge
// adds its direction times the part of the pixel that lies right of it
// within the rows it spans. Summed over a closed path, a pixel the path
// covers whole gets its winding number, and a pixel an edge crosses the
// exact fraction it covers (where no two edges share it).
precision highp float;

flat in vec4 v_edge;  // from (x0, y0) to (x1, y1), in the buffer's pixels

out vec4 o_winding;

// The integral from 0 to u of clamp(1 - s, 0, 1) ds: the area right of a
// vertical line at u across a pixel one unit wide, summed along the edge.
float rightOf(float u) {
    return u <= 0.0 ? u : (u >= 1.0 ? 0.5 : u - 0.5 * u * u);
}

void main() {
    vec2 cell = floor(gl_FragCoord.xy);  // the pixel's top-left corner
    vec2 a = v_edge.xy;
    vec2 b = v_edge.zw;
    // The part of the edge within the pixel's row.
    float top = max(min(a.y, b.y), cell.y);
    float bottom = min(max(a.y, b.y), cell.y + 1.0);
    float height = bottom - top;
    if (height <= 0.0) {
        discard;
    }
    float perY = (b.x - a.x) / (b.y - a.y);
    float u0 = a.x + (top - a.y) * perY - cell.x;
    float u1 = a.x + (bottom - a.y) * perY - cell.x;
    // The mean over the part of the fraction of the pixel right of it.
    float right = abs(u1 - u0) < 1e-6 ? clamp(1.0 - 0.5 * (u0 + u1), 0.0, 1.0)
                                       : (rightOf(u1) - rightOf(u0)) / (u1 - u0);
    o_winding = vec4((b.y > a.y ? height : -height) * right, 0.0, 0.0, 0.0);
}
