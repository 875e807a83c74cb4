// LaminaCPU: the software backend, in pure Swift, split by pipeline stage:
//
//   Pixmap/   RGBA8 premultiplied sRGB pictures and their rectangle operations
//   Raster/   outlines (line segments, pixel coordinates) → coverage masks:
//             exact-area anti-aliasing, nonZero and evenOdd, clipped to the target
//   Paint/    coverage → pixels: solid fills, and polygons drawn through a 4x4
//             matrix with perspective-correct textures, rounded rects, clip planes
//   Effects/  Gaussian blur, alpha tint and alpha masks (shadows, mask layers)
//
// Every public entry point validates its input and throws `CPURenderError`.
import LaminaRender
