// Lets a fill be drawn with OpenGL ES 3.2's advanced blend equations
// (multiply, screen, ..., exclusion: a layer's `compositingFilter`), in the
// program variant LaminaGL compiles for them (`LAMINA_ADVANCED_BLEND`
// defined): the qualifier is required for those equations, and costs
// ordinary draws (a driver may read the target in the shader, per sample),
// so they use programs without it. Included right after `#version`:
// `#extension` must precede all code.
#if defined(LAMINA_ADVANCED_BLEND) && defined(GL_KHR_blend_equation_advanced)
#extension GL_KHR_blend_equation_advanced : enable
layout(blend_support_all_equations) out;
#endif
