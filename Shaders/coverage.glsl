// Per-fragment coverage shared by every polygon and mesh draw (included by
// the fragment shaders; LaminaGL's loader expands #include).
//
// Clip half-planes: a fragment is kept where a*x + b*y + c >= 0 for every
// plane, in local coordinates. The test is hard (no anti-aliasing) so that two
// pieces of a polygon split along one plane tile without a seam.
//
// Rounded rect: coverage of a rectangle with per-corner radii, or of a ring
// of width u_shapeBorder inside it, anti-aliased analytically. The signed
// distance is computed in local units and divided by the length of its
// screen-space gradient, giving a distance in pixels, so the edge stays one
// pixel wide under any scale, rotation or perspective.

uniform int u_clipPlaneCount;
uniform vec3 u_clipPlanes[4];

uniform bool u_shapeEnabled;
uniform vec4 u_shapeRect;    // minX, minY, maxX, maxY in local units
uniform vec4 u_shapeRadii;   // minX-minY, maxX-minY, maxX-maxY, minX-maxY (y down: top-left first)
uniform float u_shapeBorder; // ring width inside the rect; 0 fills the rect

// Signed distance from p to the rounded rect (negative inside) in local units,
// with its gradient in `gradient`. "Top" is the minimum y (y points down).
float roundedRectDistance(vec2 p, vec4 rect, vec4 radii, out vec2 gradient) {
    vec2 center = 0.5 * (rect.xy + rect.zw);
    vec2 halfSize = 0.5 * (rect.zw - rect.xy);
    vec2 q = p - center;
    // The radii arrive fitted to the rect (the render plan's CornerRadii).
    float radius = q.x < 0.0 ? (q.y < 0.0 ? radii.x : radii.w) : (q.y < 0.0 ? radii.y : radii.z);
    vec2 side = vec2(q.x < 0.0 ? -1.0 : 1.0, q.y < 0.0 ? -1.0 : 1.0);
    vec2 d = abs(q) - halfSize + radius;
    if (d.x > 0.0 && d.y > 0.0) {
        gradient = side * normalize(d);
    } else {
        gradient = d.x > d.y ? vec2(side.x, 0.0) : vec2(0.0, side.y);
    }
    return min(max(d.x, d.y), 0.0) + length(max(d, 0.0)) - radius;
}

// Fraction of the pixel inside the rounded rect, from the pixel distance.
float roundedRectCoverage(vec2 p, vec4 rect, vec4 radii, vec2 dpdx, vec2 dpdy) {
    vec2 gradient;
    float dist = roundedRectDistance(p, rect, radii, gradient);
    float localPerPixel = length(vec2(dot(gradient, dpdx), dot(gradient, dpdy)));
    return clamp(0.5 - dist / max(localPerPixel, 1e-6), 0.0, 1.0);
}

// Discards clipped fragments and returns the shape coverage of the rest.
float laminaCoverage(vec2 p) {
    // Derivatives first, while every fragment of the quad is still running.
    vec2 dpdx = dFdx(p);
    vec2 dpdy = dFdy(p);
    for (int i = 0; i < u_clipPlaneCount; i++) {
        if (dot(u_clipPlanes[i], vec3(p, 1.0)) < 0.0) {
            discard;
        }
    }
    if (!u_shapeEnabled) {
        return 1.0;
    }
    float outer = roundedRectCoverage(p, u_shapeRect, u_shapeRadii, dpdx, dpdy);
    if (u_shapeBorder <= 0.0) {
        return outer;
    }
    vec4 innerRect = u_shapeRect + vec4(u_shapeBorder, u_shapeBorder, -u_shapeBorder, -u_shapeBorder);
    if (innerRect.z <= innerRect.x || innerRect.w <= innerRect.y) {
        return outer;
    }
    vec4 innerRadii = max(u_shapeRadii - u_shapeBorder, 0.0);
    float inner = roundedRectCoverage(p, innerRect, innerRadii, dpdx, dpdy);
    return max(outer - inner, 0.0);
}
