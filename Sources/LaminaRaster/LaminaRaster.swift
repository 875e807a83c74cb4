// LaminaRaster: pixels, in pure Swift, split by pipeline stage. Package-
// internal: CGContext's replayer (LaminaCore/Drawing/Replay), the CPU backend
// (LaminaCPU) and text (LaminaText) draw with it; nothing here is public API.
//
//   Pixmap/   RGBA8 premultiplied sRGB pictures, their colour
//             (`PremultipliedColor`), rectangles and alpha operations
//   Raster/   outlines (line segments, pixel coordinates) → coverage masks:
//             exact-area anti-aliasing, nonZero and evenOdd, clipped to the
//             target; cuts keep the pixels whose centres they own
//   Paint/    coverage → pixels: the one source-over blend, solid fills, and
//             polygons drawn through a `CATransform3D` with perspective-correct
//             textures (nearest, bilinear, trilinear), rounded-rect coverage
//             and cuts (`PolygonPaint`)
//
// Every entry point validates its input and throws `RasterError`.
