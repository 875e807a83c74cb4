// Lets a fill be drawn with OpenGL ES 3.2's advanced blend equations
// (multiply, screen, ..., luminosity: a layer's `compositingFilter`). The
// qualifier is required for those equations and changes nothing otherwise.
// Included right after `#version`: `#extension` must precede all code.
#ifdef GL_KHR_blend_equation_advanced
#extension GL_KHR_blend_equation_advanced : enable
layout(blend_support_all_equations) out;
#endif
