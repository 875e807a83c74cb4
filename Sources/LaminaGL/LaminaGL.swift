// LaminaGL: the GPU backend, headless through EGL and OpenGL ES 3.
import LaminaRender
