// LaminaGL: the GPU backend, headless through EGL and OpenGL ES 3.
//
// The layers, bottom up:
//   EGL/        choosing and opening an EGL display (device, GBM, surfaceless),
//               shared between contexts by a process-wide registry
//   Context/    GLContext (one thread's OpenGL ES 3 context), GLInfo,
//               GLWorkerThread (a context pinned to a dedicated thread)
//   Shaders/    finding the top-level Shaders/ folder, #include expansion,
//               compiling and caching programs
//   Resources/  textures, render targets (with MSAA resolve, and a stencil
//               once a path is stencilled into them), their pool, samplers,
//               the float buffer path fills sum their edges in
//   Draw/       GLPainter: polygons and meshes through a 4x4 matrix with
//               rounded-rect coverage and clip half-planes, textures, tints,
//               masks, path fills (nonzero and even-odd) at each pixel's exact
//               coverage, or stencil-then-cover where floats cannot be
//               blended, and separable Gaussian blur
//
// The render-plan executor drives GLPainter; nothing here knows what a layer is.
import LaminaRender
