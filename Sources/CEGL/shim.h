// EGL, OpenGL ES 3 and GBM headers, as Debian's libegl-dev, libgles-dev and
// libgbm-dev install them. Function pointers of extensions are loaded at run
// time through eglGetProcAddress, so nothing here needs a particular driver.
#ifndef LAMINA_CEGL_SHIM_H
#define LAMINA_CEGL_SHIM_H
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>
#include <GLES2/gl2ext.h>
#include <gbm.h>
#endif
