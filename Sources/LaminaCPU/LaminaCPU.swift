// LaminaCPU: the software backend: an anti-aliased coverage rasterizer, the
// CGContext behind draw(in:), and a compositor for the render plan.
import LaminaRender
