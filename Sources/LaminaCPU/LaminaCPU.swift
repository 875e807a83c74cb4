// LaminaCPU: the software backend. `CPURenderer` walks a render plan
// (`PlanWalker`) on `CPUPainter`, which draws with LaminaRaster's stages
// (pixmaps, coverage rasterization, polygon and path painting), and blurs
// shadows' masks as the plan's `BlurMethod` says (`MaskBlur`).
import LaminaRender
